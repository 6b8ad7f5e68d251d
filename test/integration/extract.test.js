'use strict';
/**
 * Extract with Options → Endpoint "/extract" (a self-hosted server that still routes it) end to end in
 * n8n's engine against the strict fake API (test/fake-api/extract.js, mode "routed"); the other
 * endpoints are in extract-routes.test.js.
 * Jobs last 2 s / timeScale (10 here); the prompt marker FAKE_DURATION_MS=<ms> sets a job's duration,
 * FAKE_OUTCOME=failed|cancelled how it ends. Every test asserts on what the fake received and on what
 * the items hold. Build first.
 */
const { CANARY_KEY } = require('../helpers/canary');
const { NODE, useFakeApi, resourceRunner } = require('../helpers/resource-suite');

jest.setTimeout(30000);

const api = useFakeApi({ timeScale: 10, extract: 'routed' });
const runner = resourceRunner('extract', api);
/** Start and Run and Wait choose the old endpoint; Get Status finds the job by its ID. */
const run = (params, opts) =>
	runner.run(params.operation === 'getStatus' ? params : { ...params, options: { endpoint: 'extract', ...(params.options ?? {}) } }, opts);
const UNKNOWN = '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a';
const ref = (value) => ({ __rl: true, mode: 'id', value });
const SCHEMA = { type: 'object', properties: { company: { type: 'string' }, supportsSso: { type: 'boolean' } }, required: ['company'] };

async function post(body) {
	const res = await fetch(`${api.url}/v2/extract`, { method: 'POST', headers: { Authorization: `Bearer ${CANARY_KEY}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
	return { status: res.status, body: await res.json() };
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

describe('Run and Wait', () => {
	test('sends URLs, prompt, schema, options and the nested scrape options; waits with the poller; one item with the data', async () => {
		const result = await run({
			operation: 'runAndWait',
			urls: 'https://example.com/*, https://fake-blocked.example.org',
			prompt: 'The company name and whether it offers SSO',
			outputShape: 'schema',
			jsonSchema: JSON.stringify(SCHEMA),
			options: { showSources: true, enableWebSearch: false, includeSubdomains: false },
			scrapeOptions: { onlyMainContent: true, timeout: 30000 },
			maxWait: 30,
		});
		expect(result.status).toBe('success');
		const [start] = api.requests({ method: 'POST', path: '/v2/extract' });
		expect(start.status).toBe(200);
		expect(start.body).toEqual({
			urls: ['https://example.com/*', 'https://fake-blocked.example.org'],
			prompt: 'The company name and whether it offers SSO',
			schema: SCHEMA,
			showSources: true,
			enableWebSearch: false,
			includeSubdomains: false,
			scrapeOptions: { onlyMainContent: true, timeout: 30000 },
		});
		const items = result.items(NODE);
		expect(items).toHaveLength(1);
		const job = items[0].json;
		expect(job).toMatchObject({ status: 'completed', data: { company: expect.any(String), supportsSso: true }, invalidURLs: ['https://fake-blocked.example.org'] });
		expect(job.sources).toEqual({ company: ['https://example.com/*'], supportsSso: ['https://example.com/*'] });
		expect(job.id).toMatch(/^[0-9a-f-]{36}$/);
		expect(job.success).toBeUndefined();
		expect(items[0].pairedItem).toEqual({ item: 0 });
		// The one poller: the first status read ~1 s after the start, then until completed.
		const polls = api.requests({ method: 'GET', path: `/v2/extract/${job.id}` });
		expect(polls.length).toBeGreaterThanOrEqual(1);
		expect(polls.length).toBeLessThanOrEqual(3);
		expect(polls.every((r) => r.status === 200)).toBe(true);
		expect(polls[0].at - start.at).toBeGreaterThanOrEqual(500); // ~1 s after the node began the start (wide margin for a slow start request)
	});

	test('each item runs its own job (URL from an expression), paired to its item, in order', async () => {
		const result = await run(
			{ operation: 'runAndWait', urls: '={{ $json.url }}', prompt: 'The page title', maxWait: 30 },
			{ items: [{ url: 'https://a.example.com' }, { url: 'https://b.example.com' }] },
		);
		expect(result.status).toBe('success');
		const bodies = api.requests({ method: 'POST', path: '/v2/extract' }).map((r) => r.body.urls);
		expect(bodies.sort()).toEqual([['https://a.example.com'], ['https://b.example.com']]);
		const items = result.items(NODE);
		expect(items.map((it) => it.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(items.map((it) => it.json.data.sources)).toEqual([['https://a.example.com'], ['https://b.example.com']]);
	});

	test('On Timeout "Return Last Status" (the default) outputs the processing status', async () => {
		const result = await run({ operation: 'runAndWait', urls: 'https://example.com', prompt: 'FAKE_DURATION_MS=600000 slow', maxWait: 1 });
		expect(result.status).toBe('success');
		const [item] = result.items(NODE);
		expect(item.json).toMatchObject({ status: 'processing', data: [] });
		expect(item.json.id).toMatch(/^[0-9a-f-]{36}$/);
		expect(api.requests({ method: 'GET' }).length).toBeGreaterThanOrEqual(1);
	});

	test('On Timeout "Fail" stops with an error naming the job; under Continue On Fail an error item with its id', async () => {
		let result = await run({ operation: 'runAndWait', urls: 'https://example.com', prompt: 'FAKE_DURATION_MS=600000 slow', maxWait: 1, onTimeout: 'fail' });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/The extract job did not finish within Max Wait \(1 s\)/);
		expect(result.error.description).toMatch(/Extract → Get Status/);
		api.reset();
		result = await run(
			{ operation: 'runAndWait', urls: 'https://example.com', prompt: 'FAKE_DURATION_MS=600000 slow', maxWait: 1, onTimeout: 'fail' },
			{ node: { onError: 'continueRegularOutput' } },
		);
		expect(result.status).toBe('success');
		const [item] = result.items(NODE);
		expect(item.json.error).toMatch(/did not finish within Max Wait/);
		expect(item.json).toMatchObject({ status: 'processing' });
		expect(item.json.id).toBe(api.requests({ method: 'GET' })[0].path.split('/').pop());
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	test('a failed job is an error with the service\'s message; Continue On Fail makes it an item and the next item goes on', async () => {
		const result = await run(
			{ operation: 'runAndWait', urls: 'https://example.com', prompt: '={{ $json.prompt }}', maxWait: 30 },
			{ items: [{ prompt: 'FAKE_OUTCOME=failed please' }, { prompt: 'fine' }], node: { onError: 'continueRegularOutput' } },
		);
		expect(result.status).toBe('success');
		const items = result.items(NODE);
		expect(items).toHaveLength(2);
		expect(items[0].json.error).toBe('The extract job ended with status "failed": Extract failed: fake outcome');
		expect(items[0].json.status).toBe('failed');
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[1].json.status).toBe('completed');
		expect(items[1].pairedItem).toEqual({ item: 1 });
	});

	test('"Cancel and Fail" (possible in saved JSON) is refused before sending: extract jobs cannot be cancelled', async () => {
		const result = await run({ operation: 'runAndWait', urls: 'https://example.com', onTimeout: 'cancelAndFail' });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/^On Timeout "cancelAndFail" is not valid/);
		expect(api.log).toHaveLength(0);
	});

	test.each([
		['no URLs and no prompt', {}, /^URLs "" is not valid/],
		['a URL without a scheme', { urls: 'example.com' }, /^URLs "example.com"/],
		['11 URLs', { urls: Array.from({ length: 11 }, (_, n) => `https://e${n}.example.com`).join(',') }, /at most 10 URLs/],
		['a schema with "format"', { urls: 'https://example.com', outputShape: 'schema', jsonSchema: '{"type":"object","properties":{"mail":{"type":"string","format":"email"}}}' }, /^Schema .*format "email"/],
		['a dictionary without properties', { urls: 'https://example.com', outputShape: 'schema', jsonSchema: '{"type":"object","additionalProperties":true}' }, /^Schema /],
		['Max Wait 0', { urls: 'https://example.com', maxWait: 0 }, /^Max Wait/],
		['a bad scrape option', { urls: 'https://example.com', scrapeOptions: { waitFor: 70000, timeout: 60000 } }, /Wait For/],
	])('bad input (%s) → an error naming the field, zero requests', async (_name, params, pattern) => {
		const result = await run({ operation: 'runAndWait', ...params });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(pattern);
		expect(api.log).toHaveLength(0);
	});
});

describe('the strict fake rejects what the node guards (so those guards matter)', () => {
	test.each([
		['a schema with "format"', { urls: ['https://example.com'], schema: { type: 'object', properties: { m: { type: 'string', format: 'email' } } } }, 'Invalid JSON schema.'],
		['a dictionary without properties', { prompt: 'x', schema: { type: 'object', additionalProperties: true } }, /^Schema contains invalid structure for OpenAI/],
		['11 URLs', { urls: Array.from({ length: 11 }, (_, n) => `https://e${n}.example.com`) }, 'Maximum of 10 URLs allowed per request while in beta.'],
		['neither urls nor prompt', {}, "Either 'urls' or 'prompt' must be provided."],
		['scrape formats at the top level', { urls: ['https://example.com'], formats: ['markdown'] }, /^Unrecognized key in body/],
	])('%s → 400', async (_name, body, error) => {
		const res = await post(body);
		expect(res.status).toBe(400);
		expect(res.body.code).toBe('BAD_REQUEST');
		if (typeof error === 'string') expect(res.body.error).toBe(error);
		else expect(res.body.error).toMatch(error);
	});
});

describe('Start and Get Status', () => {
	test('Start returns the id at once (one request); Get Status reads the job until it is completed', async () => {
		let result = await run({ operation: 'start', prompt: 'Founders of Example Inc.', options: { enableWebSearch: true } });
		expect(result.status).toBe('success');
		const [started] = result.items(NODE);
		expect(started.json.id).toMatch(/^[0-9a-f-]{36}$/);
		expect(started.json.success).toBeUndefined();
		expect(api.log.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['POST /v2/extract 200']);
		expect(api.log[0].body).toEqual({ prompt: 'Founders of Example Inc.', enableWebSearch: true });

		result = await run({ operation: 'getStatus', extractId: ref(started.json.id) });
		expect(result.items(NODE)[0].json).toMatchObject({ id: started.json.id, status: 'processing', data: [] });
		await sleep(300);
		result = await run({ operation: 'getStatus', extractId: ref(started.json.id) });
		const [status] = result.items(NODE);
		expect(status.json).toMatchObject({ id: started.json.id, status: 'completed', data: { answer: 'Extracted for: Founders of Example Inc.' } });
		expect(status.json.success).toBeUndefined();
		// Get Status looks for a batch, then an agent run (both 404 here, free), then the /extract job.
		const reads = [`/v2/batch/scrape/${started.json.id}`, `/v2/agent/${started.json.id}`, `/v2/extract/${started.json.id}`];
		expect(api.requests({ method: 'GET' }).map((r) => r.path)).toEqual([...reads, ...reads]);
	});

	test('an unknown job: 404 with a hint; under Continue On Fail an error item with httpStatus 404', async () => {
		let result = await run({ operation: 'getStatus', extractId: ref(UNKNOWN) });
		expect(result.status).toBe('error');
		expect(`${result.error.message} ${result.error.description}`).toMatch(/No extract job has this ID/);
		expect(api.log.map((r) => `${r.status} ${r.path.split('/')[2]}`)).toEqual(['404 batch', '404 agent', '404 extract']);
		result = await run({ operation: 'getStatus', extractId: ref(UNKNOWN) }, { node: { onError: 'continueRegularOutput' } });
		const [item] = result.items(NODE);
		expect(item.json).toMatchObject({ httpStatus: 404, retryable: false });
		expect(item.json.description).toMatch(/No extract job has this ID/);
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	test('a non-UUID Extract Job ID: error naming the field, zero requests', async () => {
		const result = await run({ operation: 'getStatus', extractId: ref('not-a-uuid') });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/Extract Job ID/);
		expect(api.log).toHaveLength(0);
	});

	// issue 37: a value saved as plain text (not the locator) skips the locator's own check.
	test('a non-UUID Extract Job ID saved as plain text: error naming the field, zero requests', async () => {
		const result = await run({ operation: 'getStatus', extractId: 'not-a-uuid' });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/^Extract Job ID "not-a-uuid" is not valid: it must be a UUID/);
		expect(api.log).toHaveLength(0);
	});

	test('a 400 of the service (zero-data-retention team) fails with its hint, not retried', async () => {
		api.setTeam({ zdr: true });
		const result = await run({ operation: 'start', urls: 'https://example.com' });
		expect(result.status).toBe('error');
		expect(result.error.description).toMatch(/zero data retention switched on/);
		expect(api.log.map((r) => r.status)).toEqual([400]);
	});

	test('a blocked URL with Ignore Invalid URLs off: 403 with a hint', async () => {
		const result = await run({ operation: 'start', urls: 'https://fake-blocked.example.com', options: { ignoreInvalidURLs: false } });
		expect(result.status).toBe('error');
		expect(api.log[0].body).toEqual({ urls: ['https://fake-blocked.example.com'], ignoreInvalidURLs: false });
		expect(api.log.map((r) => r.status)).toEqual([403]);
		expect(result.error.description).toMatch(/Ignore Invalid URLs/);
	});
});

describe('an empty result says so (issue 24.4): a field on the item, not an error', () => {
	test('data {} → emptyResult names what came back empty and what to try about the prompt, schema and URLs given', async () => {
		const result = await run(
			{
				operation: 'runAndWait',
				urls: 'https://example.com/pricing, https://fake-blocked.example.org',
				prompt: 'FAKE_DATA=empty The plan names',
				outputShape: 'schema',
				jsonSchema: JSON.stringify(SCHEMA),
				maxWait: 30,
			},
			{ items: [{ n: 1 }, { n: 2 }] },
		);
		expect(result.status).toBe('success');
		const items = result.items(NODE);
		expect(items.map((it) => it.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		const [job] = items.map((it) => it.json);
		expect(job).toMatchObject({ status: 'completed', data: {} });
		expect(job.error).toBeUndefined();
		expect(job.emptyResult).toMatch(/^The extract job completed but found nothing: data is \{\} \(no fields\)\. Try /);
		expect(job.emptyResult).toMatch(/Prompt: name the facts to find/);
		expect(job.emptyResult).toMatch(/Schema: use property names/);
		expect(job.emptyResult).toMatch(/URLs: open them and check/);
		expect(job.emptyResult).toMatch(/left out 1 URL\(s\) it would not fetch: https:\/\/fake-blocked\.example\.org/);
		// The service was asked what the user gave: the note does not come from a different request.
		const starts = api.requests({ method: 'POST', path: '/v2/extract' });
		expect(starts.map((r) => r.body.schema)).toEqual([SCHEMA, SCHEMA]);
	});

	test('every schema field null → the note lists the fields that came back empty', async () => {
		const result = await run({ operation: 'runAndWait', urls: 'https://example.com', prompt: 'FAKE_DATA=nulls', outputShape: 'schema', jsonSchema: JSON.stringify(SCHEMA), maxWait: 30 });
		const [item] = result.items(NODE);
		expect(item.json.data).toEqual({ company: null, supportsSso: null });
		expect(item.json.emptyResult).toMatch(/every field of data is empty \(company: null, supportsSso: null\)/);
	});

	test('Get Status of a completed empty job gives the general advice; a job with data has no emptyResult field', async () => {
		let result = await run({ operation: 'start', urls: 'https://example.com', prompt: 'FAKE_DATA=empty FAKE_DURATION_MS=100' });
		const id = result.items(NODE)[0].json.id;
		await sleep(100);
		result = await run({ operation: 'getStatus', extractId: ref(id) });
		const [status] = result.items(NODE);
		expect(status.json).toMatchObject({ status: 'completed', data: {} });
		expect(status.json.emptyResult).toMatch(/found nothing: data is \{\}.*a Prompt that names the facts.*a Schema whose property names.*URLs that open the pages/);

		result = await run({ operation: 'runAndWait', urls: 'https://example.com', prompt: 'The page title', maxWait: 30 });
		const [full] = result.items(NODE);
		expect(full.json.status).toBe('completed');
		expect(full.json).not.toHaveProperty('emptyResult');
	});
});
