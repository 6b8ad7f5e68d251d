'use strict';
/**
 * Batch Scrape end to end in n8n's engine against the strict fake API (test/fake-api/crawl.js):
 * every input item's URL in ONE job, ScrapeOptions at the TOP LEVEL of the body, pages paired back
 * to the item whose URL they came from. Build first.
 */
const { CANARY_KEY } = require('../helpers/canary');
const { NODE, useFakeApi, resourceRunner, pollsAndPageReads } = require('../helpers/resource-suite');

jest.setTimeout(30000);

const api = useFakeApi({ timeScale: 10 });
const { run } = resourceRunner('batchScrape', api);
const UNKNOWN = '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a';
const ref = (value) => ({ __rl: true, mode: 'id', value });

const URLS = ['https://example.com/a', 'https://example.org/b', 'https://example.net/c', 'https://example.com/d', 'https://example.com/a'];

describe('Run and Wait', () => {
	test('ONE job with every item URL; ScrapeOptions at the TOP LEVEL beside urls; pages paired to their input item', async () => {
		const result = await run(
			{
				operation: 'runAndWait',
				url: '={{ $json.link }}',
				formats: ['markdown', 'html'],
				scrapeOptions: { onlyMainContent: false, locationCountry: 'FR', locationLanguages: 'fr' },
				options: { maxConcurrency: 3, webhookUrl: 'https://hooks.example.com/b', webhookEvents: ['completed'], zeroDataRetention: false },
				maxWait: 30,
			},
			{ items: URLS.map((link) => ({ link })) },
		);
		expect(result.status).toBe('success');
		const posts = api.requests({ method: 'POST', path: '/v2/batch/scrape' });
		expect(posts).toHaveLength(1);
		expect(posts[0].status).toBe(200);
		expect(posts[0].body).toEqual({
			urls: URLS,
			formats: ['markdown', 'html'],
			onlyMainContent: false,
			location: { country: 'FR', languages: ['fr'] },
			maxConcurrency: 3,
			webhook: { url: 'https://hooks.example.com/b', events: ['completed'] },
			zeroDataRetention: false,
		});
		const items = result.items(NODE);
		expect(items).toHaveLength(5);
		// Pages come in job order; each is paired to the item whose URL it is (the repeated URL in turn).
		expect(items.map((it) => [it.json.url, it.pairedItem])).toEqual(URLS.map((u, k) => [u, { item: k }]));
		expect(items.every((it) => typeof it.json.html === 'string' && it.json.jobStatus === 'completed')).toBe(true);
		// 5 pages at 3 per response: the page after the last poll followed one next link.
		expect(api.requests({ method: 'GET' }).filter((r) => r.query.skip === '3')).toHaveLength(1);
	});

	test('polls ask for one document at most (limit=1); the pages are then read from the start, limit=100, following next (issue 18.4)', async () => {
		const urls = URLS.map((u, k) => `${u.replace(/\/$/, '')}/fake-duration-40000/${k}`); // 4 s here
		const result = await run({ operation: 'runAndWait', url: '={{ $json.link }}', maxWait: 30 }, { items: urls.map((link) => ({ link })) });
		expect(result.status).toBe('success');
		expect(result.items(NODE)).toHaveLength(5);
		const gets = api.requests({ method: 'GET' }).filter((r) => r.path.startsWith('/v2/batch/scrape/'));
		const { polls, reads } = pollsAndPageReads(gets);
		expect(reads.map((r) => [r.query.skip, r.documents])).toEqual([[undefined, 3], ['3', 2]]);
		expect(Math.min(...reads.map((r) => r.seq))).toBeGreaterThan(Math.max(...polls.map((r) => r.seq)));
	});

	test('pairing follows the URL, not the position: a failing page leaves a gap', async () => {
		const links = ['https://x.example.com/1', 'https://x.example.com/fake-page-error', 'https://x.example.com/3'];
		const result = await run({ operation: 'runAndWait', url: '={{ $json.link }}', maxWait: 30 }, { items: links.map((link) => ({ link })) });
		const items = result.items(NODE);
		expect(items.map((it) => [it.json.url, it.pairedItem])).toEqual([
			[links[0], { item: 0 }],
			[links[2], { item: 2 }],
		]);
	});

	test('Continue On Fail: an invalid URL becomes an error item paired to its input; the valid ones still go', async () => {
		const result = await run(
			{ operation: 'runAndWait', url: '={{ $json.link }}', maxWait: 30 },
			{ items: [{ link: 'https://example.com/one' }, { link: 'not-a-url' }, { link: 'https://example.com/three' }], node: { onError: 'continueRegularOutput' } },
		);
		expect(result.status).toBe('success');
		expect(api.requests({ method: 'POST' })[0].body).toEqual({ urls: ['https://example.com/one', 'https://example.com/three'], formats: ['markdown'] });
		const items = result.items(NODE);
		expect(items[0].json.error).toMatch(/URL "not-a-url" is not valid/);
		expect(items[0].pairedItem).toEqual({ item: 1 });
		expect(items.slice(1).map((it) => it.pairedItem)).toEqual([{ item: 0 }, { item: 2 }]);
	});

	test('On Timeout "Return Last Status": one status item marked timedOut, paired to every input (issue 15.3)', async () => {
		const links = [{ link: 'https://t.example.com/a/fake-duration-600000' }, { link: 'https://t.example.com/b' }];
		const result = await run({ operation: 'runAndWait', url: '={{ $json.link }}', maxWait: 1 }, { items: links });
		expect(result.status).toBe('success');
		const items = result.items(NODE);
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ status: 'scraping', total: 2, timedOut: true });
		expect(items[0].json.message).toMatch(/^The batch scrape did not finish within Max Wait \(1 s\)/);
		expect(items[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }]);
		expect(api.requests({ method: 'DELETE' })).toHaveLength(0);
	});

	test('without Continue On Fail an invalid URL stops the node before anything is sent', async () => {
		const result = await run({ operation: 'runAndWait', url: '={{ $json.link }}' }, { items: [{ link: 'https://example.com/ok' }, { link: 'ftp://example.com/x' }] });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/URL "ftp:\/\/example.com\/x" is not valid/);
		expect(api.log).toHaveLength(0);
	});

	test.each([
		[{ options: { maxConcurrency: 0 } }, /Max Concurrency/],
		[{ options: { webhookUrl: 'hooks' } }, /Webhook URL/],
		[{ scrapeOptions: { waitFor: -5 } }, /Wait For/],
		// issue 14 (fields/serverRules.ts)
		[{ scrapeOptions: { waitFor: 60001 } }, /Wait For \(Milliseconds\) 60001 is not valid: at most 60000 ms/],
		[{ scrapeOptions: { timeout: 20000, waitFor: 15000 } }, /Wait For \(Milliseconds\) 15000 is not valid: at most half of the timeout/],
		[{ options: { webhookUrl: 'https://h.example.com/hook', webhookMetadata: '{"run": 42}' } }, /Webhook Metadata → run 42 is not valid: every value must be text/],
		[{ formats: ['json'], jsonSchema: '{"type":"object","additionalProperties":true}' }, /JSON Schema .* is not valid: the schema itself is an object/],
		[{ maxWait: 100000 }, /Max Wait/],
	])('bad option %j → error naming the field, zero requests', async (params, pattern) => {
		const result = await run({ operation: 'runAndWait', url: '={{ $json.link }}', ...params }, { items: [{ link: 'https://example.com/ok' }] });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(pattern);
		expect(api.log).toHaveLength(0);
	});

	test('the strict fake rejects a nested scrapeOptions in a batch body (what the top-level test guards)', async () => {
		const res = await fetch(`${api.url}/v2/batch/scrape`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${CANARY_KEY}`, 'Content-Type': 'application/json' },
			body: JSON.stringify({ urls: ['https://example.com'], scrapeOptions: { formats: ['markdown'] } }),
		});
		expect(res.status).toBe(400);
	});
});

describe('Start, Get Status, Get Errors, Cancel', () => {
	test('Start: one job, one item paired to every input item', async () => {
		const result = await run({ operation: 'start', url: '={{ $json.link }}' }, { items: [{ link: 'https://a.example.com' }, { link: 'https://b.example.com/fake-duration-600000' }] });
		const [item] = result.items(NODE);
		expect(item.json).toMatchObject({ urls: 2 });
		expect(item.json.id).toMatch(/^[0-9a-f-]{36}$/);
		expect(item.pairedItem).toEqual([{ item: 0 }, { item: 1 }]);
		expect(api.log.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v2/batch/scrape']);

		const id = item.json.id;
		let r = await run({ operation: 'getStatus', batchId: ref(id), return: 'status' });
		expect(r.items(NODE)[0].json).toMatchObject({ id, status: 'scraping', total: 2 });
		r = await run({ operation: 'cancel', batchId: ref(id) });
		expect(r.items(NODE)[0].json).toEqual({ id, status: 'cancelled' });
		expect(api.requests({ method: 'DELETE' })[0].path).toBe(`/v2/batch/scrape/${id}`);
		r = await run({ operation: 'getStatus', batchId: ref(id), return: 'status' });
		expect(r.items(NODE)[0].json.status).toBe('cancelled');
	});

	test('Get Status pages and Get Errors', async () => {
		const start = await run({ operation: 'start', url: '={{ $json.link }}' }, { items: ['1', 'fake-page-error', '3', '4'].map((p) => ({ link: `https://e.example.com/${p}` })) });
		const id = start.items(NODE)[0].json.id;
		await new Promise((r) => setTimeout(r, 400));
		let r = await run({ operation: 'getStatus', batchId: ref(id), output: 'compact' });
		expect(r.items(NODE).map((it) => it.json.url)).toEqual(['https://e.example.com/1', 'https://e.example.com/3', 'https://e.example.com/4']);
		r = await run({ operation: 'getErrors', batchId: ref(id) });
		expect(r.items(NODE)[0].json.errors).toEqual([expect.objectContaining({ url: 'https://e.example.com/fake-page-error' })]);
	});

	test('Get Status on a running batch (issue 15.1): the pages finished so far, a handful of requests, no loop', async () => {
		const links = Array.from({ length: 8 }, (_, k) => ({ link: `https://r.example.com/${k}/fake-duration-40000` })); // 4 s here
		const start = await run({ operation: 'start', url: '={{ $json.link }}' }, { items: links });
		const id = start.items(NODE)[0].json.id;
		await new Promise((r) => setTimeout(r, 1500));
		api.log.length = 0;
		const r = await run({ operation: 'getStatus', batchId: ref(id) });
		expect(r.status).toBe('success');
		const items = r.items(NODE);
		expect(items.length).toBeGreaterThan(0);
		expect(items.length).toBeLessThan(8);
		for (const item of items) expect(item.json.jobStatus).toBe('scraping');
		// the service pages 3 documents here (the fake's PAGE_SIZE); at most one empty page more
		expect(api.requests({ method: 'GET' }).length).toBeLessThanOrEqual(Math.ceil(items.length / 3) + 1);
	});

	test('unknown job → 404 hint; non-UUID → no request', async () => {
		let r = await run({ operation: 'getErrors', batchId: ref(UNKNOWN) });
		expect(`${r.error.message} ${r.error.description}`).toMatch(/No batch scrape has this ID/);
		api.log.length = 0;
		r = await run({ operation: 'getStatus', batchId: ref('123') });
		expect(r.error.message).toMatch(/Batch Job ID/);
		expect(api.log).toHaveLength(0);
	});
});

describe('Start → Send Events to Web Data Trigger (issue 18.2)', () => {
	test('the job of all items is started with its webhook on the trigger (token header, events, run metadata)', async () => {
		const url = 'http://127.0.0.1:9/webhook/8c1d5e2f-3a7b-4c9d-b0e1-6f2a4d8c7b35/webhook';
		const result = await run(
			{
				operation: 'start',
				url: '={{ $json.link }}',
				options: { sendToTrigger: { trigger: { url, token: 'tok-b', events: ['page'] } }, runMetadata: { values: [{ name: 'batch', value: 'b-1' }] } },
			},
			{ items: [{ link: 'https://example.com/a' }, { link: 'https://example.com/b' }] },
		);
		expect(result.status).toBe('success');
		const posts = api.requests({ method: 'POST', path: '/v2/batch/scrape' });
		expect(posts).toHaveLength(1);
		expect(posts[0].status).toBe(200);
		expect(posts[0].body.webhook).toEqual({ url, headers: { 'X-WebData-Trigger-Token': 'tok-b' }, events: ['page'], metadata: { batch: 'b-1' } });
	});

	test('a token missing → an error naming Trigger Token, zero requests', async () => {
		const result = await run({ operation: 'start', url: 'https://example.com/a', options: { sendToTrigger: { trigger: { url: 'https://n8n.example.com/webhook/x/webhook', token: '' } } } });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/^Trigger Token "" is not valid: it is required/);
		expect(api.log).toHaveLength(0);
	});
});
