'use strict';
/**
 * "Resume on Completion Webhook" on an n8n without `metadata.resumeError` (issue 22.4: n8n 1.x,
 * and 2.x before 2.27; jobs/resumeCompat.ts). Such an n8n resumes the waiting node disabled, so
 * it passes its data through (n8n-core 1.122 WorkflowExecute.runNode: `if (node.disabled === true)
 * return this.handleDisabledNode(inputData)`, else the node's execute()) and ignores resumeError;
 * the job's failure would become an ordinary item. Emulated here: n8n-workflow without the sign the
 * node reads (helpers/hostEngine.ts), n8n's WaitingWebhooks (disables the node, then calls
 * webhook()), and 1.x's runNode as quoted. The waiting half runs in n8n-core's engine as in
 * agent-resume.test.js. The real n8n 1.123: npm run test:e2e:n8n1. Build first.
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
const compat = require('../../dist/nodes/WebData/jobs/resumeCompat');
const { WebData } = require('../../dist/nodes/WebData/WebData.node');

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

/** n8n-core 1.122's runNode for the resumed node: disabled → its input passes through; else execute(). */
async function runNodeAsN8n1(entry) {
	if (entry.node.disabled === true) return { passedThrough: entry.data.main[0] };
	const ctx = {
		getExecuteData: () => entry,
		getNode: () => entry.node,
		getInputData: () => entry.data.main[0],
		getNodeParameter: (name, _i, fallback) => entry.node.parameters[name] ?? fallback,
	};
	try {
		return { output: await new WebData().execute.call(ctx) };
	} catch (error) {
		return { error };
	}
}

async function waitingAgent(parameters) {
	const result = record(await runWorkflow(workflow(parameters), { credentials: credentials() }));
	expect(result.status).toBe('waiting');
	const start = api.requests({ method: 'POST', path: '/v2/agent' })[0];
	const entry = result.run.data.executionData.nodeExecutionStack[0];
	const executionId = new URL(start.body.webhook.url).pathname.split('/').pop();
	return { entry, executionId, jobId: result.items(NODE)[0].json.id, token: start.body.webhook.headers[resume.RESUME_TOKEN_HEADER] };
}

/** n8n's WaitingWebhooks: disables the waiting node (and clears waitTill), then calls webhook(). */
async function deliver(w, type) {
	w.entry.node.disabled = true;
	const raw = Buffer.from(JSON.stringify({ success: type.endsWith('completed'), type, id: w.jobId, webhookId: crypto.randomUUID(), data: [], metadata: {} }));
	const headers = { 'content-type': 'application/json', [resume.RESUME_TOKEN_HEADER.toLowerCase()]: w.token };
	const node = { ...w.entry.node, parameters: { ...w.entry.node.parameters } };
	const { returned } = await resumeCaller({ api, apiKey: CANARY_KEY })({ node, entry: w.entry, executionId: w.executionId, raw, headers });
	// n8n sets what webhook() returned as the node's input on resume.
	w.entry.data = { main: returned.workflowData };
	return returned;
}

test('a failed run with On Unsuccessful "Stop With Error" still fails the node on resume, with the run\'s error', async () => {
	const w = await waitingAgent({ prompt: `Refuse ${LONG} FAKE_OUTCOME=fail` });
	api.finishAgentJob(w.jobId);
	await deliver(w, 'agent.failed');
	const ran = await runNodeAsN8n1(w.entry);
	expect(ran.passedThrough).toBeUndefined();
	expect(ran.error?.message).toBe('The agent run failed: Agent run failed due to an internal error.');
	expect(ran.error.context).toMatchObject({ jobId: w.jobId, status: 'failed' });
	expect(ran.error.description).toContain(w.jobId);
	// The run was read once; nothing was started again.
	expect(api.requests({ method: 'POST', path: '/v2/agent' })).toHaveLength(1);
});

test('a completed run resumes as before: the node passes the result on without running again', async () => {
	const w = await waitingAgent({ prompt: `Find robotics start-ups ${LONG}` });
	api.finishAgentJob(w.jobId);
	await deliver(w, 'agent.completed');
	const ran = await runNodeAsN8n1(w.entry);
	expect(ran.error).toBeUndefined();
	expect(ran.passedThrough[0].json).toMatchObject({ id: w.jobId, status: 'completed' });
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
	expect(failed.error.message).toBe('The agent run did not send its completion webhook within Max Wait (1 s)');
	expect(failed.error.description).toContain(jobId);
	expect(api.agentPolls(jobId)).toBe(1);
});

test('on n8n 2.27+ nothing changes: the node stays disabled (n8n fails it by resumeError)', () => {
	const entry = { node: { name: NODE, disabled: true, parameters: {} }, data: { main: [[]] }, metadata: {} };
	compat.failOnResumeWithoutResumeError(entry, new Error('x'), true);
	expect(entry).toEqual({ node: { name: NODE, disabled: true, parameters: {} }, data: { main: [[]] }, metadata: {} });
});
