'use strict';
// The fake API's crawl and batch-scrape webhooks (api-facts 3; webhooks OpenAPI crawl*/batchScrape*):
// the envelope {success, type, id, webhookId, data, error?, metadata}, started → page per finished
// page → completed / failed / cancelled, the events filter (short names; omitted = all), the HMAC
// signature and the config's headers, as sent (the fake's delivery records).
const crypto = require('crypto');
const { useSigningFakeApi } = require('../helpers/resume-context');
const { CANARY_KEY } = require('../helpers/canary');

jest.setTimeout(20000);

const SECRET = 'fake-crawl-webhook-secret';
const api = useSigningFakeApi(SECRET);

// Nothing listens there: the deliveries are read from the fake's own records (api.deliveries), which
// hold the exact headers and raw body it sent.
const hookUrl = () => 'http://127.0.0.1:9/hook';
const sent = () =>
	api.deliveries.map((d) => ({ headers: Object.fromEntries(Object.entries(d.headers).map(([k, v]) => [k.toLowerCase(), v])), raw: d.rawBody, body: d.body }));
const post = async (path, body) => {
	const res = await fetch(`${api.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${CANARY_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
	return { status: res.status, body: await res.json() };
};
const until = async (fn, ms = 8000) => {
	const end = Date.now() + ms;
	while (!fn(sent())) {
		if (Date.now() > end) throw new Error(`timed out; sent ${sent().map((r) => r.body.type).join(', ')}`);
		await new Promise((r) => setTimeout(r, 30));
	}
	return sent();
};

test('a crawl with a webhook (no events: all): crawl.started, one crawl.page per page, crawl.completed; signed, with the config\'s headers and metadata', async () => {
	const webhook = { url: hookUrl(), headers: { 'X-Mine': 'yes' }, metadata: { run: 'r1' } };
	const { body } = await post('/v2/crawl', { url: 'https://example.com/fake-duration-600', limit: 4, webhook });
	const received = await until((d) => d.some((r) => r.body.type === 'crawl.completed'));
	expect(received.map((r) => r.body.type)).toEqual(['crawl.started', 'crawl.page', 'crawl.page', 'crawl.page', 'crawl.page', 'crawl.completed']);
	for (const r of received) {
		expect(r.headers['x-firecrawl-signature']).toBe(`sha256=${crypto.createHmac('sha256', SECRET).update(r.raw).digest('hex')}`);
		expect(r.headers['x-mine']).toBe('yes');
		expect(r.body).toMatchObject({ id: body.id, webhookId: expect.any(String), metadata: { run: 'r1' } });
	}
	expect(new Set(received.map((r) => r.body.webhookId)).size).toBe(received.length);
	expect(received[0].body).toMatchObject({ success: true, data: [] });
	expect(received[1].body.data).toEqual([expect.objectContaining({ metadata: expect.objectContaining({ sourceURL: 'https://example.com/fake-duration-600' }) })]);
	expect(received.at(-1).body).toMatchObject({ success: true, data: [] });
	expect(received.at(-1).body.error).toBeUndefined();
});

test('events filter the deliveries; a failed job ends with <prefix>.failed (success false, error); a cancelled one with crawl.cancelled', async () => {
	await post('/v2/crawl', { url: 'https://example.com/fake-duration-400-fake-job-fail', limit: 4, webhook: { url: hookUrl(), events: ['completed', 'failed'] } });
	const failed = await until((d) => d.length === 1);
	expect(failed[0].body).toMatchObject({ success: false, type: 'crawl.failed', data: [], error: expect.any(String) });

	api.reset();
	const { body } = await post('/v2/crawl', { url: 'https://example.com/fake-duration-60000', limit: 4, webhook: { url: hookUrl() } });
	await until((d) => d.length === 1);
	await fetch(`${api.url}/v2/crawl/${body.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${CANARY_KEY}` } });
	const received = await until((d) => d.some((r) => r.body.type === 'crawl.cancelled'));
	expect(received.map((r) => r.body.type)).toEqual(['crawl.started', 'crawl.cancelled']);
	expect(received[1].body).toMatchObject({ success: false, id: body.id });
});

test('a batch scrape: batch_scrape.* events; a failed page is a page event with success false and its error', async () => {
	const urls = ['https://example.com/a?fake-duration-300', 'https://example.com/b-fake-page-error'];
	await post('/v2/batch/scrape', { urls, webhook: { url: hookUrl(), events: ['page', 'completed'] } });
	const received = await until((d) => d.some((r) => r.body.type === 'batch_scrape.completed'));
	expect(received.map((r) => [r.body.type, r.body.success])).toEqual([
		['batch_scrape.page', true],
		['batch_scrape.page', false],
		['batch_scrape.completed', true],
	]);
	expect(received[1].body).toMatchObject({ data: [], error: expect.stringMatching(/fake-page-error/) });
});
