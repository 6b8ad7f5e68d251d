'use strict';
// Extract jobs (public OpenAPI /extract, /extract/{id}). Rules from the server's request schema
// `extractOptions` in firecrawl/firecrawl apps/api/src/controllers/v2/types.ts @ 81015eb1f2c2, its
// controllers extract.ts @ 358e5c4 and extract-status.ts @ 219d86f, and routes/v2.ts @ 4bcc2a3.
//
// A job is "processing" for durationMs (default 2000, divided by timeScale), then ends "completed"
// with `data` shaped by the schema (or {answer, sources} without one). Prompt markers:
//   FAKE_DURATION_MS=<ms>          the job's duration (before timeScale)
//   FAKE_OUTCOME=failed|cancelled  how the job ends (failed: error "Extract failed: fake outcome")
//   FAKE_DATA=empty|nulls          a completed job found nothing: `data` is {} (empty), or every
//                                  top-level field of the schema is null (nulls; {} without a schema)
// URL marker: `fake-blocked` = a URL the service will not fetch (403 unless ignoreInvalidURLs, which
// defaults to true: then it is listed in `invalidURLs` of the start answer and left out).
//
// Retirement (api-facts §7, the service's page "Migrating from /extract"): from 2026-12-10 15:00 UTC
// the hosted service answers every /v1|v2/extract route 410 Gone, and so does the fake by
// default (start option `extract: 'retired'`, api.setExtract()); `'routed'` is a server that still
// routes it, as the open-source server of 2026-08 does (and the hosted one until that date).
const { fail, badRequest, isUuid, isPlainObject, uuidv7, iso } = require('./util');
// made-up values in the schema's shape about the site (not "<field> from <url>"): research.js
const { extractResult } = require('./research');
const { str, int, bool, arr, obj, rec, custom, assertValid } = require('./validate');
const { checkScrapeOptions } = require('./scrapeOptions');

const DEFAULT_DURATION_MS = 2000;
const DAY = 24 * 3600 * 1000;
const JSON_SCHEMA_TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'];
const BLOCKED = 'We apologize for the inconvenience but we do not support this site. If you are part of an enterprise and want to have a further discussion about this possibility, please contact help@firecrawl.com';
const OPENAI_SCHEMA_ERROR =
	"Schema contains invalid structure for OpenAI: object type with no 'properties' defined but 'additionalProperties: true' (schema-less dictionary not supported by OpenAI). Please define specific properties for your object. Note: Recursive schemas using '$ref' are supported.";

/** URL schema of types.ts: absolute http(s) (a trailing /* glob passes the URL parser). */
const extractUrl = (v, p, out) => {
	if (typeof v !== 'string') return void out.push({ code: 'invalid_type', path: p, expected: 'string', message: 'Expected string' });
	let ok = false;
	try {
		const u = new URL(v);
		ok = (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
	} catch {
		ok = false;
	}
	if (!ok) out.push({ code: 'invalid_string', validation: 'url', path: p, message: 'Invalid URL' });
};

/**
 * `schema`: compiled by a bare Ajv (no formats: any `format` keyword fails to compile → "Invalid JSON
 * schema."), then validateSchemaForOpenAI (object without properties/patternProperties but with
 * additionalProperties: true → OPENAI_SCHEMA_ERROR).
 */
const extractSchemaCheck = (v, p, out) => {
	let compileProblem = false;
	let openAiProblem = false;
	(function walk(s, depth) {
		if (depth > 50) return;
		if (Array.isArray(s)) return void s.forEach((x) => walk(x, depth + 1));
		if (!isPlainObject(s)) return;
		const types = s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type];
		if (types.some((t) => !JSON_SCHEMA_TYPES.includes(t))) compileProblem = true;
		if (s.properties !== undefined && !isPlainObject(s.properties)) compileProblem = true;
		if (s.required !== undefined && !(Array.isArray(s.required) && s.required.every((x) => typeof x === 'string'))) compileProblem = true;
		if (typeof s.format === 'string') compileProblem = true;
		if (s.type === 'object' && s.properties === undefined && s.patternProperties === undefined && s.additionalProperties === true) openAiProblem = true;
		for (const [k, sub] of Object.entries(s)) if (!['enum', 'const', 'required', 'examples', 'default'].includes(k)) walk(sub, depth + 1);
	})(v, 0);
	if (v !== undefined && v !== null && !isPlainObject(v)) compileProblem = true;
	if (compileProblem) out.push(custom(p, 'Invalid JSON schema.'));
	else if (openAiProblem) out.push(custom(p, OPENAI_SCHEMA_ERROR));
};

const webhook = obj(
	{ url: str({ url: true }), headers: rec(str()), metadata: rec((v, p, out) => void v), events: arr(str({ enum: ['completed', 'page', 'failed', 'started'] })) },
	{ required: ['url'] },
);

const extractBody = obj(
	{
		urls: (v, p, out) => {
			arr(extractUrl)(v, p, out);
			if (Array.isArray(v) && v.length > 10) out.push(custom(p, 'Maximum of 10 URLs allowed per request while in beta.'));
		},
		prompt: str({ max: 10000 }),
		systemPrompt: str({ max: 10000 }),
		schema: extractSchemaCheck,
		limit: int({ min: 1 }),
		ignoreSitemap: bool(),
		includeSubdomains: bool(),
		allowExternalLinks: bool(),
		enableWebSearch: bool(),
		scrapeOptions: (v, p, out) => out.push(...checkScrapeOptions(v, p)),
		origin: str(),
		// integration: a string; null is refused (server controllers/v2/types.ts 000404f7: integrationSchema.optional(), no null).
		integration: str(),
		urlTrace: bool(),
		timeout: int({ min: 1000 }),
		agent: obj({ model: str() }),
		__experimental_streamSteps: bool(),
		__experimental_llmUsage: bool(),
		__experimental_showSources: bool(),
		showSources: bool(),
		__experimental_cacheKey: str(),
		__experimental_cacheMode: str({ enum: ['direct', 'save', 'load'] }),
		__experimental_showCostTracking: bool(),
		ignoreInvalidURLs: bool(),
		webhook,
		threatProtection: obj({}, { loose: true }),
	},
	{
		refine: (v, p, out) => {
			if (v.urls === undefined && v.prompt === undefined) out.push(custom(p, "Either 'urls' or 'prompt' must be provided."));
		},
	},
);

function markers(prompt) {
	const text = String(prompt ?? '');
	const d = /\bFAKE_DURATION_MS=(\d+)/.exec(text);
	const o = /\bFAKE_OUTCOME=(failed|cancelled)\b/.exec(text);
	const e = /\bFAKE_DATA=(empty|nulls)\b/.exec(text);
	return { durationMs: d ? Number(d[1]) : undefined, outcome: o ? o[1] : 'completed', data: e ? e[1] : undefined };
}

class ExtractJobs {
	constructor(state) {
		this.state = state;
		this.jobs = new Map();
	}

	reset() {
		this.jobs.clear();
	}

	create(request, urls) {
		const m = markers(request.prompt);
		const createdAt = Date.now();
		const id = uuidv7(createdAt);
		const job = { id, createdAt, request, urls, durationMs: this.state.scaled(m.durationMs ?? DEFAULT_DURATION_MS), outcome: m.outcome, data: m.data, polls: 0 };
		this.jobs.set(id, job);
		return job;
	}

	find(id) {
		// routes/v2.ts: validateJobIdParam; extract-status.ts: 404 "Extract job not found".
		if (!isUuid(id)) throw fail(400, 'Invalid job ID format. Job ID must be a valid UUID.');
		const job = this.jobs.get(id);
		if (!job) throw fail(404, 'Extract job not found');
		return job;
	}

	status(id) {
		const job = this.find(id);
		job.polls++;
		const done = Date.now() - job.createdAt >= job.durationMs;
		const status = done ? job.outcome : 'processing';
		const r = job.request;
		const body = { success: status !== 'failed', data: [], status, expiresAt: iso(job.createdAt + DAY) };
		if (status === 'completed') {
			const source = job.urls[0] || 'https://www.example.com/';
			if (job.data === 'empty' || (job.data === 'nulls' && !isPlainObject(r.schema?.properties))) body.data = {};
			else if (job.data === 'nulls') body.data = Object.fromEntries(Object.keys(r.schema.properties).map((k) => [k, null]));
			else body.data = r.schema ? extractResult({ prompt: r.prompt, schema: r.schema, urls: job.urls.length ? job.urls : [source] }) : { answer: `Extracted for: ${r.prompt ?? 'the given pages'}`, sources: job.urls };
			// Issue 35: tokens as the server bills them (lib/extract/usage/llm-cost.ts @ 61e38dc8
			// calculateFinalResultCost: 2 per character of the JSON result + 300; the LLM-cost part is 0
			// here). The credits the newest server reports (its creditsBilled) follow a rule not found in
			// the stored server code: a fixed 5 here.
			body.tokensUsed = Math.floor(JSON.stringify(body.data).length / 0.5 + 300);
			body.creditsUsed = 5;
			if (r.showSources) {
				body.sources = Object.fromEntries(Object.keys(isPlainObject(body.data) ? body.data : {}).map((k) => [k, job.urls.length ? job.urls : [source]]));
			}
		}
		if (status === 'failed') body.error = 'Extract failed: fake outcome';
		if (status === 'cancelled') body.error = 'Extract was cancelled';
		return { status: 200, body };
	}
}

/** The body of the 410 the hosted service answers on /extract after its retirement (its error text is not published: this one names the date and the replacements). */
const RETIRED = {
	success: false,
	error: 'The /extract endpoint was shut down on 2026-12-10 15:00 UTC. Use /v2/scrape with a json format, /v2/batch/scrape, or /v2/agent instead: https://docs.firecrawl.dev/migrating-from-extract',
};
const EXTRACT_MODES = ['retired', 'routed'];
const fail404 = () => {
	throw fail(404, 'Not Found');
};

function routes(state) {
	const jobs = new ExtractJobs(state);
	state.extractJobs = jobs;
	const initial = state.options.extract ?? 'retired';
	if (!EXTRACT_MODES.includes(initial)) throw new Error(`extract must be one of ${EXTRACT_MODES.join(', ')}`);
	state.extractMode = initial;
	state.setExtract = (mode) => {
		if (!EXTRACT_MODES.includes(mode)) throw new Error(`extract must be one of ${EXTRACT_MODES.join(', ')}`);
		state.extractMode = mode;
	};
	state.resetHooks.push(() => {
		jobs.reset();
		state.extractMode = initial;
	});
	const gone = () => state.extractMode === 'retired';
	return [
		// v1 routes exist only to answer 410 (the fake serves v2 otherwise).
		['POST', /^\/v1\/extract$/, () => (gone() ? { status: 410, body: RETIRED } : fail404())],
		['GET', /^\/v1\/extract\/([^/]+)$/, () => (gone() ? { status: 410, body: RETIRED } : fail404())],
		[
			'POST',
			/^\/v2\/extract$/,
			(ctx) => {
				if (gone()) return { status: 410, body: RETIRED };
				const body = ctx.json();
				if (!isPlainObject(body)) throw badRequest('Bad Request', [{ code: 'invalid_type', path: [], expected: 'object', message: 'Expected object' }]);
				assertValid(extractBody, body);
				// extract.ts: teams with forced zero data retention → 400.
				if (state.team.zdr)
					throw fail(400, 'Your team has zero data retention enabled. This is not supported on extract. Please contact support@firecrawl.com to unblock this feature.');
				if (body.agent?.model === 'v3-beta') throw fail(400, 'Use the new /agent endpoint instead of passing agent.model=v3-beta into /extract.');
				// routes/v2.ts @ 4bcc2a3: checkCreditsMiddleware(20).
				if (state.team.remainingCredits < 20) throw fail(402, 'Payment Required: Insufficient credits');
				const urls = body.urls ?? [];
				const blocked = urls.filter((u) => u.includes('fake-blocked'));
				const ignoreInvalid = body.ignoreInvalidURLs ?? true;
				if (blocked.length && !ignoreInvalid) throw fail(403, BLOCKED);
				const job = jobs.create(body, urls.filter((u) => !blocked.includes(u)));
				return { status: 200, body: { success: true, id: job.id, urlTrace: [], ...(blocked.length ? { invalidURLs: blocked } : {}) } };
			},
		],
		['GET', /^\/v2\/extract\/([^/]+)$/, (ctx, id) => (gone() ? { status: 410, body: RETIRED } : jobs.status(id))],
	];
}

module.exports = { routes, DEFAULT_DURATION_MS };
