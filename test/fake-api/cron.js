'use strict';
// Five-field cron parsing, schedule-text normalisation and next-run computation for monitors.
// The rules follow the service's newest schedule code (facts only, no code copied):
//   [cron.ts]  firecrawl/firecrawl apps/api/src/services/monitoring/cron.ts, commit a05b9f288f4d
//   [types.ts] firecrawl/firecrawl apps/api/src/services/monitoring/types.ts, commit db1b1f50dd6d

const FIELDS = [
	{ name: 'minute', min: 0, max: 59 },
	{ name: 'hour', min: 0, max: 23 },
	{ name: 'day of month', min: 1, max: 31 },
	{ name: 'month', min: 1, max: 12 },
	{ name: 'day of week', min: 0, max: 7 },
];
const MIN_INTERVAL_MINUTES = 5; // [cron.ts] MIN_MONITOR_INTERVAL_MS
const SEARCH_DAYS = 366; // [cron.ts] SEARCH_LIMIT_MINUTES: a run must come within a year
const DAY_MS = 24 * 3600 * 1000;

// Numbers only: MON-FRI or JAN are refused; "N/S" is the single value N ([cron.ts] parseField).
function parseField(text, f) {
	const values = new Set();
	const num = (s) => (/^\d+$/.test(s) ? Number(s) : NaN);
	for (const item of text.split(',')) {
		const [range, stepText] = item.split('/');
		const step = stepText === undefined ? 1 : num(stepText);
		if (!Number.isInteger(step) || step < 1) throw new Error('Invalid cron step');
		let lo;
		let hi;
		if (range === '*') [lo, hi] = [f.min, f.max];
		else if (range.includes('-')) [lo, hi] = range.split('-').map(num);
		else lo = hi = num(range);
		if (!Number.isInteger(lo) || !Number.isInteger(hi) || lo < f.min || hi > f.max || lo > hi) throw new Error('Invalid cron field');
		for (let n = lo; n <= hi; n += step) values.add(f.name === 'day of week' && n === 7 ? 0 : n);
	}
	return { values, any: text === '*' };
}

/** Parses a cron expression (syntax and ranges); throws Error with the service's message when invalid. */
function parseCron(expr) {
	const parts = expr.trim().split(/\s+/);
	if (parts.length !== 5) throw new Error('Cron expression must contain five fields');
	const [minute, hour, dom, month, dow] = parts.map((p, i) => parseField(p, FIELDS[i]));
	return { minute, hour, dom, month, dow };
}

/**
 * parseCron plus the service's schedule rules: a run within a year and runs at least 5 minutes
 * apart ([cron.ts] getNextMonitorRunAt, validateMonitorCron). The service measures the gap between
 * the next two runs only, so it refuses a schedule with a shorter gap at some times of day; the
 * fake refuses any gap under 5 minutes, at every time of day.
 */
function validateCron(expr, now = Date.now()) {
	const c = parseCron(expr);
	const today = Math.floor(now / DAY_MS) * DAY_MS;
	let runDays = 0;
	let nextDayToo = false;
	let previous = -2;
	for (let k = 0; k <= SEARCH_DAYS; k++) {
		if (!matchesDay(c, new Date(today + k * DAY_MS))) continue;
		runDays++;
		if (previous === k - 1) nextDayToo = true;
		previous = k;
	}
	if (runDays === 0) throw new Error('Cron expression did not produce a run within one year');
	const times = [];
	for (const h of [...c.hour.values].sort((a, b) => a - b)) for (const m of [...c.minute.values].sort((a, b) => a - b)) times.push(h * 60 + m);
	const gaps = times.slice(1).map((t, i) => t - times[i]);
	if (nextDayToo) gaps.push(24 * 60 - times[times.length - 1] + times[0]);
	if (gaps.length && Math.min(...gaps) < MIN_INTERVAL_MINUTES) throw new Error('Monitor schedule must not run more often than every 5 minutes');
	return c;
}

// A day runs when day of month, month AND day of week all match ([cron.ts] dayMatches).
function matchesDay(c, d) {
	return c.dom.values.has(d.getUTCDate()) && c.dow.values.has(d.getUTCDay()) && c.month.values.has(d.getUTCMonth() + 1);
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

// A time zone the runtime's Intl knows ([cron.ts] validateTimeZone), at most 128 characters
// ([types.ts]), and a name rather than a UTC offset such as +05:30 (spec 4.2: IANA time zone).
const isTimeZone = (tz) => {
	if (tz.length < 1 || tz.length > 128 || /^(?:[+-]|\d|(?:utc|gmt)[+-])/i.test(tz)) return false;
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: tz }).format(0);
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

/**
 * Converts a schedule `text` to a cron with the service's grammar and messages ([cron.ts]
 * parseMonitorScheduleText): lower case, "." and "," dropped. `jitter` (0..59) spreads the minute
 * of vague times (api-facts 2); the service's newest code uses minute 0 instead.
 */
function textToCron(text, jitter) {
	const t = text.trim().toLowerCase().replace(/[.,]/g, '').replace(/\s+/g, ' ');
	const startMinute = (s) => {
		if (s === undefined) return undefined;
		if (Number(s) > 59) throw new Error('Schedule start minute must be between 0 and 59');
		return Number(s);
	};
	let m;
	if ((m = /^every (\d+) (?:minutes?|mins?)(?: (?:starting|start)(?: at| on)? :?(\d{1,2}))?$/.exec(t))) {
		const n = Number(m[1]);
		if (n < 1 || n > 60) throw new Error('Minute interval must be between 1 and 60');
		if (60 % n !== 0) throw new Error('Minute interval must divide evenly into 60');
		const start = startMinute(m[2]) ?? jitter % n;
		return `${start}-59/${n} * * * *`;
	}
	if ((m = /^(?:hourly|every hour)(?: (?:at|starting at) :?(\d{1,2}))?$/.exec(t))) return `${startMinute(m[1]) ?? jitter} * * * *`;
	if ((m = /^every (\d+) (?:hours?|hrs?)$/.exec(t))) {
		const n = Number(m[1]);
		if (n < 1 || n > 24) throw new Error('Hour interval must be between 1 and 24');
		if (24 % n !== 0) throw new Error('Hour interval must divide evenly into 24');
		return `${jitter} */${n} * * *`;
	}
	if ((m = /^(?:daily|every day)(?: at (\d{1,2})(?::(\d{2}))?\s*(am|pm)?)?$/.exec(t))) {
		if (m[1] === undefined) return `${jitter} 0 * * *`;
		let h = Number(m[1]);
		const min = Number(m[2] ?? 0);
		if (m[3]) {
			if (h < 1 || h > 12) throw new Error('Daily schedule hour with am/pm must be between 1 and 12');
			h = (h % 12) + (m[3] === 'pm' ? 12 : 0);
		}
		if (h > 23) throw new Error('Daily schedule hour must be between 0 and 23');
		if (min > 59) throw new Error('Daily schedule minute must be between 0 and 59');
		return `${min} ${h} * * *`;
	}
	if (t === 'weekly' || t === 'every week') return `${jitter} 0 * * 0`;
	throw new Error("Unsupported schedule text. Try phrases like 'every 30 minutes', 'hourly', or 'daily at 9:00'");
}

module.exports = { parseCron, validateCron, nextRun, runsPerMonth, textToCron, isTimeZone };
