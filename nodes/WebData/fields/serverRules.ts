import type { IDataObject } from 'n8n-workflow';

/**
 * Rules the real server applies to request bodies, where the spec is silent or the public OpenAPI
 * is older (issue 14). One place for every option block that uses them (Scrape, Search, Crawl,
 * Batch Scrape, Map, monitor crawl targets); each rule returns a sentence for the error message,
 * or undefined when the value passes, so each caller names its own field.
 *
 * Sources (open-source server firecrawl/firecrawl, read as facts, no code copied):
 *   [types]   apps/api/src/controllers/v2/types.ts @ 81015eb1f2c2d7533b3a2b8bfccc09b2a34406f1
 *   [country] apps/api/src/lib/validate-country.ts (the `countries` table locationSchema checks against)
 *   [regex]   apps/api/src/lib/crawl-regex.ts (newest stored version: per-field and request-wide caps,
 *             Rust `regex` engine; the older 2f6b46df version had no caps)
 *   [webhook] apps/api/src/services/webhook/schema.ts + headers.ts (createWebhookSchema)
 *   [aug25]   apps/api/src/controllers/v2/types.ts @ 61e38dc893a50bcaaaaac89c1117a7b51e9824fb (2025-08-25,
 *             what self-hosted servers of that time run): scrapeOptions' refine over waitFor + wait actions
 */

// ---- wait times and actions ([types] baseScrapeOptions.waitFor, waitForRefine, actionsSchema) ----

/** [types] `waitFor: z.int().nonnegative().max(60000)`. */
export const MAX_WAIT_FOR_MS = 60_000;
/** [types] `MAX_ACTIONS = 50`. */
export const MAX_ACTIONS = 50;
/** [types] `ACTIONS_MAX_WAIT_TIME = 60` seconds: the wait actions of one request together. */
export const MAX_ACTIONS_WAIT_MS = 60_000;
/** [types] calculateTotalWaitTime: a wait on a selector counts as one second. */
export const SELECTOR_WAIT_MS = 1_000;

/**
 * [types] waitFor at most 60 s, and — when a timeout is given — at most half of it
 * (`waitForRefine`: "waitFor must not exceed half of timeout"; no timeout, no half rule).
 */
export function waitForProblem(waitFor: number, timeout: number | undefined): string | undefined {
	if (waitFor > MAX_WAIT_FOR_MS) return `at most ${MAX_WAIT_FOR_MS} ms (60 seconds)`;
	if (timeout !== undefined && waitFor > 0 && waitFor > timeout / 2) {
		return `at most half of the timeout (${timeout} ms → ${Math.floor(timeout / 2)} ms); raise Timeout or wait less`;
	}
	return undefined;
}

/** [types] calculateTotalWaitTime over the actions: milliseconds of each wait, 1 s for a wait on a selector. */
export function actionsWaitMs(actions: IDataObject[]): number {
	let total = 0;
	for (const action of actions) {
		if (action.type !== 'wait') continue;
		if (typeof action.milliseconds === 'number' && action.milliseconds) total += action.milliseconds;
		else if (action.selector) total += SELECTOR_WAIT_MS;
	}
	return total;
}

/**
 * [types] actionsSchema: at most 50 actions, and their waits together at most 60 s. (The request
 * schemas check the actions' own total; `waitFor` has its own 60 s cap above.)
 */
export function actionsProblem(actions: IDataObject[]): string | undefined {
	if (actions.length > MAX_ACTIONS) return `at most ${MAX_ACTIONS} actions (it has ${actions.length})`;
	const wait = actionsWaitMs(actions);
	if (wait > MAX_ACTIONS_WAIT_MS) {
		return `the wait actions add up to ${wait} ms; together they may wait at most ${MAX_ACTIONS_WAIT_MS} ms (60 seconds; a wait on a selector counts 1000 ms)`;
	}
	return undefined;
}

/**
 * [aug25] scrapeOptions refine (calculateTotalWaitTime with waitFor, ACTIONS_MAX_WAIT_TIME): when the
 * request has actions, `waitFor` and the wait actions together may wait at most 60 s ("Total wait time
 * (waitFor + wait actions) cannot exceed 60 seconds"). Newer hosted schemas cap the two separately;
 * a body within this combined cap passes both.
 */
export function totalWaitProblem(waitFor: number, actions: IDataObject[]): string | undefined {
	const total = waitFor + actionsWaitMs(actions);
	if (actions.length === 0 || total <= MAX_ACTIONS_WAIT_MS) return undefined;
	return `Wait For and the wait actions add up to ${total} ms; together they may wait at most ${MAX_ACTIONS_WAIT_MS} ms (60 seconds; a wait on a selector counts 1000 ms)`;
}

// ---- JSON schemas for structured output ([types] validateSchemaForOpenAI on json / changeTracking formats) ----

/**
 * [types] validateSchemaForOpenAI: the model behind structured output cannot use a schema-less
 * dictionary — an object node with `"type": "object"`, `"additionalProperties": true` and neither
 * `properties` nor `patternProperties`, anywhere in the schema. Nodes holding a `$ref` are not
 * looked into (recursive schemas are fine). Returns where the bad node is ("the schema",
 * "properties → tags", …) or undefined.
 */
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

// ---- formats and proxies ----

/** [types] searchRequestSchema.scrapeOptions.formats: what Search can scrape its results into (no Change Tracking). */
export const SEARCH_FORMATS = ['markdown', 'html', 'rawHtml', 'links', 'images', 'summary', 'json', 'screenshot'];

/** [types] baseScrapeOptions.proxy: `basic`, `stealth`, `enhanced`, `auto` (OpenAPI lists all but `stealth`, the older name of enhanced). */
export const PROXIES = ['auto', 'basic', 'enhanced', 'stealth'];
/** A monitor's scrape target: `basic`, `enhanced`, `auto` (spec 2.13 shows `proxy` as a string; the package's monitor rules, without the older name). */
export const MONITOR_TARGET_PROXIES = ['basic', 'enhanced', 'auto'];
/** Parse: only `basic` and `auto`; others → 400 PARSE_UNSUPPORTED_OPTIONS (spec 2.2, api-facts). */
export const PARSE_PROXIES = ['basic', 'auto'];

// ---- countries ([types] locationSchema; [country]) ----

/**
 * ISO 3166-1 alpha-2 codes (the 249 officially assigned ones) plus XK (Kosovo), which the server's
 * table also holds. [types] locationSchema accepts a code in any case (it upper-cases to look it
 * up), so lower case is fine.
 */
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

/** Whether `code` (any case) is a country code the server knows. */
export function isCountryCode(code: string): boolean {
	return ISO_COUNTRIES.has(code.toUpperCase());
}

export const COUNTRY_RULE = 'a two-letter ISO 3166-1 country code such as US, DE or JP';

// ---- search domains ([types] searchDomainSchema) ----

/** [types] searchDomainSchema, after trim + lower case: dot-separated labels, the last one at least 2 characters. */
const SEARCH_DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;

export function isSearchDomain(domain: string): boolean {
	return SEARCH_DOMAIN.test(domain.trim().toLowerCase());
}

// ---- crawl options ([types] crawlerOptions; [regex]) ----

/**
 * [types] crawlerOptions `delay: z.number().positive()` (seconds; 0 is refused). The upper bound of
 * 60 s is issue 14's reading of the newest server; no stored server version shows it, so it is the
 * package's own limit (a longer pause per page would make any crawl take hours).
 */
export const MAX_CRAWL_DELAY_S = 60;

export function crawlDelayProblem(delay: unknown): string | undefined {
	if (typeof delay !== 'number' || !Number.isFinite(delay) || delay <= 0 || delay > MAX_CRAWL_DELAY_S) {
		return `a number of seconds above 0 and at most ${MAX_CRAWL_DELAY_S} (leave the option out for no pause)`;
	}
	return undefined;
}

/** [regex] per field: at most 1000 patterns, each at most 2000 characters. */
export const MAX_PATH_PATTERNS = 1000;
export const MAX_PATH_PATTERN_LENGTH = 2000;
/** [regex] both fields together: at most 1000 patterns and 100,000 characters. */
export const MAX_TOTAL_PATH_PATTERNS = 1000;
export const MAX_TOTAL_PATH_PATTERN_CHARS = 100_000;

/** A leading inline-flag group such as (?i) — the server's engine has it, JavaScript's RegExp has not. */
const INLINE_FLAGS = /^\(\?([imsUux]+)\)/;

/**
 * [regex] the server compiles Include/Exclude Paths with Rust's `regex` crate (RE2 style): no
 * look-ahead or look-behind, no backreferences. Other syntax is checked by compiling the pattern
 * here (a leading (?i)-style flag group, which that engine supports, is set aside for that).
 */
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
	/** Which list: includePaths or excludePaths (undefined: both together). */
	field?: 'includePaths' | 'excludePaths';
	value: unknown;
	rule: string;
}

/** [regex] collectPathPatternIssues, in the same order: per-field caps, request-wide budget, then each pattern. */
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

// ---- webhooks ([webhook]) ----

/**
 * [webhook] headers.ts FIRECRAWL_MANAGED_WEBHOOK_HEADERS: the service sets X-Firecrawl-Signature,
 * -Webhook-Id, -Event, -Job-Id, -Scrape-Id and -Delivery-Mode itself and refuses them in
 * `webhook.headers`. The package keeps the whole X-Firecrawl- prefix for the service (the list has
 * grown from one name to six), so a header of that name never reaches it.
 */
export function isReservedWebhookHeader(name: string): boolean {
	return name.trim().toLowerCase().startsWith('x-firecrawl-');
}

/**
 * Job status pages (`GET /crawl/{id}`, `/batch/scrape/{id}`): a read that needs only the status asks
 * for one document at most (never 0, which some server builds read as "all"); a read of the
 * documents asks for pages of 100. Server behaviour by build: nodes/FACTS.md "Job status pages".
 */
export const STATUS_ONLY_LIMIT = 1;
export const READ_PAGE_LIMIT = 100;

/** An HTTP header name (RFC 9110 token): what a request header set by the user may be called. */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A page's load timeout, in ms: the bounds of every `timeout` of a scrape (scrape options, monitor targets, Parse). */
export const SCRAPE_TIMEOUT_MS = Object.freeze({ min: 1_000, max: 300_000 });

export const RESERVED_WEBHOOK_HEADER_RULE =
	'header names starting with X-Firecrawl- are set by the service itself (X-Firecrawl-Signature, X-Firecrawl-Event, …); use another name';

/** [webhook] `metadata: z.record(z.string(), z.string())`: the key of the first value that is not text, or undefined. */
export function nonTextMetadataKey(metadata: IDataObject): string | undefined {
	return Object.keys(metadata).find((key) => typeof metadata[key] !== 'string');
}
