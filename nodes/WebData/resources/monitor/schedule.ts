import type { IDataObject, INode } from 'n8n-workflow';

import { invalid } from '../../helpers/validation';

/** Limits of a monitor schedule (spec 4.2; api-facts 2 MonitorCreate.schedule). */
export const MAX_CRON_LENGTH = 128;
export const MAX_SCHEDULE_TEXT_LENGTH = 128;
export const MIN_INTERVAL_MINUTES = 5;
export const DEFAULT_TIMEZONE = 'UTC';

/** What a person gives for a schedule: exactly one of `cron` or `text`, and an optional time zone. */
export interface ScheduleInput {
	cron?: unknown;
	text?: unknown;
	timezone?: unknown;
}

/** Field names used in messages; the Create and Update screens label them differently. */
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

interface CronField {
	name: string;
	min: number;
	max: number;
	names?: string[];
}

const CRON_FIELDS: CronField[] = [
	{ name: 'minute', min: 0, max: 59 },
	{ name: 'hour', min: 0, max: 23 },
	{ name: 'day of month', min: 1, max: 31 },
	{ name: 'month', min: 1, max: 12, names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] },
	{ name: 'day of week', min: 0, max: 7, names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] },
];

/** The values one cron field allows, or a reason it is not valid. */
function cronFieldValues(text: string, field: CronField): Set<number> | string {
	const values = new Set<number>();
	const value = (part: string): number => {
		const named = field.names?.indexOf(part.toUpperCase()) ?? -1;
		if (named >= 0) return named + (field.min === 1 ? 1 : 0);
		return /^\d+$/.test(part) ? Number(part) : NaN;
	};
	for (const item of text.split(',')) {
		const [range, stepText, extra] = item.split('/');
		if (extra !== undefined || range === '') return `the ${field.name} field "${text}" is not valid`;
		const step = stepText === undefined ? 1 : /^\d+$/.test(stepText) ? Number(stepText) : NaN;
		if (!(step >= 1)) return `the step "${stepText}" in the ${field.name} field must be a whole number of 1 or more`;
		let low: number;
		let high: number;
		if (range === '*') {
			low = field.min;
			high = field.max;
		} else if (range.includes('-')) {
			const bounds = range.split('-');
			if (bounds.length !== 2) return `the ${field.name} field "${text}" is not valid`;
			low = value(bounds[0]);
			high = value(bounds[1]);
		} else {
			low = value(range);
			high = stepText === undefined ? low : field.max;
		}
		for (const n of [low, high]) {
			if (!(n >= field.min && n <= field.max)) {
				return `the ${field.name} field "${text}" must use values from ${field.min} to ${field.max}${field.names ? ` (or names such as ${field.names[0]})` : ''}`;
			}
		}
		if (low > high) return `the range "${range}" in the ${field.name} field runs backwards`;
		for (let n = low; n <= high; n += step) values.add(field.name === 'day of week' && n === 7 ? 0 : n);
	}
	return values;
}

/**
 * Why a five-field cron expression would be refused (syntax, ranges, the 5-minute minimum
 * interval of api-facts 2), or undefined when it is fine.
 */
export function cronProblem(expression: string): string | undefined {
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
	const minutes = [...sets[0]].sort((a, b) => a - b);
	const everyHour = sets[1].size === 24;
	const gaps = minutes.slice(1).map((m, k) => m - minutes[k]);
	if (everyHour || minutes.length > 1) gaps.push(60 - minutes[minutes.length - 1] + minutes[0]);
	if (gaps.length > 0 && Math.min(...gaps) < MIN_INTERVAL_MINUTES) {
		return `checks would run less than ${MIN_INTERVAL_MINUTES} minutes apart; the shortest interval is ${MIN_INTERVAL_MINUTES} minutes (e.g. "*/5 * * * *")`;
	}
	return undefined;
}

/** Whether the runtime knows this IANA time zone (e.g. "Europe/Berlin"). */
export function isTimeZone(value: string): boolean {
	if (value.trim() === '') return false;
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: value });
		return true;
	} catch {
		return false;
	}
}

function asText(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	return typeof value === 'string' ? value.trim() : String(value).trim();
}

/**
 * The `schedule` object of a monitor body: exactly one of `cron` or `text` (each at most 128
 * characters), plus `timezone` (IANA) when given. Every rule is checked before anything is sent.
 */
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
		const minutes = /^every\s+(?:(\d+)\s+)?min(?:ute)?s?\b/i.exec(text);
		if (minutes && Number(minutes[1] ?? 1) < MIN_INTERVAL_MINUTES) {
			throw invalid(
				node,
				labels.text,
				text,
				`the shortest interval is ${MIN_INTERVAL_MINUTES} minutes (e.g. "every ${MIN_INTERVAL_MINUTES} minutes")`,
				itemIndex,
			);
		}
		schedule.text = text;
	}
	const timezone = asText(input.timezone);
	if (timezone !== undefined && timezone !== '') {
		if (!isTimeZone(timezone)) {
			throw invalid(node, labels.timezone, timezone, 'it must be an IANA time zone such as "UTC", "Europe/Berlin" or "America/New_York"', itemIndex);
		}
		schedule.timezone = timezone;
	}
	return schedule;
}
