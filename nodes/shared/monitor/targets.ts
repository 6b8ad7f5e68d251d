import type { IDataObject, INode } from 'n8n-workflow';

import { crawlDelayProblem, MONITOR_TARGET_PROXIES, pathPatternsIssue, SCRAPE_TIMEOUT_MS } from '../../WebData/fields/serverRules';
import { invalid, isHttpUrl, parseJsonText } from '../../WebData/helpers/validation';
import { isPlainObject } from '../../WebData/helpers/objects';

/** Limits of monitor targets (spec 2.9, 4.2, 8; api-facts 2 MonitorCreate.targets). */
export const MIN_TARGETS = 1;
export const MAX_TARGETS = 50;
export const MAX_QUERIES = 12;
export const MAX_QUERY_LENGTH = 256;
export const MAX_SEARCH_RESULTS = 50;
export const MAX_DOMAINS = 50;
export const SEARCH_WINDOWS = ['5m', '15m', '1h', '6h', '24h', '7d'];
export const TARGET_TYPES = ['scrape', 'crawl', 'search'];
export const MIN_SCRAPE_TIMEOUT_MS = SCRAPE_TIMEOUT_MS.min;
export const MAX_SCRAPE_TIMEOUT_MS = SCRAPE_TIMEOUT_MS.max;

/** Names a field of target number `n` in messages (friendly names on the form, JSON paths for raw JSON). */
export type TargetLabeler = (index: number, type: string, path: string) => string;

const FRIENDLY_NAMES: Record<string, string> = {
	urls: 'URLs',
	url: 'URL',
	queries: 'Queries',
	searchWindow: 'Search Options → Time Range',
	maxResults: 'Search Options → Limit',
	includeDomains: 'Search Options → Include Domains',
	excludeDomains: 'Search Options → Exclude Domains',
	'crawlOptions.limit': 'Page Limit',
	'crawlOptions.maxDiscoveryDepth': 'Crawl Options → Max Discovery Depth',
	'crawlOptions.includePaths': 'Crawl Options → Include Paths',
	'crawlOptions.excludePaths': 'Crawl Options → Exclude Paths',
	'crawlOptions.delay': 'Crawl Options → Delay (Seconds)',
	'scrapeOptions.timeout': 'Scrape Options → Timeout (Milliseconds)',
	'scrapeOptions.waitFor': 'Scrape Options → Wait For (Milliseconds)',
	'scrapeOptions.maxAge': 'Scrape Options → Max Age (Milliseconds)',
	'scrapeOptions.headers': 'Scrape Options → Headers',
	'scrapeOptions.proxy': 'Scrape Options → Proxy',
	'scrapeOptions.includeTags': 'Scrape Options → Include Tags',
	'scrapeOptions.excludeTags': 'Scrape Options → Exclude Tags',
	'scrapeOptions.location': 'Scrape Options → Location Country / Location Languages',
};

const GROUP_NAMES: Record<string, string> = { scrape: 'Scrape Pages', crawl: 'Crawl a Site', search: 'Search the Web' };

/** Labels for targets built with the form: "Targets → Search the Web 2 → Queries". */
export function formLabeler(field = 'Targets', numberInGroup: number[] = []): TargetLabeler {
	return (index, type, path) =>
		`${field} → ${GROUP_NAMES[type] ?? type} ${numberInGroup[index] ?? index + 1}${path ? ` → ${FRIENDLY_NAMES[path] ?? path}` : ''}`;
}

/** Labels for targets given as JSON: "Targets (JSON) [2].queries" (0-based, like the JSON). */
export function jsonLabeler(field = 'Targets (JSON)'): TargetLabeler {
	return (index, _type, path) => `${field} [${index}]${path ? `.${path}` : ''}`;
}

const HOSTNAME = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/i;

/** A list from a list, or from text split at commas, new lines or spaces. */
export function splitList(value: unknown, separators: RegExp = /[\s,]+/): string[] {
	if (value === undefined || value === null || value === '') return [];
	const parts = Array.isArray(value) ? value.map((v) => (v === null || v === undefined ? '' : String(v))) : String(value).split(separators);
	return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** Lines of a text (queries may contain commas and spaces), or the entries of a list. */
export function splitLines(value: unknown): string[] {
	return splitList(value, /\r?\n/);
}

export type Fail = (path: string, value: unknown, rule: string) => Error;

function wholeNumber(fail: Fail, path: string, value: unknown, min: number, max?: number): number {
	if (typeof value !== 'number' || !Number.isInteger(value) || value < min || (max !== undefined && value > max)) {
		throw fail(path, value, max === undefined ? `it must be a whole number of ${min} or more` : `it must be a whole number from ${min} to ${max}`);
	}
	return value;
}

function stringList(fail: Fail, path: string, value: unknown): string[] {
	if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw fail(path, value, 'it must be a list of texts');
	return value as string[];
}

/** The value when it is true or false; otherwise `fail`'s error. */
export function checkBoolean(fail: Fail, path: string, value: unknown): boolean {
	if (typeof value !== 'boolean') throw fail(path, value, 'it must be true or false');
	return value;
}

/** Checks the scrape options of a target (spec 2.9 `scrapeOptions`); unknown keys go to the service as they are. */
function checkScrapeOptions(fail: Fail, options: unknown): IDataObject {
	if (!isPlainObject(options)) throw fail('scrapeOptions', options, 'it must be an object of scrape options');
	for (const [key, value] of Object.entries(options)) {
		const path = `scrapeOptions.${key}`;
		switch (key) {
			case 'timeout':
				wholeNumber(fail, path, value, MIN_SCRAPE_TIMEOUT_MS, MAX_SCRAPE_TIMEOUT_MS);
				break;
			case 'waitFor':
			case 'maxAge':
			case 'minAge':
				wholeNumber(fail, path, value, 0);
				break;
			case 'includeTags':
			case 'excludeTags':
				stringList(fail, path, value);
				break;
			case 'headers':
				if (!isPlainObject(value) || Object.values(value).some((v) => typeof v !== 'string')) {
					throw fail(path, value, 'it must be an object of header names and text values');
				}
				break;
			case 'proxy':
				if (typeof value !== 'string' || !MONITOR_TARGET_PROXIES.includes(value)) {
					throw fail(path, value, `it must be one of ${MONITOR_TARGET_PROXIES.join(', ')}`);
				}
				break;
			case 'location':
				if (!isPlainObject(value)) throw fail(path, value, 'it must be an object with "country" and optional "languages"');
				if (value.country !== undefined && typeof value.country !== 'string') throw fail(`${path}.country`, value.country, 'it must be a country code such as "US"');
				if (value.languages !== undefined) stringList(fail, `${path}.languages`, value.languages);
				break;
			case 'onlyMainContent':
			case 'onlyCleanContent':
			case 'mobile':
			case 'blockAds':
			case 'removeBase64Images':
			case 'skipTlsVerification':
			case 'storeInCache':
			case 'lockdown':
			case 'checkPromptInjection':
				checkBoolean(fail, path, value);
				break;
			case 'formats':
				if (!Array.isArray(value) || value.some((f) => !(typeof f === 'string' || (isPlainObject(f) && typeof f.type === 'string')))) {
					throw fail(path, value, 'it must be a list of format names or {"type": …} objects');
				}
				break;
			default:
				break;
		}
	}
	return options;
}

function checkScrape(fail: Fail, target: IDataObject): void {
	if (target.urls === undefined && typeof target.url === 'string') return checkUrl(fail, 'url', target.url);
	if (!Array.isArray(target.urls) || target.urls.length === 0) {
		throw fail('urls', target.urls, 'a scrape target needs at least one URL');
	}
	for (const url of target.urls) checkUrl(fail, 'urls', url);
}

function checkUrl(fail: Fail, path: string, url: unknown): void {
	if (!isHttpUrl(url)) throw fail(path, url, 'each URL must be absolute and start with http:// or https://');
}

function checkCrawl(fail: Fail, target: IDataObject): void {
	checkUrl(fail, 'url', target.url);
	if (target.crawlOptions === undefined) return;
	const options = target.crawlOptions;
	if (!isPlainObject(options)) throw fail('crawlOptions', options, 'it must be an object such as {"limit": 10}');
	if (options.limit !== undefined) wholeNumber(fail, 'crawlOptions.limit', options.limit, 1);
	if (options.maxDiscoveryDepth !== undefined) wholeNumber(fail, 'crawlOptions.maxDiscoveryDepth', options.maxDiscoveryDepth, 0);
	const include = options.includePaths !== undefined ? stringList(fail, 'crawlOptions.includePaths', options.includePaths) : [];
	const exclude = options.excludePaths !== undefined ? stringList(fail, 'crawlOptions.excludePaths', options.excludePaths) : [];
	// A crawl target's crawlOptions are the crawl's: the same rules (nodes/FACTS.md "Server request rules").
	const issue = pathPatternsIssue(include, exclude);
	if (issue) throw fail(`crawlOptions.${issue.field ?? 'includePaths'}`, issue.value, issue.rule);
	if (options.delay !== undefined) {
		const problem = crawlDelayProblem(options.delay);
		if (problem) throw fail('crawlOptions.delay', options.delay, problem);
	}
}

function checkDomains(fail: Fail, path: string, value: unknown): void {
	const list = stringList(fail, path, value);
	if (list.length > MAX_DOMAINS) throw fail(path, `${list.length} domains`, `at most ${MAX_DOMAINS} domains are allowed`);
	const bad = list.find((d) => !HOSTNAME.test(d));
	if (bad !== undefined) throw fail(path, bad, 'give plain host names such as "example.com" (no http://, no path)');
}

function checkSearch(fail: Fail, target: IDataObject): void {
	const queries = target.queries;
	if (!Array.isArray(queries) || queries.length === 0) throw fail('queries', queries, 'a search target needs at least one query');
	if (queries.length > MAX_QUERIES) throw fail('queries', `${queries.length} queries`, `at most ${MAX_QUERIES} queries are allowed per search target`);
	for (const query of queries) {
		if (typeof query !== 'string' || query.trim() === '') throw fail('queries', query, 'each query must be a non-empty text');
		if (query.length > MAX_QUERY_LENGTH) {
			throw fail('queries', query, `it has ${query.length} characters; at most ${MAX_QUERY_LENGTH} are allowed per query`);
		}
	}
	if (target.searchWindow !== undefined && !SEARCH_WINDOWS.includes(target.searchWindow as string)) {
		throw fail('searchWindow', target.searchWindow, `it must be one of ${SEARCH_WINDOWS.join(', ')}`);
	}
	if (target.maxResults !== undefined) wholeNumber(fail, 'maxResults', target.maxResults, 1, MAX_SEARCH_RESULTS);
	if (target.includeDomains !== undefined) checkDomains(fail, 'includeDomains', target.includeDomains);
	if (target.excludeDomains !== undefined) checkDomains(fail, 'excludeDomains', target.excludeDomains);
	if (target.includeDomains !== undefined && target.excludeDomains !== undefined) {
		throw fail('excludeDomains', target.excludeDomains, 'a search target may either keep only some domains or skip some, not both');
	}
}

/**
 * Checks a list of monitor targets (spec 2.9 shapes; api-facts 2 rules): 1 to 50 targets, each a
 * scrape (≥1 absolute http(s) URL), crawl (URL, page limit ≥1) or search target (1–12 queries of
 * at most 256 characters, window, 1–50 results, include or exclude domains). Returns the list as it
 * will be sent; keys the node does not know are passed on for the service to judge.
 */
export function checkTargets(node: INode, targets: unknown, label: TargetLabeler, listField: string, itemIndex?: number): IDataObject[] {
	if (!Array.isArray(targets)) {
		throw invalid(node, listField, targets, 'it must be a list (JSON array) of targets such as [{"type": "scrape", "urls": ["https://example.com"]}]', itemIndex);
	}
	if (targets.length < MIN_TARGETS || targets.length > MAX_TARGETS) {
		throw invalid(node, listField, `${targets.length} targets`, `a monitor needs ${MIN_TARGETS} to ${MAX_TARGETS} targets`, itemIndex);
	}
	return targets.map((target: unknown, index) => {
		const type = isPlainObject(target) && typeof target.type === 'string' ? target.type : '';
		const fail: Fail = (path, value, rule) => invalid(node, label(index, type, path), value, rule, itemIndex);
		if (!isPlainObject(target)) throw fail('', target, 'each target must be an object with a "type"');
		if (!TARGET_TYPES.includes(type)) throw fail('type', target.type, `the type must be one of ${TARGET_TYPES.join(', ')}`);
		if (type === 'scrape') checkScrape(fail, target);
		else if (type === 'crawl') checkCrawl(fail, target);
		else checkSearch(fail, target);
		if (target.scrapeOptions !== undefined) {
			if (type === 'search') throw fail('scrapeOptions', target.scrapeOptions, 'search targets take no scrape options');
			checkScrapeOptions(fail, target.scrapeOptions);
		}
		return target;
	});
}

/** Parses the "Targets (JSON)" field: a JSON array (text) or a list given by an expression. */
export function parseTargetsJson(node: INode, value: unknown, field: string, itemIndex?: number): unknown {
	return parseJsonText(node, field, value, 'a JSON array of targets', itemIndex);
}

/** The "Scrape Options" collection of the form as the API's `scrapeOptions` (only what was set). */
export function scrapeOptionsFromForm(options: IDataObject | undefined): IDataObject | undefined {
	if (!options || Object.keys(options).length === 0) return undefined;
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(options)) {
		if (value === undefined || value === null || value === '') continue;
		if (key === 'includeTags' || key === 'excludeTags') {
			const tags = splitList(value);
			if (tags.length) out[key] = tags;
		} else if (key === 'headers') {
			const entries = isPlainObject(value) && Array.isArray(value.header) ? (value.header as IDataObject[]) : [];
			const headers: IDataObject = {};
			for (const entry of entries) {
				const name = String(entry.name ?? '').trim();
				if (name !== '') headers[name] = entry.value === undefined || entry.value === null ? '' : String(entry.value);
			}
			if (Object.keys(headers).length) out.headers = headers;
		} else if (key === 'country') {
			out.location = { ...(out.location as IDataObject), country: String(value).trim() };
		} else if (key === 'languages') {
			const languages = splitList(value);
			if (languages.length) out.location = { ...(out.location as IDataObject), languages };
		} else {
			out[key] = value;
		}
	}
	return Object.keys(out).length ? out : undefined;
}

/** The form's target groups ({scrape: [...], crawl: [...], search: [...]}) as API targets. */
export interface FormTargets {
	targets: IDataObject[];
	/** The number of each target within its group (1-based), for messages. */
	numberInGroup: number[];
}

export function targetsFromForm(form: unknown): FormTargets {
	const groups = isPlainObject(form) ? form : {};
	const targets: IDataObject[] = [];
	const numberInGroup: number[] = [];
	for (const [type, entries] of Object.entries(groups)) {
		if (!Array.isArray(entries)) continue;
		entries.forEach((entry: IDataObject, n) => {
			const e = isPlainObject(entry) ? entry : {};
			let target: IDataObject;
			if (type === 'scrape') {
				target = { type: 'scrape', urls: splitList(e.urls) };
			} else if (type === 'crawl') {
				const crawlOptions: IDataObject = { limit: e.pageLimit };
				const extra = isPlainObject(e.crawlOptions) ? e.crawlOptions : {};
				if (extra.maxDiscoveryDepth !== undefined && extra.maxDiscoveryDepth !== '') crawlOptions.maxDiscoveryDepth = extra.maxDiscoveryDepth;
				for (const key of ['includePaths', 'excludePaths']) {
					const paths = splitList(extra[key]);
					if (paths.length) crawlOptions[key] = paths;
				}
				target = { type: 'crawl', url: typeof e.url === 'string' ? e.url.trim() : e.url, crawlOptions };
			} else if (type === 'search') {
				target = { type: 'search', queries: splitLines(e.queries) };
				const o = isPlainObject(e.searchOptions) ? e.searchOptions : {};
				if (o.searchWindow !== undefined && o.searchWindow !== '') target.searchWindow = o.searchWindow;
				if (o.maxResults !== undefined && o.maxResults !== '') target.maxResults = o.maxResults;
				const include = splitList(o.includeDomains);
				const exclude = splitList(o.excludeDomains);
				if (include.length) target.includeDomains = include;
				if (exclude.length) target.excludeDomains = exclude;
			} else {
				target = { ...e, type };
			}
			if (type === 'scrape' || type === 'crawl') {
				const scrapeOptions = scrapeOptionsFromForm(isPlainObject(e.scrapeOptions) ? e.scrapeOptions : undefined);
				if (scrapeOptions) target.scrapeOptions = scrapeOptions;
			}
			targets.push(target);
			numberInGroup.push(n + 1);
		});
	}
	return { targets, numberInGroup };
}

/** Whether a list of targets has a search target (which needs a goal unless judging is off). */
export function hasSearchTarget(targets: unknown): boolean {
	return Array.isArray(targets) && targets.some((t) => isPlainObject(t) && t.type === 'search');
}
