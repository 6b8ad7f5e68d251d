'use strict';
// The fake API's crawl and batch-scrape webhooks (api-facts 3; webhooks OpenAPI crawl*/batchScrape*):
// <prefix>.started, one <prefix>.page per finished page as the job's clock passes it, then
// <prefix>.completed for every end as the open-source server (or failed / cancelled with jobEndEvents 'split'); the envelope {success, type, id, webhookId, data, error?, metadata},
// the events filter (omitted = started|page|completed|failed; [] = all), the customer's headers, the
// HMAC signature, and a retry when a delivery is not answered 2xx.
const crypto = require('crypto');
const { startFakeApi } = require('./server');
const { CANARY_KEY } = require('../helpers/canary');
const { useWebhookFake } = require('../helpers/webhook-fake');

jest.setTimeout(20000);

const SECRET = 'fake-crawl-webhook-secret';
const { api, received, answer, receiverUrl } = useWebhookFake({ webhookSigningSecret: SECRET, timeScale: 10 });

const hookUrl = () => receiverUrl('/hook?token=abc');
const post = async (path, body) => {
	const res = await fetch(`${api.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${CANARY_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
	return { status: res.status, body: await res.json() };
};
const types = () => received.map((d) => d.body.type);

test('a crawl sends crawl.started, one signed crawl.page per page with its document, then crawl.completed, all with the metadata', async () => {
	const { body } = await post('/v2/crawl', { url: 'https://docs.example.com/', limit: 3, scrapeOptions: { formats: ['markdown'] }, webhook: { url: hookUrl(), headers: { 'X-Run': 'r1' }, metadata: { run: 'nightly' } } });
	await api.settled(10000);
	expect(types()).toEqual(['crawl.started', 'crawl.page', 'crawl.page', 'crawl.page', 'crawl.completed']);
	for (const d of received) {
		expect(d.url).toBe('/hook?token=abc');
		expect(d.headers['x-run']).toBe('r1');
		expect(d.headers['x-firecrawl-signature']).toBe(`sha256=${crypto.createHmac('sha256', SECRET).update(d.raw).digest('hex')}`);
		expect(d.body).toMatchObject({ id: body.id, metadata: { run: 'nightly' } });
		expect(d.body.webhookId).toMatch(/^[0-9a-f-]{36}$/);
	}
	const pages = received.filter((d) => d.body.type === 'crawl.page');
	expect(pages.map((d) => d.body.data[0].metadata.sourceURL)).toEqual(['https://docs.example.com/', 'https://docs.example.com/about', 'https://docs.example.com/pricing']);
	expect(pages.every((d) => d.body.success === true && typeof d.body.data[0].markdown === 'string')).toBe(true);
	expect(received[0].body.data).toEqual([]);
	expect(received[4].body).toMatchObject({ success: true, data: [] });
	expect(new Set(received.map((d) => d.body.webhookId)).size).toBe(5);
});

test('the events filter: only the chosen short names are sent', async () => {
	await post('/v2/crawl', { url: 'https://docs.example.com/', limit: 2, webhook: { url: hookUrl(), events: ['page'] } });
	await api.settled(10000);
	expect(types()).toEqual(['crawl.page', 'crawl.page']);
});

test('as the open-source server: a failing crawl ends with crawl.completed (success true, data []), its status read says "failed"; a batch page that fails is a batch_scrape.page with success false', async () => {
	const { body } = await post('/v2/crawl', { url: 'https://docs.example.com/fake-job-fail', limit: 4, webhook: { url: hookUrl() } });
	await api.settled(10000);
	expect(types()).toEqual(['crawl.started', 'crawl.page', 'crawl.page', 'crawl.completed']);
	expect(received[3].body).toEqual(expect.objectContaining({ success: true, data: [] }));
	expect(received[3].body.error).toBeUndefined();
	const status = await (await fetch(`${api.url}/v2/crawl/${body.id}`, { headers: { authorization: `Bearer ${CANARY_KEY}` } })).json();
	expect(status).toMatchObject({ status: 'failed', total: 4, completed: 2 });
	received.length = 0;
	await post('/v2/batch/scrape', { urls: ['https://a.example.com/', 'https://b.example.com/fake-page-error'], webhook: { url: hookUrl(), events: ['page', 'completed'] } });
	await api.settled(10000);
	expect(types()).toEqual(['batch_scrape.page', 'batch_scrape.page', 'batch_scrape.completed']);
	expect(received[1].body).toMatchObject({ success: false, data: [], error: expect.stringContaining('fake-page-error') });
});

test('as the open-source server: a cancelled crawl and a cancelled batch end with <prefix>.completed, success true, even with all events wanted', async () => {
	for (const [path, prefix, request] of [
		['/v2/crawl', 'crawl', { url: 'https://docs.example.com/fake-duration-20000' }],
		['/v2/batch/scrape', 'batch_scrape', { urls: ['https://a.example.com/fake-duration-20000', 'https://b.example.com/'] }],
	]) {
		received.length = 0;
		const { body } = await post(path, { ...request, webhook: { url: hookUrl(), events: [] } });
		await fetch(`${api.url}${path}/${body.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${CANARY_KEY}` } });
		await api.settled(10000);
		expect(types()).toEqual([`${prefix}.started`, `${prefix}.completed`]);
		expect(received[1].body).toMatchObject({ success: true, data: [], id: body.id });
	}
});

test('jobEndEvents "split" (a build with .failed / .cancelled): a failing crawl ends with crawl.failed; a cancelled one sends crawl.cancelled only when all events are wanted (events: [])', async () => {
	const split = await startFakeApi({ apiKey: CANARY_KEY, webhookSigningSecret: SECRET, timeScale: 10, jobEndEvents: 'split' });
	const postTo = async (path, body) => (await fetch(`${split.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${CANARY_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
	try {
		await postTo('/v2/crawl', { url: 'https://docs.example.com/fake-job-fail', limit: 4, webhook: { url: hookUrl() } });
		await split.settled(10000);
		expect(types()).toEqual(['crawl.started', 'crawl.page', 'crawl.page', 'crawl.failed']);
		expect(received[3].body).toMatchObject({ success: false, error: expect.stringContaining('fail') });
		received.length = 0;
		const body = await postTo('/v2/crawl', { url: 'https://docs.example.com/fake-duration-20000', webhook: { url: hookUrl(), events: [] } });
		await fetch(`${split.url}/v2/crawl/${body.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${CANARY_KEY}` } });
		await split.settled(10000);
		expect(types()).toEqual(['crawl.started', 'crawl.cancelled']);
		expect(received[1].body).toMatchObject({ success: false, data: [] });
	} finally {
		await split.close();
	}
});

test('a delivery answered 500 is retried with the same webhookId and bytes', async () => {
	const fast = await startFakeApi({ apiKey: CANARY_KEY, webhookSigningSecret: SECRET, timeScale: 60000 });
	try {
		answer.splice(0, answer.length, 500);
		await fetch(`${fast.url}/v2/crawl`, { method: 'POST', headers: { authorization: `Bearer ${CANARY_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: 'https://docs.example.com/', limit: 1, webhook: { url: hookUrl(), events: ['started'] } }) });
		const end = Date.now() + 5000;
		while (received.length < 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
		expect(received.map((d) => d.body.type)).toEqual(['crawl.started', 'crawl.started']);
		expect(received[1].raw).toBe(received[0].raw);
	} finally {
		await fast.close();
	}
});

test('fake-pages-<n> + fake-long-<chars>: n pages of that size, each delivered; status pages cut at 10 MiB, not 3 documents', async () => {
	const url = 'https://docs.example.com/fake-pages-1200/fake-long-12000/fake-duration-3000';
	const { body } = await post('/v2/crawl', { url, limit: 1200, scrapeOptions: { formats: ['markdown'] }, webhook: { url: hookUrl(), events: ['page'] } });
	await api.settled(15000);
	expect(received).toHaveLength(1200);
	expect(received[5].body.data[0].metadata.url).toBe(`${url}/page-5`);
	expect(received[5].body.data[0].markdown.length).toBeGreaterThan(12000);
	const pages = [];
	for (let next = `${api.url}/v2/crawl/${body.id}`; next; ) {
		const res = await (await fetch(next, { headers: { authorization: `Bearer ${CANARY_KEY}` } })).json();
		pages.push({ n: res.data.length, bytes: Buffer.byteLength(JSON.stringify(res.data)) });
		next = res.next;
	}
	expect(pages.reduce((s, p) => s + p.n, 0)).toBe(1200);
	expect(pages.length).toBe(2); // 1200 × ~12.5 KB = ~15 MB: one full page of 10 MiB, then the rest
	expect(pages[0].bytes).toBeLessThanOrEqual(10 * 1024 * 1024 + 1200);
	expect(pages[0].n).toBeGreaterThan(700);
});
