import type { IDataObject } from 'n8n-workflow';

/** The server's rules where the spec is silent (FACTS.md "Server request rules"); each returns a sentence for the error, or undefined. */

export const MAX_WAIT_FOR_MS = 60_000;
export const MAX_ACTIONS = 50;
export const MAX_ACTIONS_WAIT_MS = 60_000;
export const SELECTOR_WAIT_MS = 1_000;

export function waitForProblem(waitFor: number, timeout: number | undefined): string | undefined {
	if (waitFor > MAX_WAIT_FOR_MS) return `at most ${MAX_WAIT_FOR_MS} ms (60 seconds)`;
	if (timeout !== undefined && waitFor > 0 && waitFor > timeout / 2) {
		return `at most half of the timeout (${timeout} ms → ${Math.floor(timeout / 2)} ms); raise Timeout or wait less`;
	}
	return undefined;
}

/** As the server counts them. */
export function actionsWaitMs(actions: IDataObject[]): number {
	let total = 0;
	for (const action of actions) {
		if (action.type !== 'wait') continue;
		if (typeof action.milliseconds === 'number' && action.milliseconds) total += action.milliseconds;
		else if (action.selector) total += SELECTOR_WAIT_MS;
	}
	return total;
}

export function actionsProblem(actions: IDataObject[]): string | undefined {
	if (actions.length > MAX_ACTIONS) return `at most ${MAX_ACTIONS} actions (it has ${actions.length})`;
	const wait = actionsWaitMs(actions);
	if (wait > MAX_ACTIONS_WAIT_MS) {
		return `the wait actions add up to ${wait} ms; together they may wait at most ${MAX_ACTIONS_WAIT_MS} ms (60 seconds; a wait on a selector counts 1000 ms)`;
	}
	return undefined;
}

/** Older servers cap the two together; newer ones pass too. */
export function totalWaitProblem(waitFor: number, actions: IDataObject[]): string | undefined {
	const total = waitFor + actionsWaitMs(actions);
	if (actions.length === 0 || total <= MAX_ACTIONS_WAIT_MS) return undefined;
	return `Wait For and the wait actions add up to ${total} ms; together they may wait at most ${MAX_ACTIONS_WAIT_MS} ms (60 seconds; a wait on a selector counts 1000 ms)`;
}

/** E.g. "properties → tags": a free-form dictionary structured output cannot use. */
export function structuredSchemaProblem(schema: unknown): string | undefined {
	const seen = new Set<object>();
	const walk = (node: unknown, path: string[]): string | undefined => {
		if (node === null || typeof node !== 'object' || seen.has(node)) return undefined;
		seen.add(node);
		const o = node as IDataObject;
		if (!Array.isArray(node) && Object.prototype.hasOwnProperty.call(o, '$ref')) return undefined;
		if (
			!Array.isArray(node) &&
			o.type === 'object' &&
			!Object.prototype.hasOwnProperty.call(o, 'properties') &&
			!Object.prototype.hasOwnProperty.call(o, 'patternProperties') &&
			o.additionalProperties === true
		) {
			const where = path.length ? path.join(' → ') : 'the schema itself';
			return `${where} is an object with "additionalProperties": true and no "properties" (a free-form dictionary), which structured output cannot use; list the fields under "properties"`;
		}
		for (const [key, value] of Object.entries(o)) {
			const found = walk(value, [...path, key]);
			if (found) return found;
		}
		return undefined;
	};
	return walk(schema, []);
}

export const SEARCH_FORMATS = ['markdown', 'html', 'rawHtml', 'links', 'images', 'summary', 'json', 'screenshot'];

export const PROXIES = ['auto', 'basic', 'enhanced', 'stealth'];
export const MONITOR_TARGET_PROXIES = ['basic', 'enhanced', 'auto'];
export const PARSE_PROXIES = ['basic', 'auto'];

const ISO_COUNTRIES = new Set(
	(
		'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
		'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
		'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP ' +
		'KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT ' +
		'MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
		'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG ' +
		'UM US UY UZ VA VC VE VG VI VN VU WF WS XK YE YT ZA ZM ZW'
	).split(' '),
);

export function isCountryCode(code: string): boolean {
	return ISO_COUNTRIES.has(code.toUpperCase());
}

export const COUNTRY_RULE = 'a two-letter ISO 3166-1 country code such as US, DE or JP';

const SEARCH_DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;

export function isSearchDomain(domain: string): boolean {
	return SEARCH_DOMAIN.test(domain.trim().toLowerCase());
}

/** Seconds; the package's own bound (FACTS.md "Server request rules"). */
export const MAX_CRAWL_DELAY_S = 60;

export function crawlDelayProblem(delay: unknown): string | undefined {
	if (typeof delay !== 'number' || !Number.isFinite(delay) || delay <= 0 || delay > MAX_CRAWL_DELAY_S) {
		return `a number of seconds above 0 and at most ${MAX_CRAWL_DELAY_S} (leave the option out for no pause)`;
	}
	return undefined;
}

export const MAX_PATH_PATTERNS = 1000;
export const MAX_PATH_PATTERN_LENGTH = 2000;
export const MAX_TOTAL_PATH_PATTERNS = 1000;
export const MAX_TOTAL_PATH_PATTERN_CHARS = 100_000;

/** The server's engine has them, RegExp has not. */
const INLINE_FLAGS = /^\(\?([imsUux]+)\)/;

/** RE2-style on the server (no look-around, no backreferences); the rest is checked by compiling here. */
export function pathPatternProblem(pattern: string): string | undefined {
	let inClass = false;
	for (let k = 0; k < pattern.length; k++) {
		const c = pattern[k];
		if (c === '\\') {
			const next = pattern[k + 1] ?? '';
			if (!inClass && (/[1-9]/.test(next) || (next === 'k' && pattern[k + 2] === '<'))) {
				return 'backreferences (\\1, \\k<name>) are not supported by the service\'s regular expressions';
			}
			k++;
			continue;
		}
		if (inClass) {
			if (c === ']') inClass = false;
			continue;
		}
		if (c === '[') inClass = true;
		else if (c === '(' && /^\(\?(=|!|<=|<!)/.test(pattern.slice(k, k + 4))) {
			return 'look-ahead and look-behind ((?=…), (?!…), (?<=…), (?<!…)) are not supported by the service\'s regular expressions; list the paths to keep in Include Paths instead';
		}
	}
	try {
		new RegExp(pattern.replace(INLINE_FLAGS, ''));
	} catch (error) {
		return `it is not a valid regular expression (${(error as Error).message})`;
	}
	return undefined;
}

export interface PathPatternIssue {
	/** Undefined: both together. */
	field?: 'includePaths' | 'excludePaths';
	value: unknown;
	rule: string;
}

/** In the server's order. */
export function pathPatternsIssue(include: string[], exclude: string[]): PathPatternIssue | undefined {
	for (const [field, list] of [
		['includePaths', include],
		['excludePaths', exclude],
	] as const) {
		if (list.length > MAX_PATH_PATTERNS) return { field, value: `${list.length} patterns`, rule: `at most ${MAX_PATH_PATTERNS} patterns` };
		const long = list.find((p) => p.length > MAX_PATH_PATTERN_LENGTH);
		if (long !== undefined) return { field, value: long, rule: `each pattern may have at most ${MAX_PATH_PATTERN_LENGTH} characters (it has ${long.length})` };
	}
	const count = include.length + exclude.length;
	if (count > MAX_TOTAL_PATH_PATTERNS) {
		return { value: `${count} patterns`, rule: `Include Paths and Exclude Paths together take at most ${MAX_TOTAL_PATH_PATTERNS} patterns` };
	}
	const chars = [...include, ...exclude].reduce((n, p) => n + p.length, 0);
	if (chars > MAX_TOTAL_PATH_PATTERN_CHARS) {
		return { value: `${chars} characters`, rule: `Include Paths and Exclude Paths together take at most ${MAX_TOTAL_PATH_PATTERN_CHARS} characters of patterns` };
	}
	for (const [field, list] of [
		['includePaths', include],
		['excludePaths', exclude],
	] as const) {
		for (const pattern of list) {
			const problem = pathPatternProblem(pattern);
			if (problem) return { field, value: pattern, rule: problem };
		}
	}
	return undefined;
}

/** The whole X-Firecrawl- prefix is kept for the service. */
export function isReservedWebhookHeader(name: string): boolean {
	return name.trim().toLowerCase().startsWith('x-firecrawl-');
}

/** 0 means "all" on some builds (FACTS.md "Job status pages"). */
export const STATUS_ONLY_LIMIT = 1;
export const READ_PAGE_LIMIT = 100;

/** RFC 9110 token. */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Every scrape `timeout` (scrape options, monitor targets, Parse); Search and Map take the same bounds. */
export const SCRAPE_TIMEOUT_MS = Object.freeze({ min: 1_000, max: 300_000 });

/** Why a Search or Map `timeout` is refused, or undefined when it is valid. */
export function requestTimeoutProblem(value: unknown): string | undefined {
	const ok = typeof value === 'number' && Number.isInteger(value) && value >= SCRAPE_TIMEOUT_MS.min && value <= SCRAPE_TIMEOUT_MS.max;
	return ok ? undefined : `a whole number of milliseconds from ${SCRAPE_TIMEOUT_MS.min} to ${SCRAPE_TIMEOUT_MS.max}`;
}

export const RESERVED_WEBHOOK_HEADER_RULE =
	'header names starting with X-Firecrawl- are set by the service itself (X-Firecrawl-Signature, X-Firecrawl-Event, …); use another name';

export function nonTextMetadataKey(metadata: IDataObject): string | undefined {
	return Object.keys(metadata).find((key) => typeof metadata[key] !== 'string');
}
