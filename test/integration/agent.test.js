'use strict';
/**
 * Agent resource end to end in n8n's engine: workflows run with n8n-core's WorkflowExecute
 * (test/helpers/workflow-runner.js) against the strict fake API (test/fake-api), on real time.
 * Jobs are kept short with prompt markers (FAKE_DURATION_MS=…, FAKE_COST=…, FAKE_OUTCOME=…).
 * Every test asserts on what the fake received and on what the items hold.
 * Build first: `npm run build`.
 */
const { runWorkflow, startWorkflow } = require('../helpers/workflow-runner');
const { CANARY_KEY, record } = require('../helpers/canary');
const { useFakeApi } = require('../helpers/resource-suite');
const { fakeContext, recordingDeps } = require('../helpers/fake-context');
const { apiRequest } = require('../../dist/nodes/WebData/transport');
const { AGENT_HINTS } = require('../../dist/nodes/WebData/resources/agent/shared');
const { schemaFromExample } = require('../../dist/nodes/WebData/resources/agent/startRequest');

jest.setTimeout(30000);

const api = useFakeApi();

const credentials = () => ({ webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url, webhookSecret: '' } });
const NODE = 'Web Data';
const UNKNOWN_JOB = '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a';

/** Manual Trigger → Test Items (`items`) → Web Data (resource agent + `parameters`). */
function agentWorkflow(parameters, { items = [{}], node = {} } = {}) {
	return {
		nodes: [
			{ id: 'n1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'n2',
				name: 'Items',
				type: 'test.items',
				typeVersion: 1,
				position: [200, 0],
				parameters: { items: JSON.stringify(items.map((json) => ({ json }))) },
			},
			{
				id: 'n3',
				name: NODE,
				type: 'n8n-nodes-webdata.webData',
				typeVersion: 1,
				position: [400, 0],
				parameters: { resource: 'agent', ...parameters },
				credentials: { webDataApi: { id: 'c1', name: 'Web Data account' } },
				...node,
			},
		],
		connections: {
			Start: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
			Items: { main: [[{ node: NODE, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

const jobRef = (value) => ({ __rl: true, mode: 'id', value });

async function run(parameters, options) {
	const result = await runWorkflow(agentWorkflow(parameters, options), { credentials: credentials() });
	record(result.error);
	if (result.runData[NODE]) record(result.items(NODE));
	return result;
}

/** API requests as the fake received them: "METHOD path status". */
const trail = () => api.log.map((r) => `${r.method} ${r.path} ${r.status}`);

async function waitUntil(condition, timeoutMs = 10000) {
	const until = Date.now() + timeoutMs;
	while (!(await condition())) {
		if (Date.now() > until) throw new Error('timed out waiting for a condition');
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

/** The job id the node is polling (from the fake's log). */
function polledJobId() {
	const poll = api.log.find((r) => r.method === 'GET' && /^\/v2\/agent\/[^/]+$/.test(r.path));
	return poll && poll.path.split('/').pop();
}

async function cancelDirectly(id) {
	const res = await fetch(`${api.url}/v2/agent/${id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${CANARY_KEY}` } });
	expect(res.status).toBe(200);
}

// -------------------------------------------------------------------------------------------------
describe('Start', () => {
	test('sends every field as the spec names it and returns the job id at once', async () => {
		const result = await run({
			operation: 'start',
			prompt: 'Find robotics start-ups founded after 2018',
			urls: 'https://example.com/a, https://example.org/b\nhttps://example.net',
			strictConstrainToURLs: true,
			outputShape: 'schema',
			jsonSchema: JSON.stringify({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }),
			options: { maxCredits: 120, model: 'spark-2', auditUsername: 'jane@example.com' },
		});

		expect(result.status).toBe('success');
		const [item] = result.items(NODE);
		expect(item.json.id).toMatch(/^[0-9a-f-]{36}$/);
		expect(item.json.success).toBeUndefined();
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(api.log).toHaveLength(1);
		const [request] = api.log;
		expect(request).toMatchObject({ method: 'POST', path: '/v2/agent', status: 200 });
		expect(request.headers.authorization).toBe(`Bearer ${CANARY_KEY}`);
		expect(request.body).toEqual({
			prompt: 'Find robotics start-ups founded after 2018',
			urls: ['https://example.com/a', 'https://example.org/b', 'https://example.net'],
			strictConstrainToURLs: true,
			schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
			maxCredits: 120,
			model: 'spark-2',
			auditMetadata: { username: 'jane@example.com' },
		});
		expect(api.agentJob(item.json.id)).toMatchObject({ status: 'processing', maxCredits: 120 });
	});

	test('only the prompt is sent when nothing else is set; URLs may come as a list from an expression', async () => {
		const result = await run(
			{ operation: 'start', prompt: '={{ $json.q }}', urls: '={{ $json.urls }}' },
			{ items: [{ q: 'What changed on the pricing page?', urls: ['https://example.com/pricing'] }] },
		);
		expect(result.status).toBe('success');
		expect(api.log[0].body).toEqual({ prompt: 'What changed on the pricing page?', urls: ['https://example.com/pricing'] });
	});

	test('From a JSON Example: the generated schema is sent and the result follows it', async () => {
		const example = { company: 'Acme', founded: 2019, public: false, tags: ['robots'], ceo: { name: 'Ann' }, note: null };
		const result = await run({
			operation: 'runAndWait',
			prompt: 'Describe the company FAKE_DURATION_MS=300',
			outputShape: 'example',
			jsonExample: JSON.stringify(example),
		});
		expect(result.status).toBe('success');
		const sent = api.log[0].body.schema;
		expect(sent).toEqual({
			type: 'object',
			properties: {
				company: { type: 'string' },
				founded: { type: 'number' },
				public: { type: 'boolean' },
				tags: { type: 'array', items: { type: 'string' } },
				ceo: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
				note: {},
			},
			required: ['company', 'founded', 'public', 'tags', 'ceo', 'note'],
		});
		expect(sent).toEqual(schemaFromExample(example));
		const { data } = result.json(NODE)[0];
		expect(Object.keys(data)).toEqual(expect.arrayContaining(['company', 'founded', 'public', 'tags', 'ceo']));
		expect(typeof data.company).toBe('string');
	});

	const invalidCases = [
		['an empty prompt', { prompt: '   ' }, /Prompt/],
		['a prompt over 10000 characters', { prompt: 'x'.repeat(10001) }, /Prompt[\s\S]*10001 characters; at most 10000/],
		['a relative URL', { prompt: 'p', urls: 'https://ok.example, /pricing' }, /URLs "\/pricing"[\s\S]*absolute/],
		['an ftp URL', { prompt: 'p', urls: 'ftp://files.example/x' }, /URLs[\s\S]*http/],
		['Strict to URLs without URLs', { prompt: 'p', strictConstrainToURLs: true }, /Strict to URLs[\s\S]*at least one URL/],
		['a schema that is not JSON', { prompt: 'p', outputShape: 'schema', jsonSchema: '{type: object' }, /Output JSON Schema[\s\S]*not valid JSON/],
		['a schema with an unknown type', { prompt: 'p', outputShape: 'schema', jsonSchema: '{"type":"object","properties":{"n":{"type":"decimal"}}}' }, /#\/properties\/n\/type "decimal" is not a JSON Schema type/],
		['a schema whose required is not a list', { prompt: 'p', outputShape: 'schema', jsonSchema: '{"type":"object","required":"n"}' }, /#\/required must be a list/],
		['a schema whose list items have an unknown type (issue 37)', { prompt: 'p', outputShape: 'schema', jsonSchema: '{"type":"array","items":{"type":"text"}}' }, /#\/items\/type "text" is not a JSON Schema type/],
		['an example that is a list', { prompt: 'p', outputShape: 'example', jsonExample: '[1,2]' }, /Output JSON Example[\s\S]*JSON object/],
		['Max Credits of 0', { prompt: 'p', options: { maxCredits: 0 } }, /Max Credits[\s\S]*above 0/],
		['an audit username over 1024 characters', { prompt: 'p', options: { auditUsername: 'u'.repeat(1025) } }, /User Name for Audit Logs[\s\S]*at most 1024/],
	];
	test.each(invalidCases)('%s fails naming the field, with nothing sent', async (_label, parameters, pattern) => {
		for (const operation of ['start', 'runAndWait']) {
			const result = await run({ operation, ...parameters });
			expect(result.status).toBe('error');
			expect(`${result.error.message} ${result.error.description}`).toMatch(pattern);
			expect(result.error.description).toContain('Nothing was sent');
		}
		expect(api.log).toHaveLength(0);
	});

	test('zero-data-retention team: the 400 says why the agent cannot run', async () => {
		api.setTeam({ zdr: true });
		const result = await run({ operation: 'start', prompt: 'Anything' });
		expect(result.status).toBe('error');
		expect(result.error.message).toBe('Your team has zero data retention enabled. This is not supported on extract.');
		expect(result.error.description).toContain('zero data retention switched on');
		expect(result.error.context).toMatchObject({ httpStatus: 400, retryable: false });
		expect(trail()).toEqual(['POST /v2/agent 400']);
	});

	test('500 "Failed to passthrough agent request." is retried per 7.3 and then succeeds', async () => {
		api.fault({ method: 'POST', path: '/v2/agent', statuses: [500], body: { success: false, error: 'Failed to passthrough agent request.' } });
		const result = await run({ operation: 'start', prompt: 'Retry me' });
		expect(result.status).toBe('success');
		expect(trail()).toEqual(['POST /v2/agent 500', 'POST /v2/agent 200']);
		const gap = api.log[1].at - api.log[0].at;
		expect(gap).toBeGreaterThanOrEqual(2000); // 2^1 s plus jitter
		expect(result.json(NODE)[0].id).toMatch(/^[0-9a-f-]{36}$/);
	});
});

// -------------------------------------------------------------------------------------------------
describe('Start → Send Events to Web Data Trigger (issue 18.2)', () => {
	test('the run is started with its webhook on the trigger: agent events, token header, run metadata', async () => {
		const url = 'http://127.0.0.1:9/webhook/8c1d5e2f-3a7b-4c9d-b0e1-6f2a4d8c7b35/webhook';
		const result = await run({
			operation: 'start',
			prompt: 'Find the price FAKE_DURATION_MS=100',
			options: { sendToTrigger: { trigger: { url, token: 'tok-a', events: ['action', 'completed'] } }, runMetadata: { values: [{ name: 'ask', value: 'price' }] } },
		});
		expect(result.status).toBe('success');
		const [start] = api.requests({ method: 'POST', path: '/v2/agent' });
		expect(start.status).toBe(200);
		expect(start.body.webhook).toEqual({ url, headers: { 'X-WebData-Trigger-Token': 'tok-a' }, events: ['action', 'completed'], metadata: { ask: 'price' } });
	});

	test('no Trigger Token and no signing secret in the credential → an error naming Trigger Token, zero requests', async () => {
		const result = await run({ operation: 'start', prompt: 'x', options: { sendToTrigger: { trigger: { url: 'https://n8n.example.com/webhook/x/webhook', token: '' } } } });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/^Trigger Token "" is not valid: it is required/);
		expect(api.log).toHaveLength(0);
	});

	test('an event a crawl has but an agent not → an error naming the field, zero requests', async () => {
		const result = await run({ operation: 'start', prompt: 'x', options: { sendToTrigger: { trigger: { url: 'https://n8n.example.com/webhook/x/webhook', token: 't', events: ['page'] } } } });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/^Send Events to Web Data Trigger → Events "page" is not valid/);
		expect(api.log).toHaveLength(0);
	});
});

describe('Run and Wait', () => {
	test('completed: one item with the data; polls follow the schedule (1 s, then 4.75 s after the start)', async () => {
		const started = Date.now();
		const result = await run({ operation: 'runAndWait', prompt: 'Quick research FAKE_DURATION_MS=2000 FAKE_COST=17' });
		expect(result.status).toBe('success');
		const [item] = result.items(NODE);
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(item.json).toMatchObject({ status: 'completed', creditsUsed: 17, model: 'spark-2' });
		expect(item.json.data).toEqual({ answer: expect.stringContaining('Quick research'), sources: [] });
		expect(item.json.id).toBe(polledJobId());
		expect(trail()).toEqual(['POST /v2/agent 200', `GET /v2/agent/${item.json.id} 200`, `GET /v2/agent/${item.json.id} 200`]);
		expect(api.agentPolls(item.json.id)).toBe(2);
		const [post, first, second] = api.log;
		expect(first.at - post.at).toBeGreaterThanOrEqual(700); // 1 s from just before the start was sent
		expect(first.at - post.at).toBeLessThan(1600);
		expect(second.at - first.at).toBeGreaterThanOrEqual(3500); // the second read when the run is 4.75 s old
		expect(Date.now() - started).toBeLessThan(8000);
	});

	test('credit limit: a clear node error with the partial result (default)', async () => {
		const result = await run({ operation: 'runAndWait', prompt: 'Expensive FAKE_DURATION_MS=2000 FAKE_COST=100', options: { maxCredits: 50 } });
		expect(result.status).toBe('error');
		expect(result.error.message).toBe('The agent run stopped at its Max Credits (50) before it finished');
		expect(result.error.description).toContain('credit_limit_reached');
		expect(result.error.description).toContain('not charged');
		expect(result.error.description).toContain('"note":"Best-effort partial result"');
		expect(result.error.description).toContain('On Unsuccessful Run');
		expect(result.error.context).toMatchObject({ stopReason: 'credit_limit_reached', creditsUsed: 0, partial: { itemsFound: 1 } });
		expect(api.log[0].body).toEqual({ prompt: 'Expensive FAKE_DURATION_MS=2000 FAKE_COST=100', maxCredits: 50 });
	});

	test.each([
		['oss', 'error "Max credits exceeded"'],
		['errorcode', 'errorCode "MAX_CREDITS_EXCEEDED"'],
	])('credit limit on a build without stopReason (status shape %s): still the Max Credits error, not a plain failure (issue 23.3)', async (shape, evidence) => {
		const prompt = `Expensive FAKE_DURATION_MS=1000 FAKE_COST=100 FAKE_STATUS_SHAPE=${shape}`;
		const result = await run({ operation: 'runAndWait', prompt, options: { maxCredits: 50 } });
		expect(result.status).toBe('error');
		expect(result.error.message).toBe('The agent run stopped at its Max Credits (50) before it finished');
		expect(result.error.description).toContain(`the service reported ${evidence}`);
		expect(result.error.context).toMatchObject({ outcome: 'credit_limit_reached', status: 'failed' });
		expect(result.error.context.stopReason).toBeUndefined();
	});

	test('credit limit with "On Unsuccessful Run: Output Item": the status item, untouched', async () => {
		const result = await run({ operation: 'runAndWait', prompt: 'Expensive FAKE_DURATION_MS=1000 FAKE_COST=100', onUnsuccessful: 'outputItem', options: { maxCredits: 50 } });
		expect(result.status).toBe('success');
		const [job] = result.json(NODE);
		expect(job).toMatchObject({ status: 'failed', stopReason: 'credit_limit_reached', creditsUsed: 0, partial: { note: 'Best-effort partial result', itemsFound: 1 }, error: 'Agent reached max credits' });
		expect(job.data).toBeUndefined();
	});

	test('a run cancelled elsewhere: a node error that says it was cancelled', async () => {
		const running = runWorkflow(agentWorkflow({ operation: 'runAndWait', prompt: 'Long FAKE_DURATION_MS=60000' }), { credentials: credentials() });
		await waitUntil(() => polledJobId() !== undefined);
		await cancelDirectly(polledJobId());
		const result = await running;
		record(result.error);
		expect(result.status).toBe('error');
		expect(result.error.message).toBe('The agent run was cancelled before it finished');
		expect(result.error.description).toContain('Agent run was cancelled.');
		expect(result.error.context).toMatchObject({ outcome: 'cancelled', status: 'failed', jobId: polledJobId() });
	});

	test('a run cancelled elsewhere, with Output Item: the failed status item', async () => {
		const running = runWorkflow(agentWorkflow({ operation: 'runAndWait', prompt: 'Long FAKE_DURATION_MS=60000', onUnsuccessful: 'outputItem' }), { credentials: credentials() });
		await waitUntil(() => polledJobId() !== undefined);
		await cancelDirectly(polledJobId());
		const result = await running;
		expect(result.status).toBe('success');
		expect(result.json(NODE)).toEqual([expect.objectContaining({ id: polledJobId(), status: 'failed', error: 'Agent run was cancelled.' })]);
	});

	test.each([
		['fail', 'The agent run failed: Agent run failed due to an internal error.'],
		['refused', 'The agent refused the task'],
	])('outcome %s: a node error with the service text', async (outcome, message) => {
		const result = await run({ operation: 'runAndWait', prompt: `Job FAKE_DURATION_MS=500 FAKE_OUTCOME=${outcome}` });
		expect(result.status).toBe('error');
		expect(result.error.message).toBe(message);
		expect(result.error.description).toContain('Get Trace');
	});

	test('a status the spec does not list ends the wait and passes through untouched', async () => {
		const odd = { success: true, status: 'awaiting_approval', pendingApproval: { approvalId: 'a1' }, creditsUsed: 3 };
		api.fault({ method: 'GET', re: '^/v2/agent/[^/]+$', status: 200, body: odd, times: 1 });
		const result = await run({ operation: 'runAndWait', prompt: 'Needs approval FAKE_DURATION_MS=60000' });
		expect(result.status).toBe('success');
		const [job] = result.json(NODE);
		const { success, ...rest } = odd;
		expect(job).toEqual({ id: polledJobId(), ...rest });
		expect(api.log.filter((r) => r.method === 'GET')).toHaveLength(1);
	});

	test('On Timeout "Return Last Status" (default): the processing status at Max Wait, read at the deadline', async () => {
		const result = await run({ operation: 'runAndWait', prompt: 'Slow FAKE_DURATION_MS=60000', maxWait: 2 });
		expect(result.status).toBe('success');
		const [job] = result.json(NODE);
		// Issue 15.3: the same item as Wait Method "Resume on Completion Webhook" at Max Wait (resume.ts).
		expect(job).toMatchObject({ id: polledJobId(), status: 'processing', timedOut: true, waitMethod: 'poll' });
		expect(Date.parse(job.waitedUntil) - api.log[0].at).toBeGreaterThanOrEqual(1500);
		expect(Date.parse(job.waitedUntil) - api.log[0].at).toBeLessThanOrEqual(2500);
		expect(job.message).toBe(`The run did not finish within Max Wait (2 s). "status" is its last status read; the run goes on: read it with Agent → Get (Job ID ${job.id}).`);
		const polls = api.log.filter((r) => r.method === 'GET');
		expect(polls).toHaveLength(2); // at 1 s and at the 2 s deadline
		expect(polls[1].at - api.log[0].at).toBeGreaterThanOrEqual(1900);
		expect(api.log.some((r) => r.method === 'DELETE')).toBe(false);
		expect(api.agentJob(job.id).phase).toBe('processing');
	});

	test('On Timeout "Cancel the Run and Fail": DELETE, then an error that says it was cancelled', async () => {
		const result = await run({ operation: 'runAndWait', prompt: 'Slow FAKE_DURATION_MS=60000', maxWait: 2, onTimeout: 'cancelAndFail' });
		expect(result.status).toBe('error');
		expect(result.error.message).toBe('The agent run did not finish within Max Wait (2 s) and was cancelled');
		const id = polledJobId();
		expect(result.error.description).toContain(id);
		expect(trail().slice(-1)).toEqual([`DELETE /v2/agent/${id} 200`]);
		expect(api.agentJob(id).phase).toBe('cancelled');
	});

	test('On Timeout "Fail": an error with the job id; the run goes on', async () => {
		const result = await run({ operation: 'runAndWait', prompt: 'Slow FAKE_DURATION_MS=60000', maxWait: 1, onTimeout: 'fail' });
		expect(result.status).toBe('error');
		expect(result.error.message).toBe('The agent run did not finish within Max Wait (1 s)');
		expect(result.error.description).toContain('Agent → Get');
		expect(result.error.description).toContain(polledJobId());
		expect(api.log.some((r) => r.method === 'DELETE')).toBe(false);
		expect(api.agentJob(polledJobId()).phase).toBe('processing');
	});

	test('a 429 with Retry-After during the wait is honoured and does not end it', async () => {
		api.fault({ method: 'GET', re: '^/v2/agent/[^/]+$', statuses: [429], retryAfter: 2, times: 1 });
		const result = await run({ operation: 'runAndWait', prompt: 'Job FAKE_DURATION_MS=1500' });
		expect(result.status).toBe('success');
		const id = result.json(NODE)[0].id;
		expect(trail()).toEqual(['POST /v2/agent 200', `GET /v2/agent/${id} 429`, `GET /v2/agent/${id} 200`]);
		expect(api.log[2].at - api.log[1].at).toBeGreaterThanOrEqual(1950);
		expect(result.json(NODE)[0].status).toBe('completed');
	});

	test('a 503 during the wait is retried with backoff and does not end it', async () => {
		api.fault({ method: 'GET', re: '^/v2/agent/[^/]+$', statuses: [503], times: 1 });
		const result = await run({ operation: 'runAndWait', prompt: 'Job FAKE_DURATION_MS=1000' });
		expect(result.status).toBe('success');
		expect(trail().map((t) => t.split(' ').pop())).toEqual(['200', '503', '200']);
		expect(api.log[2].at - api.log[1].at).toBeGreaterThanOrEqual(2000);
	});

	test('stopping the execution ends the wait within 1 s and sends nothing more', async () => {
		const execution = startWorkflow(agentWorkflow({ operation: 'runAndWait', prompt: 'Long FAKE_DURATION_MS=60000' }), { credentials: credentials() });
		await waitUntil(() => polledJobId() !== undefined);
		await new Promise((resolve) => setTimeout(resolve, 300)); // inside the 2 s wait before the next poll
		const stoppedAt = Date.now();
		execution.cancel();
		const result = await execution.done;
		record(result.error);
		expect(result.status).toBe('canceled');
		expect(Date.now() - stoppedAt).toBeLessThan(1000);
		const requests = api.log.length;
		await new Promise((resolve) => setTimeout(resolve, 2500));
		expect(api.log).toHaveLength(requests);
		expect(api.agentPolls(polledJobId())).toBe(1);
	});

	test('Continue On Fail: an unsuccessful run becomes an error item with its facts; the next item still runs', async () => {
		const result = await run(
			{ operation: 'runAndWait', prompt: '={{ $json.prompt }}', options: { maxCredits: 50, concurrency: 2 } },
			{
				items: [{ prompt: 'Costly FAKE_DURATION_MS=1000 FAKE_COST=100' }, { prompt: 'Cheap FAKE_DURATION_MS=1000 FAKE_COST=5' }],
				node: { onError: 'continueRegularOutput' },
			},
		);
		expect(result.status).toBe('success');
		const items = result.items(NODE);
		expect(items).toHaveLength(2);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[0].json).toMatchObject({
			error: 'The agent run stopped at its Max Credits (50) before it finished',
			status: 'failed',
			stopReason: 'credit_limit_reached',
			creditsUsed: 0,
			partial: { itemsFound: 1 },
		});
		expect(items[0].json.jobId).toMatch(/^[0-9a-f-]{36}$/);
		expect(items[1].pairedItem).toEqual({ item: 1 });
		expect(items[1].json).toMatchObject({ status: 'completed', creditsUsed: 5 });
		// Concurrency 2: both runs were started before either finished.
		const posts = api.log.filter((r) => r.method === 'POST');
		expect(posts).toHaveLength(2);
		expect(posts[1].at - posts[0].at).toBeLessThan(900);
	});

	test('Continue On Fail: an API error (ZDR team) becomes an error item with httpStatus', async () => {
		const result = await run(
			{ operation: 'runAndWait', prompt: '={{ $json.prompt }}' },
			{ items: [{ prompt: 'ZDR_TEAM question' }, { prompt: 'Fine FAKE_DURATION_MS=300' }], node: { onError: 'continueRegularOutput' } },
		);
		expect(result.status).toBe('success');
		const [failed, ok] = result.json(NODE);
		expect(failed).toMatchObject({ httpStatus: 400, retryable: false, error: expect.stringContaining('zero data retention') });
		expect(ok).toMatchObject({ status: 'completed' });
	});
});

// -------------------------------------------------------------------------------------------------
describe('Get', () => {
	test('reads one run; 404 for an unknown run says runs are kept 24 hours', async () => {
		const job = api.createAgentJob({ status: 'completed', data: { n: 1 }, cost: 9 });
		const ok = await run({ operation: 'get', jobId: jobRef(job.id) });
		expect(ok.json(NODE)).toEqual([expect.objectContaining({ id: job.id, status: 'completed', data: { n: 1 }, creditsUsed: 9 })]);
		expect(trail()).toEqual([`GET /v2/agent/${job.id} 200`]);

		api.reset();
		const missing = await run({ operation: 'get', jobId: jobRef(UNKNOWN_JOB) });
		expect(missing.status).toBe('error');
		expect(missing.error.message).toBe('Agent job not found');
		expect(missing.error.description).toContain('kept for 24 hours');
		expect(missing.error.context).toMatchObject({ httpStatus: 404, retryable: false });
	});

	test.each(['get', 'cancel', 'getTrace', 'getSnapshot'])('%s: a Job ID that is not a UUID is caught before sending', async (operation) => {
		const result = await run({ operation, jobId: jobRef('={{ $json.id }}'), snapshotId: 'abc' }, { items: [{ id: 'job-42' }] });
		expect(result.status).toBe('error');
		expect(result.error.message).toContain('Job ID "job-42" is not valid');
		expect(result.error.description).toContain('Nothing was sent');
		expect(api.log).toHaveLength(0);
	});
});

// -------------------------------------------------------------------------------------------------
describe('Cancel', () => {
	test('cancels a running run', async () => {
		const job = api.createAgentJob({ durationMs: 60000 });
		const result = await run({ operation: 'cancel', jobId: jobRef(job.id) });
		expect(result.json(NODE)).toEqual([{ id: job.id, cancelled: true }]);
		expect(trail()).toEqual([`DELETE /v2/agent/${job.id} 200`]);
		expect(api.agentJob(job.id).phase).toBe('cancelled');
	});

	test('409 "Agent already finished": an error that points to "Ignore if Already Finished"', async () => {
		const job = api.createAgentJob({ status: 'completed' });
		const result = await run({ operation: 'cancel', jobId: jobRef(job.id) });
		expect(result.status).toBe('error');
		expect(result.error.message).toBe('Agent already finished');
		expect(result.error.description).toContain('Ignore if Already Finished');
		expect(result.error.context).toMatchObject({ httpStatus: 409, retryable: false });
		expect(trail()).toEqual([`DELETE /v2/agent/${job.id} 409`]);
	});

	test('409 "Agent is already cancelled": an error that says so', async () => {
		const job = api.createAgentJob({ durationMs: 60000 });
		await cancelDirectly(job.id);
		const result = await run({ operation: 'cancel', jobId: jobRef(job.id) });
		expect(result.status).toBe('error');
		expect(result.error.message).toBe('Agent is already cancelled');
		expect(result.error.description).toContain('already being cancelled');
	});

	test('with "Ignore if Already Finished" both 409s become items that say why', async () => {
		const finished = api.createAgentJob({ status: 'completed' });
		const cancelled = api.createAgentJob({ durationMs: 60000 });
		await cancelDirectly(cancelled.id);
		const result = await run(
			{ operation: 'cancel', jobId: jobRef('={{ $json.id }}'), ignoreFinished: true },
			{ items: [{ id: finished.id }, { id: cancelled.id }] },
		);
		expect(result.status).toBe('success');
		expect(result.json(NODE)).toEqual([
			{ id: finished.id, cancelled: false, reason: 'already finished', message: 'Agent already finished' },
			{ id: cancelled.id, cancelled: false, reason: 'already cancelled', message: 'Agent is already cancelled' },
		]);
	});

	test('an unknown run is still an error with "Ignore if Already Finished"', async () => {
		const result = await run({ operation: 'cancel', jobId: jobRef(UNKNOWN_JOB), ignoreFinished: true });
		expect(result.status).toBe('error');
		expect(result.error.message).toBe('Agent job not found');
	});
});

// -------------------------------------------------------------------------------------------------
describe('Get Trace and Get Snapshot', () => {
	test('one item per event: unknown kinds pass through, error objects keep code and retryable', async () => {
		const job = api.createAgentJob({ status: 'completed', prompt: 'Traced run' });
		const result = await run({ operation: 'getTrace', jobId: jobRef(job.id) });
		expect(result.status).toBe('success');
		expect(trail()).toEqual([`GET /v2/agent/${job.id}/trace 200`]);
		const events = result.json(NODE);
		const types = events.map((e) => e.type);
		expect(types[0]).toBe('run.started');
		expect(types).toContain('memory.compacted');
		expect(types.filter((t) => t === 'artifact.updated')).toHaveLength(2);
		expect(events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'succeeded', runId: job.id });
		expect(events.find((e) => e.type === 'error.occurred').error).toEqual({ code: 'internal', retryable: true, message: 'Browser tab crashed; retrying.' });
		expect(events.find((e) => e.type === 'memory.compacted')).toMatchObject({ tokensBefore: 12000, tokensAfter: 3000 });
		for (const item of result.items(NODE)) expect(item.pairedItem).toEqual({ item: 0 });
	});

	test('one item with all events, filtered by type; a cancelled run shows the cancelled error code', async () => {
		const job = api.createAgentJob({ durationMs: 60000 });
		await cancelDirectly(job.id);
		const result = await run({ operation: 'getTrace', jobId: jobRef(job.id), output: 'trace', eventTypes: ['run.finished', 'error.occurred'] });
		const [trace] = result.json(NODE);
		expect(trace.id).toBe(job.id);
		expect(trace.success).toBeUndefined();
		expect(typeof trace.creditsUsed).toBe('number');
		expect(trace.events.map((e) => e.type)).toEqual(['error.occurred', 'run.finished']);
		expect(trace.events[1]).toMatchObject({ outcome: 'cancelled', error: { code: 'cancelled', retryable: false } });
	});

	test('a credit-limited run: run.finished with outcome credit_limit_reached', async () => {
		const job = api.createAgentJob({ status: 'failed', outcome: 'credit_limit' });
		const result = await run({ operation: 'getTrace', jobId: jobRef(job.id), eventTypes: ['run.finished'] });
		expect(result.json(NODE)).toEqual([expect.objectContaining({ type: 'run.finished', outcome: 'credit_limit_reached', error: expect.objectContaining({ code: 'credit_limit_reached', retryable: false }) })]);
	});

	test('trace and snapshot of a run that predates trace recording: a 400 that explains it', async () => {
		const job = api.createAgentJob({ status: 'completed', legacy: true, model: 'spark-1-pro' });
		const trace = await run({ operation: 'getTrace', jobId: jobRef(job.id) });
		expect(trace.status).toBe('error');
		expect(trace.error.message).toBe('Trace is only available for Spark 2 extracts');
		expect(trace.error.description).toContain('before the service recorded traces');
		expect(trace.error.context).toMatchObject({ httpStatus: 400, retryable: false });

		const snapshot = await run({ operation: 'getSnapshot', jobId: jobRef(job.id), snapshotId: '7d0f9c56-2b1e-4c3a-9e8f-5a6b7c8d9e0f' });
		expect(snapshot.status).toBe('error');
		expect(snapshot.error.message).toBe('Snapshots are only available for Spark 2 extracts');
		expect(snapshot.error.description).toContain('before the service recorded snapshots');
	});

	test('Get Trace → Get Snapshot of each artifact.updated event: the snapshot, parsed when JSON', async () => {
		const job = api.createAgentJob({ status: 'completed', data: { companies: ['Acme'] } });
		const workflow = agentWorkflow({ operation: 'getTrace', jobId: jobRef(job.id), eventTypes: ['artifact.updated'] });
		workflow.nodes[2].name = 'Trace';
		workflow.connections.Items.main[0][0].node = 'Trace';
		workflow.nodes.push({
			id: 'n4',
			name: NODE,
			type: 'n8n-nodes-webdata.webData',
			typeVersion: 1,
			position: [600, 0],
			parameters: { resource: 'agent', operation: 'getSnapshot', jobId: jobRef('={{ $json.runId }}'), snapshotId: '={{ $json.artifact.snapshotId }}' },
			credentials: { webDataApi: { id: 'c1', name: 'Web Data account' } },
		});
		workflow.connections.Trace = { main: [[{ node: NODE, type: 'main', index: 0 }]] };
		const result = await runWorkflow(workflow, { credentials: credentials() });
		record(result.items(NODE));
		expect(result.status).toBe('success');
		const snapshots = result.json(NODE);
		const ids = result.json('Trace').map((e) => e.artifact.snapshotId);
		expect(snapshots.map((s) => s.snapshotId)).toEqual(ids);
		expect(trail()).toEqual([
			`GET /v2/agent/${job.id}/trace 200`,
			...ids.map((sid) => `GET /v2/agent/${job.id}/snapshots/${sid} 200`),
		]);
		expect(snapshots[1]).toMatchObject({ id: job.id, content: { companies: ['Acme'] } });
		expect(typeof snapshots[1].snapshot).toBe('string');
		expect(JSON.parse(snapshots[1].snapshot)).toEqual({ companies: ['Acme'] });
		expect(snapshots[0].content).toEqual({ status: 'collecting', items: [] });
	});

	test.each([['', 'empty'], ['a/b', 'a slash'], ['../x', 'dots'], ['[object Object]', 'an object pasted'], ['id with space', 'spaces']])(
		'a Snapshot ID "%s" (%s) is caught before sending',
		async (snapshotId) => {
			const result = await run(
				{ operation: 'getSnapshot', jobId: jobRef(UNKNOWN_JOB), snapshotId: '={{ $json.sid }}' },
				{ items: [{ sid: snapshotId }] },
			);
			expect(result.status).toBe('error');
			expect(result.error.message).toContain('Snapshot ID');
			expect(result.error.description).toContain('Nothing was sent');
			expect(api.log).toHaveLength(0);
		},
	);

	test('a Snapshot ID of 128 characters goes to the service; one of 129 is caught before sending (issue 37)', async () => {
		const job = api.createAgentJob({ status: 'completed' });
		const sent = await run({ operation: 'getSnapshot', jobId: jobRef(job.id), snapshotId: 's'.repeat(128) });
		expect(sent.error.message).toBe('Invalid snapshot ID');
		const refused = await run({ operation: 'getSnapshot', jobId: jobRef(job.id), snapshotId: 's'.repeat(129) });
		expect(refused.status).toBe('error');
		expect(refused.error.message).toMatch(/^Snapshot ID "s+…" is not valid: it must be one ID of letters, digits/);
		expect(refused.error.description).toContain('Nothing was sent');
		expect(trail()).toEqual([`GET /v2/agent/${job.id}/snapshots/${'s'.repeat(128)} 400`]);
	});

	test('a Snapshot ID the service finds malformed: 400 "Invalid snapshot ID" with a hint', async () => {
		const job = api.createAgentJob({ status: 'completed' });
		const result = await run({ operation: 'getSnapshot', jobId: jobRef(job.id), snapshotId: 'snap_123' });
		expect(result.status).toBe('error');
		expect(result.error.message).toBe('Invalid snapshot ID');
		expect(result.error.description).toContain('artifact.snapshotId');
		expect(trail()).toEqual([`GET /v2/agent/${job.id}/snapshots/snap_123 400`]);
	});

	test('an unknown snapshot: 404 "Snapshot not found" with a hint to use Get Trace', async () => {
		const job = api.createAgentJob({ status: 'completed' });
		const result = await run({ operation: 'getSnapshot', jobId: jobRef(job.id), snapshotId: '7d0f9c56-2b1e-4c3a-9e8f-5a6b7c8d9e0f' });
		expect(result.status).toBe('error');
		expect(result.error.message).toBe('Snapshot not found');
		expect(result.error.description).toContain('Get Trace');
		expect(result.error.context).toMatchObject({ httpStatus: 404 });
	});
});

// -------------------------------------------------------------------------------------------------
describe('Get Many', () => {
	function seed(count) {
		const ids = [];
		const base = Date.now() - 3_600_000;
		for (let n = 0; n < count; n++) ids.push(api.createAgentJob({ prompt: `job ${n}`, status: 'completed', createdAt: base + n * 1000 }).id);
		return ids.reverse(); // newest first
	}

	test('Return All follows the pages (20 each) to the end, newest first', async () => {
		const ids = seed(45);
		const result = await run({ operation: 'getMany', returnAll: true });
		expect(result.status).toBe('success');
		expect(result.json(NODE).map((r) => r.id)).toEqual(ids);
		const gets = api.log.filter((r) => r.path === '/v2/agent');
		expect(gets).toHaveLength(3);
		expect(gets[0].query).toEqual({});
		expect(Number(gets[1].query.before)).toBeGreaterThan(Number(gets[2].query.before));
		expect(result.json(NODE)[0]).toMatchObject({ status: 'completed', options: { prompt: 'job 44' } });
	});

	test('Limit stops early and sends no more requests than needed', async () => {
		const ids = seed(45);
		const result = await run({ operation: 'getMany', returnAll: false, limit: 25 });
		expect(result.json(NODE).map((r) => r.id)).toEqual(ids.slice(0, 25));
		expect(api.log.filter((r) => r.path === '/v2/agent')).toHaveLength(2);

		api.log.length = 0;
		const few = await run({ operation: 'getMany', limit: 5 });
		expect(few.json(NODE)).toHaveLength(5);
		expect(api.log).toHaveLength(1);
	});

	test('no runs: no items', async () => {
		const result = await run({ operation: 'getMany', returnAll: true });
		expect(result.status).toBe('success');
		expect(result.items(NODE)).toEqual([]);
		expect(trail()).toEqual(['GET /v2/agent 200']);
	});
});

// -------------------------------------------------------------------------------------------------
describe('hints of spec 7.2 errors (transport with the agent hints, no waiting)', () => {
	const cases = [
		[400, { success: false, error: 'Invalid job ID format. Job ID must be a valid UUID.' }, 'must be a UUID'],
		[400, { error: 'Invalid snapshot ID' }, 'artifact.snapshotId'],
		[400, { error: 'Trace is only available for Spark 2 extracts' }, 'before the service recorded traces'],
		[400, { error: 'Snapshots are only available for Spark 2 extracts' }, 'before the service recorded snapshots'],
		[400, { success: false, error: 'Your team has zero data retention enabled. This is not supported on extract.' }, 'zero data retention switched on'],
		[404, { success: false, error: 'Agent job not found' }, 'kept for 24 hours'],
		[404, { error: 'Snapshot not found' }, 'Get Trace'],
		[409, { success: false, error: 'Agent already finished' }, 'Ignore if Already Finished'],
		[409, { success: false, error: 'Agent is already cancelled' }, 'already being cancelled'],
		[500, { success: false, error: 'Failed to passthrough agent request.' }, 'rejected the job when it was submitted'],
	];
	test.each(cases)('%s %j', async (status, body, hint) => {
		const { ctx, calls } = fakeContext({ responses: [{ status, body }] });
		const { deps, waits } = recordingDeps();
		const error = await apiRequest(ctx, { method: 'GET', path: '/agent/x', hints: AGENT_HINTS }, deps).catch((e) => e);
		record(error);
		expect(error.message).toBe(body.error);
		expect(error.description).toContain(hint);
		expect(error.context.httpStatus).toBe(status);
		expect(calls).toHaveLength(status === 500 ? 5 : 1); // only the 500 is retryable (7.3)
		expect(waits).toHaveLength(status === 500 ? 4 : 0);
	});
});
