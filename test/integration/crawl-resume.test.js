'use strict';
/**
 * Crawl and Batch Scrape → Run and Wait with Wait Method "Resume on Completion Webhook" (the mechanism
 * of jobs/resume.ts, shared with Agent: test/integration/agent-resume.test.js).
 *  - the waiting half in n8n's engine (test/helpers/workflow-runner.js): the start request with its
 *    webhook on the execution's resume URL (events completed + failed only), the execution "waiting",
 *    the stack entry prepared for Max Wait expiry, no status read while the job runs; the checks made
 *    before anything is sent;
 *  - the resume half: WebData.webhook() called with the fake's OWN delivery of the job's end (its real
 *    envelope, headers and signature, test/fake-api/crawl.js): the job's pages read once, following
 *    `next`; forged calls 401; a failed job resumes into the poll mode's error.
 * n8n's own resume is proven in the real n8n: npm run test:e2e:agent-resume (crawl proofs).
 * Build first: `npm run build`.
 */
const crypto = require('crypto');
const { runWorkflow } = require('../helpers/workflow-runner');
const { PAGE_SIZE } = require('../fake-api/crawl');
const { CANARY_KEY, record } = require('../helpers/canary');
const { resumeCaller, useSigningFakeApi } = require('../helpers/resume-context');
const resume = require('../../dist/nodes/WebData/jobs/resume');
const signature = require('../../dist/nodes/shared/signature');

jest.setTimeout(30000);

const SECRET = 'whsec-crawl-resume-test';
const api = useSigningFakeApi(SECRET);

const NODE = 'Web Data';
const NODE_ID = 'crawl-node-id';
const credentials = (over = {}) => ({ webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url, webhookSecret: SECRET, ...over } });
const LONG = 'fake-duration-3600000';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function nodeOf(resource, parameters, over = {}) {
	return {
		id: NODE_ID,
		name: NODE,
		type: 'n8n-nodes-webdata.webData',
		typeVersion: 1,
		position: [400, 0],
		parameters: { resource, operation: 'runAndWait', waitMethod: 'completionWebhook', maxWait: 600, ...parameters },
		credentials: { webDataApi: { id: 'c1', name: 'Web Data account' } },
		...over,
	};
}

function workflow(resource, parameters, { items = [{}], node = {} } = {}) {
	return {
		nodes: [
			{ id: 'n1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{ id: 'n2', name: 'Items', type: 'test.items', typeVersion: 1, position: [200, 0], parameters: { items: JSON.stringify(items.map((json) => ({ json }))) } },
			nodeOf(resource, parameters, node),
		],
		connections: { Start: { main: [[{ node: 'Items', type: 'main', index: 0 }]] }, Items: { main: [[{ node: NODE, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

const PATHS = { crawl: '/v2/crawl', batchScrape: '/v2/batch/scrape' };

/** Runs the workflow until it waits; returns the run, its start request, job id, stack entry and execution id. */
async function startWaiting(resource, parameters, opts = {}) {
	const t0 = Date.now();
	const result = record(await runWorkflow(workflow(resource, parameters, opts), { credentials: credentials(opts.credentials) }));
	const start = api.requests({ method: 'POST', path: PATHS[resource] }).at(-1);
	const waiting = result.status === 'waiting';
	const stack = waiting ? result.run.data.executionData.nodeExecutionStack : undefined; // [the paused entry, its check entry]
	const entry = stack?.[0];
	const executionId = start?.body?.webhook ? new URL(start.body.webhook.url).pathname.split('/')[2] : undefined;
	const jobId = waiting ? result.items(NODE)[0].json.id : undefined; // the waiting item comes first
	return { result, t0, start, jobId, entry, stack, executionId, params: parameters, opts };
}

const statusReads = (resource, jobId) => api.requests({ method: 'GET', path: `${PATHS[resource]}/${jobId}` }).filter((r) => !r.path.endsWith('/errors'));

/** The fake's own delivery of `type` for the job (it POSTs it to the resume URL, where nothing listens here). */
async function deliveryOf(jobId, type, timeoutMs = 10000) {
	const until = Date.now() + timeoutMs;
	for (;;) {
		const found = api.deliveries.find((d) => d.jobId === jobId && d.type === type);
		if (found) return found;
		if (Date.now() > until) throw new Error(`no ${type} delivery for ${jobId}; got ${api.deliveries.map((d) => d.type).join(', ')}`);
		await sleep(50);
	}
}

/**
 * Calls WebData.webhook() with a delivery's exact bytes and headers, as n8n does on the resume URL;
 * when it wakes the execution, runs what n8n then runs (the same execution resumed: its check reads
 * the job) and gives that run as `resumed`.
 */
async function resumeWith(w, resource, delivery, { parameters = {}, nodeOver = {}, raw, headers, creds = {} } = {}) {
	const call = resumeCaller({ api, apiKey: CANARY_KEY });
	const node = nodeOf(resource, { ...w.params, ...parameters }, nodeOver);
	const answer = await call({
		node,
		entry: w.entry,
		stack: w.stack,
		executionId: w.executionId,
		raw: raw ?? Buffer.from(delivery.rawBody),
		headers: headers ?? Object.fromEntries(Object.entries(delivery.headers).map(([k, v]) => [k.toLowerCase(), v])),
		credentials: { webhookSecret: SECRET, ...creds },
	});
	if (!Array.isArray(answer.returned?.workflowData)) return answer;
	expect(answer.returned).toEqual({ workflowData: [], webhookResponse: { received: true } });
	const opts = { ...w.opts, node: { ...(w.opts?.node ?? {}), ...nodeOver } };
	const resumed = record(await runWorkflow(workflow(resource, { ...w.params, ...parameters }, opts), { credentials: credentials(), resume: w.result.run.data }));
	return { ...answer, resumed };
}

// ---- Crawl --------------------------------------------------------------------------------------

describe('Crawl → Run and Wait, "Resume on Completion Webhook"', () => {
	const crawl = (over = {}) => ({ url: 'https://example.com/fake-duration-1500', pageLimit: 7, ...over });

	test('the crawl starts with its webhook on the resume URL (token header and URL token, events completed + failed); the execution waits; the job\'s end resumes it with the pages read once, following next; nothing was polled', async () => {
		const w = await startWaiting('crawl', crawl({ options: { maxDiscoveryDepth: 3 } }));
		expect(w.result.status).toBe('waiting');
		const { webhook, ...rest } = w.start.body;
		expect(rest).toEqual({ url: 'https://example.com/fake-duration-1500', limit: 7, maxDiscoveryDepth: 3, scrapeOptions: { formats: ['markdown'] } });
		const runData = w.result.run.data;
		const token = resume.resumeToken(CANARY_KEY, w.executionId, { id: NODE_ID, name: NODE });
		expect(webhook).toEqual({
			url: `http://127.0.0.1:5678/webhook-waiting/${w.executionId}/webdata-${NODE_ID}?signature=${runData.resumeToken}&webdataToken=${token}`,
			headers: { [resume.RESUME_TOKEN_HEADER]: token },
			events: ['completed', 'failed'],
		});
		expect(w.result.json(NODE)).toEqual([{ id: w.jobId, status: 'scraping', waitMethod: 'completionWebhook', waitingUntil: expect.any(String) }]);
		expect(Date.parse(w.result.json(NODE)[0].waitingUntil) - w.t0).toBeGreaterThanOrEqual(599000);
		expect(Date.parse(runData.waitTill) - w.t0).toBeGreaterThanOrEqual(79000); // the first check

		// The job runs to its end: the fake delivers crawl.completed only (the events asked for), signed.
		const delivery = await deliveryOf(w.jobId, 'crawl.completed');
		expect(api.deliveries.filter((d) => d.jobId === w.jobId).map((d) => d.type)).toEqual(['crawl.completed']);
		expect(delivery.headers['X-Firecrawl-Signature']).toBe(`sha256=${signature.signBody(SECRET, delivery.rawBody)}`);
		expect(delivery.body).toEqual({ success: true, type: 'crawl.completed', id: w.jobId, webhookId: expect.any(String), data: [], metadata: {} });
		expect(statusReads('crawl', w.jobId)).toHaveLength(0);

		const { resumed, response } = await resumeWith(w, 'crawl', delivery);
		expect(response.status).toBeUndefined();
		expect(resumed.status).toBe('success');
		const items = resumed.items(NODE);
		expect(items).toHaveLength(7);
		expect(items.map((i) => i.pairedItem)).toEqual(Array(7).fill({ item: 0 }));
		expect(items[0].json).toMatchObject({ jobId: w.jobId, jobStatus: 'completed', metadata: { sourceURL: 'https://example.com/fake-duration-1500' } });
		expect(new Set(items.map((i) => i.json.metadata.sourceURL)).size).toBe(7);
		// Read by the check: the status with one document at most, then the pages once (7 pages,
		// PAGE_SIZE 3 → skip 3, skip 6), 100 documents a page; the next links carry the limit on.
		expect(statusReads('crawl', w.jobId).map((r) => r.query?.skip ?? new URL(r.path, api.url).searchParams.get('skip'))).toEqual([null, null, '3', '6']);
		expect(PAGE_SIZE).toBe(3);
		expect(statusReads('crawl', w.jobId).map((r) => r.query?.limit)).toEqual(['1', '100', '100', '100']);
	});

	test('Output "Compact" applies to the resumed pages', async () => {
		const w = await startWaiting('crawl', crawl({ pageLimit: 2, output: 'compact' }));
		const delivery = await deliveryOf(w.jobId, 'crawl.completed');
		const { resumed } = await resumeWith(w, 'crawl', delivery, { parameters: { output: 'compact' } });
		expect(resumed.json(NODE)).toHaveLength(2);
		expect(resumed.json(NODE)[0].metadata).toBeUndefined();
		expect(resumed.json(NODE)[0].url).toBe('https://example.com/fake-duration-1500');
	});

	test.each([
		['no token and no signature', (h) => ({ ...h, 'x-webdata-resume-token': undefined, 'x-firecrawl-signature': undefined })],
		['a wrong token', (h) => ({ ...h, 'x-webdata-resume-token': 'f'.repeat(64) })],
		['a signature with another secret', (h, raw) => ({ ...h, 'x-firecrawl-signature': `sha256=${signature.signBody('other', raw)}` })],
	])('a forged resume call (%s) → 401, nothing resumes, nothing is read', async (_name, forge) => {
		const w = await startWaiting('crawl', crawl());
		const delivery = await deliveryOf(w.jobId, 'crawl.completed');
		const good = Object.fromEntries(Object.entries(delivery.headers).map(([k, v]) => [k.toLowerCase(), v]));
		const headers = Object.fromEntries(Object.entries(forge(good, delivery.rawBody)).filter(([, v]) => v !== undefined));
		const { returned, response } = await resumeWith(w, 'crawl', delivery, { headers });
		expect(response).toEqual({ status: 401, body: { success: false, error: 'Unauthorized' } });
		expect(returned).toEqual({ noWebhookResponse: true });
		expect(statusReads('crawl', w.jobId)).toHaveLength(0);
	});

	test('a body changed after signing → 401; other events and other jobs → 200 ignored; nothing is read', async () => {
		const w = await startWaiting('crawl', crawl());
		const delivery = await deliveryOf(w.jobId, 'crawl.completed');
		const changed = Buffer.from(delivery.rawBody.replace('"data":[]', '"data":[{"forged":true}]'));
		expect((await resumeWith(w, 'crawl', delivery, { raw: changed })).response.status).toBe(401);
		const token = delivery.headers[resume.RESUME_TOKEN_HEADER];
		for (const over of [{ type: 'crawl.page' }, { type: 'crawl.started' }, { type: 'agent.completed' }, { id: crypto.randomUUID() }]) {
			const raw = JSON.stringify({ ...delivery.body, ...over });
			const headers = { 'x-webdata-resume-token': token, 'x-firecrawl-signature': `sha256=${signature.signBody(SECRET, raw)}` };
			const { returned } = await resumeWith(w, 'crawl', delivery, { raw: Buffer.from(raw), headers });
			expect([over, returned.webhookResponse]).toEqual([over, { received: true, ignored: expect.any(String) }]);
		}
		expect(statusReads('crawl', w.jobId)).toHaveLength(0);
	});

	test('a completed event while the job still runs (the open-source server sends it before its status flips) → 200, the execution wakes; its check reads the status only and pauses again, at most 60 s', async () => {
		const w = await startWaiting('crawl', crawl({ url: `https://example.com/${LONG}` }));
		const raw = JSON.stringify({ success: true, type: 'crawl.completed', id: w.jobId, webhookId: crypto.randomUUID(), data: [], metadata: {} });
		const token = w.start.body.webhook.headers[resume.RESUME_TOKEN_HEADER];
		const headers = { 'x-webdata-resume-token': token, 'x-firecrawl-signature': `sha256=${signature.signBody(SECRET, raw)}` };
		const t = Date.now();
		const { resumed: again, response } = await resumeWith(w, 'crawl', null, { raw: Buffer.from(raw), headers });
		expect(response.status).toBeUndefined();
		expect(again.status).toBe('waiting');
		expect(Date.parse(again.run.data.waitTill) - t).toBeLessThanOrEqual(61000);
		// One read, of the status only: no finished page is downloaded to learn "scraping".
		expect(statusReads('crawl', w.jobId).map((r) => r.query?.limit)).toEqual(['1']);
	});

	test('a lost crawl.completed: the check reads the ended crawl when its time comes and outputs its pages (read once, following next)', async () => {
		const w = await startWaiting('crawl', crawl());
		await deliveryOf(w.jobId, 'crawl.completed'); // sent where nothing listens: lost
		const done = record(await runWorkflow(workflow('crawl', w.params), { credentials: credentials(), resume: w.result.run.data }));
		expect(done.status).toBe('success');
		const items = done.items(NODE);
		expect(items).toHaveLength(7);
		expect(items.every((i) => i.json.jobId === w.jobId && i.json.jobStatus === 'completed')).toBe(true);
		expect(items.map((i) => i.pairedItem)).toEqual(Array(7).fill({ item: 0 }));
		expect(statusReads('crawl', w.jobId)).toHaveLength(4); // the status, then the 3 pages
	});

	test('under a credit budget (issue 35.3, 35.4): the Page Limit is lowered to what is left and held in the execution\'s custom data while it waits; the resumed pages count the crawl\'s credits once, the hold is gone, and they say the limit was lowered', async () => {
		const w = await startWaiting('crawl', crawl({ pageLimit: 50 }), { credentials: { creditBudget: 5 } });
		expect(w.result.status).toBe('waiting');
		expect(w.start.body.limit).toBe(5);
		const lowered = { from: 50, to: 5, creditsPerPage: 1 };
		expect(w.result.json(NODE)[0].credits).toEqual({ used: 0, execution: 0, budget: 5, left: 0, pageLimitLowered: lowered });
		const held = w.result.run.data.resultData.metadata;
		expect(JSON.parse(held.webdata_budget)).toEqual({ c: { c1: { s: 0, r: 0, j: { [w.jobId.replace(/-/g, '').slice(0, 12)]: 5 } } }, n: {}, x: expect.any(String) });
		await deliveryOf(w.jobId, 'crawl.completed');
		const done = record(await runWorkflow(workflow('crawl', w.params), { credentials: credentials({ creditBudget: 5 }), resume: w.result.run.data }));
		expect(done.status).toBe('success');
		const pages = done.json(NODE);
		expect(pages).toHaveLength(5);
		for (const page of pages) expect(page.credits).toEqual({ used: 5, execution: 5, budget: 5, left: 0, pageLimitLowered: lowered });
		const custom = done.run.data.resultData.metadata;
		expect(custom.webdata_credits).toBe('5');
		expect(JSON.parse(custom.webdata_budget)).toEqual({ c: { c1: { s: 5, r: 0 } }, n: { [NODE]: 5 }, x: expect.any(String) });
	});

	test('under a credit budget (issue 35.3): a check that finds the crawl spending past what is left (its pages cost more than reserved) cancels it and outputs its pages so far, saying so; what it spent is settled, no hold is left', async () => {
		// The auto proxy escalates to stealth on this host: 5 credits a page where 1 was reserved.
		const w = await startWaiting('crawl', crawl({ url: 'https://fake-antibot.example/fake-duration-30000', pageLimit: 20, scrapeOptions: { proxy: 'auto' } }), { credentials: { creditBudget: 12 } });
		expect(w.result.status).toBe('waiting');
		expect(w.start.body.limit).toBe(12);
		// Until the crawl has scraped a page or two (its status reports what they cost).
		for (const until = Date.now() + 15000; ; await sleep(200)) {
			const status = await (await fetch(`${api.url}/v2/crawl/${w.jobId}?limit=1`, { headers: { authorization: `Bearer ${CANARY_KEY}` } })).json();
			if (status.completed >= 2) break;
			if (Date.now() > until) throw new Error(`the crawl scraped ${status.completed} pages in 15 s`);
		}
		const check = record(await runWorkflow(workflow('crawl', w.params), { credentials: credentials({ creditBudget: 12 }), resume: w.result.run.data }));
		expect(check.status).toBe('success');
		expect(api.requests({ method: 'DELETE', path: `/v2/crawl/${w.jobId}` })).toHaveLength(1);
		const pages = check.json(NODE);
		expect(pages.length).toBeGreaterThanOrEqual(2);
		expect(pages.length).toBeLessThan(12);
		for (const page of pages) expect(page).toMatchObject({ jobId: w.jobId, credits: { cancelledAtBudget: true, message: expect.stringMatching(/^The crawl was cancelled at the credit budget/) } });
		expect(check.items(NODE).map((i) => i.pairedItem)).toEqual(Array(pages.length).fill({ item: 0 }));
		const custom = check.run.data.resultData.metadata;
		expect(Number(custom.webdata_credits)).toBe(pages.length * 5);
		expect(JSON.parse(custom.webdata_budget).c.c1).toEqual({ s: pages.length * 5, r: 0 });
	});

	test('under a credit budget, a check that finds the crawl within what it holds (pages at the reserved cost) lets it run: it pauses again, nothing is cancelled', async () => {
		const w = await startWaiting('crawl', crawl({ url: `https://example.com/${LONG}`, pageLimit: 50 }), { credentials: { creditBudget: 5 } });
		expect(w.start.body.limit).toBe(5);
		await sleep(500);
		const check = record(await runWorkflow(workflow('crawl', w.params), { credentials: credentials({ creditBudget: 5 }), resume: w.result.run.data }));
		expect(check.status).toBe('waiting');
		expect(api.requests({ method: 'DELETE', path: `/v2/crawl/${w.jobId}` })).toHaveLength(0);
		expect(statusReads('crawl', w.jobId).map((r) => r.query?.limit)).toEqual(['1']);
	});

	test('a failed crawl, announced as the open-source server does (crawl.completed, success true): resumes into the poll mode\'s error with the counts; under Continue (regular output) into an error item', async () => {
		const w = await startWaiting('crawl', crawl({ url: 'https://example.com/fake-duration-1000-fake-job-fail' }));
		const delivery = await deliveryOf(w.jobId, 'crawl.completed');
		expect(delivery.body).toMatchObject({ success: true, type: 'crawl.completed', id: w.jobId, data: [] });
		const { resumed } = await resumeWith(w, 'crawl', delivery);
		expect(resumed.status).toBe('error');
		const error = resumed.error;
		expect(error.message).toBe('The crawl ended with status "failed"');
		expect(error.description).toContain(w.jobId);
		expect(error.description).toMatch(/^\d+ of 7 pages were scraped/);
		expect(statusReads('crawl', w.jobId)).toHaveLength(1);

		const c = await startWaiting('crawl', crawl({ url: 'https://example.com/fake-duration-1000-fake-job-fail' }), { node: { onError: 'continueRegularOutput' } });
		const d2 = await deliveryOf(c.jobId, 'crawl.completed');
		const out = await resumeWith(c, 'crawl', d2, { nodeOver: { onError: 'continueRegularOutput' } });
		expect(out.response).toEqual({ status: undefined, body: undefined });
		expect(out.resumed.items(NODE)).toEqual([{ json: { error: 'The crawl ended with status "failed"', description: expect.stringContaining(c.jobId), jobId: c.jobId, status: 'failed' }, pairedItem: { item: 0 } }]);
	});

	test('a crawl cancelled elsewhere (announced as crawl.completed, success true): resumes into the error "ended with status cancelled" with the counts, not a success', async () => {
		const w = await startWaiting('crawl', crawl({ url: 'https://example.com/fake-duration-20000' }));
		await sleep(300);
		await fetch(`${api.url}/v2/crawl/${w.jobId}`, { method: 'DELETE', headers: { authorization: `Bearer ${CANARY_KEY}` } });
		const delivery = await deliveryOf(w.jobId, 'crawl.completed');
		expect(delivery.body).toMatchObject({ success: true, type: 'crawl.completed', id: w.jobId, data: [] });
		const { resumed } = await resumeWith(w, 'crawl', delivery);
		expect(resumed.status).toBe('error');
		const error = resumed.error;
		expect(error.message).toBe('The crawl ended with status "cancelled"');
		expect(error.description).toMatch(/^\d+ of 7 pages were scraped/);
		expect(statusReads('crawl', w.jobId)).toHaveLength(1);
	});

	test('Max Wait: the check at Max Wait reads once more; "Return Last Status" gives the same item as the poll mode\'s (timedOut: true); "Fail" fails naming Max Wait', async () => {
		const w = await startWaiting('crawl', crawl({ url: `https://example.com/${LONG}`, maxWait: 1 }));
		expect(w.entry.data).toEqual({ main: [] });
		expect(statusReads('crawl', w.jobId)).toHaveLength(0);
		await sleep(1100);
		const timedOut = record(await runWorkflow(workflow('crawl', w.params), { credentials: credentials(), resume: w.result.run.data }));
		expect(timedOut.status).toBe('success');
		const [prepared] = timedOut.items(NODE);
		expect(prepared).toEqual({
			json: { id: w.jobId, status: 'scraping', timedOut: true, waitMethod: 'completionWebhook', waitedUntil: expect.any(String), message: expect.stringMatching(/^Max Wait \(1 s\) passed/) },
			pairedItem: { item: 0 },
		});
		expect(statusReads('crawl', w.jobId)).toHaveLength(1);

		// The poll mode's Return Last Status item on the same kind of job: the same marks.
		const polled = record(await runWorkflow(workflow('crawl', crawl({ url: `https://example.com/${LONG}`, maxWait: 1, waitMethod: 'poll' })), { credentials: credentials() }));
		expect(polled.status).toBe('success');
		const [item] = polled.json(NODE);
		expect(item).toMatchObject({ status: 'scraping', timedOut: true, waitMethod: 'poll', waitedUntil: expect.any(String) });
		for (const key of Object.keys(prepared.json)) expect([key, key in item]).toEqual([key, true]);

		const f = await startWaiting('crawl', crawl({ url: `https://example.com/${LONG}`, maxWait: 1, onTimeout: 'fail' }));
		await sleep(1100);
		const failed = record(await runWorkflow(workflow('crawl', f.params), { credentials: credentials(), resume: f.result.run.data }));
		expect(failed.status).toBe('error');
		expect(failed.error.message).toBe('The crawl did not end within Max Wait (1 s)');
		expect(failed.error.description).toContain(f.jobId);
	});

	test.each([
		['several input items', {}, { items: [{ a: 1 }, { a: 2 }] }, /^"Resume on Completion Webhook" waits for one crawl per execution, but 2 items came in$/],
		['On Timeout "Cancel the Crawl and Fail"', { onTimeout: 'cancelAndFail' }, {}, /^On Timeout "Cancel the Crawl and Fail" is not valid: it cannot be used with Wait Method "Resume on Completion Webhook"/],
		['an own Webhook URL', { options: { webhookUrl: 'https://hooks.example.com/mine' } }, {}, /^Webhook URL "https:\/\/hooks.example.com\/mine" is not valid: it cannot be used with Wait Method "Resume on Completion Webhook"/],
		['a bad crawl field (Page Limit)', { pageLimit: 0 }, {}, /^Page Limit 0 is not valid/],
		// issue 18.2: the trigger choice sets the job's one webhook too.
		[
			'Send Events to Web Data Trigger',
			{ options: { sendToTrigger: { trigger: { url: 'https://n8n.example.com/webhook/abc/webhook', token: 'tok' } } } },
			{},
			/^Send Events to Web Data Trigger "https:\/\/n8n.example.com\/webhook\/abc\/webhook" is not valid: it cannot be used with Wait Method "Resume on Completion Webhook"/,
		],
		['Run Metadata alone (it needs a webhook of the options)', { options: { runMetadata: { values: [{ name: 'run', value: '1' }] } } }, {}, /^Run Metadata .* is not valid: it is sent with the job's events/],
	])('%s: refused with the field named, zero requests', async (_name, parameters, opts, message) => {
		const result = record(await runWorkflow(workflow('crawl', crawl(parameters), opts), { credentials: credentials() }));
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(message);
		expect(api.log).toHaveLength(0);
	});
});

// ---- Batch Scrape -------------------------------------------------------------------------------

describe('Batch Scrape → Run and Wait, "Resume on Completion Webhook"', () => {
	const urls = ['https://example.com/a?fake-duration-1200', 'https://example.com/b', 'https://example.com/c', 'https://example.com/d'];
	const batch = (over = {}) => ({ url: '={{ $json.url }}', ...over });

	test('all input items go into one job; its batch_scrape.completed delivery resumes with the pages read once (following next), each paired to its item; bad items are carried as error items', async () => {
		const items = [{ url: urls[0] }, { url: 'not a url' }, { url: urls[1] }, { url: urls[2] }, { url: urls[3] }];
		const w = await startWaiting('batchScrape', batch(), { items, node: { onError: 'continueRegularOutput' } });
		expect(w.result.status).toBe('waiting');
		expect(w.start.body.urls).toEqual(urls);
		expect(w.start.body.webhook.events).toEqual(['completed', 'failed']);
		const waitingOut = w.result.items(NODE);
		// The waiting item first: n8n's Retry On Fail runs a node again when its first item has an error.
		expect(waitingOut.at(-1).json.error).toMatch(/^URL "not a url" is not valid/);
		expect(waitingOut[0]).toEqual({ json: expect.objectContaining({ id: w.jobId, status: 'scraping', waitMethod: 'completionWebhook' }), pairedItem: [{ item: 0 }, { item: 2 }, { item: 3 }, { item: 4 }] });
		// The check entry keeps the carried error item for its output.
		expect(w.stack[1].metadata.webDataResume.wait.carried).toHaveLength(1);

		const delivery = await deliveryOf(w.jobId, 'batch_scrape.completed');
		expect(api.deliveries.filter((d) => d.jobId === w.jobId).map((d) => d.type)).toEqual(['batch_scrape.completed']);
		expect(statusReads('batchScrape', w.jobId)).toHaveLength(0);
		const { resumed } = await resumeWith(w, 'batchScrape', delivery, { nodeOver: { onError: 'continueRegularOutput' } });
		const out = resumed.items(NODE);
		expect(out[0].json.error).toMatch(/^URL "not a url" is not valid/);
		const pages = out.slice(1);
		expect(pages.map((p) => [p.json.metadata.sourceURL, p.pairedItem])).toEqual([
			[urls[0], { item: 0 }],
			[urls[1], { item: 2 }],
			[urls[2], { item: 3 }],
			[urls[3], { item: 4 }],
		]);
		expect(pages.every((p) => p.json.jobId === w.jobId && p.json.jobStatus === 'completed')).toBe(true);
		expect(statusReads('batchScrape', w.jobId)).toHaveLength(3); // the status, then 4 pages (PAGE_SIZE 3): the first page and one `next`
	});

	test('a forged call → 401 and nothing read; the delivery resumes; the own Webhook URL is refused with zero requests', async () => {
		const w = await startWaiting('batchScrape', batch({ maxWait: 45, onTimeout: 'fail' }), { items: [{ url: urls[0] }, { url: urls[1] }] });
		const delivery = await deliveryOf(w.jobId, 'batch_scrape.completed');
		const headers = { 'x-webdata-resume-token': 'f'.repeat(64), 'x-firecrawl-signature': delivery.headers['X-Firecrawl-Signature'] };
		expect((await resumeWith(w, 'batchScrape', delivery, { headers })).response.status).toBe(401);
		expect(statusReads('batchScrape', w.jobId)).toHaveLength(0);
		const { resumed } = await resumeWith(w, 'batchScrape', delivery);
		expect(resumed.items(NODE).map((p) => p.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);

		// A lost batch_scrape.completed: the check outputs the pages, each paired to its item, the carried error item first.
		api.reset();
		const items = [{ url: urls[0] }, { url: 'not a url' }, { url: urls[1] }];
		const l = await startWaiting('batchScrape', batch(), { items, node: { onError: 'continueRegularOutput' } });
		await deliveryOf(l.jobId, 'batch_scrape.completed');
		const done = record(await runWorkflow(workflow('batchScrape', l.params, l.opts), { credentials: credentials(), resume: l.result.run.data }));
		expect(done.status).toBe('success');
		const out = done.items(NODE);
		expect(out[0].json.error).toMatch(/^URL "not a url" is not valid/);
		expect(out.slice(1).map((p) => [p.json.metadata.sourceURL, p.pairedItem])).toEqual([[urls[0], { item: 0 }], [urls[1], { item: 2 }]]);

		api.reset();
		const refused = record(await runWorkflow(workflow('batchScrape', batch({ options: { webhookUrl: 'https://hooks.example.com/mine' } }), { items: [{ url: urls[0] }] }), { credentials: credentials() }));
		expect(refused.status).toBe('error');
		expect(refused.error.message).toMatch(/^Webhook URL "https:\/\/hooks.example.com\/mine" is not valid/);
		expect(api.log).toHaveLength(0);
	});
});
