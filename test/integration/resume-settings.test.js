'use strict';
/**
 * "Resume on Completion Webhook" under the node settings users switch on (issue 34.1, 34.6): a failed
 * job, a job the service no longer knows (its own JSON 404) and Max Wait with On Timeout "Fail" end as
 * the user chose under Retry On Fail, Continue On Fail (regular and error output) and Always Output
 * Data — never as an empty success. Retry On Fail repeats the check's outcome (the same stack entry
 * run again) without a second read. A proxy's or CDN's page (HTML 403/404) does not end the wait.
 * The check runs in n8n-core's engine (test/helpers/workflow-runner.js) as the wait tracker resumes it.
 * Build first: `npm run build`.
 */
const crypto = require('crypto');
const http = require('http');
const { runWorkflow } = require('../helpers/workflow-runner');
const { CANARY_KEY, record } = require('../helpers/canary');
const { useSigningFakeApi } = require('../helpers/resume-context');

jest.setTimeout(30000);

const api = useSigningFakeApi('whsec-resume-settings');
const NODE = 'Crawl';
const credentials = (over = {}) => ({ webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url, webhookSecret: '', ...over } });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const LONG = 'https://example.com/fake-duration-3600000';
const FAILS = 'https://example.com/fake-duration-200-fake-job-fail';

function workflow(parameters, settings = {}) {
	return {
		nodes: [
			{ id: 'n1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'crawl-node-id',
				name: NODE,
				type: 'n8n-nodes-webdata.webData',
				typeVersion: 1,
				position: [200, 0],
				parameters: { resource: 'crawl', operation: 'runAndWait', waitMethod: 'completionWebhook', pageLimit: 7, maxWait: 600, ...parameters },
				credentials: { webDataApi: { id: 'c1', name: 'Web Data account' } },
				...settings,
			},
		],
		connections: { Start: { main: [[{ node: NODE, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/** Status reads (limit=1); a completed crawl's pages are read after its status. */
const statusReads = (jobId) => api.requests({ method: 'GET', path: `/v2/crawl/${jobId}` }).filter((r) => r.query.limit === '1').length;

/** Starts the crawl and pauses; then (after `before`) resumes as n8n's wait tracker does. */
async function waitThenCheck(parameters, settings, { before, creds } = {}) {
	const wf = workflow(parameters, settings);
	const waiting = record(await runWorkflow(wf, { credentials: credentials() }));
	expect(waiting.status).toBe('waiting');
	const jobId = waiting.json(NODE)[0].id;
	const data = waiting.run.data;
	if (before) await before(jobId, data);
	const checked = record(await runWorkflow(wf, { credentials: credentials(creds), resume: data }));
	return { jobId, checked };
}

const outcomes = {
	'a failed crawl': {
		parameters: { url: FAILS },
		before: () => sleep(400),
		message: 'The crawl ended with status "failed"',
	},
	"a crawl the service no longer knows (its JSON 404)": {
		parameters: { url: LONG },
		before: (_jobId, data) => {
			data.executionData.nodeExecutionStack[1].metadata.webDataResume.wait.jobId = crypto.randomUUID();
		},
		message: /^The crawl can no longer be read: Crawl job not found/,
		otherJob: true,
	},
	'Max Wait with On Timeout "Fail"': {
		parameters: { url: LONG, maxWait: 1, onTimeout: 'fail' },
		before: () => sleep(1100),
		message: 'The crawl did not end within Max Wait (1 s)',
	},
};

const errorOut = (result, index) => result.runData[NODE].at(-1).data.main[index] ?? [];

describe.each(Object.entries(outcomes))('%s', (_name, outcome) => {
	const check = (settings) => waitThenCheck(outcome.parameters, settings, { before: outcome.before });
	const reads = (jobId) => (outcome.otherJob ? api.requests({ method: 'GET' }).filter((r) => r.path.startsWith('/v2/crawl/')).length : statusReads(jobId));

	test('no setting: the execution fails with the error', async () => {
		const { checked } = await check({});
		expect(checked.status).toBe('error');
		expect(checked.error.message).toMatch(outcome.message);
	});

	test('Retry On Fail (3 tries): every try ends with the same error, read once; the execution fails (never an empty success)', async () => {
		const { jobId, checked } = await check({ retryOnFail: true, maxTries: 3, waitBetweenTries: 0 });
		expect(checked.status).toBe('error');
		expect(checked.error.message).toMatch(outcome.message);
		expect(reads(jobId)).toBe(1);
	});

	test('Always Output Data: the execution still fails', async () => {
		const { checked } = await check({ alwaysOutputData: true });
		expect(checked.status).toBe('error');
		expect(checked.error.message).toMatch(outcome.message);
	});

	test('Continue (regular output): one error item with the job id', async () => {
		const { jobId, checked } = await check({ onError: 'continueRegularOutput' });
		expect(checked.status).toBe('success');
		const items = checked.json(NODE);
		expect(items).toHaveLength(1);
		expect(items[0].error).toMatch(outcome.message);
		if (!outcome.otherJob) expect(items[0].jobId).toBe(jobId);
	});

	test('Continue (using error output): the error item on the error output, nothing on the success output', async () => {
		const { checked } = await check({ onError: 'continueErrorOutput' });
		expect(checked.status).toBe('success');
		expect(errorOut(checked, 0)).toEqual([]);
		const errors = errorOut(checked, 1);
		expect(errors).toHaveLength(1);
		expect(errors[0].json.error).toMatch(outcome.message);
	});

	test('Retry On Fail and Continue (regular output): n8n retries on the error item; the last try gives the same error item, read once', async () => {
		const { jobId, checked } = await check({ retryOnFail: true, maxTries: 2, waitBetweenTries: 0, onError: 'continueRegularOutput' });
		expect(checked.status).toBe('success');
		const items = checked.json(NODE);
		expect(items).toHaveLength(1);
		expect(items[0].error).toMatch(outcome.message);
		expect(reads(jobId)).toBe(1);
	});
});

describe('a completed crawl under the same settings: its pages, once', () => {
	test.each([
		['Retry On Fail', { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 }],
		['Always Output Data', { alwaysOutputData: true }],
		['Continue (error output)', { onError: 'continueErrorOutput' }],
	])('%s', async (_name, settings) => {
		const { jobId, checked } = await waitThenCheck({ url: 'https://example.com/fake-duration-200' }, settings, { before: () => sleep(400) });
		expect(checked.status).toBe('success');
		expect(checked.json(NODE)).toHaveLength(7);
		expect(statusReads(jobId)).toBe(1);
	});
});

describe("only the service's own answer ends a wait", () => {
	let proxy;
	let proxyUrl;
	beforeAll(async () => {
		proxy = http.createServer((req, res) => {
			const status = req.url.includes('/v2/crawl/') ? Number(proxy.answer) : 404;
			res.writeHead(status, { 'content-type': 'text/html' });
			res.end(`<html><body><h1>${status}</h1>cdn</body></html>`);
		});
		await new Promise((r) => proxy.listen(0, '127.0.0.1', r));
		proxyUrl = `http://127.0.0.1:${proxy.address().port}`;
	});
	afterAll(() => new Promise((r) => proxy.close(r)));

	test.each(['403', '404', '401'])("an HTML %s from something in front of the service: the execution waits on (next check planned), no error", async (status) => {
		proxy.answer = status;
		const { checked } = await waitThenCheck({ url: LONG }, {}, { creds: { baseUrl: proxyUrl } });
		expect(checked.status).toBe('waiting');
		const [item] = checked.json(NODE);
		expect(item).toMatchObject({ status: 'scraping', waitMethod: 'completionWebhook' });
		expect(checked.run.data.waitTill).toBeDefined();
	});

});

describe("the job is read first; n8n's engine state is needed only to pause again", () => {
	const { continueWaiting } = require('../../dist/nodes/WebData/jobs/resume');
	const node = { id: 'crawl-node-id', name: NODE, type: 'n8n-nodes-webdata.webData', typeVersion: 1, parameters: {} };
	const now = Date.now();
	const wait = { jobId: crypto.randomUUID(), executionId: '7', startedAt: now - 100_000, deadline: now + 500_000, checkAt: now, onTimeout: 'returnStatus', carried: [], pairedItem: { item: 0 }, reads: 1, phase: 'check' };
	/** A check entry's context on an engine whose execution stack is not what the node expects. */
	const ctx = () => {
		const entry = { node, data: { main: [[{ json: {} }]] }, source: null, metadata: { webDataResume: { wait: { ...wait, jobId: crypto.randomUUID() } } } };
		return {
			getExecuteData: () => entry,
			getExecutionId: () => '7',
			getNode: () => node,
			continueOnFail: () => false,
			logger: { warn() {}, debug() {} },
			runExecutionData: undefined,
		};
	};
	const waiter = (read) => ({ noun: 'crawl', runningStatus: 'scraping', readOperation: 'Crawl → Get Status', resume: async () => read });

	test('an ended job is output', async () => {
		const out = await continueWaiting(ctx(), waiter({ running: false, items: [{ json: { url: 'https://example.com/' }, pairedItem: { item: 0 } }] }));
		expect(out).toEqual([{ json: { url: 'https://example.com/' }, pairedItem: { item: 0 } }]);
	});

	test('a job still running cannot pause on such an engine: a loud error that says what to do', async () => {
		await expect(continueWaiting(ctx(), waiter({ running: true }))).rejects.toThrow(/cannot pause this execution: n8n gives this node run no execution stack/);
	});
});

describe('"Continue (using error output)" sends failures to the error output in every mode', () => {
	test('Wait Method "Poll": a failed crawl is an item on the error output, none on the success output', async () => {
		const wf = workflow({ url: FAILS, waitMethod: 'poll', maxWait: 30 }, { onError: 'continueErrorOutput' });
		const result = record(await runWorkflow(wf, { credentials: credentials() }));
		expect(result.status).toBe('success');
		expect(errorOut(result, 0)).toEqual([]);
		expect(errorOut(result, 1).map((i) => i.json.error)).toEqual(['The crawl ended with status "failed"']);
	});

	test('a bad field (refused before sending) is an item on the error output', async () => {
		const wf = workflow({ url: 'not a url', waitMethod: 'poll' }, { onError: 'continueErrorOutput' });
		const result = record(await runWorkflow(wf, { credentials: credentials() }));
		expect(result.status).toBe('success');
		expect(errorOut(result, 0)).toEqual([]);
		expect(errorOut(result, 1)).toHaveLength(1);
		expect(api.log).toHaveLength(0);
	});
});

describe('Retry On Fail on the run that starts the job', () => {
	test('Batch Scrape with a bad first URL under Continue (regular output): n8n runs the node again for the error item, yet one job is started and one wait planned', async () => {
		const batch = {
			nodes: [
				{ id: 'n1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				{ id: 'n2', name: 'Items', type: 'test.items', typeVersion: 1, position: [200, 0], parameters: { items: JSON.stringify([{ json: { u: 'not a url' } }, { json: { u: 'https://example.com/a' } }]) } },
				{
					id: 'batch-node-id',
					name: 'Batch',
					type: 'n8n-nodes-webdata.webData',
					typeVersion: 1,
					position: [400, 0],
					parameters: { resource: 'batchScrape', operation: 'runAndWait', waitMethod: 'completionWebhook', url: '={{ $json.u }}', maxWait: 600 },
					credentials: { webDataApi: { id: 'c1', name: 'Web Data account' } },
					retryOnFail: true,
					maxTries: 3,
					waitBetweenTries: 0,
					onError: 'continueRegularOutput',
				},
			],
			connections: { Start: { main: [[{ node: 'Items', type: 'main', index: 0 }]] }, Items: { main: [[{ node: 'Batch', type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		};
		const result = record(await runWorkflow(batch, { credentials: credentials() }));
		expect(result.status).toBe('waiting');
		expect(api.requests({ method: 'POST', path: '/v2/batch/scrape' })).toHaveLength(1);
		const stack = result.run.data.executionData.nodeExecutionStack;
		expect(stack.filter((e) => e.metadata?.webDataResume?.wait?.phase === 'check')).toHaveLength(1);
	});
});
