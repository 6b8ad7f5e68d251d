'use strict';
/**
 * Agent → Run and Wait with Wait Method "Resume on Completion Webhook".
 *  - the waiting half in n8n's engine (test/helpers/workflow-runner.js, n8n-core's WorkflowExecute):
 *    the start request with its webhook on the execution's resume URL, the execution "waiting" until
 *    Max Wait, the stack entry prepared for Max Wait expiry, no status read; the checks made before
 *    anything is sent (one item per execution, On Timeout, a service that cannot reach n8n);
 *  - the resume half: WebData.webhook() with a stand-in of n8n's webhook context whose stack entry is
 *    the one the waiting run left, against the strict fake API (the run is read with GET /v2/agent/{id}):
 *    token and signature checks, other events and runs, the result or the error it resumes with.
 * n8n's own resume (and restarts, Max Wait expiry) is proven in the real n8n: npm run test:e2e:agent-resume.
 * Build first: `npm run build`.
 */
const crypto = require('crypto');
const { runWorkflow } = require('../helpers/workflow-runner');
const { CANARY_KEY, record } = require('../helpers/canary');
const { resumeCaller, useSigningFakeApi } = require('../helpers/resume-context');
const resume = require('../../dist/nodes/WebData/jobs/resume');
const { isPrivateHost } = require('../../dist/nodes/WebData/helpers/validation');
const signature = require('../../dist/nodes/shared/signature');

jest.setTimeout(30000);

const SECRET = 'whsec-agent-resume-test';
const api = useSigningFakeApi(SECRET);

const NODE = 'Run agent';
const credentials = (over = {}) => ({ webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url, webhookSecret: '', ...over } });
const LONG = 'FAKE_DURATION_MS=3600000';

function workflow(parameters, { items = [{}], node = {} } = {}) {
	return {
		nodes: [
			{ id: 'n1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{ id: 'n2', name: 'Items', type: 'test.items', typeVersion: 1, position: [200, 0], parameters: { items: JSON.stringify(items.map((json) => ({ json }))) } },
			{
				id: 'agent-node-id',
				name: NODE,
				type: 'n8n-nodes-webdata.webData',
				typeVersion: 1,
				position: [400, 0],
				parameters: {
					resource: 'agent',
					operation: 'runAndWait',
					prompt: `Find robotics start-ups ${LONG}`,
					waitMethod: 'completionWebhook',
					maxWait: 600,
					...parameters,
				},
				credentials: { webDataApi: { id: 'c1', name: 'Web Data account' } },
				...node,
			},
		],
		connections: {
			Start: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
			Items: { main: [[{ node: NODE, type: 'main', index: 0 }]] },
		},
	};
}

/** Runs the workflow until it waits; returns the run, the start request and the job id. */
async function startWaiting(parameters, opts) {
	const t0 = Date.now();
	const result = record(await runWorkflow(workflow(parameters, opts), { credentials: credentials(opts?.credentials) }));
	const starts = api.requests({ method: 'POST', path: '/v2/agent' });
	return { result, t0, start: starts[0], jobId: result.items(NODE)[0]?.json.id };
}

// ---- the waiting half ---------------------------------------------------------------------------

describe('the run starts and the execution waits', () => {
	test('the webhook points at the execution\'s resume URL with a per-execution token (header and URL) and the ending events; the execution waits until its first check; nothing is polled', async () => {
		const { result, t0, start, jobId } = await startWaiting({ maxWait: 600, options: { maxCredits: 50 } });
		expect(result.status).toBe('waiting');
		expect(api.requests('/v2/agent').map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v2/agent']);
		const { webhook, ...rest } = start.body;
		expect(rest).toEqual({ prompt: `Find robotics start-ups ${LONG}`, maxCredits: 50 });
		const runData = result.run.data;
		const executionId = new URL(webhook.url).pathname.split('/')[2];
		const node = { id: 'agent-node-id', name: NODE };
		const token = resume.resumeToken(CANARY_KEY, executionId, node);
		expect(webhook.url).toBe(`http://127.0.0.1:5678/webhook-waiting/${executionId}/webdata-agent-node-id?signature=${runData.resumeToken}&webdataToken=${token}`);
		expect(webhook.events).toEqual(['completed', 'failed', 'cancelled']);
		expect(webhook.headers).toEqual({ [resume.RESUME_TOKEN_HEADER]: token });
		// The token is bound to the execution and the node, and needs the API key.
		expect(resume.resumeToken(CANARY_KEY, String(Number(executionId) + 1), node)).not.toBe(token);
		expect(resume.resumeToken(CANARY_KEY, executionId, { id: 'other', name: NODE })).not.toBe(token);
		expect(resume.resumeToken('another-key', executionId, node)).not.toBe(token);

		// n8n resumes it at the first check (80 s), not at Max Wait; the item says until when it may wait.
		const waitTill = Date.parse(runData.waitTill);
		expect(waitTill - t0).toBeGreaterThanOrEqual(79000);
		expect(waitTill - Date.now()).toBeLessThanOrEqual(80000);
		const [item] = result.json(NODE);
		expect(item).toEqual({ id: jobId, status: 'processing', waitMethod: 'completionWebhook', waitingUntil: expect.any(String) });
		expect(Date.parse(item.waitingUntil) - t0).toBeGreaterThanOrEqual(599000);
		expect(Date.parse(item.waitingUntil) - Date.now()).toBeLessThanOrEqual(600000);
		expect(result.items(NODE)[0].pairedItem).toEqual({ item: 0 });

		// The stack n8n keeps: the paused entry passes nothing on when the time comes; the check entry
		// behind it (the same node, with its input item) then runs and reads the run.
		const [paused, check, ...more] = runData.executionData.nodeExecutionStack;
		expect(more).toEqual([]);
		expect(paused.node.name).toBe(NODE);
		expect(paused.data).toEqual({ main: [] });
		expect(paused.metadata.webDataResume.wait).toMatchObject({ jobId, phase: 'waiting', reads: 0, onTimeout: 'returnStatus' });
		expect(paused.metadata.resumeError).toBeUndefined();
		expect(check.node).toMatchObject({ name: NODE, disabled: false });
		expect(check.data.main[0]).toEqual([expect.objectContaining({ json: {} })]);
		expect(check.metadata.webDataResume.wait).toMatchObject({ jobId, phase: 'check', carried: [], pairedItem: { item: 0 } });
		expect(api.agentPolls(jobId)).toBe(0);
	});

	test('a lost completion delivery: when the check time comes, n8n resumes the execution and the check reads the run once → the run\'s result', async () => {
		const { result, jobId } = await startWaiting({ maxWait: 600 });
		api.finishAgentJob(jobId); // its agent.completed never reaches n8n
		const resumed = record(await runWorkflow(workflow({ maxWait: 600 }), { credentials: credentials(), resume: result.run.data }));
		expect(resumed.status).toBe('success');
		expect(resumed.runData[NODE]).toHaveLength(1); // the paused run is replaced, no empty run is added
		const items = resumed.items(NODE);
		expect(items).toHaveLength(1);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[0].json).toMatchObject({ id: jobId, status: 'completed' });
		expect(items[0].json.data.answer).toMatch(/Fake research result/);
		expect(api.agentPolls(jobId)).toBe(1);
	});

	test('still going at a check → the execution pauses again until the next check (no output yet), one read per check', async () => {
		const { result, jobId } = await startWaiting({ maxWait: 600 });
		for (const e of result.run.data.executionData.nodeExecutionStack) e.metadata.webDataResume.wait.checkAt = Date.now(); // its time came
		const t1 = Date.now();
		const again = record(await runWorkflow(workflow({ maxWait: 600 }), { credentials: credentials(), resume: result.run.data }));
		expect(again.status).toBe('waiting');
		expect(Date.parse(again.run.data.waitTill) - t1).toBeGreaterThanOrEqual(79000);
		const [paused, check] = again.run.data.executionData.nodeExecutionStack;
		expect(paused.data).toEqual({ main: [] });
		expect(check.metadata.webDataResume.wait).toMatchObject({ jobId, phase: 'check', reads: 1 });
		expect(again.json(NODE)).toEqual([expect.objectContaining({ id: jobId, status: 'processing' })]);
		expect(api.agentPolls(jobId)).toBe(1);
		// The next check finds it ended.
		api.finishAgentJob(jobId);
		const done = record(await runWorkflow(workflow({ maxWait: 600 }), { credentials: credentials(), resume: again.run.data }));
		expect(done.status).toBe('success');
		expect(done.json(NODE)[0]).toMatchObject({ id: jobId, status: 'completed' });
		expect(api.agentPolls(jobId)).toBe(2);
	});

	test('the check at Max Wait reads once more: "Return Last Status" → the timed-out item saying when it was read; "Fail" → the Max Wait error', async () => {
		const a = await startWaiting({ maxWait: 1 });
		expect(Date.parse(a.result.run.data.waitTill) - a.t0).toBeLessThanOrEqual(1500); // the only check is at Max Wait
		await new Promise((r) => setTimeout(r, 1100));
		const timedOut = record(await runWorkflow(workflow({ maxWait: 1 }), { credentials: credentials(), resume: a.result.run.data }));
		expect(timedOut.status).toBe('success');
		const [item] = timedOut.json(NODE);
		expect(item).toMatchObject({ id: a.jobId, status: 'processing', timedOut: true, waitMethod: 'completionWebhook' });
		expect(item.message).toMatch(/^Max Wait \(1 s\) passed and the status read at .+ said the agent run was still going\. Read it later with Agent → Get/);
		expect(api.agentPolls(a.jobId)).toBe(1);

		const b = await startWaiting({ maxWait: 1, onTimeout: 'fail' });
		await new Promise((r) => setTimeout(r, 1100));
		const failed = record(await runWorkflow(workflow({ maxWait: 1, onTimeout: 'fail' }), { credentials: credentials(), resume: b.result.run.data }));
		expect(failed.status).toBe('error');
		expect(failed.error.message).toBe('The agent run did not end within Max Wait (1 s)');
		expect(failed.error.description).toContain(b.jobId);
	});

	test('a check that finds a failed run with "Stop With Error" fails the node with the run\'s error', async () => {
		const w = await startWaiting({ prompt: `Refuse ${LONG} FAKE_OUTCOME=fail` });
		api.finishAgentJob(w.jobId);
		const resumed = record(await runWorkflow(workflow({ prompt: `Refuse ${LONG} FAKE_OUTCOME=fail` }), { credentials: credentials(), resume: w.result.run.data }));
		expect(resumed.status).toBe('error');
		expect(resumed.error.message).toBe('The agent run failed: Agent run failed due to an internal error.');
		expect(api.agentPolls(w.jobId)).toBe(1);
	});

	test('a status read that fails for a while (429 after every retry) is not an end: the execution pauses until the next check', async () => {
		const { result, jobId } = await startWaiting({ maxWait: 600 });
		api.fault({ method: 'GET', path: `/v2/agent/${jobId}`, statuses: [429], retryAfter: 0, times: 5 });
		const again = record(await runWorkflow(workflow({ maxWait: 600 }), { credentials: credentials(), resume: result.run.data }));
		expect(again.status).toBe('waiting');
		expect(again.run.data.executionData.nodeExecutionStack[1].metadata.webDataResume.wait).toMatchObject({ jobId, phase: 'check', reads: 1 });
	});

	test.each([
		[404, /no longer knows the agent run/],
		[401, /refused the credential \(401\)/],
		[403, /refused the credential \(403\)/],
	])('a read answered %i ends the wait at that check with the service\'s answer and what to do; under Continue it is an error item', async (status, why) => {
		const { result, jobId } = await startWaiting({ maxWait: 600 });
		api.fault({ method: 'GET', path: `/v2/agent/${jobId}`, statuses: [status], times: 2 });
		const t = Date.now();
		const ended = record(await runWorkflow(workflow({ maxWait: 600 }), { credentials: credentials(), resume: result.run.data }));
		expect(Date.now() - t).toBeLessThan(20000); // not Max Wait
		expect(ended.status).toBe('error');
		expect(ended.error.message).toMatch(/^The agent run can no longer be read: /);
		expect(ended.error.description).toMatch(why);
		expect(ended.error.description).toContain(jobId);
		expect(ended.error.description).toMatch(/Waiting longer cannot change this/);

		const cont = await startWaiting({ maxWait: 600 }, { node: { onError: 'continueRegularOutput' } });
		api.fault({ method: 'GET', path: `/v2/agent/${cont.jobId}`, statuses: [status], times: 2 });
		const item = record(await runWorkflow(workflow({ maxWait: 600 }, { node: { onError: 'continueRegularOutput' } }), { credentials: credentials(), resume: cont.result.run.data }));
		expect(item.status).toBe('success');
		expect(item.json(NODE)).toEqual([expect.objectContaining({ error: expect.stringMatching(/^The agent run can no longer be read/), jobId: cont.jobId, httpCode: String(status) })]);
		expect(item.items(NODE)[0].pairedItem).toEqual({ item: 0 });
	});

	test('Retry of a run that failed at its check (a new execution) starts the run again, as with Wait Method "Poll"', async () => {
		const w = await startWaiting({ prompt: `Refuse ${LONG} FAKE_OUTCOME=fail` });
		api.finishAgentJob(w.jobId);
		const failed = record(await runWorkflow(workflow({ prompt: `Refuse ${LONG} FAKE_OUTCOME=fail` }), { credentials: credentials(), resume: w.result.run.data }));
		expect(failed.status).toBe('error');
		expect(api.requests({ method: 'POST', path: '/v2/agent' })).toHaveLength(1);
		// n8n's Retry replays the failed stack entry (the check, with its metadata) in a NEW execution.
		// As n8n's ExecutionService.retry prepares it: the error removed, the failed run of the node dropped.
		const data = JSON.parse(JSON.stringify(failed.run.data));
		delete data.resultData.error;
		const runs = data.resultData.runData[data.resultData.lastNodeExecuted];
		if (runs.at(-1).error !== undefined) runs.pop();
		expect(data.executionData.nodeExecutionStack[0].metadata.webDataResume.wait).toMatchObject({ jobId: w.jobId, phase: 'check' });
		const retried = record(await runWorkflow(workflow({ prompt: `Refuse ${LONG} FAKE_OUTCOME=fail` }), { credentials: credentials(), resume: data, executionId: 'retry-of-it' }));
		expect(retried.error?.message).toBeUndefined();
		expect(retried.status).toBe('waiting');
		const starts = api.requests({ method: 'POST', path: '/v2/agent' });
		expect(starts).toHaveLength(2);
		expect(starts[1].body.webhook.url).toContain('/webhook-waiting/retry-of-it/webdata-agent-node-id?');
		const newId = retried.json(NODE)[0].id;
		expect(newId).not.toBe(w.jobId);
		expect(retried.run.data.executionData.nodeExecutionStack[1].metadata.webDataResume.wait).toMatchObject({ jobId: newId, executionId: 'retry-of-it', reads: 0 });
	});

	test('two resumes of one execution at once (n8n 1.x has no guard: a delivery\'s wake and the timed check): the run is read and output once; the other copy outputs nothing', async () => {
		const { result, jobId } = await startWaiting({ maxWait: 600 });
		api.finishAgentJob(jobId);
		api.fault({ method: 'GET', path: `/v2/agent/${jobId}`, delayMs: 1500, times: 1 });
		const [a, b] = await Promise.all([
			runWorkflow(workflow({ maxWait: 600 }), { credentials: credentials(), resume: result.run.data }),
			new Promise((r) => setTimeout(r, 300)).then(() => runWorkflow(workflow({ maxWait: 600 }), { credentials: credentials(), resume: result.run.data })),
		]);
		const outputs = [record(a), record(b)].map((r) => r.items(NODE).length).sort();
		expect(outputs).toEqual([0, 1]);
		expect(api.agentPolls(jobId)).toBe(1);
		// A third resume after the result went out (n8n 1.x's timer firing late) outputs nothing either.
		const c = record(await runWorkflow(workflow({ maxWait: 600 }), { credentials: credentials(), resume: result.run.data }));
		expect(c.items(NODE)).toEqual([]);
		expect(api.agentPolls(jobId)).toBe(1);
	});

	test('Wait Method "Poll" (and saved workflows without the field) keep polling: no webhook is sent', async () => {
		const result = record(
			await runWorkflow(workflow({ prompt: 'Quick FAKE_DURATION_MS=300', waitMethod: undefined, maxWait: 60 }), { credentials: credentials() }),
		);
		expect(result.status).toBe('success');
		expect(result.json(NODE)[0].status).toBe('completed');
		const [start, ...polls] = api.requests('/v2/agent');
		expect(start.body.webhook).toBeUndefined();
		expect(polls.length).toBeGreaterThanOrEqual(1);
	});
});

describe('checked before anything is sent', () => {
	test('several input items: a clear error that says how to loop, and zero requests', async () => {
		const result = record(await runWorkflow(workflow({}, { items: [{ q: 1 }, { q: 2 }] }), { credentials: credentials() }));
		expect(result.status).toBe('error');
		expect(result.error.message).toBe('"Resume on Completion Webhook" waits for one agent run per execution, but 2 items came in');
		expect(result.error.description).toMatch(/Loop Over Items/);
		expect(result.error.description).toMatch(/Nothing was sent/);
		expect(api.log).toHaveLength(0);
	});

	test('Send Events to Web Data Trigger sets the run\'s one webhook: refused with the field named, zero requests (issue 18.2)', async () => {
		const options = { sendToTrigger: { trigger: { url: 'https://n8n.example.com/webhook/abc/webhook', token: 'tok', events: ['completed'] } } };
		const result = record(await runWorkflow(workflow({ options }), { credentials: credentials() }));
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/^Send Events to Web Data Trigger "https:\/\/n8n.example.com\/webhook\/abc\/webhook" is not valid: it cannot be used with Wait Method "Resume on Completion Webhook"/);
		expect(api.log).toHaveLength(0);
	});

	test('On Timeout "Cancel the Run and Fail" cannot work (no node code runs at Max Wait): refused, zero requests', async () => {
		const result = record(await runWorkflow(workflow({ onTimeout: 'cancelAndFail' }), { credentials: credentials() }));
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/^On Timeout "Cancel the Run and Fail" is not valid: it cannot be used with Wait Method "Resume on Completion Webhook"/);
		expect(api.log).toHaveLength(0);
	});

	test('a service on the internet cannot reach an n8n on a private address: refused with WEBHOOK_URL named, zero requests', async () => {
		const result = record(await runWorkflow(workflow({}), { credentials: credentials({ baseUrl: 'https://api.example.com' }) }));
		expect(result.status).toBe('error');
		expect(result.error.message).toBe('The service cannot reach this n8n: the resume URL points to "127.0.0.1", which is not reachable from the internet');
		expect(result.error.description).toMatch(/WEBHOOK_URL/);
		expect(api.log).toHaveLength(0);
	});

	test('validation of the start fields still comes first (Prompt), zero requests', async () => {
		const result = record(await runWorkflow(workflow({ prompt: 'x'.repeat(10001) }), { credentials: credentials() }));
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/^Prompt "x+…" is not valid: it has 10001 characters/);
		expect(api.log).toHaveLength(0);
	});
});

test('isPrivateHost: loopback, private, link-local, CGNAT, IPv6 local and bare names; public names and addresses are not', () => {
	for (const h of ['localhost', 'n8n', '127.0.0.1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.10', '169.254.1.1', '100.64.0.1', '0.0.0.0', '[::1]', 'fd00::1', 'fe80::1', 'host.docker.internal', 'box.local']) {
		expect([h, isPrivateHost(h)]).toEqual([h, true]);
	}
	for (const h of ['n8n.example.com', 'api.firecrawl.dev', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2001:db8::1']) {
		expect([h, isPrivateHost(h)]).toEqual([h, false]);
	}
});

// ---- the resume half ----------------------------------------------------------------------------

const callResume = (options) => resumeCaller({ api, apiKey: CANARY_KEY })(options);

function agentNode({ nodeOver = {}, parameters = {} } = {}) {
	return { id: 'agent-node-id', name: NODE, type: 'n8n-nodes-webdata.webData', typeVersion: 1, position: [0, 0], parameters: { resource: 'agent', operation: 'runAndWait', waitMethod: 'completionWebhook', onUnsuccessful: 'error', options: {}, ...parameters }, ...nodeOver };
}

/** A waiting run (through the engine) and a delivery for it, signed and with the right token. */
async function waitingRun(parameters = {}, { prompt = `Find robotics start-ups ${LONG}`, outcome, node } = {}) {
	const { result, start, jobId } = await startWaiting({ prompt, ...parameters }, node ? { node } : undefined);
	expect(result.status).toBe('waiting');
	const stack = result.run.data.executionData.nodeExecutionStack; // [the paused entry, its check entry]
	const entry = stack[0];
	const executionId = new URL(start.body.webhook.url).pathname.split('/')[2];
	const token = start.body.webhook.headers[resume.RESUME_TOKEN_HEADER];
	if (outcome !== 'running') api.finishAgentJob(jobId);
	const envelope = (over = {}) => ({ success: true, type: 'agent.completed', id: jobId, webhookId: crypto.randomUUID(), data: [{ creditsUsed: 10, data: {} }], metadata: {}, ...over });
	const headersFor = (raw, { tokenValue = token, secret = SECRET } = {}) => ({
		'content-type': 'application/json',
		...(tokenValue ? { [resume.RESUME_TOKEN_HEADER.toLowerCase()]: tokenValue } : {}),
		...(secret ? { 'x-firecrawl-signature': `sha256=${signature.signBody(secret, raw)}` } : {}),
	});
	return { result, entry, stack, executionId, token, jobId, envelope, headersFor };
}

async function callWebhook({ nodeOver, parameters, ...rest }) {
	return await callResume({ node: agentNode({ nodeOver, parameters }), ...rest });
}

const statusReads = (jobId) => api.requests({ method: 'GET', path: `/v2/agent/${jobId}` }).length;

/** What n8n runs after a wake: the same execution, resumed; its check reads the run. */
async function afterWake(w, parameters = {}, opts = {}) {
	return record(await runWorkflow(workflow(parameters, opts), { credentials: credentials(opts.credentials), resume: w.result.run.data }));
}

describe('the resume call (WebData.webhook): it wakes, the check reads', () => {
	test('a signed delivery of the run\'s end is answered at once and wakes the execution; nothing is read there; the check then reads the run once and outputs it once', async () => {
		const w = await waitingRun({ onTimeout: 'fail' });
		const raw = Buffer.from(JSON.stringify(w.envelope()));
		const { returned, response } = await callWebhook({ entry: w.entry, stack: w.stack, executionId: w.executionId, raw, headers: w.headersFor(raw), credentials: { webhookSecret: SECRET } });
		expect(response.status).toBeUndefined();
		expect(returned).toEqual({ workflowData: [], webhookResponse: { received: true } });
		expect(statusReads(w.jobId)).toBe(0);
		expect(w.stack).toHaveLength(2); // the check stays: it reads the run
		const resumed = await afterWake(w, { onTimeout: 'fail' });
		expect(resumed.status).toBe('success');
		const items = resumed.items(NODE);
		expect(items).toHaveLength(1);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[0].json).toMatchObject({ id: w.jobId, status: 'completed' });
		expect(items[0].json.data.answer).toMatch(/Fake research result/);
		expect(statusReads(w.jobId)).toBe(1);
	});

	test('under a credit budget (issue 35): Max Credits lowered to what is left is held while waiting; the resumed run counts what it reports and says Max Credits was lowered', async () => {
		const { result, start, jobId } = await startWaiting({}, { credentials: { creditBudget: 40 } });
		expect(result.status).toBe('waiting');
		expect(start.body.maxCredits).toBe(40);
		expect(JSON.parse(result.run.data.resultData.metadata.webdata_budget).c.c1.j).toEqual({ [jobId.replace(/-/g, '').slice(0, 12)]: 40 });
		api.finishAgentJob(jobId);
		const resumed = await afterWake({ result }, {}, { credentials: { creditBudget: 40 } });
		expect(resumed.status).toBe('success');
		const [item] = resumed.json(NODE);
		expect(item.status).toBe('completed');
		expect(item.credits).toEqual({ used: item.creditsUsed, execution: item.creditsUsed, budget: 40, left: 40 - item.creditsUsed, maxCreditsLowered: { from: 2500, to: 40 } });
		expect(JSON.parse(resumed.run.data.resultData.metadata.webdata_budget).c.c1).toEqual({ s: item.creditsUsed, r: 0 });
	});

	test('the answer does not wait for the service: a status read that would take 3 s is not made by the webhook', async () => {
		const w = await waitingRun();
		api.fault({ method: 'GET', path: `/v2/agent/${w.jobId}`, delayMs: 3000 });
		const raw = Buffer.from(JSON.stringify(w.envelope()));
		const t = Date.now();
		const { returned } = await callWebhook({ entry: w.entry, stack: w.stack, executionId: w.executionId, raw, headers: w.headersFor(raw) });
		expect(Date.now() - t).toBeLessThan(2000);
		expect(returned.workflowData).toEqual([]);
		expect(statusReads(w.jobId)).toBe(0);
	});

	test.each([
		['the token in the URL only (a service that drops custom headers)', { tokenValue: null, secret: null }, {}, 'url'],
		['the token in the URL and the signature (a service that drops custom headers, the credential holding the secret)', { tokenValue: null }, { webhookSecret: SECRET }, 'url'],
		['the token header and the signature', {}, { webhookSecret: SECRET }, 'none'],
		['the token alone, without a signing secret in the credential', { secret: null }, {}, 'none'],
	])('%s → accepted: the execution wakes', async (_name, headerOptions, creds, query) => {
		const w = await waitingRun();
		const raw = Buffer.from(JSON.stringify(w.envelope()));
		const { returned, response } = await callWebhook({ entry: w.entry, stack: w.stack, executionId: w.executionId, raw, headers: w.headersFor(raw, headerOptions), query: query === 'url' ? { signature: 'n8n-token', webdataToken: w.token } : {}, credentials: creds });
		expect(response.status).toBeUndefined();
		expect(returned).toEqual({ workflowData: [], webhookResponse: { received: true } });
	});

	test.each([
		['no token and no signature', { tokenValue: null, secret: null }, { webhookSecret: SECRET }, {}],
		['no token, and a signature the credential has no secret to check', { tokenValue: null }, {}, {}],
		['a wrong token', { tokenValue: 'f'.repeat(64), secret: null }, {}, {}],
		['a wrong token with a valid signature', { tokenValue: 'f'.repeat(64) }, { webhookSecret: SECRET }, {}],
		['the token of another execution', { tokenValue: 'other-execution', secret: null }, {}, {}],
		['a wrong token in the URL with a valid header token', { secret: null }, {}, { webdataToken: 'f'.repeat(64) }],
		['the token in the URL twice', { tokenValue: null, secret: null }, {}, { webdataToken: ['x', 'y'] }],
		['a signature with another secret, and the right token', { secret: 'not-the-secret' }, { webhookSecret: SECRET }, {}],
		// One rule for every delivery (issue 34.7): each proof that is set must hold, as for the trigger.
		['the signature only, without the token', { tokenValue: null }, { webhookSecret: SECRET }, {}],
		['the token header only, while the credential holds the signing secret', { secret: null }, { webhookSecret: SECRET }, {}],
		['a right token header beside a wrong URL token, signed', {}, { webhookSecret: SECRET }, { webdataToken: 'f'.repeat(64) }],
	])('%s → 401, nothing wakes, nothing is read', async (_name, headerOptions, creds, query) => {
		const w = await waitingRun();
		const raw = Buffer.from(JSON.stringify(w.envelope()));
		const tokenValue = headerOptions.tokenValue === 'other-execution' ? resume.resumeToken(CANARY_KEY, `${w.executionId}9`, { id: 'agent-node-id' }) : headerOptions.tokenValue;
		const headers = w.headersFor(raw, { ...headerOptions, tokenValue: tokenValue === undefined ? w.token : tokenValue });
		const { returned, response, warnings } = await callWebhook({ entry: w.entry, stack: w.stack, executionId: w.executionId, raw, headers, query, credentials: creds });
		expect(response).toEqual({ status: 401, body: { success: false, error: 'Unauthorized' } });
		expect(returned).toEqual({ noWebhookResponse: true });
		expect(warnings.join('\n')).toMatch(/refused a resume call/);
		expect(warnings.join('\n')).not.toContain(w.token);
		expect(statusReads(w.jobId)).toBe(0);
	});

	test('a body changed after signing → 401', async () => {
		const w = await waitingRun();
		const signed = Buffer.from(JSON.stringify(w.envelope()));
		const changed = Buffer.from(JSON.stringify(w.envelope({ data: [{ creditsUsed: 0, data: { forged: true } }] })));
		const { response } = await callWebhook({ entry: w.entry, executionId: w.executionId, raw: changed, headers: w.headersFor(signed, { tokenValue: null }), credentials: { webhookSecret: SECRET } });
		expect(response.status).toBe(401);
	});

	test('not an envelope → 400; an event that does not end the run, or another run\'s delivery → 200 ignored; nothing wakes or is read', async () => {
		const w = await waitingRun();
		const cases = [
			[Buffer.from('{"hello":1}'), 400],
			[Buffer.from('not json'), 400],
			[Buffer.from(JSON.stringify(w.envelope({ type: 'agent.started' }))), 200],
			[Buffer.from(JSON.stringify(w.envelope({ type: 'agent.action' }))), 200],
			[Buffer.from(JSON.stringify(w.envelope({ id: crypto.randomUUID() }))), 200],
			[Buffer.from(JSON.stringify(w.envelope({ id: 'not-a-uuid' }))), 200],
		];
		for (const [raw, want] of cases) {
			const { returned, response } = await callWebhook({ entry: w.entry, executionId: w.executionId, raw, headers: w.headersFor(raw), credentials: { webhookSecret: SECRET } });
			expect(returned.workflowData).toBeUndefined();
			if (want === 400) expect(response.status).toBe(400);
			else expect(returned.webhookResponse).toEqual({ received: true, ignored: expect.any(String) });
		}
		expect(statusReads(w.jobId)).toBe(0);
	});

	test('two deliveries of one end: the second does not wake the execution again', async () => {
		const w = await waitingRun();
		const raw = Buffer.from(JSON.stringify(w.envelope()));
		const first = await callWebhook({ entry: w.entry, executionId: w.executionId, raw, headers: w.headersFor(raw) });
		const second = await callWebhook({ entry: w.entry, executionId: w.executionId, raw, headers: w.headersFor(raw) });
		expect(first.returned.workflowData).toEqual([]);
		expect(second.returned).toEqual({ webhookResponse: { received: true, ignored: 'the execution was woken by an earlier delivery' } });
	});

	test('a delivery when the check is due within 5 s does not wake: the check reads the run anyway', async () => {
		const w = await waitingRun();
		w.entry.metadata.webDataResume.wait.checkAt = Date.now() + 3000;
		const raw = Buffer.from(JSON.stringify(w.envelope()));
		const { returned } = await callWebhook({ entry: w.entry, executionId: w.executionId, raw, headers: w.headersFor(raw) });
		expect(returned.workflowData).toBeUndefined();
		expect(returned.webhookResponse).toEqual({ received: true, note: expect.stringMatching(/^the execution reads the agent run at /) });
	});

	test('a leaked resume URL cannot keep the execution reading: after 3 woken checks that found the run going, deliveries no longer wake it (the planned checks go on)', async () => {
		const w = await waitingRun({}, { outcome: 'running' });
		const again = await afterWake(w);
		expect(again.run.data.executionData.nodeExecutionStack[1].metadata.webDataResume.wait.wokenReads).toBe(1);
		const entry = again.run.data.executionData.nodeExecutionStack[0];
		for (const [wokenReads, wakes] of [[2, true], [3, false]]) {
			entry.metadata.webDataResume.wait = { ...entry.metadata.webDataResume.wait, wokenReads, checkAt: Date.now() + 50_000 };
			const raw = Buffer.from(JSON.stringify({ ...w.envelope(), webhookId: crypto.randomUUID() }));
			const { returned } = await callWebhook({ entry, executionId: w.executionId, raw, headers: w.headersFor(raw) });
			expect([wokenReads, Array.isArray(returned.workflowData)]).toEqual([wokenReads, wakes]);
		}
	});

	test('a run that does not read as ended yet after a wake: the check pauses again, at most 60 s', async () => {
		const w = await waitingRun({}, { outcome: 'running' });
		const t = Date.now();
		const again = await afterWake(w);
		expect(again.status).toBe('waiting');
		expect(Date.parse(again.run.data.waitTill) - t).toBeLessThanOrEqual(60500);
		expect(Date.parse(again.run.data.waitTill) - t).toBeGreaterThanOrEqual(59000);
		expect(statusReads(w.jobId)).toBe(1);
	});

	test('the waiting state cannot be read (an n8n that holds it otherwise) → 500 with a message, logged as an error; nothing wakes', async () => {
		const w = await waitingRun();
		const raw = Buffer.from(JSON.stringify(w.envelope()));
		const { response, returned } = await callWebhook({ entry: { node: { name: 'Another node' }, data: { main: [[]] } }, executionId: w.executionId, raw, headers: w.headersFor(raw) });
		expect(response).toEqual({ status: 500, body: { success: false, error: 'The waiting state of this execution could not be read; it reads the agent run at its next check' } });
		expect(returned.workflowData).toBeUndefined();
	});

	test('a node not set to "Resume on Completion Webhook" → 404', async () => {
		const w = await waitingRun();
		const raw = Buffer.from(JSON.stringify(w.envelope()));
		const { response } = await callWebhook({ entry: w.entry, executionId: w.executionId, raw, headers: w.headersFor(raw), parameters: { waitMethod: 'poll' } });
		expect(response.status).toBe(404);
	});

	test('a cancelled run with "Output Item": the check outputs the run as it is', async () => {
		const w = await waitingRun({ onUnsuccessful: 'outputItem' }, { outcome: 'running' });
		await fetch(`${api.url}/v2/agent/${w.jobId}`, { method: 'DELETE', headers: { authorization: `Bearer ${CANARY_KEY}` } });
		const resumed = await afterWake(w, { onUnsuccessful: 'outputItem' });
		expect(resumed.status).toBe('success');
		expect(resumed.json(NODE)[0]).toMatchObject({ id: w.jobId, status: 'failed', error: 'Agent run was cancelled.' });
	});

	test('a failed run under Continue (regular output): the check outputs an error item carrying the run\'s facts, not an error', async () => {
		const node = { onError: 'continueRegularOutput' };
		const w = await waitingRun({}, { prompt: `Refuse ${LONG} FAKE_OUTCOME=credit_limit`, node });
		const resumed = await afterWake(w, { prompt: `Refuse ${LONG} FAKE_OUTCOME=credit_limit` }, { node });
		expect(resumed.status).toBe('success');
		const [json] = resumed.json(NODE);
		expect(json.error).toMatch(/^The agent run stopped at its credit limit/);
		expect(json).toMatchObject({ jobId: w.jobId, status: 'failed', stopReason: 'credit_limit_reached' });
	});
});

describe('signature helpers (shared)', () => {
	test('authenticateDelivery: token then signature, constant-time compares, reasons without secrets', () => {
		const raw = '{"type":"agent.completed"}';
		const good = { headers: { 'X-T': 'tok', 'x-firecrawl-signature': `sha256=${signature.signBody(SECRET, raw)}` }, query: {}, rawBody: raw, places: { header: 'X-T', query: 't' }, expectedToken: 'tok', signingSecret: SECRET };
		expect(signature.authenticateDelivery(good)).toEqual({ ok: true, verifiedBy: ['token', 'signature'] });
		expect(signature.authenticateDelivery({ ...good, signingSecret: undefined })).toEqual({ ok: true, verifiedBy: ['token'] });
		expect(signature.authenticateDelivery({ ...good, headers: { 'x-firecrawl-signature': good.headers['x-firecrawl-signature'] } })).toEqual({ ok: false, reason: 'it carries neither the X-T header nor the t URL parameter', failed: 'token' });
		expect(signature.authenticateDelivery({ ...good, expectedToken: 'other' })).toEqual({ ok: false, reason: 'the X-T header is wrong', failed: 'token' });
		expect(signature.authenticateDelivery({ ...good, rawBody: `${raw} ` })).toEqual({ ok: false, reason: 'the X-Firecrawl-Signature header does not match the body', failed: 'signature' });
		expect(signature.authenticateDelivery({ ...good, rawBody: undefined }).ok).toBe(false);
		expect(signature.authenticateDelivery({ ...good, headers: { 'X-T': ['tok', 'tok'] } })).toEqual({ ok: false, reason: 'the X-T header is sent more than once', failed: 'token' });
		expect(signature.signatureMatches(SECRET, raw, `sha256=${signature.signBody(SECRET, raw).toUpperCase()}`)).toBe(true);
		expect(signature.signatureMatches(SECRET, raw, `sha1=${signature.signBody(SECRET, raw)}`)).toBe(false);
	});

	test('derivedToken: the same inputs give the same token; any change gives another', () => {
		const a = signature.derivedToken('k', 'x', '1');
		expect(a).toMatch(/^[0-9a-f]{64}$/);
		expect(signature.derivedToken('k', 'x', '1')).toBe(a);
		expect(signature.derivedToken('k', 'x', '2')).not.toBe(a);
		expect(signature.derivedToken('k2', 'x', '1')).not.toBe(a);
		expect(signature.derivedToken('k', 'x\n1')).not.toBe(a);
		expect(signature.derivedToken('k', 'x1')).not.toBe(a);
	});
});
