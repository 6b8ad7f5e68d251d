/** Times as the service writes them: nodes/FACTS.md "Service times". */
const TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?(?::?(\d{2}))?)$/;

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Milliseconds since 1970 of a time the service wrote, ISO 8601 or Postgres text alike; undefined
 * when the value is not such a time (no zone, out of range, another form): callers decide what an
 * unknown time means.
 */
export function serviceTime(value: unknown): number | undefined {
	if (typeof value !== 'string') return undefined;
	const m = TIME.exec(value.trim());
	if (!m) return undefined;
	const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0));
	const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
	const days = month === 2 && !leap ? 28 : DAYS_IN_MONTH[month - 1];
	if (month < 1 || month > 12 || day < 1 || day > days || hour > 23 || minute > 59 || second > 59) return undefined;
	let offset = 0;
	if (!m[8]) {
		const [oh, om, os] = [10, 11, 12].map((i) => Number(m[i] ?? 0));
		if (oh > 18 || om > 59 || os > 59) return undefined;
		offset = (m[9] === '-' ? -1 : 1) * ((oh * 60 + om) * 60 + os) * 1000;
	}
	const ms = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
	const date = new Date(0);
	// Not Date.UTC: it reads years below 100 as 19xx.
	date.setUTCFullYear(year, month - 1, day);
	date.setUTCHours(hour, minute, second, ms);
	return date.getTime() - offset;
}

/** ISO 8601 in UTC ("2026-11-28T17:39:27.210Z"), or undefined when not a time. */
export function isoTime(value: unknown): string | undefined {
	const ms = serviceTime(value);
	return ms === undefined ? undefined : new Date(ms).toISOString();
}

/** "in about 23 minutes (2026-11-28 17:39 UTC)" for a person, or undefined when not a time. */
export function whenLabel(value: unknown, now: number = Date.now()): string | undefined {
	const ms = serviceTime(value);
	if (ms === undefined) return undefined;
	const at = `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
	const minutes = Math.round((ms - now) / 60_000);
	if (minutes < -1) return `${at}, which has passed: the service has not run it yet`;
	if (minutes <= 1) return `within a minute (${at})`;
	if (minutes < 90) return `in about ${minutes} minutes (${at})`;
	const hours = Math.round(minutes / 60);
	return hours < 36 ? `in about ${hours} hours (${at})` : `in about ${Math.round(hours / 24)} days (${at})`;
}

/** "2026-11-28 17:39:27 UTC" for a label, or undefined when not a time. */
export function utcLabel(value: unknown): string | undefined {
	const iso = isoTime(value);
	return iso === undefined ? undefined : `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}
