'use strict';
/**
 * "Resume on Completion Webhook" on an n8n without `metadata.resumeError` (n8n 1.x, and 2.x before
 * 2.27): the node relies on no such feature. A delivery only wakes the execution and the check
 * entry's execute() outputs the job's result or throws its error, so a failed job fails the node on
 * every n8n. Emulated: n8n-workflow as 1.x exports it, n8n's WaitingWebhooks (disables the first
 * stack entry, calls webhook(), resumes with what it returned). The real n8n 1.123:
 * npm run test:e2e:n8n1:agent-resume. Build first.
 */
jest.mock('n8n-workflow', () => {
	const { policyToChannels, ...v1Like } = jest.requireActual('n8n-workflow');
	return v1Like;
});

const crypto = require('crypto');
const { runWorkflow } = require('../helpers/workflow-runner');
const { CANARY_KEY, record } = require('../helpers/canary');
const { resumeCaller, useSigningFakeApi } = require('../helpers/resume-context');
const resume = require('../../dist/nodes/WebData/jobs/resume');

jest.setTimeout(30000);

const api = useSigningFakeApi('whsec-n8n1-resume-test');
const NODE = 'Run agent';
const LONG = 'FAKE_DURATION_MS=3600000';
const credentials = () => ({ webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url, webhookSecret: '' } });

function workflow(parameters) {
	return {
		nodes: [
			{ id: 'n1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'agent-node-id',
				name: NODE,
				type: 'n8n-nodes-webdata.webData',
				typeVersion: 1,
				position: [200, 0],
				parameters: { resource: 'agent', operation: 'runAndWait', waitMethod: 'completionWebhook', maxWait: 600, onUnsuccessful: 'error', options: {}, ...parameters },
				credentials: { webDataApi: { id: 'c1', name: 'Web Data account' } },
			},
		],
		connections: { Start: { main: [[{ node: NODE, type: 'main', index: 0 }]] } },
	};
}

async function waitingAgent(parameters) {
	const result = record(await runWorkflow(workflow(parameters), { credentials: credentials() }));
	expect(result.status).toBe('waiting');
	const start = api.requests({ method: 'POST', path: '/v2/agent' })[0];
	const entry = result.run.data.executionData.nodeExecutionStack[0];
	const executionId = new URL(start.body.webhook.url).pathname.split('/')[2];
	return { result, entry, executionId, jobId: result.items(NODE)[0].json.id, token: start.body.webhook.headers[resume.RESUME_TOKEN_HEADER] };
}

/** n8n's WaitingWebhooks: disables the waiting node (the first stack entry), calls webhook(), and resumes with what it returned. */
async function deliverAndResume(w, type, parameters) {
	w.entry.node.disabled = true;
	const raw = Buffer.from(JSON.stringify({ success: type.endsWith('completed'), type, id: w.jobId, webhookId: crypto.randomUUID(), data: [], metadata: {} }));
	const headers = { 'content-type': 'application/json', [resume.RESUME_TOKEN_HEADER.toLowerCase()]: w.token };
	const node = { ...w.entry.node, parameters: { ...w.entry.node.parameters } };
	const { returned } = await resumeCaller({ api, apiKey: CANARY_KEY })({ node, entry: w.entry, executionId: w.executionId, raw, headers });
	expect(returned.workflowData).toEqual([]);
	w.entry.data = { main: returned.workflowData };
	return record(await runWorkflow(workflow(parameters), { credentials: credentials(), resume: w.result.run.data }));
}

test('a failed run with On Unsuccessful "Stop With Error" fails the node on resume, with the run\'s error: the check throws it, no engine feature needed', async () => {
	const parameters = { prompt: `Refuse ${LONG} FAKE_OUTCOME=fail` };
	const w = await waitingAgent(parameters);
	api.finishAgentJob(w.jobId);
	const resumed = await deliverAndResume(w, 'agent.failed', parameters);
	expect(resumed.status).toBe('error');
	expect(resumed.error.message).toBe('The agent run failed: Agent run failed due to an internal error.');
	expect(resumed.error.context).toMatchObject({ jobId: w.jobId, status: 'failed' });
	expect(resumed.error.description).toContain(w.jobId);
	expect(api.requests({ method: 'POST', path: '/v2/agent' })).toHaveLength(1);
	expect(api.agentPolls(w.jobId)).toBe(1);
});

test('a completed run: the node outputs the result once', async () => {
	const parameters = { prompt: `Find robotics start-ups ${LONG}` };
	const w = await waitingAgent(parameters);
	api.finishAgentJob(w.jobId);
	const resumed = await deliverAndResume(w, 'agent.completed', parameters);
	expect(resumed.status).toBe('success');
	expect(resumed.json(NODE)).toEqual([expect.objectContaining({ id: w.jobId, status: 'completed' })]);
});

test('On Timeout "Fail" with the resume webhook: the run starts and waits; at Max Wait the check copy runs (the engine disables only the emptied first entry, as n8n-core 1.122 handleWaitingState does) and fails the node naming Max Wait', async () => {
	const parameters = { prompt: `Find ${LONG}`, onTimeout: 'fail', maxWait: 1 };
	const waiting = record(await runWorkflow(workflow(parameters), { credentials: credentials() }));
	expect(waiting.status).toBe('waiting');
	expect(api.requests({ method: 'POST', path: '/v2/agent' })).toHaveLength(1);
	const jobId = waiting.items(NODE)[0].json.id;
	await new Promise((r) => setTimeout(r, 1100));
	const failed = record(await runWorkflow(workflow(parameters), { credentials: credentials(), resume: waiting.run.data }));
	expect(failed.status).toBe('error');
	expect(failed.error.message).toBe('The agent run did not end within Max Wait (1 s)');
	expect(failed.error.description).toContain(jobId);
	expect(api.agentPolls(jobId)).toBe(1);
});

describe('n8n 1.x resumes a woken execution a second time when its wait tracker armed a timer before the wake (issue 34.4)', () => {
	const checkEntry = (w) => w.result.run.data.executionData.nodeExecutionStack[1];

	test('a delivery within 75 s of the planned check does not wake (the timer may be armed): the check reads the run then', async () => {
		const parameters = { prompt: `Find ${LONG}` };
		const w = await waitingAgent(parameters);
		const checkAt = Date.now() + 40_000;
		checkEntry(w).metadata.webDataResume.wait.checkAt = checkAt;
		w.entry.metadata.webDataResume.wait.checkAt = checkAt;
		const raw = Buffer.from(JSON.stringify({ success: true, type: 'agent.completed', id: w.jobId, webhookId: crypto.randomUUID(), data: [], metadata: {} }));
		const headers = { 'content-type': 'application/json', [resume.RESUME_TOKEN_HEADER.toLowerCase()]: w.token };
		const { returned } = await resumeCaller({ api, apiKey: CANARY_KEY })({ node: { ...w.entry.node }, entry: w.entry, executionId: w.executionId, raw, headers });
		expect(returned).toEqual({ webhookResponse: { received: true, note: `the execution reads the agent run at ${new Date(checkAt).toISOString()}` } });
	});

	test('a woken check that starts within 75 s of its planned time (it waited in n8n\'s queue) reads nothing and pauses until that time, so the timer\'s resume is the only one that reads', async () => {
		const parameters = { prompt: `Find ${LONG}` };
		const w = await waitingAgent(parameters);
		const checkAt = Date.now() + 40_000;
		checkEntry(w).metadata.webDataResume.wait.checkAt = checkAt;
		const again = record(await runWorkflow(workflow(parameters), { credentials: credentials(), resume: w.result.run.data }));
		expect(again.status).toBe('waiting');
		expect(new Date(again.run.data.waitTill).getTime()).toBe(checkAt);
		expect(api.agentPolls(w.jobId)).toBe(0);
		expect(again.run.data.executionData.nodeExecutionStack[1].metadata.webDataResume.wait).toMatchObject({ jobId: w.jobId, checkAt, reads: 0, phase: 'check' });
	});

	test('in a sub-workflow (n8n 1.x continues the parent when the child pauses a second time): refused before anything is sent, naming what to use', async () => {
		const parameters = { prompt: `Find ${LONG}` };
		const result = record(await runWorkflow(workflow(parameters), { credentials: credentials(), mode: 'integrated' }));
		expect(result.status).toBe('error');
		expect(result.error.message).toBe('"Resume on Completion Webhook" cannot wait inside a sub-workflow on this n8n version');
		expect(result.error.description).toMatch(/Set Wait Method to "Poll"/);
		expect(api.log).toHaveLength(0);
	});
});
