'use strict';
/**
 * The setup the fake API's webhook tests share (crawl and batch scrape, agent): the strict fake API
 * for the file and a local receiver of its deliveries. `received` holds this test's deliveries
 * ({url, headers, raw, body}); `answer` the statuses the receiver answers the next deliveries with,
 * one each (then 200). Both are emptied before each test, when the fake is reset.
 */
const http = require('http');
const { startFakeApi } = require('../fake-api/server');
const { CANARY_KEY } = require('./canary');

function useWebhookFake(fakeOptions = {}) {
	const received = [];
	const answer = [];
	let api;
	let receiver;
	beforeAll(async () => {
		api = await startFakeApi({ apiKey: CANARY_KEY, ...fakeOptions });
		receiver = http.createServer((req, res) => {
			const chunks = [];
			req.on('data', (c) => chunks.push(c));
			req.on('end', () => {
				const raw = Buffer.concat(chunks).toString('utf8');
				received.push({ url: req.url, headers: req.headers, raw, body: JSON.parse(raw) });
				res.writeHead(answer.shift() ?? 200, { 'content-type': 'application/json' });
				res.end('{}');
			});
		});
		await new Promise((r) => receiver.listen(0, '127.0.0.1', r));
	});
	afterAll(async () => {
		await api.close();
		await new Promise((r) => receiver.close(r));
	});
	beforeEach(() => {
		api.reset();
		received.length = 0;
		answer.length = 0;
	});
	return {
		/** Forwards to the fake once started. */
		api: new Proxy({}, { get: (_target, key) => api[key] }),
		received,
		answer,
		/** The receiver's URL for `pathAndQuery` (starting with /). */
		receiverUrl: (pathAndQuery) => `http://127.0.0.1:${receiver.address().port}${pathAndQuery}`,
	};
}

module.exports = { useWebhookFake };
