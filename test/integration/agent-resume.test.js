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
const resume = require('../../dist/nodes/WebData/resources/agent/resume');
const signature = require('../../dist/nodes/WebData/helpers/signature');

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
	test('the webhook points at the execution\'s resume URL with a per-execution token and the ending events; the execution waits until Max Wait; nothing is polled', async () => {
		const { result, t0, start, jobId } = await startWaiting({ maxWait: 600, options: { maxCredits: 50 } });
		expect(result.status).toBe('waiting');
		expect(api.requests('/v2/agent').map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v2/agent']);
		const { webhook, ...rest } = start.body;
		expect(rest).toEqual({ prompt: `Find robotics start-ups ${LONG}`, maxCredits: 50 });
		const runData = result.run.data;
		const executionId = new URL(webhook.url).pathname.split('/').pop();
		expect(webhook.url).toBe(`http://127.0.0.1:5678/webhook-waiting/${executionId}?signature=${runData.resumeToken}`);
		expect(webhook.events).toEqual(['completed', 'failed', 'cancelled']);
		const node = { id: 'agent-node-id', name: NODE };
		expect(webhook.headers).toEqual({ [resume.RESUME_TOKEN_HEADER]: resume.resumeToken(CANARY_KEY, executionId, node) });
		// The token is bound to the execution and the node, and needs the API key.
		expect(resume.resumeToken(CANARY_KEY, String(Number(executionId) + 1), node)).not.toBe(webhook.headers[resume.RESUME_TOKEN_HEADER]);
		expect(resume.resumeToken(CANARY_KEY, executionId, { id: 'other', name: NODE })).not.toBe(webhook.headers[resume.RESUME_TOKEN_HEADER]);
		expect(resume.resumeToken('another-key', executionId, node)).not.toBe(webhook.headers[resume.RESUME_TOKEN_HEADER]);

		const waitTill = Date.parse(runData.waitTill);
		expect(waitTill - t0).toBeGreaterThanOrEqual(599000);
		expect(waitTill - Date.now()).toBeLessThanOrEqual(600000);
		expect(result.json(NODE)).toEqual([{ id: jobId, status: 'processing', waitMethod: 'completionWebhook', waitingUntil: runData.waitTill.toISOString() }]);
		expect(result.items(NODE)[0].pairedItem).toEqual({ item: 0 });

		// What Max Wait expiry passes on: the stack entry n8n keeps with the waiting execution.
		const entry = runData.executionData.nodeExecutionStack[0];
		expect(entry.node.name).toBe(NODE);
		expect(entry.data.main[0]).toEqual([
			{ json: expect.objectContaining({ id: jobId, status: 'processing', timedOut: true, waitMethod: 'completionWebhook', waitedUntil: runData.waitTill.toISOString() }), pairedItem: { item: 0 } },
		]);
		expect(entry.metadata?.resumeError).toBeUndefined();
		expect(api.agentPolls(jobId)).toBe(0);
	});

	test('On Timeout "Fail" prepares the error Max Wait expiry fails with', async () => {
		const { result, jobId } = await startWaiting({ maxWait: 30, onTimeout: 'fail' });
		expect(result.status).toBe('waiting');
		const error = result.run.data.executionData.nodeExecutionStack[0].metadata.resumeError;
		expect(error.message).toBe('The agent run did not send its completion webhook within Max Wait (30 s)');
		expect(error.description).toContain(jobId);
		expect(error.description).toContain('WEBHOOK_URL');
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
		expect([h, resume.isPrivateHost(h)]).toEqual([h, true]);
	}
	for (const h of ['n8n.example.com', 'api.firecrawl.dev', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2001:db8::1']) {
		expect([h, resume.isPrivateHost(h)]).toEqual([h, false]);
	}
});

// ---- the resume half ----------------------------------------------------------------------------

const callResume = (options) => resumeCaller({ api, apiKey: CANARY_KEY })(options);

function agentNode({ nodeOver = {}, parameters = {} } = {}) {
	return { id: 'agent-node-id', name: NODE, type: 'n8n-nodes-webdata.webData', typeVersion: 1, position: [0, 0], parameters: { resource: 'agent', operation: 'runAndWait', waitMethod: 'completionWebhook', onUnsuccessful: 'error', options: {}, ...parameters }, ...nodeOver };
}

/** A waiting run (through the engine) and a delivery for it, signed and with the right token. */
async function waitingRun(parameters = {}, { prompt = `Find robotics start-ups ${LONG}`, outcome } = {}) {
	const { result, start, jobId } = await startWaiting({ prompt, ...parameters });
	expect(result.status).toBe('waiting');
	const entry = result.run.data.executionData.nodeExecutionStack[0];
	const executionId = new URL(start.body.webhook.url).pathname.split('/').pop();
	const token = start.body.webhook.headers[resume.RESUME_TOKEN_HEADER];
	if (outcome !== 'running') api.finishAgentJob(jobId);
	const envelope = (over = {}) => ({ success: true, type: 'agent.completed', id: jobId, webhookId: crypto.randomUUID(), data: [{ creditsUsed: 10, data: {} }], metadata: {}, ...over });
	const headersFor = (raw, { tokenValue = token, secret = SECRET } = {}) => ({
		'content-type': 'application/json',
		...(tokenValue ? { [resume.RESUME_TOKEN_HEADER.toLowerCase()]: tokenValue } : {}),
		...(secret ? { 'x-firecrawl-signature': `sha256=${signature.signBody(secret, raw)}` } : {}),
	});
	return { result, entry, executionId, token, jobId, envelope, headersFor };
}

async function callWebhook({ nodeOver, parameters, ...rest }) {
	return await callResume({ node: agentNode({ nodeOver, parameters }), ...rest });
}

const statusReads = (jobId) => api.requests({ method: 'GET', path: `/v2/agent/${jobId}` }).length;

describe('the resume call (WebData.webhook)', () => {
	test('a signed delivery of the run\'s end resumes with the run read once (GET /v2/agent/{id})', async () => {
		const w = await waitingRun({ onTimeout: 'fail' });
		expect(w.entry.metadata.resumeError).toBeDefined();
		const body = w.envelope();
		const raw = Buffer.from(JSON.stringify(body));
		const { returned, response } = await callWebhook({ entry: w.entry, executionId: w.executionId, raw, headers: w.headersFor(raw), credentials: { webhookSecret: SECRET } });
		expect(response.status).toBeUndefined();
		expect(returned.webhookResponse).toEqual({ received: true });
		expect(returned.workflowData).toHaveLength(1);
		const [item] = returned.workflowData[0];
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(item.json).toMatchObject({ id: w.jobId, status: 'completed', creditsUsed: 10 });
		expect(item.json.data.answer).toMatch(/Fake research result/);
		expect(item.json.success).toBeUndefined();
		expect(statusReads(w.jobId)).toBe(1);
		// The error prepared for Max Wait expiry is gone, so n8n passes the result on.
		expect(w.entry.metadata.resumeError).toBeUndefined();
	});

	test('without a signing secret in the credential, the token alone is checked', async () => {
		const w = await waitingRun();
		const raw = Buffer.from(JSON.stringify(w.envelope()));
		const { returned } = await callWebhook({ entry: w.entry, executionId: w.executionId, raw, headers: w.headersFor(raw, { secret: null }) });
		expect(returned.workflowData[0][0].json.status).toBe('completed');
	});

	test.each([
		['no token', { tokenValue: null }, {}],
		['a wrong token', { tokenValue: 'f'.repeat(64) }, {}],
		['the token of another execution', { tokenValue: 'other-execution' }, {}],
		['no signature (secret set)', { secret: null }, { webhookSecret: SECRET }],
		['a signature with another secret', { secret: 'not-the-secret' }, { webhookSecret: SECRET }],
	])('%s → 401, nothing resumes, nothing is read', async (_name, headerOptions, creds) => {
		const w = await waitingRun();
		const raw = Buffer.from(JSON.stringify(w.envelope()));
		const tokenValue = headerOptions.tokenValue === 'other-execution' ? resume.resumeToken(CANARY_KEY, `${w.executionId}9`, { id: 'agent-node-id' }) : headerOptions.tokenValue;
		const headers = w.headersFor(raw, { ...headerOptions, tokenValue: tokenValue === undefined ? w.token : tokenValue });
		const { returned, response, warnings } = await callWebhook({ entry: w.entry, executionId: w.executionId, raw, headers, credentials: creds });
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
		const { response } = await callWebhook({ entry: w.entry, executionId: w.executionId, raw: changed, headers: w.headersFor(signed), credentials: { webhookSecret: SECRET } });
		expect(response.status).toBe(401);
		expect(statusReads(w.jobId)).toBe(0);
	});

	test('not an envelope → 400; an event that does not end the run, or another run\'s delivery → 200 ignored; nothing resumes or is read', async () => {
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

	test('a run still processing when read → 503 (the service retries), nothing resumes', async () => {
		const w = await waitingRun({}, { outcome: 'running' });
		const raw = Buffer.from(JSON.stringify(w.envelope()));
		const { returned, response } = await callWebhook({ entry: w.entry, executionId: w.executionId, raw, headers: w.headersFor(raw) });
		expect(response.status).toBe(503);
		expect(returned.workflowData).toBeUndefined();
		expect(statusReads(w.jobId)).toBe(1);
	});

	test('the run cannot be read (404) → 502, nothing resumes', async () => {
		const w = await waitingRun();
		api.fault({ method: 'GET', path: `/v2/agent/${w.jobId}`, statuses: [404] });
		const raw = Buffer.from(JSON.stringify(w.envelope()));
		const { returned, response, warnings } = await callWebhook({ entry: w.entry, executionId: w.executionId, raw, headers: w.headersFor(raw) });
		expect(response.status).toBe(502);
		expect(returned.workflowData).toBeUndefined();
		expect(warnings.join('\n')).toMatch(/could not read agent run/);
	});

	test('no waiting run of this node in the execution → 409', async () => {
		const w = await waitingRun();
		const raw = Buffer.from(JSON.stringify(w.envelope()));
		const { response } = await callWebhook({ entry: { node: { name: 'Another node' }, data: { main: [[]] } }, executionId: w.executionId, raw, headers: w.headersFor(raw) });
		expect(response.status).toBe(409);
		expect(statusReads(w.jobId)).toBe(0);
	});

	test('a node not set to "Resume on Completion Webhook" → 404', async () => {
		const w = await waitingRun();
		const raw = Buffer.from(JSON.stringify(w.envelope()));
		const { response } = await callWebhook({ entry: w.entry, executionId: w.executionId, raw, headers: w.headersFor(raw), parameters: { waitMethod: 'poll' } });
		expect(response.status).toBe(404);
	});

	test('a failed run with "Stop With Error" resumes into the node\'s error (metadata.resumeError), with the run\'s facts', async () => {
		const w = await waitingRun({ options: { maxCredits: 50 } }, { prompt: `Refuse ${LONG} FAKE_OUTCOME=fail` });
		const raw = Buffer.from(JSON.stringify(w.envelope({ type: 'agent.failed', success: false })));
		const { returned } = await callWebhook({ entry: w.entry, executionId: w.executionId, raw, headers: w.headersFor(raw), parameters: { options: { maxCredits: 50 } } });
		expect(returned.workflowData).toHaveLength(1);
		const error = w.entry.metadata.resumeError;
		expect(error.message).toBe('The agent run failed: Agent run failed due to an internal error.');
		expect(error.context).toMatchObject({ jobId: w.jobId, status: 'failed', outcome: 'failed' });
		expect(error.description).toContain(w.jobId);
	});

	test('a cancelled run with "Output Item" resumes with the run as it is', async () => {
		const w = await waitingRun({}, { outcome: 'running' });
		await fetch(`${api.url}/v2/agent/${w.jobId}`, { method: 'DELETE', headers: { authorization: `Bearer ${CANARY_KEY}` } });
		const raw = Buffer.from(JSON.stringify(w.envelope({ type: 'agent.cancelled', success: false })));
		const { returned } = await callWebhook({ entry: w.entry, executionId: w.executionId, raw, headers: w.headersFor(raw), parameters: { onUnsuccessful: 'outputItem' } });
		expect(returned.workflowData[0][0].json).toMatchObject({ id: w.jobId, status: 'failed', error: 'Agent run was cancelled.' });
		expect(w.entry.metadata?.resumeError).toBeUndefined();
	});

	test('a failed run under Continue (regular output) resumes with an error item carrying the run\'s facts, not an error', async () => {
		const w = await waitingRun({}, { prompt: `Refuse ${LONG} FAKE_OUTCOME=credit_limit` });
		const raw = Buffer.from(JSON.stringify(w.envelope({ type: 'agent.failed', success: false })));
		const { returned } = await callWebhook({ entry: w.entry, executionId: w.executionId, raw, headers: w.headersFor(raw), nodeOver: { onError: 'continueRegularOutput' } });
		const { json } = returned.workflowData[0][0];
		expect(json.error).toMatch(/^The agent run stopped at its credit limit/);
		expect(json).toMatchObject({ jobId: w.jobId, status: 'failed', stopReason: 'credit_limit_reached' });
		expect(w.entry.metadata?.resumeError).toBeUndefined();
	});
});

describe('signature helpers (shared)', () => {
	test('verifyDelivery: token then signature, constant-time compares, reasons without secrets', () => {
		const raw = '{"type":"agent.completed"}';
		const good = { headers: { 'X-T': 'tok', 'x-firecrawl-signature': `sha256=${signature.signBody(SECRET, raw)}` }, rawBody: raw, tokenHeader: 'X-T', expectedToken: 'tok', signingSecret: SECRET };
		expect(signature.verifyDelivery(good)).toEqual({ ok: true, verifiedBy: ['token', 'signature'] });
		expect(signature.verifyDelivery({ ...good, signingSecret: undefined })).toEqual({ ok: true, verifiedBy: ['token'] });
		expect(signature.verifyDelivery({ ...good, headers: { 'x-firecrawl-signature': good.headers['x-firecrawl-signature'] } })).toEqual({ ok: false, reason: 'the X-T header is missing', failed: 'token' });
		expect(signature.verifyDelivery({ ...good, expectedToken: 'other' })).toEqual({ ok: false, reason: 'the X-T header is wrong', failed: 'token' });
		expect(signature.verifyDelivery({ ...good, rawBody: `${raw} ` })).toEqual({ ok: false, reason: 'the X-Firecrawl-Signature header does not match the body', failed: 'signature' });
		expect(signature.verifyDelivery({ ...good, rawBody: undefined }).ok).toBe(false);
		expect(signature.verifyDelivery({ ...good, headers: { 'X-T': ['tok', 'tok'] } })).toEqual({ ok: false, reason: 'the X-T header is missing', failed: 'token' });
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
