import type { IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';

import { headersField, PDF_MODE_OPTIONS } from './fields';
import {
	actionsProblem,
	COUNTRY_RULE,
	HEADER_NAME,
	isCountryCode,
	PROXIES,
	SCRAPE_TIMEOUT_MS,
	structuredSchemaProblem,
	totalWaitProblem,
	waitForProblem,
} from './serverRules';
import { hideSecrets, invalid, isHttpUrl, parseJsonOrFail } from '../helpers/validation';
import type { BodyKeys } from './customBody';

/** Scrape-option body keys set by fields of other names (an operation's bodyKeys, for Custom Body Fields). */
export const SCRAPE_OPTION_BODY_KEYS: BodyKeys = { location: ['locationCountry', 'locationLanguages'], parsers: ['pdfMode', 'pdfMaxPages'] };
import { isPlainObject } from '../helpers/objects';

/**
 * The ONE Scrape option block (Scrape, Search, Crawl, Batch Scrape): `scrapeOptionProperties` gives
 * the fields, `readScrapeOptions` returns the API `ScrapeOptions` with only what the user set. An
 * operation using it must not reuse its parameter names (formats, jsonPrompt, jsonSchema,
 * screenshot*, changeTracking*, scrapeOptions). `zeroDataRetention` is a top-level body key, not here.
 */

export const SCRAPE_FORMATS = [
	'markdown',
	'summary',
	'html',
	'rawHtml',
	'links',
	'images',
	'screenshot',
	'json',
	'changeTracking',
] as const;
export const CHANGE_TRACKING_MODES = ['git-diff', 'json'];
/** The server's cap on the JSON format's prompt (nodes/FACTS.md "Server request rules"). */
export const MAX_JSON_PROMPT_LENGTH = 10_000;
export const PDF_MODES = ['auto', 'fast', 'ocr'];
export const ACTION_TYPES: Record<string, string[]> = {
	// type → keys it requires besides `type` (one of them for wait)
	wait: [],
	screenshot: [],
	click: ['selector'],
	write: ['text'],
	press: ['key'],
	scroll: [],
	scrape: [],
	executeJavascript: ['script'],
	pdf: [],
};
export const MIN_TIMEOUT_MS = SCRAPE_TIMEOUT_MS.min;
export const MAX_TIMEOUT_MS = SCRAPE_TIMEOUT_MS.max;
export const MAX_PDF_PAGES = 10_000;

type Show = Record<string, Array<string | boolean | number>>;

function withShow(property: INodeProperties, show?: Show): INodeProperties {
	if (!show) return property;
	return {
		...property,
		displayOptions: {
			...property.displayOptions,
			show: { ...show, ...property.displayOptions?.show },
		},
	};
}

/** Names of the options inside the `scrapeOptions` collection. */
export const SCRAPE_COLLECTION_OPTIONS = [
	'actions',
	'blockAds',
	'excludeTags',
	'headers',
	'includeTags',
	'locationCountry',
	'locationLanguages',
	'maxAge',
	'mobile',
	'onlyMainContent',
	'pdfMaxPages',
	'pdfMode',
	'proxy',
	'removeBase64Images',
	'skipTlsVerification',
	'storeInCache',
	'timeout',
	'waitFor',
];

/**
 * The shared Scrape option UI. `show` adds displayOptions.show conditions to every field;
 * `formats` narrows the Formats list for an endpoint that takes fewer (Search: SEARCH_FORMATS).
 */
export function scrapeOptionProperties(show?: Show, formats: readonly string[] = SCRAPE_FORMATS): INodeProperties[] {
	const properties: INodeProperties[] = [
		{
			displayName: 'Formats',
			name: 'formats',
			type: 'multiOptions',
			default: ['markdown'],
			description: 'What to get back for each page. Each format chosen appears as its own field in the output.',
			options: [
				{ name: 'Change Tracking', value: 'changeTracking', description: 'Whether the page changed since the last scrape (needs Markdown too)' },
				{ name: 'HTML', value: 'html', description: 'Cleaned HTML' },
				{ name: 'Images', value: 'images', description: 'The image URLs found on the page' },
				{ name: 'JSON (Structured Data)', value: 'json', description: 'Fields extracted by a model, shaped by a prompt and a JSON Schema' },
				{ name: 'Links', value: 'links', description: 'The links found on the page' },
				{ name: 'Markdown', value: 'markdown', description: 'The main content as Markdown' },
				{ name: 'Raw HTML', value: 'rawHtml', description: 'The HTML exactly as the site sent it' },
				{ name: 'Screenshot', value: 'screenshot', description: 'A screenshot of the page (a link valid for 24 hours; can be downloaded as a file)' },
				{ name: 'Summary', value: 'summary', description: 'A short summary written by a model' },
			],
		},
		{
			displayName: 'JSON Prompt',
			name: 'jsonPrompt',
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			placeholder: 'e.g. Extract the product name, price and availability',
			description: 'What to extract into the JSON output. Give a prompt, a schema, or both.',
			displayOptions: { show: { formats: ['json'] } },
		},
		{
			displayName: 'JSON Schema',
			name: 'jsonSchema',
			type: 'json',
			default: '',
			placeholder: 'e.g. { "type": "object", "properties": { "price": { "type": "number" } } }',
			description: 'Optional JSON Schema (an object) that the JSON output must follow',
			displayOptions: { show: { formats: ['json'] } },
		},
		{
			displayName: 'Full-Page Screenshot',
			name: 'screenshotFullPage',
			type: 'boolean',
			default: false,
			description: 'Whether to capture the whole page instead of the visible part only',
			displayOptions: { show: { formats: ['screenshot'] } },
		},
		{
			displayName: 'Screenshot Quality',
			name: 'screenshotQuality',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 100, numberPrecision: 0 },
			// The default stays 0, or saved workflows would send another value: nodes/FACTS.md "n8n editor behaviour".
			default: 0,
			hint: '0 = the service chooses the quality. 1 (smallest file) to 100 (best picture).',
			description: 'JPEG quality from 1 to 100; 0 leaves it to the service',
			displayOptions: { show: { formats: ['screenshot'] } },
		},
		{
			displayName: 'Change Tracking Modes',
			name: 'changeTrackingModes',
			type: 'multiOptions',
			default: [],
			description: 'Extra change details. Leave empty for the change status only.',
			displayOptions: { show: { formats: ['changeTracking'] } },
			options: [
				{ name: 'Git Diff', value: 'git-diff', description: 'A line-by-line diff of the Markdown' },
				{ name: 'JSON', value: 'json', description: 'Compare fields extracted by a model (prompt and schema below)' },
			],
		},
		{
			displayName: 'Change Tracking Prompt',
			name: 'changeTrackingPrompt',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			description: 'Which fields to extract and compare, in words (JSON mode)',
			displayOptions: { show: { formats: ['changeTracking'], changeTrackingModes: ['json'] } },
		},
		{
			displayName: 'Change Tracking Schema',
			name: 'changeTrackingSchema',
			type: 'json',
			default: '',
			description: 'JSON Schema (an object) of the fields to compare (JSON mode)',
			displayOptions: { show: { formats: ['changeTracking'], changeTrackingModes: ['json'] } },
		},
		{
			displayName: 'Change Tracking Tag',
			name: 'changeTrackingTag',
			type: 'string',
			default: '',
			description: 'Keeps a separate change history per tag (for example one per workflow); leave empty for the shared history',
			displayOptions: { show: { formats: ['changeTracking'] } },
		},
		{
			displayName: 'Scrape Options',
			name: 'scrapeOptions',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'Block Ads',
					name: 'blockAds',
					type: 'boolean',
					default: true,
					description: 'Whether to block ads and cookie pop-ups',
				},
				{
					displayName: 'Browser Actions',
					name: 'actions',
					type: 'json',
					default: '[]',
					hint: 'A JSON list, e.g. [{"type": "click", "selector": "#more"}, {"type": "wait", "milliseconds": 1000}]',
					description:
						'Browser actions run before the content is read, as a JSON list, e.g. [{"type": "click", "selector": "#more"}, {"type": "wait", "milliseconds": 1000}]. Types: wait, click, write, press, scroll, screenshot, scrape, executeJavascript, pdf.',
				},
				{
					displayName: 'Exclude Tags',
					name: 'excludeTags',
					type: 'string',
					default: '',
					placeholder: 'e.g. nav, footer, .ads',
					description: 'HTML tags, classes or IDs to leave out, separated by commas',
				},
				headersField('Headers sent to the site, e.g. cookies or a user agent'),
				{
					displayName: 'Include Tags',
					name: 'includeTags',
					type: 'string',
					default: '',
					placeholder: 'e.g. article, main, #content',
					description: 'HTML tags, classes or IDs to keep (only these), separated by commas',
				},
				{
					displayName: 'Location Country',
					name: 'locationCountry',
					type: 'string',
					default: '',
					placeholder: 'e.g. DE',
					description: 'Two-letter ISO country code: the page is fetched through a proxy in that country, with its language and time zone',
				},
				{
					displayName: 'Location Languages',
					name: 'locationLanguages',
					type: 'string',
					default: '',
					placeholder: 'e.g. de-DE, en-US',
					description: 'Preferred languages in order, separated by commas',
				},
				{
					displayName: 'Max Age (Milliseconds)',
					name: 'maxAge',
					type: 'number',
					typeOptions: { minValue: 0, numberPrecision: 0 },
					default: 172800000,
					hint: '172800000 = 2 days, 3600000 = 1 hour, 0 = always fetch fresh',
					description: 'Use a cached copy younger than this many milliseconds (0 = always fetch fresh). The service default is 2 days.',
				},
				{
					displayName: 'Mobile',
					name: 'mobile',
					type: 'boolean',
					default: false,
					description: 'Whether to load the page as a mobile device would',
				},
				{
					displayName: 'Only Main Content',
					name: 'onlyMainContent',
					type: 'boolean',
					default: true,
					description: 'Whether to leave out headers, navigation and footers',
				},
				{
					displayName: 'PDF Max Pages',
					name: 'pdfMaxPages',
					type: 'number',
					typeOptions: { minValue: 1, maxValue: 10000, numberPrecision: 0 },
					default: 100,
					description: 'For PDF URLs: process at most this many pages (1 to 10000)',
				},
				{
					displayName: 'PDF Mode',
					name: 'pdfMode',
					type: 'options',
					default: 'auto',
					description: 'For PDF URLs: how the text is read',
					options: PDF_MODE_OPTIONS,
				},
				{
					displayName: 'Proxy',
					name: 'proxy',
					type: 'options',
					default: 'auto',
					options: [
						{ name: 'Auto', value: 'auto', description: 'Basic first, Enhanced when that fails' },
						{ name: 'Basic', value: 'basic', description: 'Fast; for sites with little or no bot protection' },
						{ name: 'Enhanced', value: 'enhanced', description: 'For sites with strong bot protection; costs more credits' },
						{ name: 'Stealth (Older Name of Enhanced)', value: 'stealth', description: 'The same as Enhanced; the service still accepts this older name' },
					],
				},
				{
					displayName: 'Remove Base64 Images',
					name: 'removeBase64Images',
					type: 'boolean',
					default: true,
					description: 'Whether to drop embedded base64 images from the Markdown, keeping their alt text',
				},
				{
					// Parse File's setting of the same kind says which pages: Skip Certificate Checks on Linked Web Pages.
					displayName: 'Skip Certificate Checks',
					name: 'skipTlsVerification',
					type: 'boolean',
					default: true,
					description: 'Whether to accept pages even when their TLS certificate is invalid or self-signed. Turn it off when pages must be verified.',
				},
				{
					displayName: 'Store in Cache',
					name: 'storeInCache',
					type: 'boolean',
					default: true,
					description: 'Whether the service may keep this page in its cache',
				},
				{
					displayName: 'Timeout (Milliseconds)',
					name: 'timeout',
					type: 'number',
					typeOptions: { minValue: 1000, maxValue: 300000, numberPrecision: 0 },
					default: 60000,
					description: 'How long the service may work on one page, in milliseconds (1000 to 300000)',
				},
				{
					displayName: 'Wait For (Milliseconds)',
					name: 'waitFor',
					type: 'number',
					default: 0,
					typeOptions: { minValue: 0, maxValue: 60000, numberPrecision: 0 },
					description: 'Extra time to let the page load before its content is read, in milliseconds (at most 60000, and at most half of Timeout when Timeout is set)',
				},
			],
		},
	];
	const formatField = properties[0];
	formatField.options = (formatField.options as Array<{ value: string }>).filter((o) => formats.includes(o.value)) as typeof formatField.options;
	if (!formats.includes('changeTracking')) properties.splice(properties.findIndex((p) => p.name === 'changeTrackingModes'), 4);
	return properties.map((p) => withShow(p, show));
}

function isWholeNumber(value: unknown): value is number {
	return typeof value === 'number' && Number.isInteger(value);
}

function list(value: unknown): string[] {
	if (Array.isArray(value)) return value.map((v) => String(v).trim()).filter((v) => v !== '');
	return String(value ?? '')
		.split(',')
		.map((t) => t.trim())
		.filter((t) => t !== '');
}

/** A JSON parameter (string or already parsed) as a value; undefined when empty. */
function parseJsonField(node: INode, field: string, raw: unknown, i: number): unknown {
	if (raw === undefined || raw === null || raw === '') return undefined;
	if (typeof raw !== 'string') return raw;
	if (raw.trim() === '') return undefined;
	return parseJsonOrFail(node, field, raw, i);
}

function schemaField(node: INode, field: string, raw: unknown, i: number): IDataObject | undefined {
	const value = parseJsonField(node, field, raw, i);
	if (value === undefined) return undefined;
	if (!isPlainObject(value)) {
		throw invalid(node, field, raw, 'a JSON Schema must be a JSON object such as {"type": "object", "properties": {…}}', i);
	}
	const problem = structuredSchemaProblem(value);
	if (problem) throw invalid(node, field, raw, problem, i);
	return value;
}

/** Checks a list of browser actions (OpenAPI ScrapeOptions.actions). */
export function checkActions(node: INode, field: string, raw: unknown, i: number): IDataObject[] | undefined {
	const value = parseJsonField(node, field, raw, i);
	if (value === undefined) return undefined;
	if (!Array.isArray(value)) throw invalid(node, field, raw, 'it must be a JSON list of actions, e.g. [{"type": "wait", "milliseconds": 1000}]', i);
	value.forEach((action: unknown, n) => {
		const where = `${field} → action ${n + 1}`;
		if (!isPlainObject(action)) throw invalid(node, where, action, 'each action is an object with a "type"', i);
		const type = String(action.type ?? '');
		if (!(type in ACTION_TYPES)) {
			throw invalid(node, where, action.type, `"type" must be one of ${Object.keys(ACTION_TYPES).join(', ')}`, i);
		}
		for (const key of ACTION_TYPES[type]) {
			if (typeof action[key] !== 'string' || action[key] === '') {
				throw invalid(node, where, action, `a "${type}" action needs "${key}" (text)`, i);
			}
		}
		if (type === 'wait') {
			const hasMs = action.milliseconds !== undefined;
			const hasSelector = action.selector !== undefined;
			if (hasMs === hasSelector) throw invalid(node, where, action, 'a "wait" action needs either "milliseconds" or "selector"', i);
			if (hasMs && (!isWholeNumber(action.milliseconds) || action.milliseconds < 1)) {
				throw invalid(node, where, action.milliseconds, '"milliseconds" must be a whole number of 1 or more', i);
			}
		}
		if (type === 'scroll' && action.direction !== undefined && !['up', 'down'].includes(String(action.direction))) {
			throw invalid(node, where, action.direction, '"direction" must be "up" or "down"', i);
		}
	});
	const problem = actionsProblem(value as IDataObject[]);
	if (problem) throw invalid(node, field, `${value.length} actions`, problem, i);
	return value as IDataObject[];
}

/** The values a user filled in, as read from the node (exported for unit tests). */
export interface ScrapeOptionInput {
	formats: unknown;
	jsonPrompt?: unknown;
	jsonSchema?: unknown;
	screenshotFullPage?: unknown;
	screenshotQuality?: unknown;
	changeTrackingModes?: unknown;
	changeTrackingPrompt?: unknown;
	changeTrackingSchema?: unknown;
	changeTrackingTag?: unknown;
	scrapeOptions?: IDataObject;
}

/**
 * Builds and checks the API ScrapeOptions object from the user's values. `allowed` is the format
 * list of the endpoint (Search takes SEARCH_FORMATS: no Change Tracking).
 */
export function buildScrapeOptions(node: INode, p: ScrapeOptionInput, i: number, allowed: readonly string[] = SCRAPE_FORMATS): IDataObject {
	const out: IDataObject = {};
	const formats = p.formats;
	if (!Array.isArray(formats) || formats.length === 0) {
		throw invalid(node, 'Formats', formats, 'choose at least one format', i);
	}
	const unknown = formats.find((f) => !(SCRAPE_FORMATS as readonly string[]).includes(String(f)));
	if (unknown !== undefined) {
		throw invalid(node, 'Formats', unknown, `allowed formats are ${allowed.join(', ')}`, i);
	}
	const notHere = formats.find((f) => !allowed.includes(String(f)));
	if (notHere !== undefined) {
		throw invalid(
			node,
			'Formats',
			notHere,
			`scraped search results can only have ${allowed.join(', ')}; remove ${notHere === 'changeTracking' ? 'Change Tracking (to track a page\'s changes, use Scrape or a Monitor)' : notHere} from Formats`,
			i,
		);
	}
	if (formats.includes('changeTracking') && !formats.includes('markdown')) {
		throw invalid(node, 'Formats', formats, 'Change Tracking compares Markdown, so choose Markdown as well', i);
	}
	out.formats = (formats as string[]).map((type): string | IDataObject => {
		if (type === 'json') {
			const item: IDataObject = { type };
			const prompt = String(p.jsonPrompt ?? '').trim();
			if (prompt.length > MAX_JSON_PROMPT_LENGTH) {
				throw invalid(node, 'JSON Prompt', prompt, `at most ${MAX_JSON_PROMPT_LENGTH} characters (it has ${prompt.length})`, i);
			}
			const schema = schemaField(node, 'JSON Schema', p.jsonSchema, i);
			if (!prompt && !schema) {
				throw invalid(node, 'JSON Prompt', p.jsonPrompt ?? '', 'the JSON format needs a prompt, a schema, or both', i);
			}
			if (prompt) item.prompt = prompt;
			if (schema) item.schema = schema;
			return item;
		}
		if (type === 'screenshot') {
			const item: IDataObject = { type };
			if (p.screenshotFullPage === true) item.fullPage = true;
			const quality = p.screenshotQuality;
			if (quality !== undefined && quality !== 0 && quality !== '') {
				if (!isWholeNumber(quality) || quality < 1 || quality > 100) {
					throw invalid(node, 'Screenshot Quality', quality, 'a whole number from 1 to 100 (0 = the service default)', i);
				}
				item.quality = quality;
			}
			return Object.keys(item).length > 1 ? item : type;
		}
		if (type === 'changeTracking') {
			const item: IDataObject = { type };
			const modes = Array.isArray(p.changeTrackingModes) ? (p.changeTrackingModes as string[]) : [];
			const bad = modes.find((m) => !CHANGE_TRACKING_MODES.includes(m));
			if (bad !== undefined) throw invalid(node, 'Change Tracking Modes', bad, `one of ${CHANGE_TRACKING_MODES.join(', ')}`, i);
			if (modes.length) item.modes = [...modes];
			if (modes.includes('json')) {
				const prompt = String(p.changeTrackingPrompt ?? '').trim();
				const schema = schemaField(node, 'Change Tracking Schema', p.changeTrackingSchema, i);
				if (prompt) item.prompt = prompt;
				if (schema) item.schema = schema;
			}
			const tag = String(p.changeTrackingTag ?? '').trim();
			if (tag) item.tag = tag;
			return Object.keys(item).length > 1 ? item : type;
		}
		return type;
	});

	const o = p.scrapeOptions ?? {};
	const label = (name: string) => `Scrape Options → ${name}`;
	for (const key of ['onlyMainContent', 'mobile', 'blockAds', 'removeBase64Images', 'skipTlsVerification', 'storeInCache'] as const) {
		if (o[key] !== undefined) out[key] = Boolean(o[key]);
	}
	if (o.includeTags !== undefined && list(o.includeTags).length) out.includeTags = list(o.includeTags);
	if (o.excludeTags !== undefined && list(o.excludeTags).length) out.excludeTags = list(o.excludeTags);

	if (o.timeout !== undefined) {
		if (!isWholeNumber(o.timeout) || o.timeout < MIN_TIMEOUT_MS || o.timeout > MAX_TIMEOUT_MS) {
			throw invalid(node, label('Timeout (Milliseconds)'), o.timeout, `a whole number of milliseconds from ${MIN_TIMEOUT_MS} to ${MAX_TIMEOUT_MS} (5 minutes)`, i);
		}
		out.timeout = o.timeout;
	}
	if (o.waitFor !== undefined) {
		if (!isWholeNumber(o.waitFor) || o.waitFor < 0) {
			throw invalid(node, label('Wait For (Milliseconds)'), o.waitFor, 'a whole number of milliseconds, 0 or more', i);
		}
		const problem = waitForProblem(o.waitFor, typeof out.timeout === 'number' ? out.timeout : undefined);
		if (problem) throw invalid(node, label('Wait For (Milliseconds)'), o.waitFor, problem, i);
		if (o.waitFor > 0) out.waitFor = o.waitFor;
	}
	if (o.maxAge !== undefined) {
		if (!isWholeNumber(o.maxAge) || o.maxAge < 0) {
			throw invalid(node, label('Max Age (Milliseconds)'), o.maxAge, 'a whole number of milliseconds, 0 or more', i);
		}
		out.maxAge = o.maxAge;
	}
	if (o.proxy !== undefined) {
		if (!PROXIES.includes(String(o.proxy))) throw invalid(node, label('Proxy'), o.proxy, `one of ${PROXIES.join(', ')}`, i);
		out.proxy = o.proxy;
	}

	const country = String(o.locationCountry ?? '').trim();
	const languages = list(o.locationLanguages);
	if (country || languages.length) {
		const location: IDataObject = {};
		if (country) {
			const code = country.toUpperCase();
			if (!isCountryCode(code)) throw invalid(node, label('Location Country'), country, COUNTRY_RULE, i);
			location.country = code;
		}
		if (languages.length) {
			const bad = languages.find((l) => !/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(l));
			if (bad !== undefined) throw invalid(node, label('Location Languages'), bad, 'language tags such as en-US or de, separated by commas', i);
			location.languages = languages;
		}
		out.location = location;
	}

	if (o.pdfMode !== undefined || o.pdfMaxPages !== undefined) {
		const parser: IDataObject = { type: 'pdf' };
		if (o.pdfMode !== undefined) {
			if (!PDF_MODES.includes(String(o.pdfMode))) throw invalid(node, label('PDF Mode'), o.pdfMode, `one of ${PDF_MODES.join(', ')}`, i);
			parser.mode = o.pdfMode;
		}
		if (o.pdfMaxPages !== undefined) {
			if (!isWholeNumber(o.pdfMaxPages) || o.pdfMaxPages < 1 || o.pdfMaxPages > MAX_PDF_PAGES) {
				throw invalid(node, label('PDF Max Pages'), o.pdfMaxPages, `a whole number from 1 to ${MAX_PDF_PAGES}`, i);
			}
			parser.maxPages = o.pdfMaxPages;
		}
		out.parsers = [parser];
	}

	const actions = checkActions(node, label('Browser Actions'), o.actions, i);
	if (actions && actions.length) {
		const total = totalWaitProblem(typeof out.waitFor === 'number' ? out.waitFor : 0, actions);
		if (total) throw invalid(node, label('Wait For (Milliseconds)'), out.waitFor ?? 0, total, i);
		out.actions = actions;
	}

	const headerRows = ((o.headers as IDataObject | undefined)?.header ?? []) as IDataObject[];
	if (headerRows.length) {
		const headers: IDataObject = {};
		for (const row of headerRows) {
			const name = String(row.name ?? '').trim();
			if (!name) throw invalid(node, label('Headers → Name'), row.name ?? '', 'a header needs a name', i);
			if (!HEADER_NAME.test(name)) throw invalid(node, label('Headers → Name'), name, 'a header name has no spaces or special characters', i);
			headers[name] = String(row.value ?? '');
		}
		out.headers = headers;
	}
	return out;
}

/** A scrape's own timeout (default 60 s) and waitFor, plus 30 s for the answer. */
export function scrapeAnswerTimeoutMs(options: IDataObject): number {
	const timeout = typeof options.timeout === 'number' ? options.timeout : 60_000;
	const waitFor = typeof options.waitFor === 'number' ? options.waitFor : 0;
	return timeout + waitFor + 30_000;
}

/** Reads and checks the shared Scrape option fields of item `i`: the API ScrapeOptions, or an error naming the field. */
export function readScrapeOptions(ctx: IExecuteFunctions, i: number, allowed: readonly string[] = SCRAPE_FORMATS): IDataObject {
	const formats = ctx.getNodeParameter('formats', i, ['markdown']);
	const has = (f: string) => Array.isArray(formats) && formats.includes(f);
	const input: ScrapeOptionInput = { formats, scrapeOptions: ctx.getNodeParameter('scrapeOptions', i, {}) as IDataObject };
	if (has('json')) {
		input.jsonPrompt = ctx.getNodeParameter('jsonPrompt', i, '');
		input.jsonSchema = ctx.getNodeParameter('jsonSchema', i, '');
	}
	if (has('screenshot')) {
		input.screenshotFullPage = ctx.getNodeParameter('screenshotFullPage', i, false);
		input.screenshotQuality = ctx.getNodeParameter('screenshotQuality', i, 0);
	}
	if (has('changeTracking') && allowed.includes('changeTracking')) {
		input.changeTrackingModes = ctx.getNodeParameter('changeTrackingModes', i, []);
		const modes = input.changeTrackingModes;
		if (Array.isArray(modes) && modes.includes('json')) {
			input.changeTrackingPrompt = ctx.getNodeParameter('changeTrackingPrompt', i, '');
			input.changeTrackingSchema = ctx.getNodeParameter('changeTrackingSchema', i, '');
		}
		input.changeTrackingTag = ctx.getNodeParameter('changeTrackingTag', i, '');
	}
	return buildScrapeOptions(ctx.getNode(), input, i, allowed);
}

/** Checks that a URL is absolute http(s); returns it trimmed. */
export function requireHttpUrl(node: INode, field: string, value: unknown, i: number): string {
	const text = String(value ?? '').trim();
	if (!isHttpUrl(text)) {
		throw invalid(node, field, typeof value === 'string' ? hideSecrets(value) : (value ?? ''), 'it must be an absolute http or https URL such as https://example.com/page', i);
	}
	return text;
}

export const SCRAPE_HINTS: Record<string, string> = {
	'408':
		'The page took longer than the timeout to load. Raise Scrape Options → Timeout (at most 300000 ms), lower Wait For, or remove slow actions.',
	SCRAPE_TIMEOUT:
		'The page took longer than the timeout to load. Raise Scrape Options → Timeout (at most 300000 ms), lower Wait For, or remove slow actions.',
	UNSUPPORTED_SITE: 'The service does not support this site, and no data provider serves it. Nothing can be scraped from this address.',
	'text:do not support this site':
		'The service does not support this site, and no data provider serves it. Nothing can be scraped from this address.',
	THIRD_PARTY_DATA_UNSUPPORTED_OPTION:
		'Only a data provider can serve this URL, and it cannot honour an option that is set (named in the message): remove Browser Actions, the Screenshot format, Zero Data Retention or that option, then run again.',
	THIRD_PARTY_DATA_UNSUPPORTED_URL:
		"The data provider for this site serves only the record's own page, not its sub-pages. Use the record's main URL.",
	'text:Invalid URL': 'The service did not accept the URL. Give an absolute http or https address such as https://example.com/page.',
};
