'use strict';
// The fake API's agent webhooks (api-facts 3–4): the envelope {success, type, id, webhookId, data,
// error?, metadata}, the events filter from the webhook config's short names, the HMAC signature
// when the fake has a signing secret, the customer's headers, retries of unanswered deliveries, and
// the control to end a run now.
const crypto = require('crypto');
const { CANARY_KEY } = require('../helpers/canary');
const { useWebhookFake } = require('../helpers/webhook-fake');

jest.setTimeout(20000);

const SECRET = 'fake-agent-webhook-secret';
const { api, received, answer, receiverUrl } = useWebhookFake({ webhookSigningSecret: SECRET, timeScale: 100 });

const hookUrl = () => receiverUrl('/resume/1?signature=abc');
const start = async (body) => {
	const res = await fetch(`${api.url}/v2/agent`, { method: 'POST', headers: { authorization: `Bearer ${CANARY_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
	return { status: res.status, body: await res.json() };
};
const until = async (fn, ms = 5000) => {
	const end = Date.now() + ms;
	while (!fn()) {
		if (Date.now() > end) throw new Error('timed out');
		await new Promise((r) => setTimeout(r, 10));
	}
};

test('agent.completed: the envelope with the result, the customer headers, a valid signature over the raw body', async () => {
	const { body } = await start({ prompt: 'Research FAKE_DURATION_MS=2000 FAKE_COST=12', webhook: { url: hookUrl(), headers: { 'X-Resume-Token': 't0k' }, metadata: { run: 'a' }, events: ['completed', 'failed', 'cancelled'] } });
	await until(() => received.length === 1);
	const [d] = received;
	expect(d.url).toBe('/resume/1?signature=abc');
	expect(d.headers['x-resume-token']).toBe('t0k');
	expect(d.headers['content-type']).toBe('application/json');
	expect(d.headers['x-firecrawl-signature']).toBe(`sha256=${crypto.createHmac('sha256', SECRET).update(d.raw).digest('hex')}`);
	expect(d.body).toEqual({
		success: true,
		type: 'agent.completed',
		id: body.id,
		webhookId: expect.stringMatching(/^[0-9a-f-]{36}$/),
		data: [{ creditsUsed: 12, data: { answer: expect.stringContaining('Research'), sources: [] } }],
		metadata: { run: 'a' },
	});
	// The receiver has the body before the fake has its answer: wait for the fake to record it.
	await until(() => api.deliveries[0]?.responseStatus != null);
	expect(api.deliveries[0]).toMatchObject({ type: 'agent.completed', jobId: body.id, responseStatus: 200, attempt: 1 });
});

test('events omitted = all: started at once, one action half-way, then the end; a failed run sends agent.failed with its error', async () => {
	// 1 s at time scale 100: the action (due half-way) is sent only while the run still runs, so a
	// shorter run let a busy machine's late timer skip it.
	const { body } = await start({ prompt: 'Research FAKE_DURATION_MS=100000 FAKE_OUTCOME=fail', webhook: hookUrl() });
	await until(() => received.length === 3, 10000);
	expect(received.map((d) => [d.body.type, d.body.success])).toEqual([
		['agent.started', true],
		['agent.action', true],
		['agent.failed', false],
	]);
	expect(received[1].body.data[0]).toMatchObject({ action: 'search', input: { query: expect.any(String) } });
	expect(received[2].body).toMatchObject({ id: body.id, error: 'Agent run failed due to an internal error.', data: [{ creditsUsed: 0 }], metadata: {} });
});

test('a cancelled run sends agent.cancelled at once; a filter without "cancelled" sends nothing', async () => {
	const a = (await start({ prompt: `Long FAKE_DURATION_MS=3600000`, webhook: { url: hookUrl(), events: ['cancelled'] } })).body;
	const b = (await start({ prompt: `Long FAKE_DURATION_MS=3600000`, webhook: { url: hookUrl(), events: ['completed'] } })).body;
	for (const id of [a.id, b.id]) await fetch(`${api.url}/v2/agent/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${CANARY_KEY}` } });
	await until(() => received.length === 1);
	await new Promise((r) => setTimeout(r, 100));
	expect(received.map((d) => [d.body.type, d.body.id, d.body.success])).toEqual([['agent.cancelled', a.id, false]]);
});

test('finish a run now (control): its end webhook follows; FAKE_NO_WEBHOOK sends none; FAKE_WEBHOOK_DELAY_MS delays it', async () => {
	const a = (await start({ prompt: 'Long FAKE_DURATION_MS=3600000', webhook: { url: hookUrl(), events: ['completed'] } })).body;
	const b = (await start({ prompt: 'Long FAKE_DURATION_MS=3600000 FAKE_NO_WEBHOOK', webhook: { url: hookUrl(), events: ['completed'] } })).body;
	const c = (await start({ prompt: 'Long FAKE_DURATION_MS=3600000 FAKE_WEBHOOK_DELAY_MS=30000', webhook: { url: hookUrl(), events: ['completed'] } })).body;
	expect(api.finishAgentJob(a.id).status).toBe('completed');
	api.finishAgentJob(b.id);
	const t0 = Date.now();
	api.finishAgentJob(c.id);
	await until(() => received.length === 2);
	expect(received.map((d) => d.body.id)).toEqual([a.id, c.id]);
	expect(Date.now() - t0).toBeGreaterThanOrEqual(250); // 30 s at time scale 100
	const status = await fetch(`${api.url}/v2/agent/${b.id}`, { headers: { authorization: `Bearer ${CANARY_KEY}` } }).then((r) => r.json());
	expect(status.status).toBe('completed');
});

test('a delivery not answered 2xx is retried with the same body and webhookId (1, 5, 15 minutes, scaled)', async () => {
	answer.splice(0, answer.length, 500, 503);
	const { body } = await start({ prompt: 'Research FAKE_DURATION_MS=100', webhook: { url: hookUrl(), events: ['completed'] } });
	await until(() => received.length === 3 && api.deliveries[2]?.responseStatus != null, 10000);
	expect(new Set(received.map((d) => d.raw)).size).toBe(1);
	expect(api.deliveries.map((d) => [d.attempt, d.responseStatus, d.jobId])).toEqual([
		[1, 500, body.id],
		[2, 503, body.id],
		[3, 200, body.id],
	]);
	const gap = api.deliveries[1].at - api.deliveries[0].at;
	expect(gap).toBeGreaterThanOrEqual(550); // 60 s / 100
	expect(gap).toBeLessThan(2000);
});

test('reset stops pending webhooks', async () => {
	await start({ prompt: 'Research FAKE_DURATION_MS=20000', webhook: { url: hookUrl(), events: ['completed'] } });
	api.reset();
	await new Promise((r) => setTimeout(r, 400));
	expect(received).toHaveLength(0);
});

test('the webhook config is validated strictly (unknown event → 400, nothing created)', async () => {
	const r = await start({ prompt: 'x', webhook: { url: hookUrl(), events: ['done'] } });
	expect(r.status).toBe(400);
	expect(api.deliveries).toHaveLength(0);
});
