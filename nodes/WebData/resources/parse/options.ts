import type { IDataObject, INode } from 'n8n-workflow';

import { isPlainObject } from '../../helpers/objects';
import { PARSE_PROXIES, SCRAPE_TIMEOUT_MS, structuredSchemaProblem } from '../../fields/serverRules';
import { invalid } from '../../helpers/validation';

/** ParseOptions of spec 2.2, as sent in the multipart `options` part. */
export const PARSE_OPTION_KEYS = [
	'formats',
	'onlyMainContent',
	'includeTags',
	'excludeTags',
	'blockAds',
	'removeBase64Images',
	'skipTlsVerification',
	'headers',
	'timeout',
	'proxy',
	'parsers',
	'redactPII',
	'checkPromptInjection',
	'zeroDataRetention',
	'auditMetadata',
	'integration',
	'origin',
] as const;

export const FORMAT_TYPES = ['markdown', 'summary', 'html', 'rawHtml', 'links', 'images', 'json'];
export const PDF_PARSER_KEYS = ['type', 'mode', 'maxPages', 'blocks', 'pages', 'pageMarkers'];
export const PDF_MODES = ['fast', 'auto', 'ocr'];
export const REDACT_KEYS = ['mode', 'replaceStyle', 'entities'];
export const REDACT_MODES = ['accurate', 'aggressive', 'fast'];
export const REPLACE_STYLES = ['tag', 'mask', 'remove'];
export const MAX_TIMEOUT_MS = SCRAPE_TIMEOUT_MS.max;
export const MIN_TIMEOUT_MS = SCRAPE_TIMEOUT_MS.min;
export const DEFAULT_TIMEOUT_MS = 30_000;
export const MAX_AUDIT_USERNAME = 1024;
/** `integration` values the service accepts (nodes/FACTS.md "Server request rules"). */
export const INTEGRATIONS = [
	'dify',
	'zapier',
	'pipedream',
	'raycast',
	'langchain',
	'crewai',
	'llamaindex',
	'n8n',
	'camelai',
	'make',
	'flowise',
	'metagpt',
	'relevanceai',
	'viasocket',
	'cli',
	'hermes',
	'gstack',
	'prometheus',
];

export const INTEGRATION_DESCRIPTION = `Rarely needed (service logs): which integration sends this parse, for the service's statistics. The service accepts only ${INTEGRATIONS.join(', ')}, or your own value starting with "_". Leave empty when in doubt.`;

/** Whether the service accepts this `integration` value (see INTEGRATIONS). */
export function isIntegration(value: string): boolean {
	return value.startsWith('_') || INTEGRATIONS.includes(value);
}

/** The parameters of the Parse File operation, as read from the node. */
export interface ParseParameters {
	formats: string[];
	jsonPrompt?: string;
	jsonSchema?: unknown;
	output: 'file' | 'pages' | 'blocks';
	pdfOptions: IDataObject;
	redaction: 'off' | 'defaults' | 'tuned';
	redactMode?: string;
	redactReplaceStyle?: string;
	redactEntities?: string[];
	options: IDataObject;
	/** Where each option is in the panel, for messages (PARSE_OPTION_LABELS); without it, "Options → …". */
	optionLabels?: Record<string, string>;
}

function tagList(value: unknown): string[] {
	return String(value ?? '')
		.split(',')
		.map((t) => t.trim())
		.filter((t) => t !== '');
}

function isInteger(value: unknown): value is number {
	return typeof value === 'number' && Number.isInteger(value);
}

/**
 * Builds ParseOptions from what the user set (only that: the service applies its own defaults) and
 * checks every rule of spec 2.2–2.4 and 8, naming the field, the value and the rule.
 */
export function buildParseOptions(node: INode, p: ParseParameters, itemIndex?: number): IDataObject {
	const out: IDataObject = {};
	const o = p.options;
	const label = (name: string, v1: string) => p.optionLabels?.[name] ?? `Options → ${v1}`;

	const formats = p.formats ?? [];
	if (!Array.isArray(formats) || formats.length === 0) {
		throw invalid(node, 'Formats', formats, 'choose at least one format', itemIndex);
	}
	const unknown = formats.find((f) => !FORMAT_TYPES.includes(f));
	if (unknown !== undefined) {
		throw invalid(node, 'Formats', unknown, `allowed formats are ${FORMAT_TYPES.join(', ')}`, itemIndex);
	}
	const onlyMarkdown = formats.length === 1 && formats[0] === 'markdown';
	if (!onlyMarkdown) {
		out.formats = formats.map((type) => {
			if (type !== 'json') return { type };
			const item: IDataObject = { type };
			if (p.jsonPrompt) item.prompt = p.jsonPrompt;
			const schema = parseSchema(node, p.jsonSchema, itemIndex);
			if (schema) item.schema = schema;
			return item;
		});
	}

	for (const key of ['onlyMainContent', 'blockAds', 'removeBase64Images', 'skipTlsVerification', 'checkPromptInjection', 'zeroDataRetention'] as const) {
		if (o[key] !== undefined) out[key] = Boolean(o[key]);
	}
	if (o.includeTags !== undefined && tagList(o.includeTags).length) out.includeTags = tagList(o.includeTags);
	if (o.excludeTags !== undefined && tagList(o.excludeTags).length) out.excludeTags = tagList(o.excludeTags);

	const headerRows = ((o.headers as IDataObject | undefined)?.header ?? []) as IDataObject[];
	if (headerRows.length) {
		const headers: IDataObject = {};
		for (const row of headerRows) {
			const name = String(row.name ?? '').trim();
			if (!name) throw invalid(node, `${label('headers', 'Headers')} → Name`, row.name, 'a header needs a name', itemIndex);
			headers[name] = String(row.value ?? '');
		}
		out.headers = headers;
	}

	if (o.timeout !== undefined) {
		const t = o.timeout;
		if (!isInteger(t) || t < MIN_TIMEOUT_MS || t > MAX_TIMEOUT_MS) {
			throw invalid(node, label('timeout', 'Timeout (Milliseconds)'), t, `a whole number of milliseconds from ${MIN_TIMEOUT_MS} to ${MAX_TIMEOUT_MS} (5 minutes)`, itemIndex);
		}
		out.timeout = t;
	}
	if (o.proxy !== undefined) {
		if (!PARSE_PROXIES.includes(String(o.proxy))) {
			throw invalid(node, label('proxy', 'Proxy'), o.proxy, 'parsing supports only "basic" and "auto"', itemIndex);
		}
		out.proxy = o.proxy;
	}

	const parser = buildPdfParser(node, p, itemIndex);
	if (parser) out.parsers = [parser];

	const redact = buildRedaction(node, p, itemIndex);
	if (redact !== undefined) out.redactPII = redact;

	if (o.auditUsername !== undefined && o.auditUsername !== '') {
		const username = String(o.auditUsername);
		if (username.length > MAX_AUDIT_USERNAME) {
			throw invalid(node, label('auditUsername', 'Audit Username'), username, `at most ${MAX_AUDIT_USERNAME} characters (it has ${username.length})`, itemIndex);
		}
		out.auditMetadata = { username };
	}
	if (o.integration !== undefined && o.integration !== '') {
		const integration = String(o.integration);
		if (!isIntegration(integration)) {
			throw invalid(
				node,
				label('integration', 'Integration'),
				integration,
				`the service accepts only ${INTEGRATIONS.join(', ')}, or your own value starting with "_" (e.g. "_my-team"); leave it empty when in doubt`,
				itemIndex,
			);
		}
		out.integration = integration;
	}
	if (o.origin !== undefined && o.origin !== '') out.origin = String(o.origin);

	assertParseOptions(node, out, itemIndex);
	return out;
}

function parseSchema(node: INode, raw: unknown, itemIndex?: number): IDataObject | undefined {
	if (raw === undefined || raw === null || raw === '') return undefined;
	let value = raw;
	if (typeof raw === 'string') {
		try {
			value = JSON.parse(raw);
		} catch (error) {
			throw invalid(node, 'JSON Schema', raw, `it is not valid JSON (${(error as Error).message})`, itemIndex);
		}
	}
	if (!isPlainObject(value)) {
		throw invalid(node, 'JSON Schema', raw, 'a JSON Schema must be a JSON object such as {"type": "object", "properties": {…}}', itemIndex);
	}
	// The json format runs the same structured-output check as Scrape's (validateSchemaForOpenAI):
	// refused here, before the file is uploaded, as Scrape does.
	const problem = structuredSchemaProblem(value);
	if (problem) throw invalid(node, 'JSON Schema', raw, problem, itemIndex);
	return value;
}

function buildPdfParser(node: INode, p: ParseParameters, itemIndex?: number): IDataObject | undefined {
	const pdf = { ...(p.pdfOptions ?? {}) };
	if (p.output === 'pages') pdf.pages = true;
	if (p.output === 'blocks') pdf.blocks = true;
	if (Object.keys(pdf).length === 0) return undefined;
	const parser: IDataObject = { type: 'pdf' };
	if (pdf.mode !== undefined) {
		if (!PDF_MODES.includes(String(pdf.mode))) {
			throw invalid(node, 'PDF Options → Mode', pdf.mode, `one of ${PDF_MODES.join(', ')}`, itemIndex);
		}
		parser.mode = pdf.mode;
	}
	if (pdf.maxPages !== undefined) {
		if (!isInteger(pdf.maxPages) || pdf.maxPages < 1 || pdf.maxPages > 10000) {
			throw invalid(node, 'PDF Options → Max Pages', pdf.maxPages, 'a whole number from 1 to 10000', itemIndex);
		}
		parser.maxPages = pdf.maxPages;
	}
	for (const key of ['blocks', 'pages', 'pageMarkers'] as const) {
		if (pdf[key] !== undefined) parser[key] = Boolean(pdf[key]);
	}
	return parser;
}

function buildRedaction(node: INode, p: ParseParameters, itemIndex?: number): boolean | IDataObject | undefined {
	if (!p.redaction || p.redaction === 'off') return undefined;
	if (p.redaction === 'defaults') return true;
	if (p.redaction !== 'tuned') {
		throw invalid(node, 'Redact Personal Information', p.redaction, 'one of off, defaults, tuned', itemIndex);
	}
	const redact: IDataObject = {};
	if (p.redactMode !== undefined) {
		if (!REDACT_MODES.includes(p.redactMode)) {
			throw invalid(node, 'Redaction Method', p.redactMode, `one of ${REDACT_MODES.join(', ')}`, itemIndex);
		}
		redact.mode = p.redactMode;
	}
	if (p.redactReplaceStyle !== undefined) {
		if (!REPLACE_STYLES.includes(p.redactReplaceStyle)) {
			throw invalid(node, 'Replace With', p.redactReplaceStyle, `one of ${REPLACE_STYLES.join(', ')}`, itemIndex);
		}
		redact.replaceStyle = p.redactReplaceStyle;
	}
	if (p.redactEntities && p.redactEntities.length) redact.entities = [...p.redactEntities];
	return redact;
}

/**
 * The last gate before sending: the options object holds only keys of spec 2.2 with the right
 * types, and each parser item only the keys of spec 2.3.
 */
export function assertParseOptions(node: INode, options: IDataObject, itemIndex?: number): void {
	const fail = (field: string, value: unknown, rule: string) => invalid(node, field, value, rule, itemIndex);
	for (const key of Object.keys(options)) {
		if (!(PARSE_OPTION_KEYS as readonly string[]).includes(key)) throw fail(`options.${key}`, options[key], 'not a parse option of the API');
	}
	if (options.formats !== undefined) {
		if (!Array.isArray(options.formats)) throw fail('options.formats', options.formats, 'must be a list');
		for (const f of options.formats as IDataObject[]) {
			if (!isPlainObject(f) || !FORMAT_TYPES.includes(String(f.type))) throw fail('options.formats', f, `each format is an object with a type among ${FORMAT_TYPES.join(', ')}`);
			const extra = Object.keys(f).filter((k) => !(k === 'type' || (f.type === 'json' && (k === 'prompt' || k === 'schema'))));
			if (extra.length) throw fail('options.formats', f, `unexpected keys ${extra.join(', ')}`);
		}
	}
	if (options.parsers !== undefined) {
		for (const parser of options.parsers as IDataObject[]) {
			const extra = Object.keys(parser).filter((k) => !PDF_PARSER_KEYS.includes(k));
			if (parser.type !== 'pdf' || extra.length) throw fail('options.parsers', parser, `a parser item is {type: "pdf"} with only ${PDF_PARSER_KEYS.slice(1).join(', ')}`);
		}
	}
	if (isPlainObject(options.redactPII)) {
		const extra = Object.keys(options.redactPII).filter((k) => !REDACT_KEYS.includes(k));
		if (extra.length) throw fail('options.redactPII', options.redactPII, `only ${REDACT_KEYS.join(', ')} are allowed`);
	}
	if (options.integration !== undefined && (typeof options.integration !== 'string' || !isIntegration(options.integration))) {
		throw fail('options.integration', options.integration, `one of ${INTEGRATIONS.join(', ')}, or a value starting with "_"`);
	}
	if (options.auditMetadata !== undefined) {
		const audit = options.auditMetadata as IDataObject;
		if (Object.keys(audit).join() !== 'username' || typeof audit.username !== 'string') throw fail('options.auditMetadata', audit, 'must be {username} and nothing else');
	}
}

/** The client-side timeout of one upload: longer than the parse timeout, so the service's 408 arrives first. */
export function httpTimeoutFor(options: IDataObject): number {
	const parseTimeout = typeof options.timeout === 'number' ? options.timeout : DEFAULT_TIMEOUT_MS;
	return parseTimeout + 30_000;
}
