import type { IDataObject, INode } from 'n8n-workflow';

import { invalid } from '../../WebData/helpers/validation';

export const MAX_CRON_LENGTH = 128;
export const MAX_SCHEDULE_TEXT_LENGTH = 128;
export const MIN_INTERVAL_MINUTES = 5;
/** Monitor Create and the Web Data Trigger start with it. */
export const DEFAULT_SCHEDULE_TEXT = 'every 30 minutes';
export const DEFAULT_CRON = '*/30 * * * *';

/** Exactly one of `cron` or `text`. */
export interface ScheduleInput {
	cron?: unknown;
	text?: unknown;
	timezone?: unknown;
}

/** The Create and Update screens label the fields differently. */
export interface ScheduleLabels {
	cron: string;
	text: string;
	timezone: string;
}

export const SCHEDULE_LABELS: ScheduleLabels = {
	cron: 'Cron Expression',
	text: 'Schedule',
	timezone: 'Time Zone',
};

// The service's schedule rules and their sources: FACTS.md "Monitor schedules".

export const MAX_TIMEZONE_LENGTH = 128;

interface CronField {
	name: string;
	min: number;
	max: number;
	/** Names of other cron dialects; the service reads numbers only. */
	names?: string[];
	numbers: string;
}

const CRON_FIELDS: CronField[] = [
	{ name: 'minute', min: 0, max: 59, numbers: '0-59' },
	{ name: 'hour', min: 0, max: 23, numbers: '0-23' },
	{ name: 'day of month', min: 1, max: 31, numbers: '1-31' },
	{
		name: 'month',
		min: 1,
		max: 12,
		names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'],
		numbers: '1-12, 1 = January',
	},
	{
		name: 'day of week',
		min: 0,
		max: 7,
		names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'],
		numbers: '0-7, 0 and 7 = Sunday, 1 = Monday',
	},
];

/** Names (MON, JAN) written as numbers, or undefined. */
function withNumbers(text: string, field: CronField): string | undefined {
	if (!field.names) return undefined;
	let unknown = false;
	const out = text.replace(/[a-z]+/gi, (word) => {
		const at = field.names!.indexOf(word.toUpperCase());
		if (at < 0) unknown = true;
		return String(at + field.min);
	});
	return unknown ? undefined : out;
}

function cronFieldValues(text: string, field: CronField): Set<number> | string {
	const values = new Set<number>();
	for (const item of text.split(',')) {
		const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(item);
		if (!match) {
			if (/[a-z]/i.test(item)) {
				const numeric = withNumbers(text, field);
				return `the ${field.name} field "${text}" uses names or letters; the service reads numbers only (${field.numbers})${numeric ? `: write "${numeric}"` : ''}`;
			}
			const step = /\/(.*)$/.exec(item)?.[1];
			if (step !== undefined && !/^\d+$/.test(step)) return `the step "${step}" in the ${field.name} field must be a whole number of 1 or more`;
			return `the ${field.name} field "${text}" is not valid: each comma-separated part is *, a number or a range such as 1-5, optionally with a step such as */15`;
		}
		const [, range, first, last, stepText] = match;
		const step = stepText === undefined ? 1 : Number(stepText);
		if (!(step >= 1)) return `the step "${stepText}" in the ${field.name} field must be a whole number of 1 or more`;
		// "N/S" is the single value N, unlike other cron dialects.
		if (first !== undefined && last === undefined && stepText !== undefined) {
			return `"${item}" in the ${field.name} field would mean only ${first} to the service (a step needs * or a range); write "${first}-${field.max}/${stepText}"`;
		}
		const low = range === '*' ? field.min : Number(first);
		const high = range === '*' ? field.max : last === undefined ? low : Number(last);
		for (const n of [low, high]) {
			if (!(n >= field.min && n <= field.max)) return `the ${field.name} field "${text}" must use values from ${field.min} to ${field.max}`;
		}
		if (low > high) return `the range "${range}" in the ${field.name} field runs backwards`;
		for (let n = low; n <= high; n += step) values.add(field.name === 'day of week' && n === 7 ? 0 : n);
	}
	return values;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const SEARCH_DAYS = 366;

/**
 * How many checks a valid cron expression runs per day, on average over the next year (days whose
 * day of month, month and day of week all match, times its minutes × hours); undefined if invalid.
 */
export function cronRunsPerDay(expression: string, now: Date = new Date()): number | undefined {
	if (cronProblem(expression, now) !== undefined) return undefined;
	const sets = expression.trim().split(/\s+/).map((part, n) => cronFieldValues(part, CRON_FIELDS[n]) as Set<number>);
	const [minutes, hours, daysOfMonth, months, daysOfWeek] = sets;
	const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
	let runDays = 0;
	for (let k = 0; k < SEARCH_DAYS; k++) {
		const day = new Date(today + k * DAY_MS);
		if (daysOfMonth.has(day.getUTCDate()) && months.has(day.getUTCMonth() + 1) && daysOfWeek.has(day.getUTCDay())) runDays++;
	}
	return (runDays / SEARCH_DAYS) * minutes.size * hours.size;
}

/** Why the service would refuse a five-field cron expression; `now` matters only for the run-within-a-year rule. */
export function cronProblem(expression: string, now: Date = new Date()): string | undefined {
	const parts = expression.trim().split(/\s+/);
	if (parts.length !== 5) {
		return `it has ${parts.length} field${parts.length === 1 ? '' : 's'}; a cron expression has 5 (minute hour day-of-month month day-of-week), e.g. "0 9 * * 1-5"`;
	}
	const sets: Array<Set<number>> = [];
	for (const [n, part] of parts.entries()) {
		const values = cronFieldValues(part, CRON_FIELDS[n]);
		if (typeof values === 'string') return values;
		sets.push(values);
	}
	const [minutes, hours, daysOfMonth, months, daysOfWeek] = sets;

	// Both day fields must match, and a run must come within a year.
	const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
	let runDays = 0;
	let nextDayToo = false;
	let previous = -2;
	for (let k = 0; k <= SEARCH_DAYS; k++) {
		const day = new Date(today + k * DAY_MS);
		if (daysOfMonth.has(day.getUTCDate()) && months.has(day.getUTCMonth() + 1) && daysOfWeek.has(day.getUTCDay())) {
			runDays++;
			if (previous === k - 1) nextDayToo = true;
			previous = k;
		}
	}
	if (runDays === 0) {
		return 'no day in the next year matches it (the service needs a run within a year, and a day must match the day of month, the month and the day of week together)';
	}

	// The service measures the next two runs, so any gap under 5 minutes is refused at some times.
	const times: number[] = [];
	for (const h of [...hours].sort((a, b) => a - b)) for (const m of [...minutes].sort((a, b) => a - b)) times.push(h * 60 + m);
	const gaps = times.slice(1).map((t, k) => t - times[k]);
	if (nextDayToo) gaps.push(24 * 60 - times[times.length - 1] + times[0]);
	if (gaps.length > 0 && Math.min(...gaps) < MIN_INTERVAL_MINUTES) {
		return `checks would run less than ${MIN_INTERVAL_MINUTES} minutes apart; the shortest interval is ${MIN_INTERVAL_MINUTES} minutes (e.g. "*/5 * * * *")`;
	}
	return undefined;
}

export const SCHEDULE_TEXT_PHRASES =
	'"every N minutes" (N divides 60: 5, 6, 10, 12, 15, 20, 30 or 60; may end with "starting at :07"), "hourly" or "hourly at :15", "every N hours" (N divides 24: 1, 2, 3, 4, 6, 8, 12 or 24), "daily", "daily at 9am", "daily at 5:30 PM", "daily at 17:30", "weekly" (Sundays at midnight)';

export const SCHEDULE_TEXT_HELP = `Only these phrases work: ${SCHEDULE_TEXT_PHRASES}. For anything else, such as weekdays only, use a cron expression.`;
export const CRON_HELP =
	'Five fields with numbers only: minute, hour, day of month, month (1-12), day of week (0-7, 0 and 7 = Sunday): "0 9 * * 1-5", not MON-FRI. A step needs * or a range ("5-59/15"). When both day fields are set, a day must match both. Checks must be at least 5 minutes apart.';
export const TIMEZONE_HELP = 'A name such as "Europe/Berlin" or "America/New_York", not an offset such as +02:00.';
export const SCHEDULE_TEXT_DESCRIPTION = `When to check, in words. ${SCHEDULE_TEXT_HELP}`;
export const TIMEZONE_DESCRIPTION = `The IANA time zone the schedule is read in. Empty (the default) means this workflow's time zone: the n8n instance's, unless the workflow's settings set one; it is read when the node runs. ${TIMEZONE_HELP}`;

export function timezoneOrWorkflowZone(value: unknown, workflowZone: () => string): unknown {
	return value === undefined || value === null || (typeof value === 'string' && value.trim() === '') ? workflowZone() : value;
}

const TEXT_HELP = `the service understands only: ${SCHEDULE_TEXT_PHRASES}. For anything else (e.g. weekdays only) use a cron expression such as "0 9 * * 1-5".`;

/** The cron a schedule text stands for, or why the service would refuse it. */
export function scheduleTextCron(input: string): { cron: string } | { problem: string } {
	const text = input.trim().toLowerCase().replace(/[.,]/g, '').replace(/\s+/g, ' ');
	const problem = (rule: string) => ({ problem: rule });
	let m: RegExpExecArray | null;

	// Not in the grammar, but its real problem is the interval.
	if (/^every (minute|min)$/.test(text)) return problem(`the shortest interval is ${MIN_INTERVAL_MINUTES} minutes (e.g. "every ${MIN_INTERVAL_MINUTES} minutes")`);

	if ((m = /^every (\d+) (?:minutes?|mins?)(?: (?:starting|start)(?: at| on)? :?(\d{1,2}))?$/.exec(text))) {
		const n = Number(m[1]);
		if (n < MIN_INTERVAL_MINUTES) return problem(`the shortest interval is ${MIN_INTERVAL_MINUTES} minutes (e.g. "every ${MIN_INTERVAL_MINUTES} minutes")`);
		if (n > 60) return problem(`the minute interval must be from ${MIN_INTERVAL_MINUTES} to 60; for longer intervals say "every N hours" (e.g. "every 2 hours")`);
		if (60 % n !== 0) return problem(`the minute interval must divide 60 evenly: 5, 6, 10, 12, 15, 20, 30 or 60 (e.g. "every 30 minutes"); for other patterns use a cron expression`);
		const start = m[2] === undefined ? 0 : Number(m[2]);
		if (start > 59) return problem(`the start minute must be from 0 to 59 (e.g. "every 15 minutes starting at :07")`);
		return { cron: start === 0 ? `*/${n} * * * *` : `${start}-59/${n} * * * *` };
	}
	if ((m = /^(?:hourly|every hour)(?: (?:at|starting at) :?(\d{1,2}))?$/.exec(text))) {
		const start = m[1] === undefined ? 0 : Number(m[1]);
		if (start > 59) return problem('the minute must be from 0 to 59 (e.g. "hourly at :15")');
		return { cron: `${start} * * * *` };
	}
	if ((m = /^every (\d+) (?:hours?|hrs?)$/.exec(text))) {
		const n = Number(m[1]);
		if (n < 1 || n > 24 || 24 % n !== 0) return problem('the hour interval must divide 24 evenly: 1, 2, 3, 4, 6, 8, 12 or 24 (e.g. "every 6 hours"); for other patterns use a cron expression');
		return { cron: `0 */${n} * * *` };
	}
	if ((m = /^(?:daily|every day)(?: at (\d{1,2})(?::(\d{2}))?\s*(am|pm)?)?$/.exec(text))) {
		let hour = m[1] === undefined ? 0 : Number(m[1]);
		const minute = m[2] === undefined ? 0 : Number(m[2]);
		if (m[3] !== undefined) {
			if (hour < 1 || hour > 12) return problem('with am or pm the hour must be from 1 to 12 (e.g. "daily at 9am")');
			hour = (hour % 12) + (m[3] === 'pm' ? 12 : 0);
		}
		if (hour > 23) return problem('the hour must be from 0 to 23 (e.g. "daily at 17:30")');
		if (minute > 59) return problem('the minute must be from 0 to 59 (e.g. "daily at 9:30")');
		return { cron: `${minute} ${hour} * * *` };
	}
	if (text === 'weekly' || text === 'every week') return { cron: '0 0 * * 0' };
	return problem(TEXT_HELP);
}

/** Offsets are refused (FACTS.md "Monitor schedules"). */
export function isTimeZone(value: string): boolean {
	return timeZoneProblem(value) === undefined;
}

function timeZoneProblem(value: string): string | undefined {
	if (value.trim() === '') return 'it is empty';
	if (value.length > MAX_TIMEZONE_LENGTH) return `it has ${value.length} characters; at most ${MAX_TIMEZONE_LENGTH} are allowed`;
	if (/^(?:[+-]|\d|(?:utc|gmt)[+-])/i.test(value)) {
		return 'a UTC offset is not a time zone name; use an IANA name such as "Asia/Kolkata" (for a fixed offset, "Etc/GMT-2" is UTC+2: the sign is reversed)';
	}
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: value }).format(0);
		return undefined;
	} catch {
		return 'it must be an IANA time zone such as "UTC", "Europe/Berlin" or "America/New_York"';
	}
}

function asText(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	return typeof value === 'string' ? value.trim() : String(value).trim();
}

/** Every rule checked before anything is sent. */
export function buildSchedule(
	node: INode,
	input: ScheduleInput,
	itemIndex?: number,
	labels: ScheduleLabels = SCHEDULE_LABELS,
): IDataObject {
	const cron = asText(input.cron) ?? '';
	const text = asText(input.text) ?? '';
	const hasCron = cron !== '';
	const hasText = text !== '';
	if (hasCron && hasText) {
		throw invalid(
			node,
			labels.cron,
			cron,
			`give exactly one of "${labels.cron}" or "${labels.text}", not both (the text form was "${text}")`,
			itemIndex,
		);
	}
	if (!hasCron && !hasText) {
		throw invalid(
			node,
			labels.text,
			text,
			`give exactly one of "${labels.text}" (e.g. "every 30 minutes", "daily at 9am") or "${labels.cron}" (e.g. "0 9 * * 1-5")`,
			itemIndex,
		);
	}
	const schedule: IDataObject = {};
	if (hasCron) {
		if (cron.length > MAX_CRON_LENGTH) {
			throw invalid(node, labels.cron, cron, `it has ${cron.length} characters; at most ${MAX_CRON_LENGTH} are allowed`, itemIndex);
		}
		const problem = cronProblem(cron);
		if (problem) throw invalid(node, labels.cron, cron, problem, itemIndex);
		schedule.cron = cron.replace(/\s+/g, ' ');
	} else {
		if (text.length > MAX_SCHEDULE_TEXT_LENGTH) {
			throw invalid(node, labels.text, text, `it has ${text.length} characters; at most ${MAX_SCHEDULE_TEXT_LENGTH} are allowed`, itemIndex);
		}
		// The cron of a phrase must pass the cron rules too ("every 2 minutes").
		const parsed = scheduleTextCron(text);
		if ('problem' in parsed) throw invalid(node, labels.text, text, parsed.problem, itemIndex);
		const problem = cronProblem(parsed.cron);
		if (problem) throw invalid(node, labels.text, text, `it means the cron expression "${parsed.cron}", and ${problem}`, itemIndex);
		schedule.text = text;
	}
	const timezone = asText(input.timezone);
	if (timezone !== undefined && timezone !== '') {
		const problem = timeZoneProblem(timezone);
		if (problem) throw invalid(node, labels.timezone, timezone, problem, itemIndex);
		schedule.timezone = timezone;
	}
	return schedule;
}
