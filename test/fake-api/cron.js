'use strict';
// Five-field cron parsing, schedule-text normalisation and next-run computation for monitors.

const FIELDS = [
	{ name: 'minute', min: 0, max: 59 },
	{ name: 'hour', min: 0, max: 23 },
	{ name: 'day of month', min: 1, max: 31 },
	{ name: 'month', min: 1, max: 12, names: 'JAN FEB MAR APR MAY JUN JUL AUG SEP OCT NOV DEC' },
	{ name: 'day of week', min: 0, max: 7, names: 'SUN MON TUE WED THU FRI SAT' },
];
const MIN_INTERVAL_MINUTES = 5;

function parseField(text, f) {
	const values = new Set();
	const names = f.names ? f.names.split(' ') : [];
	const value = (s) => {
		const i = names.indexOf(s.toUpperCase());
		const n = i >= 0 ? i + (f.min === 1 ? 1 : 0) : /^\d+$/.test(s) ? Number(s) : NaN;
		if (!(n >= f.min && n <= f.max)) throw new Error(`invalid ${f.name} value '${s}'`);
		return n;
	};
	for (const item of text.split(',')) {
		const [range, stepText] = item.split('/');
		const step = stepText === undefined ? 1 : Number(stepText);
		if (!Number.isInteger(step) || step < 1) throw new Error(`invalid step in ${f.name}`);
		let lo;
		let hi;
		if (range === '*') [lo, hi] = [f.min, f.max];
		else if (range.includes('-')) [lo, hi] = range.split('-').map(value);
		else [lo, hi] = [value(range), stepText === undefined ? value(range) : f.max];
		if (lo > hi) throw new Error(`invalid range in ${f.name}`);
		for (let n = lo; n <= hi; n += step) values.add(f.name === 'day of week' && n === 7 ? 0 : n);
	}
	return { values, any: text === '*' };
}

/** Parses and checks a cron expression; throws Error with a readable message when invalid. */
function parseCron(expr) {
	const parts = expr.trim().split(/\s+/);
	if (parts.length !== 5) throw new Error('Invalid cron expression: expected 5 fields');
	const [minute, hour, dom, month, dow] = parts.map((p, i) => parseField(p, FIELDS[i]));
	const mins = [...minute.values].sort((a, b) => a - b);
	const everyHour = hour.values.size === 24;
	const gaps = mins.slice(1).map((m, i) => m - mins[i]);
	if (mins.length > 1 || everyHour) gaps.push(everyHour ? 60 - mins[mins.length - 1] + mins[0] : 60);
	if (Math.min(...gaps) < MIN_INTERVAL_MINUTES) throw new Error(`Schedule interval must be at least ${MIN_INTERVAL_MINUTES} minutes`);
	return { minute, hour, dom, month, dow };
}

function matchesDay(c, d) {
	const domOk = c.dom.values.has(d.getUTCDate());
	const dowOk = c.dow.values.has(d.getUTCDay());
	const day = c.dom.any || c.dow.any ? domOk && dowOk : domOk || dowOk;
	return day && c.month.values.has(d.getUTCMonth() + 1);
}

function tzOffsetMinutes(timeZone, ms) {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: 'numeric',
		day: 'numeric',
		hour: 'numeric',
		minute: 'numeric',
	}).formatToParts(new Date(ms));
	const get = (t) => Number(parts.find((p) => p.type === t).value);
	const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
	return Math.round((local - Math.floor(ms / 60000) * 60000) / 60000);
}

const isTimeZone = (tz) => {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: tz });
		return true;
	} catch {
		return false;
	}
};

/** Next run (ms) strictly after `from`, evaluating the cron in `timeZone` (offset taken at `from`). */
function nextRun(cron, timeZone, from = Date.now()) {
	const c = parseCron(cron);
	const offset = tzOffsetMinutes(timeZone, from) * 60000;
	let t = Math.floor((from + offset) / 60000) * 60000 + 60000; // local wall-clock as UTC
	const limit = t + 400 * 24 * 3600 * 1000;
	while (t < limit) {
		const d = new Date(t);
		if (!matchesDay(c, d)) t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
		else if (!c.hour.values.has(d.getUTCHours())) t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours() + 1);
		else if (!c.minute.values.has(d.getUTCMinutes())) t += 60000;
		else return t - offset;
	}
	return null;
}

/** Approximate runs in 30 days (for estimatedCreditsPerMonth). */
function runsPerMonth(cron) {
	const c = parseCron(cron);
	let days = 0;
	for (let i = 0; i < 30; i++) if (matchesDay(c, new Date(Date.UTC(2026, 0, 1 + i)))) days++;
	return days * c.hour.values.size * c.minute.values.size;
}

/** Converts the schedule `text` forms of the service to a cron; `jitter` (0..59) spreads vague times. */
function textToCron(text, jitter) {
	const t = text.trim().toLowerCase().replace(/\s+/g, ' ');
	let m;
	if ((m = /^every (\d+) minutes?(?: starting at :(\d{1,2}))?$/.exec(t))) {
		const n = Number(m[1]);
		if (n < MIN_INTERVAL_MINUTES || n > 59) throw new Error(`Schedule interval must be at least ${MIN_INTERVAL_MINUTES} minutes`);
		const start = m[2] !== undefined ? Number(m[2]) % n : jitter % n;
		return `${start}-59/${n} * * * *`;
	}
	if (t === 'hourly' || t === 'every hour') return `${jitter} * * * *`;
	if ((m = /^every (\d+) hours?$/.exec(t)) && Number(m[1]) >= 1 && Number(m[1]) <= 23) return `${jitter} */${Number(m[1])} * * *`;
	if (t === 'daily' || t === 'every day') return `${jitter} 0 * * *`;
	if ((m = /^daily at (\d{1,2})(?::(\d{2}))? ?(am|pm)?$/.exec(t))) {
		let h = Number(m[1]);
		const min = Number(m[2] ?? 0);
		if (m[3]) {
			if (h < 1 || h > 12) throw new Error(`Unsupported schedule text '${text}'`);
			h = (h % 12) + (m[3] === 'pm' ? 12 : 0);
		}
		if (h > 23 || min > 59) throw new Error(`Unsupported schedule text '${text}'`);
		return `${min} ${h} * * *`;
	}
	if (t === 'weekly' || t === 'every week') return `${jitter} 0 * * 1`;
	throw new Error(`Unsupported schedule text '${text}'`);
}

module.exports = { parseCron, nextRun, runsPerMonth, textToCron, isTimeZone };
