'use strict';
// The fake API's delivery switches (test/fake-api/webhooks.js setDelivery, POST /__fake/webhook-delivery):
// deliver like the open-source server (one attempt, no retry), drop the webhook's custom headers,
// lose the deliveries of given event types. reset() restores the defaults (retries on).
const crypto = require('crypto');
const { startFakeApi } = require('./server');
const { CANARY_KEY } = require('../helpers/canary');
const { useWebhookFake } = require('../helpers/webhook-fake');

jest.setTimeout(20000);

const SECRET = 'fake-delivery-switch-secret';
const { api, received, answer, receiverUrl } = useWebhookFake({ webhookSigningSecret: SECRET, timeScale: 10 });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const crawl = async (base, webhook) => {
	const res = await fetch(`${base}/v2/crawl`, { method: 'POST', headers: { authorization: `Bearer ${CANARY_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: 'https://docs.example.com/', limit: 1, webhook }) });
	return (await res.json()).id;
};
const control = async (base, body) => {
	const res = await fetch(`${base}/__fake/webhook-delivery`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	return { status: res.status, body: await res.json() };
};

test('one attempt (retries off): a delivery answered 500 is not sent again; with the default (retries on) it is', async () => {
	const fast = await startFakeApi({ apiKey: CANARY_KEY, webhookSigningSecret: SECRET, timeScale: 60000 });
	try {
		expect((await control(fast.url, { retries: false })).body).toEqual({ retries: false, dropCustomHeaders: false, loseEvents: [] });
		answer.splice(0, answer.length, 500);
		await crawl(fast.url, { url: receiverUrl('/hook'), events: ['started'] });
		await sleep(1500); // the first retry would come after 1 minute / 60000 = 1 ms
		expect(received.map((d) => d.body.type)).toEqual(['crawl.started']);
		expect(fast.deliveries.map((d) => [d.type, d.attempt, d.responseStatus])).toEqual([['crawl.started', 1, 500]]);

		fast.reset(); // back to the default: retries
		received.length = 0;
		answer.splice(0, answer.length, 500);
		await crawl(fast.url, { url: receiverUrl('/hook'), events: ['started'] });
		const end = Date.now() + 5000;
		while (received.length < 2 && Date.now() < end) await sleep(10);
		expect(received.map((d) => d.body.type)).toEqual(['crawl.started', 'crawl.started']);
	} finally {
		await fast.close();
	}
});

test('dropCustomHeaders: the webhook\'s headers are not sent; the signature and the URL (with its query) still are', async () => {
	await control(api.url, { dropCustomHeaders: true });
	const id = await crawl(api.url, { url: receiverUrl('/hook?webdataToken=t1'), headers: { 'X-WebData-Resume-Token': 't1', 'X-Run': 'r1' }, events: ['completed'] });
	await api.settled(10000);
	expect(received).toHaveLength(1);
	const [d] = received;
	expect(d.url).toBe('/hook?webdataToken=t1');
	expect(d.headers['x-webdata-resume-token']).toBeUndefined();
	expect(d.headers['x-run']).toBeUndefined();
	expect(d.headers['x-firecrawl-signature']).toBe(`sha256=${crypto.createHmac('sha256', SECRET).update(d.raw).digest('hex')}`);
	expect(d.body).toMatchObject({ type: 'crawl.completed', id });
});

test('loseEvents: deliveries of those types are recorded as lost and never sent (nor retried); other types are sent', async () => {
	await control(api.url, { loseEvents: ['crawl.completed'] });
	const id = await crawl(api.url, { url: receiverUrl('/hook'), events: ['started', 'completed'] });
	await api.settled(10000);
	await sleep(300);
	expect(received.map((d) => d.body.type)).toEqual(['crawl.started']);
	const lost = api.deliveries.filter((d) => d.jobId === id && d.type === 'crawl.completed');
	expect(lost).toHaveLength(1);
	expect(lost[0]).toMatchObject({ lost: true, responseStatus: null, attempt: 1 });
});

test('loseEvents loses monitor deliveries too (issue 29): the check keeps its pages, its notificationStatus says what was delivered', async () => {
	const res = await fetch(`${api.url}/v2/monitor`, {
		method: 'POST',
		headers: { authorization: `Bearer ${CANARY_KEY}`, 'content-type': 'application/json' },
		body: JSON.stringify({ name: 'Lose', schedule: { text: 'hourly' }, targets: [{ type: 'scrape', urls: ['https://a.example.com/', 'https://b.example.com/'] }], webhook: { url: receiverUrl('/m') } }),
	});
	const monitor = (await res.json()).data;
	await control(api.url, { loseEvents: ['monitor.page'] });
	api.tickMonitor(monitor.id);
	await api.settled(10000);
	expect(received.map((d) => d.body.type)).toEqual(['monitor.check.completed']);
	expect(api.deliveries.map((d) => [d.type, d.lost === true])).toEqual([
		['monitor.page', true],
		['monitor.page', true],
		['monitor.check.completed', false],
	]);
	const [check] = api.monitor(monitor.id).checks;
	expect(check.pages).toHaveLength(2);
	expect(check.notificationStatus.webhook).toMatchObject({ attempted: true, success: false, delivered: 1 });
});

test('the switches are checked; reset() restores the defaults', async () => {
	expect((await control(api.url, { loseEvents: 'crawl.completed' })).status).toBe(400);
	expect((await control(api.url, { retries: false, loseEvents: ['agent.completed'] })).body).toEqual({ retries: false, dropCustomHeaders: false, loseEvents: ['agent.completed'] });
	api.reset();
	expect((await control(api.url, {})).body).toEqual({ retries: true, dropCustomHeaders: false, loseEvents: [] });
});
