'use strict';
/**
 * "Custom Body Fields" (fields/customBody.ts) on every operation that sends a JSON body, in
 * n8n's engine against the strict fake API: what the fake received (the custom fields merged into
 * what the node builds), keys of the node's own fields refused with the field's name, values the
 * node's rules refuse not smuggled through, invalid JSON, and unknown keys answered by the
 * service's 400. Build first: `npm run build`.
 */
const { useFakeApi, resourceRunner } = require('../helpers/resource-suite');
const { runWorkflow } = require('../helpers/workflow-runner');
const { CANARY_KEY } = require('../helpers/canary');
const { registerToolVariant } = require('../helpers/tool-variant');

jest.setTimeout(30000);

const api = useFakeApi({ timeScale: 10 });
const runner = (resource) => resourceRunner(resource, api).run;
const scrape = runner('scrape');
const search = runner('search');
const map = runner('map');
const crawl = runner('crawl');
const batch = runner('batchScrape');
const extract = runner('extract');
const agent = runner('agent');
const monitor = runner('monitor');
const interact = runner('interact');

const posted = (path) => api.requests({ method: 'POST', path });
const custom = (value) => (typeof value === 'string' ? value : JSON.stringify(value));

describe('the custom fields reach the service, merged into the body the node builds', () => {
	test('Scrape: top-level fields beside the scrape options; an expression returning an object works', async () => {
		const result = await scrape(
			{ operation: 'scrapeUrl', url: 'https://example.com/a', scrapeOptions: { onlyMainContent: true }, options: { customBody: '={{ { "minAge": $json.age, "origin": "n8n-custom" } }}' } },
			{ items: [{ age: 3600000 }] },
		);
		expect(result.status).toBe('success');
		const [req] = posted('/v2/scrape');
		expect(req.status).toBe(200);
		expect(req.body).toEqual({ url: 'https://example.com/a', formats: ['markdown'], onlyMainContent: true, minAge: 3600000, origin: 'n8n-custom' });
		expect(result.items('Web Data')[0].pairedItem).toEqual({ item: 0 });
	});

	test('Search', async () => {
		const result = await search({ operation: 'search', query: 'vector databases', options: { customBody: custom({ highlights: true }) } });
		expect(result.status).toBe('success');
		const [req] = posted('/v2/search');
		expect(req.status).toBe(200);
		expect(req.body).toEqual({ query: 'vector databases', limit: 5, highlights: true });
	});

	test('Map', async () => {
		const result = await map({ operation: 'mapUrl', url: 'https://example.com', options: { limit: 10, customBody: custom({ origin: 'n8n-custom' }) } });
		expect(result.status).toBe('success');
		const [req] = posted('/v2/map');
		expect(req.status).toBe(200);
		expect(req.body).toEqual({ url: 'https://example.com', limit: 10, origin: 'n8n-custom' });
	});

	test('Crawl: a top-level field, and a new scrape option merged INTO the node\'s scrapeOptions', async () => {
		const result = await crawl({
			operation: 'start',
			url: 'https://example.com',
			pageLimit: 3,
			scrapeOptions: { onlyMainContent: true },
			options: { customBody: custom({ robotsUserAgent: 'AcmeBot', scrapeOptions: { minAge: 60000 } }) },
		});
		expect(result.status).toBe('success');
		const [req] = posted('/v2/crawl');
		expect(req.status).toBe(200);
		expect(req.body).toEqual({ url: 'https://example.com', limit: 3, robotsUserAgent: 'AcmeBot', scrapeOptions: { formats: ['markdown'], onlyMainContent: true, minAge: 60000 } });
	});

	test('Batch Scrape: read from the first item, for the one job', async () => {
		const result = await batch(
			{ operation: 'start', url: '={{ $json.link }}', options: { customBody: custom({ ignoreInvalidURLs: true, minAge: 1000 }) } },
			{ items: [{ link: 'https://example.com/1' }, { link: 'https://example.com/2' }] },
		);
		expect(result.status).toBe('success');
		const [req] = posted('/v2/batch/scrape');
		expect(req.status).toBe(200);
		expect(req.body).toEqual({ urls: ['https://example.com/1', 'https://example.com/2'], formats: ['markdown'], ignoreInvalidURLs: true, minAge: 1000 });
	});

	test('Extract', async () => {
		// Extract → Start runs a batch scrape with the JSON format: the custom field joins that body.
		const result = await extract({ operation: 'start', urls: 'https://example.com', prompt: 'The company name', options: { customBody: custom({ maxConcurrency: 2 }) } });
		expect(result.status).toBe('success');
		const [req] = posted('/v2/batch/scrape');
		expect(req.status).toBe(200);
		expect(req.body).toEqual({ urls: ['https://example.com'], formats: [{ type: 'json', prompt: 'The company name' }], ignoreInvalidURLs: true, maxConcurrency: 2 });
	});

	test('Agent', async () => {
		const result = await agent({ operation: 'start', prompt: 'Find the pricing of Acme', options: { customBody: custom({ effort: 'low' }) } });
		expect(result.status).toBe('success');
		const [req] = posted('/v2/agent');
		expect(req.status).toBe(200);
		expect(req.body).toEqual({ prompt: 'Find the pricing of Acme', effort: 'low' });
	});

	test('Monitor Create and Update', async () => {
		const created = await monitor({
			operation: 'create',
			name: 'Pricing',
			scheduleText: 'daily at 9am',
			timezone: 'UTC',
			targets: { scrape: [{ urls: 'https://example.com/pricing' }] },
			options: { customBody: custom({ origin: 'n8n-custom' }) },
		});
		expect(created.status).toBe('success');
		const [create] = posted('/v2/monitor');
		expect(create.status).toBe(200);
		expect(create.body.origin).toBe('n8n-custom');
		expect(create.body.name).toBe('Pricing');
		const id = created.items('Web Data')[0].json.id;

		const updated = await monitor({ operation: 'update', monitorId: { __rl: true, mode: 'id', value: id }, updateFields: { name: 'Prices', customBody: custom({ origin: 'n8n-update' }) } });
		expect(updated.status).toBe('success');
		const [patch] = api.requests({ method: 'PATCH' });
		expect(patch.status).toBe(200);
		expect(patch.body).toEqual({ name: 'Prices', origin: 'n8n-update' });
	});

	test('Interact: Start Session and Execute on a scraped page', async () => {
		const started = await interact({ operation: 'start', options: { ttl: 60, customBody: custom({ origin: 'n8n-custom' }) } });
		// The fake's session body is strict: the unknown key reaches it and its 400 names the problem.
		expect(started.status).toBe('error');
		const [session] = posted('/v2/interact');
		expect(session.body).toEqual({ ttl: 60, origin: 'n8n-custom' });
		expect(session.status).toBe(400);
		expect(started.error.message).toMatch(/Unrecognized key/);

		// A page scraped directly on the fake (not logged as the node's request).
		const res = await fetch(`${api.url}/v2/scrape`, { method: 'POST', headers: { Authorization: `Bearer ${CANARY_KEY}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ url: 'https://example.com/page' }) });
		const scrapeId = (await res.json()).data.metadata.scrapeId;
		const result = await interact({
			operation: 'execute',
			target: 'scrapeJob',
			scrapeJobId: { __rl: true, mode: 'id', value: scrapeId },
			code: 'return 1',
			options: { customBody: custom({ origin: 'n8n-custom' }) },
		});
		expect(result.status).toBe('success');
		const [req] = api.requests({ method: 'POST', path: `/v2/scrape/${scrapeId}/interact` });
		expect(req.status).toBe(200);
		expect(req.body).toEqual({ code: 'return 1', language: 'node', origin: 'n8n-custom' });
	});
});

describe('refused before any request, with an error that names the field or the option', () => {
	test.each([
		['Search: a key of a field, named by the field', search, { operation: 'search', query: 'x', options: { customBody: custom({ limit: 7 }) } }, /^Custom Body Fields: "limit" is set by the field "Limit" of this node$/],
		['Scrape: a field left empty is still the field\'s', scrape, { operation: 'scrapeUrl', url: 'https://example.com', options: { customBody: custom({ waitFor: 1000 }) } }, /"waitFor" is set by the field "Scrape Options → Wait For \(Milliseconds\)"/],
		['Scrape: a body key built from a field of another name', scrape, { operation: 'scrapeUrl', url: 'https://example.com', options: { customBody: custom({ location: { country: 'XX' } }) } }, /"location" is set by the field "Scrape Options → Location Country"/],
		['Map: a limit over the maximum cannot be smuggled (the Limit option not even added)', map, { operation: 'mapUrl', url: 'https://example.com', options: { customBody: custom({ limit: 500000 }) } }, /"limit" is set by the field "Options → Limit"/],
		['Crawl: a page limit over the maximum cannot be smuggled', crawl, { operation: 'start', url: 'https://example.com', options: { customBody: custom({ limit: 50000 }) } }, /"limit" is set by the field "Page Limit"/],
		['Crawl: nor a wait over 60 s inside scrapeOptions', crawl, { operation: 'start', url: 'https://example.com', options: { customBody: custom({ scrapeOptions: { waitFor: 120000 } }) } }, /"scrapeOptions.waitFor" is set by the field "Scrape Options → Wait For \(Milliseconds\)"/],
		['Crawl: scrapeOptions must stay an object', crawl, { operation: 'start', url: 'https://example.com', options: { customBody: custom({ scrapeOptions: 'x' }) } }, /"scrapeOptions" must be an object of scrape options/],
		['Scrape: no scrapeOptions object where the scrape options sit at the top level', scrape, { operation: 'scrapeUrl', url: 'https://example.com', options: { customBody: custom({ scrapeOptions: { minAge: 1 } }) } }, /"scrapeOptions": this operation sends its scrape options at the top level of the body/],
		['Crawl: the webhook belongs to the webhook and trigger options', crawl, { operation: 'start', url: 'https://example.com', options: { customBody: custom({ webhook: { url: 'https://hooks.example.com/x' } }) } }, /"webhook" is set by the field "Options → /],
		['Batch Scrape: urls come from the items', batch, { operation: 'start', url: 'https://example.com/1', options: { customBody: custom({ urls: ['https://example.com/2'] }) } }, /"urls" is set by the field "URL"/],
		['Extract: the schema belongs to Output Shape', extract, { operation: 'start', urls: 'https://example.com', prompt: 'x', options: { customBody: custom({ schema: { type: 'object' } }) } }, /"schema" is set by the field "Output/],
		['Agent: a credit cap over the field\'s rules', agent, { operation: 'start', prompt: 'x', options: { customBody: custom({ maxCredits: -5 }) } }, /"maxCredits" is set by the field "Options → Max Credits"/],
		['Monitor: 51 targets cannot be smuggled', monitor, { operation: 'create', name: 'M', scheduleText: 'daily at 9am', timezone: 'UTC', targets: { scrape: [{ urls: 'https://example.com' }] }, options: { customBody: custom({ targets: Array.from({ length: 51 }, () => ({ type: 'scrape', urls: ['https://example.com'] })) }) } }, /"targets" is set by the field "Targets/],
		['Monitor Update: retention over 365 days', monitor, { operation: 'update', monitorId: { __rl: true, mode: 'id', value: '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a' }, updateFields: { name: 'x', customBody: custom({ retentionDays: 1000 }) } }, /"retentionDays" is set by the field "Update Fields → Retention/],
		['Interact: a TTL over the maximum', interact, { operation: 'start', options: { customBody: custom({ ttl: 99999 }) } }, /"ttl" is set by the field "Options → Time to Live \(Seconds\)"/],
		['Scrape: a webhook with a header the service sets itself (a rule on the merged body)', scrape, { operation: 'scrapeUrl', url: 'https://example.com', options: { customBody: custom({ webhook: { url: 'https://hooks.example.com/x', headers: { 'X-Firecrawl-Signature': 'forged' } } }) } }, /"webhook.headers" → "X-Firecrawl-Signature" is not valid: header names starting with X-Firecrawl-/],
		['Scrape: webhook metadata that is not text (a rule on the merged body, issue 37)', scrape, { operation: 'scrapeUrl', url: 'https://example.com', options: { customBody: custom({ webhook: { url: 'https://hooks.example.com/x', metadata: { run: 1 } } }) } }, /"webhook.metadata.run" 1 is not valid: every value must be text/],
		['invalid JSON', scrape, { operation: 'scrapeUrl', url: 'https://example.com', options: { customBody: '{"origin": ' } }, /^Custom Body Fields: .* is not valid JSON/],
		['a list instead of an object', search, { operation: 'search', query: 'x', options: { customBody: '[{"origin": "x"}]' } }, /^Custom Body Fields: it must be a JSON object of body fields, not a list/],
		['a number from an expression', map, { operation: 'mapUrl', url: 'https://example.com', options: { customBody: '={{ 42 }}' } }, /^Custom Body Fields: it must be a JSON object of body fields, not 42/],
	])('%s', async (_name, run, parameters, pattern) => {
		const result = await run(parameters);
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(pattern);
		expect(result.error.description).toMatch(/Nothing was sent to the service/);
		expect(api.log).toHaveLength(0);
	});

	test('under Continue On Fail, the refused item becomes an error item paired with its input; the others go out', async () => {
		const result = await scrape(
			{ operation: 'scrapeUrl', url: '={{ $json.url }}', options: { customBody: '={{ $json.extra }}' } },
			{ items: [{ url: 'https://example.com/1', extra: '{"origin": "ok"}' }, { url: 'https://example.com/2', extra: '{"limit": ' }], node: { onError: 'continueRegularOutput' } },
		);
		expect(result.status).toBe('success');
		const items = result.items('Web Data');
		expect(items).toHaveLength(2);
		expect(items[1].json.error).toMatch(/Custom Body Fields: .* is not valid JSON/);
		expect(items[1].pairedItem).toEqual({ item: 1 });
		expect(posted('/v2/scrape').map((r) => r.body)).toEqual([{ url: 'https://example.com/1', formats: ['markdown'], origin: 'ok' }]);
	});
});

describe('as an AI Agent\'s tool', () => {
	// The tool variant as n8n makes it (type name + "Tool"), with a main input standing in for the
	// model's arguments (as in tool.test.js).
	const TOOL_TYPE = registerToolVariant();

	test('a value saved in the option is not read: the service gets the body the node builds', async () => {
		const { workflow, credentials } = resourceRunner('scrape', api);
		const wf = workflow({ operation: 'scrapeUrl', url: 'https://example.com/tool', options: { customBody: custom({ origin: 'from-the-option' }) } }, { node: { type: TOOL_TYPE } });
		const result = await runWorkflow(wf, { credentials: credentials() });
		expect(result.status).toBe('success');
		const [req] = posted('/v2/scrape');
		expect(req.body).toEqual({ url: 'https://example.com/tool', formats: ['markdown'] });
	});
});
