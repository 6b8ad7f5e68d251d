import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

import { buildScrapeOptions } from '../../fields/scrapeOptions';
import type { RunContext } from '../../types';
import { reserveJob, startUnderBudget } from '../../budget/jobs';
import { startJob } from '../../jobs/start';
import { invalid, isHttpUrl } from '../../helpers/validation';
import { type ApiContext, apiRequest, defaultDeps, type TransportDeps } from '../../transport';
import { jsonSchemaProblem, outputShapeSchema, readMaxCredits, urlList } from '../agent/startRequest';
import { isPlainObject, withoutEnvelope } from '../../helpers/objects';
import { type CombinePages, isEmptyValue } from './combine';

// Extract's request rules, read in the server: nodes/FACTS.md "Server request rules" (Extract).

/** The server's cap on URLs per request. */
export const MAX_URLS = 10;
/** The server's cap on `prompt` and `systemPrompt`. */
export const MAX_PROMPT_LENGTH = 10_000;

export const EXTRACT_HINTS: Record<string, string> = {
	'404': 'No extract job has this ID for your team. Results are kept for 24 hours; check the Extract Job ID.',
	'text:Invalid job ID format': 'The Extract Job ID must be a UUID. Copy it from the output of the Start operation.',
	'text:zero data retention': 'Your team has zero data retention switched on, and Extract cannot run for such teams. Ask the service operator.',
	'text:Invalid JSON schema': 'The Schema is not valid JSON Schema for Extract. Fix it, or use "From a JSON Example".',
	'text:Schema contains invalid structure':
		'Every object in the Schema needs "properties": an object with only "additionalProperties": true (a free-form dictionary) is refused.',
	'402': 'Your team has not enough credits to start an extract job. Add credits and run again.',
	'403': 'The service will not fetch one of the URLs (an unsupported or blocked site). Remove it, or turn on Options → Ignore Invalid URLs to go on without it.',
};

/** Problems of a JSON Schema that POST /v2/extract refuses beyond jsonSchemaProblem (any `format`, free-form objects), with the path. */
export function extractSchemaProblem(schema: unknown, where = '#'): string | undefined {
	const basic = where === '#' ? jsonSchemaProblem(schema) : undefined;
	if (basic) return basic;
	if (Array.isArray(schema)) {
		for (const [n, sub] of schema.entries()) {
			const problem = extractSchemaProblem(sub, `${where}/${n}`);
			if (problem) return problem;
		}
		return undefined;
	}
	if (!isPlainObject(schema)) return undefined;
	if (schema.format !== undefined && typeof schema.format === 'string') {
		return `${where}/format "${schema.format}" is not accepted by Extract (remove "format"; describe the format in the prompt instead)`;
	}
	if (
		schema.type === 'object' &&
		schema.properties === undefined &&
		schema.patternProperties === undefined &&
		schema.additionalProperties === true
	) {
		return `${where} is an object with "additionalProperties": true and no "properties"; list its properties`;
	}
	for (const [key, sub] of Object.entries(schema)) {
		if (key === 'enum' || key === 'const' || key === 'required' || key === 'examples' || key === 'default') continue;
		if (sub !== null && typeof sub === 'object') {
			const problem = extractSchemaProblem(sub, `${where}/${key}`);
			if (problem) return problem;
		}
	}
	return undefined;
}

/** The parameters of Start / Run and Wait as the node holds them. */
export interface ExtractParameters {
	urls: unknown;
	prompt: unknown;
	outputShape: unknown;
	jsonSchema?: unknown;
	jsonExample?: unknown;
	options: IDataObject;
	scrapeOptions: IDataObject;
}

export function readExtractParameters(ctx: IExecuteFunctions, i: number): ExtractParameters {
	const outputShape = ctx.getNodeParameter('outputShape', i, 'free');
	const options = ctx.getNodeParameter('options', i, {});
	const scrapeOptions = ctx.getNodeParameter('scrapeOptions', i, {});
	return {
		urls: ctx.getNodeParameter('urls', i, ''),
		prompt: ctx.getNodeParameter('prompt', i, ''),
		outputShape,
		jsonSchema: outputShape === 'schema' ? ctx.getNodeParameter('jsonSchema', i, '') : undefined,
		jsonExample: outputShape === 'example' ? ctx.getNodeParameter('jsonExample', i, '') : undefined,
		options: isPlainObject(options) ? options : {},
		scrapeOptions: isPlainObject(scrapeOptions) ? scrapeOptions : {},
	};
}

const BOOLEAN_OPTIONS: Record<string, string> = {
	allowExternalLinks: 'Allow External Links',
	enableWebSearch: 'Enable Web Search',
	ignoreInvalidURLs: 'Ignore Invalid URLs',
	ignoreSitemap: 'Ignore Sitemap',
	includeSubdomains: 'Include Subdomains',
	showSources: 'Show Sources',
};

export const ENDPOINT_REPLACEMENTS = 'replacements';
export const ENDPOINT_EXTRACT = 'extract';

/** Extract's parameters, checked. */
export interface ExtractInput {
	urls: string[];
	prompt: string;
	systemPrompt?: string;
	schema?: IDataObject;
	options: IDataObject;
	scrape?: IDataObject;
	endpoint: string;
	combine: CombinePages;
	maxCredits?: number;
	legacyBody: IDataObject;
}

const ENDPOINTS = [ENDPOINT_REPLACEMENTS, ENDPOINT_EXTRACT];
const COMBINES: CombinePages[] = ['merge', 'perPage'];

/**
 * Every rule of Extract's fields, checked before anything is sent, with an error that names the
 * field; the body of POST /v2/extract holds only what the user set.
 */
export function checkExtractInput(node: INode, params: ExtractParameters, i: number): ExtractInput {
	const legacyBody: IDataObject = {};

	const urls = urlList(params.urls);
	const bad = urls.find((u) => !isHttpUrl(u)); // a trailing /* is allowed: it stays a valid URL
	if (bad !== undefined) {
		throw invalid(node, 'URLs', bad, 'each URL must be absolute and start with http:// or https:// (a trailing /* is allowed; separate several with commas)', i);
	}
	if (urls.length > MAX_URLS) {
		throw invalid(node, 'URLs', urls.join(', '), `there are ${urls.length}; at most ${MAX_URLS} URLs are allowed per extract job`, i);
	}
	if (urls.length) legacyBody.urls = urls;

	const prompt = typeof params.prompt === 'string' ? params.prompt.trim() : params.prompt == null ? '' : String(params.prompt).trim();
	if (prompt.length > MAX_PROMPT_LENGTH) {
		throw invalid(node, 'Prompt', prompt, `it has ${prompt.length} characters; at most ${MAX_PROMPT_LENGTH} are allowed`, i);
	}
	if (prompt) legacyBody.prompt = prompt;
	// The server accepts a prompt alone, though the OpenAPI marks urls required.
	if (!urls.length && !prompt) {
		throw invalid(node, 'URLs', '', 'give at least one URL, or a Prompt (the service then finds the pages)', i);
	}

	const schema = outputShapeSchema(node, params, i, {
		schemaField: 'Schema',
		schemaRule: 'it is not a JSON Schema Extract accepts',
		schemaProblem: extractSchemaProblem,
		exampleField: 'JSON Example',
		exampleSample: '{"company": "Acme", "supportsSso": true}',
	});
	if (schema) legacyBody.schema = schema;

	const o = params.options ?? {};
	const options: IDataObject = {};
	for (const [key, label] of Object.entries(BOOLEAN_OPTIONS)) {
		if (o[key] === undefined) continue;
		if (typeof o[key] !== 'boolean') throw invalid(node, label, o[key], 'true or false', i);
		legacyBody[key] = options[key] = o[key];
	}
	let systemPrompt: string | undefined;
	if (o.systemPrompt !== undefined && String(o.systemPrompt).trim() !== '') {
		systemPrompt = String(o.systemPrompt).trim();
		if (systemPrompt.length > MAX_PROMPT_LENGTH) {
			throw invalid(node, 'System Prompt', systemPrompt, `it has ${systemPrompt.length} characters; at most ${MAX_PROMPT_LENGTH} are allowed`, i);
		}
		legacyBody.systemPrompt = systemPrompt;
	}

	let scrape: IDataObject | undefined;
	if (Object.keys(params.scrapeOptions ?? {}).length) {
		scrape = buildScrapeOptions(node, { formats: ['markdown'], scrapeOptions: params.scrapeOptions }, i);
		delete scrape.formats; // Extract decides what it reads from each page
		if (Object.keys(scrape).length) legacyBody.scrapeOptions = scrape;
		else scrape = undefined;
	}

	const endpoint = o.endpoint === undefined || o.endpoint === '' ? ENDPOINT_REPLACEMENTS : o.endpoint;
	if (typeof endpoint !== 'string' || !ENDPOINTS.includes(endpoint)) {
		throw invalid(node, 'Options → Endpoint', endpoint, 'choose "Scrape, Batch Scrape or Agent" or "/extract (Self-Hosted Servers)"', i);
	}
	const combine = o.combinePages === undefined || o.combinePages === '' ? 'merge' : o.combinePages;
	if (!COMBINES.includes(combine as CombinePages)) {
		throw invalid(node, 'Options → Combine Pages', combine, 'choose "Merge Into One Item" or "One Item per Page"', i);
	}
	const maxCredits = readMaxCredits(node, 'Options → Max Credits (Agent)', o.maxCredits, i);
	return { urls, prompt, systemPrompt, schema, options, scrape, endpoint, combine: combine as CombinePages, maxCredits, legacyBody };
}

/** The body of POST /v2/extract from the node's parameters (Options → Endpoint "/extract"). */
export function buildExtractBody(node: INode, params: ExtractParameters, i: number): IDataObject {
	return checkExtractInput(node, params, i).legacyBody;
}

/** The job as one flat item: id first, then what the service returned (without `success`). */
export function extractItem(id: string, body: IDataObject): IDataObject {
	return { id, ...withoutEnvelope(body) };
}

/** POST /v2/extract → {id, invalidURLs?, …}. */
export async function startExtract(ctx: IExecuteFunctions, body: IDataObject, i: number, run?: RunContext): Promise<IDataObject> {
	await run?.transportDeps.budget?.ready();
	// How tokens become credits is not known (nodes/FACTS.md "Credits"): it needs a credit left, and
	// counts what the finished job reports.
	const reserved = reserveJob(run, { credits: 1, what: 'this extract', lower: 'extract from fewer URLs' }, i);
	return await startUnderBudget(reserved, i, async () => {
		const { id, answer } = await startJob(ctx, { method: 'POST', path: '/extract', body, itemIndex: i, hints: EXTRACT_HINTS }, run?.transportDeps ?? defaultDeps, {
			message: 'The service accepted the extract job but returned no job ID',
			description: 'The job may or may not have started; there is no way to list extract jobs, so check your credit usage before starting it again.',
		});
		return extractItem(id, answer);
	});
}

/** GET /v2/extract/{id} → {id, status, data, sources?, expiresAt, creditsUsed?, tokensUsed?, error?}. */
export async function getExtractJob(ctx: ApiContext, id: string, i: number, deps: TransportDeps = defaultDeps): Promise<IDataObject> {
	const body = await apiRequest<IDataObject>(ctx, { method: 'GET', path: `/extract/${id}`, itemIndex: i, hints: EXTRACT_HINTS }, deps);
	return extractItem(id, body);
}

/** What came back empty, in words: "data is {}", "every field of data is empty (company: null, …)". */
function describeEmpty(data: unknown): string {
	if (data === undefined || data === null) return 'the job completed without data';
	if (Array.isArray(data)) return data.length === 0 ? 'data is [] (an empty list)' : 'data is a list of empty values';
	if (isPlainObject(data)) {
		const keys = Object.keys(data);
		if (keys.length === 0) return 'data is {} (no fields)';
		const shown = keys.slice(0, 5).map((k) => `${k}: ${JSON.stringify(data[k])}`);
		return `every field of data is empty (${shown.join(', ')}${keys.length > 5 ? `, and ${keys.length - 5} more` : ''})`;
	}
	return `data is ${JSON.stringify(data)}`;
}

/** A note for a completed job whose data holds nothing (billed, so not an error): what came back empty and what to try. */
export function emptyResultNote(job: IDataObject, sent?: IDataObject): string | undefined {
	if (job.status !== 'completed' || !isEmptyValue(job.data)) return undefined;
	const tips: string[] = [];
	if (!sent) {
		tips.push(
			'a Prompt that names the facts to find and where they are on the pages',
			'a Schema whose property names (and descriptions) use the words of the pages, with fewer required properties',
			'URLs that open the pages holding the facts (a trailing /* reads the rest of a site; Options → Enable Web Search looks further)',
		);
	} else {
		tips.push(
			sent.prompt
				? 'Prompt: name the facts to find and where they are on the pages (e.g. "the plan names and prices in the pricing table")'
				: 'Prompt: add one that says what to find; a Schema alone tells the service little',
		);
		tips.push(
			sent.schema
				? 'Schema: use property names (and descriptions) in the words of the pages, and mark fewer properties required'
				: 'Schema: set Output Shape to a Schema or a JSON Example that names the fields to fill',
		);
		const urls = Array.isArray(sent.urls) ? sent.urls : [];
		const left = Array.isArray(job.invalidURLs) ? job.invalidURLs.map(String) : [];
		let urlTip = urls.length
			? 'URLs: open them and check that they hold the facts; a trailing /* reads the rest of a site, Options → Enable Web Search looks further'
			: 'URLs: give the pages that hold the facts (without URLs the service has to find them itself)';
		if (left.length) urlTip += `; the service left out ${left.length} URL(s) it would not fetch: ${left.join(', ')}`;
		tips.push(urlTip);
	}
	return `The extract job completed but found nothing: ${describeEmpty(job.data)}. Try ${tips.join('; ')}.`;
}
