'use strict';
/**
 * Integration tests of the in-process workflow runner (test/helpers/workflow-runner.js), driving the
 * package's built Web Data node (Agent → Get) against a tiny inline HTTP server on 127.0.0.1.
 * Build first: `npm run build`.
 */
const fs = require('fs');
const http = require('http');
const os = require('os');
const path = require('path');

const { runWorkflow, startWorkflow, readBinary } = require('../helpers/workflow-runner');

const JOB_ID = '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a';
const MISSING_JOB_ID = '0190b7c4-6d2a-7c1e-9a51-000000000404';
const API_KEY = 'fc-test-key-123456';

// --- a tiny fake service -------------------------------------------------------------------------
let server;
let baseUrl;
let requests; // what the server received, in order
let hang; // when true, GET requests are never answered (for cancel tests)

beforeAll(async () => {
	server = http.createServer((req, res) => {
		const record = { method: req.method, url: req.url, headers: req.headers, aborted: false };
		requests.push(record);
		res.on('close', () => {
			if (!res.writableEnded) record.aborted = true;
		});
		if (hang) return;
		const send = (status, body) => {
			res.writeHead(status, { 'Content-Type': 'application/json' });
			res.end(JSON.stringify(body));
		};
		const match = /^\/v2\/agent\/([^/?]+)$/.exec(req.url);
		if (req.method !== 'GET' || !match) return send(404, { success: false, error: 'Not found' });
		if (match[1] === MISSING_JOB_ID) return send(404, { success: false, error: 'Job not found' });
		send(200, {
			success: true,
			status: 'completed',
			data: { answer: 42 },
			creditsUsed: 7,
			expiresAt: '2030-01-01T00:00:00.000Z',
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${server.address().port}`;
});

afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
	requests = [];
	hang = false;
});

// --- workflows -----------------------------------------------------------------------------------
const credentials = () => ({
	webDataApi: { apiKey: API_KEY, baseUrl, webhookSecret: '' },
});

/** Manual Trigger → Test Items (one item per job id) → Web Data (Agent → Get of {{$json.jobId}}). */
function getJobsWorkflow(jobIds, webDataOverrides = {}) {
	return {
		nodes: [
			{
				id: 'n1',
				name: "When clicking 'Execute workflow'",
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'n2',
				name: 'Jobs',
				type: 'test.items',
				typeVersion: 1,
				position: [200, 0],
				parameters: { items: JSON.stringify(jobIds.map((jobId) => ({ json: { jobId } }))) },
			},
			{
				id: 'n3',
				name: 'Web Data',
				type: 'n8n-nodes-webdata.webData',
				typeVersion: 1,
				position: [400, 0],
				parameters: {
					resource: 'agent',
					operation: 'get',
					jobId: { __rl: true, mode: 'id', value: '={{ $json.jobId }}' },
				},
				credentials: { webDataApi: { id: 'cred-1', name: 'Web Data account' } },
				...webDataOverrides,
			},
		],
		connections: {
			"When clicking 'Execute workflow'": { main: [[{ node: 'Jobs', type: 'main', index: 0 }]] },
			Jobs: { main: [[{ node: 'Web Data', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

// --- tests ---------------------------------------------------------------------------------------
describe('workflow runner with Agent → Get', () => {
	test('a successful Get returns the job as one item with pairedItem', async () => {
		const result = await runWorkflow(getJobsWorkflow([JOB_ID]), { credentials: credentials() });

		expect(result.error).toBeUndefined();
		expect(result.status).toBe('success');
		const items = result.items('Web Data');
		expect(items).toHaveLength(1);
		expect(items[0].json).toEqual({
			id: JOB_ID,
			status: 'completed',
			data: { answer: 42 },
			creditsUsed: 7,
			expiresAt: '2030-01-01T00:00:00.000Z',
		});
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(result.json('Jobs')).toEqual([{ jobId: JOB_ID }]);
		expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([`GET /v2/agent/${JOB_ID}`]);
	});

	test('the Authorization header received is "Bearer <key>"', async () => {
		const result = await runWorkflow(getJobsWorkflow([JOB_ID]), { credentials: credentials() });

		expect(result.status).toBe('success');
		expect(requests).toHaveLength(1);
		expect(requests[0].headers.authorization).toBe(`Bearer ${API_KEY}`);
	});

	test('a job id that is not a UUID fails naming "Job ID", with no request sent', async () => {
		const result = await runWorkflow(getJobsWorkflow(['not-a-uuid']), {
			credentials: credentials(),
		});

		expect(result.status).toBe('error');
		expect(result.error.message).toContain('Job ID');
		expect(result.error.message).toContain('not-a-uuid');
		expect(result.error.description).toContain('Nothing was sent');
		expect(result.error.node).toMatchObject({ name: 'Web Data' });
		expect(typeof result.error.context).toBe('object');
		expect(requests).toHaveLength(0);
		// The failing node ran and recorded the error; it has no output items.
		expect(result.runData['Web Data'][0].error.message).toContain('Job ID');
		expect(result.items('Web Data')).toEqual([]);
	});

	test('a literal non-UUID job id is rejected by n8n before the run, with no request sent', async () => {
		// A fixed value (not an expression) is checked against the field's regex by n8n's workflow
		// check, like the editor does; the run never starts and the error is reported, not thrown.
		const workflow = getJobsWorkflow([JOB_ID]);
		workflow.nodes[2].parameters.jobId = { __rl: true, mode: 'id', value: 'not-a-uuid' };
		const result = await runWorkflow(workflow, { credentials: credentials() });

		expect(result.status).toBe('error');
		expect(result.error.name).toBe('WorkflowHasIssuesError');
		expect(result.error.message).toMatch(/'Web Data' node has issues[\s\S]*The Job ID must be a UUID/);
		expect(result.runData).toEqual({});
		expect(requests).toHaveLength(0);
	});

	test('a 404 that stops the workflow reports message, description and context', async () => {
		const result = await runWorkflow(getJobsWorkflow([MISSING_JOB_ID]), {
			credentials: credentials(),
		});

		expect(result.status).toBe('error');
		expect(result.error.message).toBe('Job not found');
		expect(result.error.description).toContain('Runs are kept for 24 hours');
		expect(result.error.context).toMatchObject({ httpStatus: 404, retryable: false, attempts: 1 });
		expect(requests).toHaveLength(1);
	});

	test('with onError continueRegularOutput a 404 becomes an error item and the next item still runs', async () => {
		const workflow = getJobsWorkflow([MISSING_JOB_ID, JOB_ID], { onError: 'continueRegularOutput' });
		const result = await runWorkflow(workflow, { credentials: credentials() });

		expect(result.status).toBe('success');
		const items = result.items('Web Data');
		expect(items).toHaveLength(2);
		expect(items[0].json).toMatchObject({ error: 'Job not found', httpStatus: 404, retryable: false });
		expect(items[0].json.description).toContain('Runs are kept for 24 hours');
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[1].json).toMatchObject({ id: JOB_ID, status: 'completed' });
		expect(items[1].pairedItem).toEqual({ item: 1 });
		expect(requests.map((r) => r.url)).toEqual([
			`/v2/agent/${MISSING_JOB_ID}`,
			`/v2/agent/${JOB_ID}`,
		]);
	});

	test('cancel() aborts the request in flight and ends the run as canceled', async () => {
		hang = true;
		const run = startWorkflow(getJobsWorkflow([JOB_ID]), { credentials: credentials() });
		await waitFor(() => requests.length === 1);

		run.cancel();
		const result = await run.done;

		expect(result.status).toBe('canceled');
		// The node saw its cancel signal: its request failed as cancelled, not as a network error.
		expect(result.runData['Web Data'][0].error.message).toMatch(/cancel/i);
		await waitFor(() => requests[0].aborted); // the node's cancel signal closed the connection
		expect(requests).toHaveLength(1); // and it did not retry
	});

	test('a run is fast once n8n-core is loaded', async () => {
		const started = Date.now();
		const result = await runWorkflow(getJobsWorkflow([JOB_ID]), { credentials: credentials() });
		expect(result.status).toBe('success');
		expect(Date.now() - started).toBeLessThan(1000);
	});
});

describe('workflow runner binary modes (Test Items)', () => {
	let dir;
	let file;
	const content = Buffer.from('%PDF-1.4\nhello binary\n');

	beforeAll(() => {
		dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runner-test-'));
		file = path.join(dir, 'report.pdf');
		fs.writeFileSync(file, content);
	});
	afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

	const binaryWorkflow = () => ({
		nodes: [
			{
				id: 'n1',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'n2',
				name: 'Files',
				type: 'test.items',
				typeVersion: 1,
				position: [200, 0],
				parameters: {
					items: JSON.stringify([
						{ json: { n: 1 }, binary: { data: { path: file, mimeType: 'application/pdf' } } },
						{ json: { n: 2 }, binary: { doc: { path: file, fileName: 'other.pdf' } } },
					]),
				},
			},
		],
		connections: { Start: { main: [[{ node: 'Files', type: 'main', index: 0 }]] } },
	});

	test('default mode keeps the file in memory, base64 in the item', async () => {
		const result = await runWorkflow(binaryWorkflow());

		expect(result.status).toBe('success');
		const [first, second] = result.items('Files');
		expect(first.json).toEqual({ n: 1 });
		expect(first.binary.data).toMatchObject({ fileName: 'report.pdf', mimeType: 'application/pdf' });
		expect(first.binary.data.id).toBeUndefined();
		expect(Buffer.from(first.binary.data.data, 'base64')).toEqual(content);
		expect(second.binary.doc).toMatchObject({ fileName: 'other.pdf', mimeType: 'application/pdf' });
	});

	test('filesystem mode stores the file on disk, referenced by id', async () => {
		const result = await runWorkflow(binaryWorkflow(), { binaryMode: 'filesystem' });

		expect(result.status).toBe('success');
		const [first] = result.items('Files');
		expect(first.binary.data.id).toMatch(/^filesystem(-v2)?:/);
		expect(first.binary.data.data).not.toContain(content.toString('base64'));
		expect(first.binary.data.bytes).toBe(content.length);
		expect(await readBinary(first.binary.data)).toEqual(content);
	});
});

async function waitFor(condition, timeoutMs = 5000) {
	const until = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > until) throw new Error('Timed out waiting for a condition');
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}
