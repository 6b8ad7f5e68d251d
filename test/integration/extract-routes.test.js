'use strict';
/**
 * Issue 43: a saved version-1 Extract node runs on the endpoints that live, against the fake in its
 * default mode, where /extract answers 410 as the hosted service does from 2026-12-10 15:00 UTC:
 * one page through Scrape with the JSON format, several through Batch Scrape, pages to find through
 * the Agent; Start and Get Status by the job's ID; the old endpoint only when chosen. Build first.
 */
const { NODE, useFakeApi, resourceRunner } = require('../helpers/resource-suite');
const { runWorkflow } = require('../helpers/workflow-runner');
const { CANARY_KEY, record } = require('../helpers/canary');
const { registerToolVariant } = require('../helpers/tool-variant');

jest.setTimeout(30000);

const api = useFakeApi({ timeScale: 10 });
const { run, workflow } = resourceRunner('extract', api);
const TOOL_TYPE = registerToolVariant();
const SCHEMA = { type: 'object', properties: { company: { type: 'string' }, plans: { type: 'array', items: { type: 'string' } } }, required: ['company'] };
const ref = (value) => ({ __rl: true, mode: 'id', value });
const paths = () => api.log.map((r) => `${r.method} ${r.path}`);
const idRead = (prefix) => api.requests({ method: 'GET', path: prefix })[0].path.split('/').pop();
const noExtract = () => expect(api.log.filter((r) => r.path.includes('/extract'))).toEqual([]);

describe('Run and Wait, saved with version 1', () => {
	test('one URL: one POST /v2/scrape with the JSON format (prompt and schema); the item has the data and says which endpoint ran it', async () => {
		const result = await run({ operation: 'runAndWait', urls: 'https://example.com/pricing', prompt: 'The company and its plans', outputShape: 'schema', jsonSchema: JSON.stringify(SCHEMA), options: { systemPrompt: 'Be brief.' }, scrapeOptions: { onlyMainContent: true } });
		expect(result.status).toBe('success');
		expect(paths()).toEqual(['POST /v2/scrape']);
		expect(api.log[0].body).toEqual({ url: 'https://example.com/pricing', onlyMainContent: true, formats: [{ type: 'json', prompt: 'Be brief.\n\nThe company and its plans', schema: SCHEMA }] });
		const [item] = result.items(NODE);
		expect(item.json).toMatchObject({ status: 'completed', data: { company: expect.any(String), plans: expect.any(Array) }, creditsUsed: 5 });
		expect(item.json.extractedWith).toEqual({ endpoint: 'POST /v2/scrape', reason: 'one known page' });
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	test('two URLs: one batch scrape, polled; one item whose data merges the pages, with sources per field', async () => {
		const urls = ['https://a.example.com', 'https://b.example.com'];
		const result = await run({ operation: 'runAndWait', urls: urls.join(', '), prompt: 'The company', outputShape: 'schema', jsonSchema: JSON.stringify(SCHEMA), options: { showSources: true, includeSubdomains: false }, maxWait: 30 });
		expect(result.status).toBe('success');
		noExtract();
		const [start] = api.requests({ method: 'POST', path: '/v2/batch/scrape' });
		expect(start.body).toEqual({ urls, formats: [{ type: 'json', prompt: 'The company', schema: SCHEMA }], ignoreInvalidURLs: true });
		const items = result.items(NODE);
		expect(items).toHaveLength(1);
		const { json } = items[0];
		expect(json.id).toBe(idRead('/v2/batch/scrape/'));
		expect(json.status).toBe('completed');
		expect(typeof json.data.company).toBe('string');
		// The first page (in URL order) with a company gives it; both pages gave one.
		expect(json.sources.company).toEqual(['https://a.example.com', 'https://b.example.com']);
		expect(json.extractedWith.endpoint).toBe('POST /v2/batch/scrape');
		expect(json.extractedWith.notes).toEqual(['Include Subdomains left out: they choose pages below a /* URL, and none was given.']);
		expect(json.creditsUsed).toBe(10);
	});

	test('Combine Pages "One Item per Page": an item per page in URL order, each with its URL', async () => {
		const urls = ['https://c.example.com', 'https://a.example.com', 'https://b.example.com'];
		const result = await run({ operation: 'runAndWait', urls: urls.join('\n'), prompt: 'The title', options: { combinePages: 'perPage' }, maxWait: 30 });
		expect(result.status).toBe('success');
		const items = result.items(NODE);
		expect(items.map((it) => it.json.url)).toEqual(urls);
		for (const it of items) {
			expect(it.json).toMatchObject({ status: 'completed', data: expect.any(Object), extractedWith: { endpoint: 'POST /v2/batch/scrape' } });
			expect(it.pairedItem).toEqual({ item: 0 });
		}
	});

	test('a /* URL: the agent, with the URL without /* and the scope in its prompt; its data is the item\'s', async () => {
		const result = await run({ operation: 'runAndWait', urls: 'https://docs.example.com/*', prompt: 'The company', outputShape: 'schema', jsonSchema: JSON.stringify(SCHEMA), options: { maxCredits: 300, ignoreSitemap: true }, maxWait: 30 });
		expect(result.status).toBe('success');
		noExtract();
		const [start] = api.requests({ method: 'POST', path: '/v2/agent' });
		expect(start.body).toEqual({
			prompt: 'The company\nRead the pages below https://docs.example.com/ as well.\nUse only pages of these sites.',
			urls: ['https://docs.example.com/'],
			schema: SCHEMA,
			maxCredits: 300,
		});
		const [item] = result.items(NODE);
		expect(item.json).toMatchObject({ id: idRead('/v2/agent/'), status: 'completed', data: { company: expect.any(String) } });
		expect(item.json.extractedWith).toEqual({
			endpoint: 'POST /v2/agent',
			reason: 'https://docs.example.com/* ends in /*: the pages below it have to be found',
			notes: ['Ignore Sitemap left out: the agent finds pages its own way.'],
		});
	});

	test('a /* URL with Scrape Options → Headers: refused naming the field, nothing sent', async () => {
		const result = await run({ operation: 'runAndWait', urls: 'https://docs.example.com/*', prompt: 'The company', scrapeOptions: { headers: { header: [{ name: 'X-Test', value: '1' }] } } });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/Scrape Options → Headers/);
		expect(api.log).toEqual([]);
	});

	test('under a credit budget of 4 the one-page extract (5 credits with the JSON format) is refused before sending', async () => {
		const wf = workflow({ operation: 'runAndWait', urls: 'https://example.com', prompt: 'The company' });
		const result = await runWorkflow(wf, { credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url, webhookSecret: '', creditBudget: 4 } } });
		record(result.error);
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/^Credit budget reached: .*at least 5 credits, and 4 of this execution's 4 are left/);
		expect(api.log).toEqual([]);
	});
});

describe('Start and Get Status, saved with version 1', () => {
	test('Start with one URL starts a batch scrape; Get Status reads it back by its ID and gives the data', async () => {
		let result = await run({ operation: 'start', urls: 'https://example.com', prompt: 'The company' });
		expect(result.status).toBe('success');
		const [started] = result.items(NODE);
		expect(paths()).toEqual(['POST /v2/batch/scrape']);
		expect(started.json).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), extractedWith: { endpoint: 'POST /v2/batch/scrape', reason: 'one known page, started as a job to read later' } });
		await new Promise((r) => setTimeout(r, 800));
		result = await run({ operation: 'getStatus', extractId: ref(started.json.id) });
		expect(result.status).toBe('success');
		const [status] = result.items(NODE);
		expect(status.json).toMatchObject({ id: started.json.id, status: 'completed', data: { answer: expect.any(String) }, sources: { answer: ['https://example.com'] } });
		expect(paths().filter((p) => p.startsWith('GET')).every((p) => p.startsWith(`GET /v2/batch/scrape/${started.json.id}`))).toBe(true);
	});

	test('Start with Enable Web Search starts an agent run; Get Status finds it after the batch read answers 404', async () => {
		let result = await run({ operation: 'start', urls: 'https://example.com', prompt: 'Founders FAKE_DURATION_MS=500', options: { enableWebSearch: true } });
		expect(result.status).toBe('success');
		const [started] = result.items(NODE);
		expect(started.json.extractedWith).toMatchObject({ endpoint: 'POST /v2/agent', reason: 'Enable Web Search is on' });
		result = await run({ operation: 'getStatus', extractId: ref(started.json.id) });
		expect(result.status).toBe('success');
		expect(api.log.slice(-2).map((r) => `${r.method} ${r.path.split('/')[2]} ${r.status}`)).toEqual(['GET batch 404', 'GET agent 200']);
		expect(result.items(NODE)[0].json).toMatchObject({ id: started.json.id, extractedWith: { endpoint: 'POST /v2/agent' } });
	});

	test('Get Status of a job started with /extract before the retirement: the error says the endpoint was retired on that date and what to use', async () => {
		const id = '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a';
		const result = await run({ operation: 'getStatus', extractId: ref(id) });
		expect(result.status).toBe('error');
		expect(api.log.map((r) => `${r.path.split('/')[2]} ${r.status}`)).toEqual(['batch 404', 'agent 404', 'extract 410']);
		expect(result.error.message).toBe(`The service retired the endpoint GET /v2/extract/${id} on Thursday 2026-12-10, 15:00 UTC (HTTP 410 Gone)`);
		expect(result.error.description).toContain('A job started with /extract before then can no longer be read.');
	});
});

describe('the old endpoint, only when the user chooses it', () => {
	test('a self-hosted server that still routes it: the old job, polled at /v2/extract/{id}', async () => {
		api.setExtract('routed');
		const result = await run({ operation: 'runAndWait', urls: 'https://example.com', prompt: 'The company', options: { endpoint: 'extract' }, maxWait: 30 });
		expect(result.status).toBe('success');
		expect(paths()[0]).toBe('POST /v2/extract');
		expect(result.items(NODE)[0].json).toMatchObject({ status: 'completed' });
	});
});

test('as a tool (version 2, the model fills URLs and prompt) the model gets the data from Scrape', async () => {
	const wf = {
		nodes: [
			{ id: 'n1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{ id: 'n2', name: 'Model Arguments', type: 'test.items', typeVersion: 1, position: [200, 0], parameters: { items: JSON.stringify([{ json: { urls: 'https://example.com', prompt: 'The company name' } }]) } },
			{ id: 'n3', name: NODE, type: TOOL_TYPE, typeVersion: 2, position: [400, 0], parameters: { resource: 'extract', operation: 'runAndWait' }, credentials: { webDataApi: { id: 'c1', name: 'Web Data account' } } },
		],
		connections: { Start: { main: [[{ node: 'Model Arguments', type: 'main', index: 0 }]] }, 'Model Arguments': { main: [[{ node: NODE, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
	const result = await runWorkflow(wf, { credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url, webhookSecret: '' } } });
	record(result.error);
	expect(result.status).toBe('success');
	expect(paths()).toEqual(['POST /v2/scrape']);
	expect(JSON.stringify(result.items(NODE)[0].json)).toMatch(/"data"/);
});
