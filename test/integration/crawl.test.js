'use strict';
/**
 * Crawl resource end to end in n8n's engine against the strict fake API (test/fake-api/crawl.js).
 * Jobs run 2 s / timeScale (10 here); the URL marker fake-duration-<ms> sets a job's duration.
 * Every test asserts on what the fake received and on what the items hold. Build first.
 */
const { runWorkflow } = require('../helpers/workflow-runner');
const { PAGE_SIZE } = require('../fake-api/crawl');
const { CANARY_KEY, record } = require('../helpers/canary');
const { NODE, useFakeApi, resourceRunner, pollsAndPageReads } = require('../helpers/resource-suite');

jest.setTimeout(30000);

const api = useFakeApi({ timeScale: 10 });
const { credentials, workflow, run } = resourceRunner('crawl', api);
const UNKNOWN = '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a';
const ref = (value) => ({ __rl: true, mode: 'id', value });

async function startDirect(body) {
	const res = await fetch(`${api.url}/v2/crawl`, { method: 'POST', headers: { Authorization: `Bearer ${CANARY_KEY}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
	expect(res.status).toBe(200);
	return (await res.json()).id;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

describe('Run and Wait', () => {
	test('sends the crawl options at the top level and the scrape options NESTED in scrapeOptions; follows next; one item per page', async () => {
		const result = await run({
			operation: 'runAndWait',
			url: 'https://example.com',
			pageLimit: 7,
			options: {
				maxDiscoveryDepth: 3,
				excludePaths: 'legal/.*, careers',
				sitemap: 'skip',
				allowSubdomains: true,
				allowExternalLinks: false,
				delay: 0.5,
				maxConcurrency: 2,
				webhookUrl: 'https://hooks.example.com/crawl',
				webhookEvents: ['page', 'completed'],
				webhookMetadata: '{"source":"n8n"}',
			},
			formats: ['markdown', 'links'],
			scrapeOptions: { onlyMainContent: true, locationCountry: 'DE' },
			maxWait: 30,
		});
		expect(result.status).toBe('success');
		const [start] = api.requests({ method: 'POST', path: '/v2/crawl' });
		expect(start.status).toBe(200);
		expect(start.body).toEqual({
			url: 'https://example.com',
			limit: 7,
			maxDiscoveryDepth: 3,
			excludePaths: ['legal/.*', 'careers'],
			sitemap: 'skip',
			allowSubdomains: true,
			allowExternalLinks: false,
			delay: 0.5,
			maxConcurrency: 2,
			webhook: { url: 'https://hooks.example.com/crawl', events: ['page', 'completed'], metadata: { source: 'n8n' } },
			scrapeOptions: { formats: ['markdown', 'links'], onlyMainContent: true, location: { country: 'DE' } },
		});
		const items = result.items(NODE);
		expect(items).toHaveLength(7);
		const id = start.path && JSON.parse(JSON.stringify(items[0].json)).jobId;
		expect(items.every((it) => it.json.jobId === id && typeof it.json.markdown === 'string' && Array.isArray(it.json.links))).toBe(true);
		expect(items.map((it) => it.json.url)[0]).toBe('https://example.com');
		expect(new Set(items.map((it) => it.json.url)).size).toBe(7);
		expect(items.every((it) => JSON.stringify(it.pairedItem) === JSON.stringify({ item: 0 }))).toBe(true);
		// Paging: the page reads after the last status poll followed ?skip= links.
		const pageReads = api.requests({ method: 'GET', path: `/v2/crawl/${id}` }).filter((r) => r.query.skip !== undefined);
		expect(pageReads.map((r) => r.query.skip)).toEqual([String(PAGE_SIZE), String(2 * PAGE_SIZE)]);
	});

	// Issue 18.4: a poll used to download the documents finished so far (up to 10 MiB) only to look at `status`.
	test('polls ask for one document at most (limit=1); the pages are then read from the start, limit=100, following next', async () => {
		const result = await run({ operation: 'runAndWait', url: 'https://example.com/fake-duration-40000', pageLimit: 8, maxWait: 30 }); // 4 s here
		expect(result.status).toBe('success');
		const items = result.items(NODE);
		expect(items).toHaveLength(8);
		expect(new Set(items.map((it) => it.json.url)).size).toBe(8);
		const id = items[0].json.jobId;
		const gets = api.requests({ method: 'GET', path: `/v2/crawl/${id}` });
		// Pages were finished while it polled (1 s and 4.75 s into a 4 s crawl): a poll without the limit got them all.
		const { polls, reads } = pollsAndPageReads(gets);
		expect(reads.map((r) => [r.query.skip, r.documents])).toEqual([[undefined, 3], ['3', 3], ['6', 2]]);
		expect(Math.max(...reads.map((r) => r.seq))).toBe(Math.max(...gets.map((r) => r.seq)));
		expect(Math.min(...reads.map((r) => r.seq))).toBeGreaterThan(Math.max(...polls.map((r) => r.seq)));
	});

	test('the strict fake rejects scrape options at the top level of a crawl body (what the nesting test guards)', async () => {
		const res = await fetch(`${api.url}/v2/crawl`, { method: 'POST', headers: { Authorization: `Bearer ${CANARY_KEY}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ url: 'https://example.com', formats: ['markdown'] }) });
		expect(res.status).toBe(400);
	});

	test('sends only what the user set (Limit and the default format)', async () => {
		const result = await run({ operation: 'runAndWait', url: 'https://example.com/docs', maxWait: 30, output: 'compact' });
		expect(result.status).toBe('success');
		expect(api.requests({ method: 'POST', path: '/v2/crawl' })[0].body).toEqual({ url: 'https://example.com/docs', limit: 10, scrapeOptions: { formats: ['markdown'] } });
		const [first] = result.items(NODE);
		expect(Object.keys(first.json).sort()).toEqual(['jobId', 'jobStatus', 'markdown', 'title', 'url'].sort());
	});

	test('On Timeout "Return Last Status" outputs the running status', async () => {
		const result = await run({ operation: 'runAndWait', url: 'https://example.com/fake-duration-600000', maxWait: 1 });
		expect(result.status).toBe('success');
		const [item] = result.items(NODE);
		expect(item.json).toMatchObject({ status: 'scraping', timedOut: true }); // marked as Agent's (issue 15.3)
		expect(item.json.message).toMatch(/^The crawl did not finish within Max Wait \(1 s\): status "scraping", \d+ of \d+ pages done\. .*Crawl → Get Status/);
		expect(Date.parse(item.json.waitedUntil)).toBeGreaterThan(Date.now() - 30_000);
		expect(api.requests({ method: 'DELETE' })).toHaveLength(0);
	});

	test('On Timeout "Cancel and Fail" cancels the crawl and fails', async () => {
		const result = await run({ operation: 'runAndWait', url: 'https://example.com/fake-duration-600000', maxWait: 1, onTimeout: 'cancelAndFail' });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/did not finish within Max Wait \(1 s\) and was cancelled/);
		const [del] = api.requests({ method: 'DELETE' });
		expect(del.status).toBe(200);
		const id = del.path.split('/').pop();
		const status = await (await fetch(`${api.url}/v2/crawl/${id}`, { headers: { Authorization: `Bearer ${CANARY_KEY}` } })).json();
		expect(status.status).toBe('cancelled');
	});

	test('a failed crawl is an error (an error item under Continue On Fail)', async () => {
		const result = await run(
			{ operation: 'runAndWait', url: 'https://example.com/fake-job-fail', maxWait: 30 },
			{ node: { onError: 'continueRegularOutput' } },
		);
		expect(result.status).toBe('success');
		const [item] = result.items(NODE);
		expect(item.json.error).toMatch(/ended with status "failed"/);
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	test.each([
		[{ url: 'example.com' }, /URL "example.com" is not valid/],
		[{ url: 'ftp://example.com' }, /URL/],
		[{ pageLimit: 0 }, /^Page Limit 0 is not valid/],
		[{ pageLimit: 10001 }, /^Page Limit 10001 is not valid/],
		[{ options: { maxDiscoveryDepth: -1 } }, /Max Discovery Depth/],
		[{ options: { includePaths: 'blog/(' } }, /Include Paths "blog\/\(" is not valid/],
		[{ options: { delay: -1 } }, /Delay \(Seconds\)/],
		// issue 14: rules of the server's crawl schema (fields/serverRules.ts)
		[{ options: { delay: 0 } }, /Delay \(Seconds\) 0 is not valid: a number of seconds above 0 and at most 60/],
		[{ options: { delay: 61 } }, /Delay \(Seconds\) 61 is not valid/],
		[{ options: { includePaths: 'blog/(?=2025).*' } }, /Include Paths "blog\/\(\?=2025\)\.\*" is not valid: look-ahead and look-behind/],
		[{ options: { excludePaths: '(?<!docs)/private' } }, /Exclude Paths .* is not valid: look-ahead and look-behind/],
		[{ options: { excludePaths: '(a)\\1' } }, /Exclude Paths .* is not valid: backreferences/],
		[{ options: { includePaths: Array.from({ length: 1001 }, (_, n) => `p${n}/.*`).join(',') } }, /Include Paths "1001 patterns" is not valid: at most 1000 patterns/],
		[{ options: { includePaths: 'a'.repeat(2001) } }, /Include Paths .* is not valid: each pattern may have at most 2000 characters/],
		[{ options: { includePaths: Array.from({ length: 600 }, (_, n) => `i${n}`).join(','), excludePaths: Array.from({ length: 401 }, (_, n) => `e${n}`).join(',') } }, /Include Paths \/ Exclude Paths "1001 patterns" is not valid: .*together take at most 1000 patterns/],
		[{ options: { webhookUrl: 'https://h.example.com', webhookMetadata: '{"attempt": 1}' } }, /Webhook Metadata → attempt 1 is not valid: every value must be text/],
		[{ options: { webhookUrl: 'https://h.example.com', webhookMetadata: '{"tags": ["a"]}' } }, /Webhook Metadata → tags/],
		[{ scrapeOptions: { waitFor: 40000, timeout: 60000 } }, /Wait For \(Milliseconds\) 40000 is not valid: at most half of the timeout/],
		[{ scrapeOptions: { locationCountry: 'XX' } }, /Location Country "XX" is not valid/],
		[{ options: { maxConcurrency: 0 } }, /Max Concurrency/],
		[{ options: { webhookUrl: 'not a url' } }, /Webhook URL/],
		[{ options: { webhookEvents: ['page'] } }, /Webhook URL/],
		[{ options: { webhookUrl: 'https://h.example.com', webhookMetadata: '[1]' } }, /Webhook Metadata/],
		[{ maxWait: 0 }, /Max Wait/],
		[{ onTimeout: 'later' }, /On Timeout/],
		[{ scrapeOptions: { timeout: 5 } }, /Timeout/],
	])('bad input %j → an error naming the field, zero requests', async (params, pattern) => {
		const result = await run({ operation: 'runAndWait', url: 'https://example.com', ...params });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(pattern);
		expect(api.log).toHaveLength(0);
	});
});

describe('Start, Get Status, Get Errors, Cancel, Get Active', () => {
	test('Start returns the id at once', async () => {
		const result = await run({ operation: 'start', url: 'https://example.com', pageLimit: 3, options: { includePaths: 'docs/.*' } });
		expect(result.status).toBe('success');
		const [item] = result.items(NODE);
		expect(item.json.id).toMatch(/^[0-9a-f-]{36}$/);
		expect(api.log.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v2/crawl']);
		expect(api.log[0].body).toEqual({ url: 'https://example.com', limit: 3, includePaths: ['docs/.*'], scrapeOptions: { formats: ['markdown'] } });
	});

	test('Get Status reads every page through next; Status Only reads one', async () => {
		const id = await startDirect({ url: 'https://example.com', limit: 8 });
		await sleep(400);
		let result = await run({ operation: 'getStatus', crawlId: ref(id) });
		expect(result.items(NODE)).toHaveLength(8);
		expect(api.requests({ method: 'GET' }).map((r) => r.query.skip)).toEqual([undefined, '3', '6']);
		api.log.length = 0;
		result = await run({ operation: 'getStatus', crawlId: ref(id), return: 'status' });
		const items = result.items(NODE);
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ id, status: 'completed', total: 8, completed: 8 });
		expect(items[0].json.data).toBeUndefined();
		expect(api.log).toHaveLength(1);
		// Status Only needs no documents: the smallest page (issue 18.4); the pages read ask for 100 a page.
		expect(api.log[0]).toMatchObject({ query: { limit: '1' }, documents: 1 });
	});

	test('Get Status pages: every read asks for limit=100, the next links carry it on; Status Only asks for limit=1', async () => {
		const id = await startDirect({ url: 'https://example.com', limit: 8 });
		await sleep(400);
		await run({ operation: 'getStatus', crawlId: ref(id) });
		expect(api.requests({ method: 'GET' }).map((r) => [r.query.skip, r.query.limit])).toEqual([[undefined, '100'], ['3', '100'], ['6', '100']]);
	});

	// Issue 15.1: the service puts `next` on every page of a running job, an empty one too; the node
	// used to follow it up to 1000 times for one status read.
	test('Get Status on a running crawl: the pages finished so far, then stop (a handful of requests, no loop)', async () => {
		const id = await startDirect({ url: 'https://example.com/fake-duration-60000', limit: 10 }); // 6 s here
		await sleep(1500);
		const result = await run({ operation: 'getStatus', crawlId: ref(id) });
		expect(result.status).toBe('success');
		const items = result.items(NODE);
		const gets = api.requests({ method: 'GET', path: `/v2/crawl/${id}` });
		const pagesWithDocuments = Math.ceil(items.length / PAGE_SIZE);
		expect(items.length).toBeGreaterThan(0);
		expect(items.length).toBeLessThan(10);
		expect(gets.length).toBeLessThanOrEqual(pagesWithDocuments + 1);
		for (const item of items) expect(item.json.jobStatus).toBe('scraping');
		// The fake behaves like the service: the last page read still carries a cursor.
		const last = await (await fetch(`${api.url}${gets[gets.length - 1].path}?skip=${items.length}`, { headers: { Authorization: `Bearer ${CANARY_KEY}` } })).json();
		expect(last).toMatchObject({ status: 'scraping', data: [] });
		expect(last.next).toMatch(new RegExp(`/v2/crawl/${id}\\?skip=${items.length}$`));
	});

	test('Get Status on a crawl with no page finished yet: one request, one item saying it is still running', async () => {
		const id = await startDirect({ url: 'https://example.com/fake-duration-600000', limit: 10 });
		const result = await run({ operation: 'getStatus', crawlId: ref(id) });
		expect(result.status).toBe('success');
		const items = result.items(NODE);
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({ id, status: 'scraping', completed: 0, total: 10 });
		expect(items[0].json.message).toMatch(/^The crawl is still running \(status "scraping", 0 of 10 pages done\)/);
		expect(items[0].json.next).toBeUndefined();
		expect(api.requests({ method: 'GET' })).toHaveLength(1);
	});

	test('Get Errors, Cancel, Get Active', async () => {
		const id = await startDirect({ url: 'https://example.com/fake-duration-600000', limit: 5 });
		let result = await run({ operation: 'getActive' });
		expect(result.items(NODE).map((it) => it.json.id)).toEqual([id]);
		result = await run({ operation: 'getErrors', crawlId: ref(id) });
		expect(result.items(NODE)[0].json).toMatchObject({ id, errors: [], robotsBlocked: ['https://example.com/admin'] });
		result = await run({ operation: 'cancel', crawlId: ref(id) });
		expect(result.items(NODE)[0].json).toEqual({ id, status: 'cancelled' });
		expect(api.requests({ method: 'DELETE' })[0].path).toBe(`/v2/crawl/${id}`);
		result = await run({ operation: 'getActive' });
		expect(result.items(NODE)).toHaveLength(0);
	});

	test('an unknown crawl: 404 with a hint; a non-UUID ID: error naming the field, zero requests', async () => {
		let result = await run({ operation: 'getStatus', crawlId: ref(UNKNOWN) });
		expect(result.status).toBe('error');
		expect(`${result.error.message} ${result.error.description}`).toMatch(/No crawl has this ID/);
		api.log.length = 0;
		result = await run({ operation: 'cancel', crawlId: ref('abc') });
		expect(result.error.message).toMatch(/Crawl ID/);
		expect(api.log).toHaveLength(0);
	});
});

describe('Hints', () => {
	test('402 (no credits) names what to do', async () => {
		api.setTeam({ remainingCredits: 0 });
		const result = await run({ operation: 'start', url: 'https://example.com' });
		expect(result.status).toBe('error');
		expect(result.error.description).toMatch(/not enough credits for this crawl/);
		expect(api.requests({ method: 'POST' })[0].status).toBe(402);
	});
});

describe('Preview Parameters', () => {
	test('sends url and prompt, outputs the derived options', async () => {
		const result = await run({ operation: 'previewParams', url: 'https://example.com', prompt: 'Only the blog, no sitemap' });
		expect(api.log[0].body).toEqual({ url: 'https://example.com', prompt: 'Only the blog, no sitemap' });
		expect(result.items(NODE)[0].json).toEqual({ url: 'https://example.com', includePaths: ['blog/.*'], sitemap: 'skip' });
	});
	test('an empty prompt is refused before sending', async () => {
		const result = await run({ operation: 'previewParams', url: 'https://example.com', prompt: '  ' });
		expect(result.error.message).toMatch(/Prompt/);
		expect(api.log).toHaveLength(0);
	});
});

describe('Start → Send Events to Web Data Trigger (issue 18.2)', () => {
	// A closed local port: the fake's deliveries fail at once (the trigger itself: test/integration/trigger.test.js).
	const TRIGGER_URL = 'http://127.0.0.1:9/webhook/8c1d5e2f-3a7b-4c9d-b0e1-6f2a4d8c7b35/webhook';
	const sendToTrigger = (trigger) => ({ sendToTrigger: { trigger: { url: TRIGGER_URL, token: 'tok-abc', ...trigger } } });
	const runMetadata = (...pairs) => ({ runMetadata: { values: pairs.map(([name, value]) => ({ name, value })) } });

	test('the crawl is started with its webhook on the trigger: URL, token header, events, run metadata (an expression per item)', async () => {
		const result = await run(
			{ operation: 'start', url: 'https://docs.example.com/', pageLimit: 3, options: { ...sendToTrigger({ events: ['page', 'completed'] }), ...runMetadata(['run', '={{ $json.run }}'], ['attempt', '={{ 2 }}']) } },
			{ items: [{ run: 'nightly-7' }] },
		);
		expect(result.status).toBe('success');
		const [start] = api.requests({ method: 'POST', path: '/v2/crawl' });
		expect(start.status).toBe(200);
		expect(start.body).toEqual({
			url: 'https://docs.example.com/',
			limit: 3,
			webhook: { url: TRIGGER_URL, headers: { 'X-WebData-Trigger-Token': 'tok-abc' }, events: ['page', 'completed'], metadata: { run: 'nightly-7', attempt: '2' } },
			scrapeOptions: { formats: ['markdown'] },
		});
		expect(result.items(NODE)[0].json.id).toMatch(/^[0-9a-f-]{36}$/);
	});

	test('issue 29: Events = Failed alone also asks the service for completed (the open-source server announces failed ends as completed)', async () => {
		const result = await run({ operation: 'start', url: 'https://docs.example.com/', limit: 1, options: sendToTrigger({ events: ['failed'] }) });
		expect(result.status).toBe('success');
		const [start] = api.requests({ method: 'POST', path: '/v2/crawl' });
		expect(start.body.webhook.events).toEqual(['failed', 'completed']);
	});

	test('the default events are page, completed and failed', async () => {
		const result = await run({ operation: 'start', url: 'https://docs.example.com/', pageLimit: 1, options: { sendToTrigger: { trigger: { url: TRIGGER_URL, token: 'tok-abc' } } } });
		expect(result.status).toBe('success');
		const [start] = api.requests({ method: 'POST', path: '/v2/crawl' });
		// n8n fills the field's default when the saved parameters lack it.
		expect(start.body.webhook).toEqual({ url: TRIGGER_URL, headers: { 'X-WebData-Trigger-Token': 'tok-abc' }, events: ['page', 'completed', 'failed'] });
	});

	test.each([
		[sendToTrigger({ url: '' }), /^Trigger Production URL "" is not valid: it is required/],
		[sendToTrigger({ url: 'localhost:5678/webhook/x/webhook' }), /^Trigger Production URL "localhost:5678\/webhook\/x\/webhook" is not valid/],
		[sendToTrigger({ url: 'http://127.0.0.1:9/webhook-test/x/webhook' }), /^Trigger Production URL .* is not valid: it is the trigger's Test URL/],
		[sendToTrigger({ token: '' }), /^Trigger Token "" is not valid: it is required/],
		[{ ...sendToTrigger(), webhookUrl: 'https://hooks.example.com/mine' }, /^Webhook URL "https:\/\/hooks.example.com\/mine" is not valid: a job sends its events to one place/],
		[{ ...sendToTrigger(), ...runMetadata(['run', '={{ { "a": 1 } }}']) }, /^Run Metadata → run .* is not valid: the value must be text/],
		[runMetadata(['run', 'x']), /^Run Metadata .* is not valid: it is sent with the job's events/],
	])('bad input %j → an error naming the field, zero requests', async (options, pattern) => {
		const result = await run({ operation: 'start', url: 'https://docs.example.com/', options });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(pattern);
		expect(api.log).toHaveLength(0);
	});

	test('no Trigger Token: sent without the header only when the credential holds the signing secret (else refused, zero requests)', async () => {
		const wf = workflow({ operation: 'start', url: 'https://docs.example.com/', pageLimit: 1, options: sendToTrigger({ token: '', events: ['page'] }) });
		const signed = await runWorkflow(wf, { credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url, webhookSecret: 'whsec-team' } } });
		record(signed.error);
		expect(signed.status).toBe('success');
		expect(api.requests({ method: 'POST', path: '/v2/crawl' })[0].body.webhook).toEqual({ url: TRIGGER_URL, events: ['page'] });
		api.reset();
		const unsigned = await runWorkflow(wf, { credentials: credentials() });
		expect(unsigned.status).toBe('error');
		expect(unsigned.error.message).toMatch(/^Trigger Token "" is not valid: it is required: enter the Token set on the receiving Web Data Trigger \(or put your team's Webhook Signing Secret/);
		expect(api.log).toHaveLength(0);
	});

	test('the strict fake refuses non-text metadata, as the service does (what Run Metadata guards)', async () => {
		const res = await fetch(`${api.url}/v2/crawl`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${CANARY_KEY}`, 'Content-Type': 'application/json' },
			body: JSON.stringify({ url: 'https://docs.example.com/', webhook: { url: TRIGGER_URL, metadata: { attempt: 2 } } }),
		});
		expect(res.status).toBe(400);
	});
});
