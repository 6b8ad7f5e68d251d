'use strict';
/**
 * The node as an AI Agent's tool, in n8n's engine against the strict fake API.
 *
 * n8n (the server package) makes the tool variant of a usableAsTool node itself: type name +
 * "Tool", no main input, an ai_tool output; an agent calls it with the model's arguments as the
 * one input item, and `$fromAI(key)` reads them from that item. n8n-core alone has no agent, so
 * this suite registers a variant with the tool's type name (so `@tool` display options and the
 * node's tool mode apply) that keeps a main input: the Test Items node stands in for the model's
 * arguments. The real agent is proven by `npm run test:e2e:ai-agent`. Build first.
 */
const { runWorkflow } = require('../helpers/workflow-runner');
const { FENCE_START, FENCE_END } = require('../../dist/nodes/WebData/tool/toolResult');
const { CANARY_KEY, record } = require('../helpers/canary');
const { useFakeApi } = require('../helpers/resource-suite');
const { registerToolVariant } = require('../helpers/tool-variant');

jest.setTimeout(30000);

const TOOL_TYPE = registerToolVariant();

const api = useFakeApi({ timeScale: 10 });

const NODE = 'Web Data';

function workflow(type, parameters, args, typeVersion = 1) {
	return {
		nodes: [
			{ id: 'n1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{ id: 'n2', name: 'Model Arguments', type: 'test.items', typeVersion: 1, position: [200, 0], parameters: { items: JSON.stringify([{ json: args }]) } },
			{ id: 'n3', name: NODE, type, typeVersion, position: [400, 0], parameters, credentials: { webDataApi: { id: 'c1', name: 'Web Data account' } } },
		],
		connections: { Start: { main: [[{ node: 'Model Arguments', type: 'main', index: 0 }]] }, 'Model Arguments': { main: [[{ node: NODE, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

async function run(type, parameters, args = {}, typeVersion = 1) {
	const result = await runWorkflow(workflow(type, parameters, args, typeVersion), {
		credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url, webhookSecret: '' } },
	});
	record(result.error);
	if (result.status === 'success') record(result.items(NODE));
	return result;
}
const asTool = (parameters, args, typeVersion) => run(TOOL_TYPE, parameters, args, typeVersion);

/** What the agent hands the model: n8n sends JSON.stringify of the tool's items' json. */
const sentToModel = (result) => JSON.stringify(result.json(NODE));
const LONG_PAGE = 'https://example.com/fake-long-31000';

describe('Scrape as a tool', () => {
	test('a 31 KB page: one result within 16,000 characters, fenced, cut at a marker; the URL comes from $fromAI', async () => {
		const result = await asTool({ resource: 'scrape', operation: 'scrapeUrl' }, { url: LONG_PAGE, offset: 0 });
		expect(result.status).toBe('success');
		const [req] = api.requests({ method: 'POST', path: '/v2/scrape' });
		expect(req.body).toEqual({ url: LONG_PAGE, formats: ['markdown'] });
		const items = result.json(NODE);
		expect(items).toHaveLength(1);
		expect(sentToModel(result).length).toBeLessThanOrEqual(16_000);
		expect(items[0].url).toBe(LONG_PAGE);
		expect(items[0].contentLength).toBeGreaterThan(31_000); // "# <title>" + 31,000 characters
		expect(items[0].content.startsWith(`${FENCE_START}\n# `)).toBe(true);
		expect(items[0].content).toMatch(/\[Cut: characters 0–\d+ of 310\d\d shown\. For the rest, call this tool again with the same arguments and offset=\d+\.\]$/);
	});

	test('the offset the marker names continues the page where it was cut', async () => {
		const first = (await asTool({ resource: 'scrape', operation: 'scrapeUrl' }, { url: LONG_PAGE, offset: 0 })).json(NODE)[0];
		const offset = Number(/offset=(\d+)\.\]$/.exec(first.content)[1]);
		const second = (await asTool({ resource: 'scrape', operation: 'scrapeUrl' }, { url: LONG_PAGE, offset })).json(NODE)[0];
		const body = (c) => c.slice(FENCE_START.length + 1, c.indexOf(`\n${FENCE_END}`));
		// The pieces join without a gap or an overlap: the end of the first and the start of the second.
		const whole = (await run('n8n-nodes-webdata.webData', { resource: 'scrape', operation: 'scrapeUrl', url: LONG_PAGE }, {})).json(NODE)[0].markdown;
		expect(body(first.content) + body(second.content)).toBe(whole.slice(0, offset + body(second.content).length));
	});

	test('the regular node is unchanged: the whole page, every field', async () => {
		const result = await run('n8n-nodes-webdata.webData', { resource: 'scrape', operation: 'scrapeUrl', url: LONG_PAGE }, {});
		const [item] = result.json(NODE);
		expect(item.markdown.length).toBeGreaterThan(31_000);
		expect(item.content).toBeUndefined();
		expect(item.metadata).toBeDefined();
	});

	test('a budget out of range fails naming the field, and nothing is sent', async () => {
		const result = await asTool({ resource: 'scrape', operation: 'scrapeUrl', toolResultBudget: 10 }, { url: LONG_PAGE, offset: 0 });
		expect(result.status).toBe('error');
		expect(result.error.message).toBe('Tool Result Budget (Characters) 10 is not valid: a whole number from 1000 to 1000000');
		expect(api.requests()).toHaveLength(0);
	});

	test('a settable budget: 4,000 characters', async () => {
		const result = await asTool({ resource: 'scrape', operation: 'scrapeUrl', toolResultBudget: 4000 }, { url: LONG_PAGE, offset: 0 });
		expect(sentToModel(result).length).toBeLessThanOrEqual(4000);
		expect(sentToModel(result).length).toBeGreaterThan(3000);
	});
});

describe('Search as a tool', () => {
	test('without scraping: the results as they are, within the budget', async () => {
		const result = await asTool({ resource: 'search', operation: 'search' }, { query: 'vector databases', limit: 3, offset: 0, page: 0 });
		expect(result.status).toBe('success');
		const [req] = api.requests({ method: 'POST', path: '/v2/search' });
		expect(req.body).toEqual({ query: 'vector databases', limit: 3 });
		const [out] = result.json(NODE);
		expect(out.count).toBe(3);
		expect(out.results.map((r) => r.url)).toHaveLength(3);
	});

	test('with scraped results of 31 KB each: a compact list within the budget; page=2 gives that page', async () => {
		const params = { resource: 'search', operation: 'search', scrapeResults: true };
		const args = { query: 'fake-long-31000 pricing', limit: 5, offset: 0, page: 0 };
		const list = await asTool(params, args);
		expect(list.status).toBe('success');
		expect(sentToModel(list).length).toBeLessThanOrEqual(16_000);
		const [out] = list.json(NODE);
		expect(out.pages).toBe(5);
		expect(out.list).toHaveLength(5);
		expect(out.list[0].snippet.startsWith(FENCE_START)).toBe(true);
		const page = (await asTool(params, { ...args, page: 2 })).json(NODE)[0];
		expect(page).toMatchObject({ page: 2, pages: 5, url: out.list[1].url });
		expect(page.contentLength).toBeGreaterThan(31_000);
		expect(page.content).toMatch(/page=2 and offset=\d+\.\]$/);
	});
});

describe('Crawl and Batch Scrape as tools', () => {
	test('Crawl Run and Wait: a compact list, the job once; jobId + page read a page without crawling again', async () => {
		const params = { resource: 'crawl', operation: 'runAndWait' };
		const list = await asTool(params, { url: 'https://fake-long-31000.example.com/', limit: 5, offset: 0, page: 0, jobId: '' });
		expect(list.status).toBe('success');
		expect(sentToModel(list).length).toBeLessThanOrEqual(16_000);
		const [out] = list.json(NODE);
		expect(out.pages).toBe(5);
		expect(out.jobStatus).toBe('completed');
		expect(out.list.every((e) => e.jobId === undefined)).toBe(true);
		expect(api.requests({ method: 'POST', path: '/v2/crawl' })).toHaveLength(1);
		const page = await asTool(params, { url: 'https://fake-long-31000.example.com/', limit: 5, offset: 0, page: 4, jobId: out.jobId });
		expect(page.json(NODE)[0]).toMatchObject({ jobId: out.jobId, page: 4, url: out.list[3].url });
		expect(page.json(NODE)[0].contentLength).toBeGreaterThan(31_000);
		expect(api.requests({ method: 'POST', path: '/v2/crawl' })).toHaveLength(1); // no second crawl
	});

	test('Batch Scrape Run and Wait: several URLs in one field make one job', async () => {
		const urls = ['https://example.com/fake-long-31000/a', 'https://example.org/fake-long-31000/b', 'https://example.net/c'];
		const result = await asTool({ resource: 'batchScrape', operation: 'runAndWait' }, { urls: urls.join(', '), offset: 0, page: 0, jobId: '' });
		expect(result.status).toBe('success');
		const [req] = api.requests({ method: 'POST', path: '/v2/batch/scrape' });
		expect(req.body.urls).toEqual(urls);
		const [out] = result.json(NODE);
		expect(out.pages).toBe(3);
		expect(sentToModel(result).length).toBeLessThanOrEqual(16_000);
	});

	test('a jobId that is not a UUID fails naming the field, and nothing is sent', async () => {
		const result = await asTool({ resource: 'crawl', operation: 'runAndWait' }, { url: 'https://example.com/', limit: 5, offset: 0, page: 1, jobId: 'abc' });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/^Crawl website and wait failed: Read Finished Job ID "abc" is not valid: it must be a UUID.* Next step: Fix the "Read Finished Job ID" field/);
		expect(api.requests()).toHaveLength(0);
	});
});

describe('Map as a tool', () => {
	test('the links as records within the budget', async () => {
		const result = await asTool({ resource: 'map', operation: 'mapUrl' }, { url: 'https://example.com', offset: 0 });
		expect(result.status).toBe('success');
		const [out] = result.json(NODE);
		expect(out.count).toBeGreaterThan(1);
		expect(out.results[0].url).toMatch(/^https:\/\//);
	});
});

describe('errors as a tool (issue 16.3): the message carries code, fields, retry facts and the next step', () => {
	const SCRAPE = { resource: 'scrape', operation: 'scrapeUrl' };
	const details = [{ code: 'invalid_string', path: ['url'], message: 'Invalid URL' }];

	test('a 400: the fields the service named, not retryable, the next step; one request', async () => {
		api.fault({ method: 'POST', path: '/v2/scrape', statuses: [400], body: { success: false, code: 'BAD_REQUEST', error: 'Bad Request', details } });
		const result = await asTool(SCRAPE, { url: 'https://example.com/a', offset: 0 });
		expect(result.status).toBe('error');
		expect(result.error.message).toBe(
			'Scrape URL failed: Bad Request (HTTP 400, code BAD_REQUEST). Fields: url: Invalid URL. Retryable: no (the same call fails the same way). ' +
				'Next step: The service rejected the request as invalid. Check the fields named in the message.',
		);
		expect(api.requests({ method: 'POST', path: '/v2/scrape' })).toHaveLength(1);
	});

	test('the regular node keeps the short message and its description', async () => {
		api.fault({ method: 'POST', path: '/v2/scrape', statuses: [400], body: { success: false, code: 'BAD_REQUEST', error: 'Bad Request', details } });
		const result = await run('n8n-nodes-webdata.webData', { ...SCRAPE, url: 'https://example.com/a' }, {});
		expect(result.error.message).toBe('Bad Request');
		expect(result.error.description).toContain('Details: url: Invalid URL');
	});

	test('a 429 whose Retry-After passes the 15 s budget: not waited for, the model reads when to retry', async () => {
		api.fault({ method: 'POST', path: '/v2/scrape', statuses: [429], retryAfter: 20 });
		const t0 = Date.now();
		const result = await asTool(SCRAPE, { url: 'https://example.com/a', offset: 0 });
		expect(Date.now() - t0).toBeLessThan(5000);
		expect(result.error.message).toMatch(/^Scrape URL failed: Rate limit exceeded \(HTTP 429\)\. Retryable: yes; tried once; retry after 20 s \(the service's Retry-After\): waiting longer would pass this tool's 15 s time budget\. Next step: The rate limit/);
		expect(api.requests({ method: 'POST', path: '/v2/scrape' })).toHaveLength(1);
	});

	test('a 500 on every try: the model hears back within the 15 s budget, with the attempts and when to retry', async () => {
		api.fault({ method: 'POST', path: '/v2/scrape', statuses: [500], times: 10 });
		const t0 = Date.now();
		const result = await asTool(SCRAPE, { url: 'https://example.com/a', offset: 0 });
		const ms = Date.now() - t0;
		// The backoff is 2, 4, 8 s plus a random jitter under 1 s each: after waits of about 2.5 and 4.5 s
		// the next (8–9 s) fits the 15 s budget only when the jitters were small. So 3 or 4 tries; what the
		// product controls: no wait ends past the budget (the last try is sent within 15 s of the first),
		// and the message states the tries and the wait it did not make. The 5 s margin on the whole run
		// is for a busy machine.
		const tries = api.requests({ method: 'POST', path: '/v2/scrape' });
		expect([3, 4]).toContain(tries.length);
		expect(tries.at(-1).at - tries[0].at).toBeLessThanOrEqual(15_000);
		expect(ms).toBeLessThan(20_000);
		const next = tries.length === 3 ? '[89]' : '1[67]';
		expect(result.error.message).toMatch(new RegExp(`^Scrape URL failed: Internal Server Error \\(HTTP 500\\)\\. Retryable: yes; tried ${tries.length} times over \\d+ s; retry after ${next} s`));
		expect(result.error.message).toContain('Next step: The service failed with an internal error.');
	});

	test('a field that fails its rule: the model reads field, value and rule, and nothing is sent', async () => {
		const result = await asTool(SCRAPE, { url: 'example', offset: 0 });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/^Scrape URL failed: URL "example" is not valid: .+ Next step: Fix the "URL" field/);
		expect(api.requests()).toHaveLength(0);
	});
});

describe('every operation ready for a model (issue 36.3)', () => {
	test('Extract (a new node, version 2): the model gives URLs and Prompt; the data comes back', async () => {
		const result = await asTool({ resource: 'extract' }, { urls: 'https://example.com/', prompt: 'The title FAKE_DURATION_MS=20' }, 2);
		expect(result.status).toBe('success');
		// One known page: Scrape with the JSON format (issue 43), not the retired /extract.
		const [start] = api.requests({ method: 'POST', path: '/v2/scrape' });
		expect(start.body).toEqual({ url: 'https://example.com/', formats: [{ type: 'json', prompt: 'The title FAKE_DURATION_MS=20' }] });
		expect(sentToModel(result)).toMatch(/"status":"completed"/);
	});

	test('Agent (a new node, version 2): Run and Wait by default, the task from the model', async () => {
		const result = await asTool({ resource: 'agent', options: { maxCredits: 50 } }, { prompt: 'Find the founding year of Example Corp' }, 2);
		const [start] = api.requests({ method: 'POST', path: '/v2/agent' });
		expect(start.body.prompt).toBe('Find the founding year of Example Corp');
		expect(result.status).toBe('success');
	});

	test('Agent Get: the job ID is the model\'s (By ID), on version 1 too', async () => {
		const result = await asTool({ resource: 'agent', operation: 'get' }, { jobId: 'not-a-uuid' });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/^Get agent run failed: Job ID "not-a-uuid" is not valid/);
		expect(api.requests()).toHaveLength(0);
	});

	test('Parse File as a tool says the model cannot use it, and what to use instead; nothing is sent', async () => {
		const result = await asTool({ resource: 'parse' }, {}, 2);
		expect(result.status).toBe('error');
		expect(result.error.message).toBe(
			"Parse file failed: Parse File cannot run as a model's tool: it parses a file of the item the node gets, and a tool call carries no file. Next step: To read a public PDF or document, call a scrape tool with its URL. Nothing was sent to the service.",
		);
		expect(api.requests()).toHaveLength(0);
	});
});
