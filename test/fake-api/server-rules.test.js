'use strict';
// The fake refuses, with a 400 like the real server's, the bodies of issue 14 that the server's request
// schemas refuse (see test/fake-api/serverRules.js for the sources), and still takes their neighbours
// that the server takes. Run: npx jest --config test/jest.config.js test/fake-api/server-rules.test.js
const { startFakeApi } = require('./server');

jest.setTimeout(30000);
const KEY = 'test-key';
let api;
beforeAll(async () => {
	api = await startFakeApi({ apiKey: KEY, timeScale: 50 });
});
afterAll(async () => {
	await api.close();
});
beforeEach(() => api.reset());

async function post(path, body) {
	const res = await fetch(api.url + path, {
		method: 'POST',
		headers: { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
	});
	return { status: res.status, json: await res.json() };
}

const scrape = (over) => ['/v2/scrape', { url: 'https://example.com', ...over }];
const search = (scrapeOptions, over = {}) => ['/v2/search', { query: 'q', scrapeOptions, ...over }];
const crawl = (over) => ['/v2/crawl', { url: 'https://example.com', ...over }];
const batch = (over) => ['/v2/batch/scrape', { urls: ['https://example.com/a'], ...over }];
const monitor = (crawlOptions, webhook) => [
	'/v2/monitor',
	{ name: 'm', schedule: { cron: '0 * * * *' }, targets: [{ type: 'crawl', url: 'https://example.com', crawlOptions }], ...(webhook ? { webhook } : {}) },
];
const waits = (...ms) => ms.map((milliseconds) => ({ type: 'wait', milliseconds }));
const FREE_FORM = { type: 'object', additionalProperties: true };

describe('refused with 400 and an issue at the field', () => {
	test.each([
		['scrape: waitFor over 60000 (even with a long timeout)', scrape({ waitFor: 60001, timeout: 300000 }), ['waitFor']],
		['scrape: waitFor over half the timeout', scrape({ timeout: 10000, waitFor: 5001 }), ['waitFor'], 'waitFor must not exceed half of timeout'],
		['scrape: wait actions over 60 s', scrape({ actions: waits(30000, 30001) }), ['actions'], 'Total wait time (waitFor + wait actions) cannot exceed 60 seconds'],
		// types.ts @ 61e38dc8 (2025-08): with actions, waitFor and the wait actions together ≤ 60 s.
		['scrape: waitFor and wait actions together over 60 s', scrape({ waitFor: 30000, actions: waits(30001) }), [], 'Total wait time (waitFor + wait actions) cannot exceed 60 seconds'],
		['scrape: selector waits count 1 s each', scrape({ actions: [...waits(59500), { type: 'wait', selector: '#x' }] }), ['actions']],
		['scrape: 51 actions', scrape({ actions: Array.from({ length: 51 }, () => ({ type: 'scroll' })) }), ['actions']],
		['scrape: a free-form JSON schema', scrape({ formats: [{ type: 'json', schema: FREE_FORM }] }), ['formats', 0, 'schema'], 'Schema contains invalid structure for OpenAI'],
		['scrape: a free-form object deep in the schema', scrape({ formats: [{ type: 'json', schema: { type: 'object', properties: { a: { type: 'array', items: FREE_FORM } } } }] }), ['formats', 0, 'schema']],
		['scrape: a free-form change tracking schema', scrape({ formats: ['markdown', { type: 'changeTracking', modes: ['json'], schema: FREE_FORM }] }), ['formats', 1, 'schema']],
		['scrape: country XX', scrape({ location: { country: 'XX' } }), ['location', 'country'], 'Invalid country code'],
		['search: change tracking on scraped results', search({ formats: ['markdown', 'changeTracking'] }), ['scrapeOptions', 'formats', 1]],
		['search: waitFor over half the timeout', search({ formats: ['markdown'], timeout: 4000, waitFor: 3000 }), ['scrapeOptions', 'waitFor']],
		['search: a one-letter top-level domain', search(undefined, { includeDomains: ['example.c'] }), ['includeDomains', 0]],
		['crawl: delay 0', crawl({ delay: 0 }), ['delay']],
		['crawl: delay 61', crawl({ delay: 61 }), ['delay']],
		['crawl: a look-ahead', crawl({ includePaths: ['blog/(?=2025)'] }), ['includePaths'], 'look-around'],
		['crawl: a look-behind', crawl({ excludePaths: ['(?<=x)y'] }), ['excludePaths']],
		['crawl: a backreference', crawl({ excludePaths: ['(a)\\1'] }), ['excludePaths'], 'backreferences'],
		['crawl: 1001 patterns in one field', crawl({ includePaths: Array.from({ length: 1001 }, (_, n) => `p${n}`) }), ['includePaths']],
		['crawl: a 2001-character pattern', crawl({ excludePaths: ['a'.repeat(2001)] }), ['excludePaths']],
		['crawl: 1001 patterns in both fields', crawl({ includePaths: Array.from({ length: 501 }, (_, n) => `i${n}`), excludePaths: Array.from({ length: 500 }, (_, n) => `e${n}`) }), []],
		['crawl: a number in webhook metadata', crawl({ webhook: { url: 'https://h.example.com', metadata: { run: 1 } } }), ['webhook', 'metadata', 'run']],
		['crawl: a managed webhook header', crawl({ webhook: { url: 'https://h.example.com', headers: { 'x-firecrawl-event': 'x' } } }), ['webhook', 'headers'], 'The following headers are not allowed'],
		['crawl: waitFor over half the timeout', crawl({ scrapeOptions: { timeout: 2000, waitFor: 1001 } }), ['scrapeOptions', 'waitFor']],
		['batch: a managed webhook header', batch({ webhook: { url: 'https://h.example.com', headers: { 'X-Firecrawl-Delivery-Mode': 'x' } } }), ['webhook', 'headers']],
		['batch: metadata that is an object', batch({ webhook: { url: 'https://h.example.com', metadata: { a: { b: 'c' } } } }), ['webhook', 'metadata', 'a']],
		['batch: waitFor over 60000 (even with a long timeout)', batch({ waitFor: 90000, timeout: 300000 }), ['waitFor']],
		['batch: country XX', batch({ location: { country: 'xx' } }), ['location', 'country']],
		['map: country XX', ['/v2/map', { url: 'https://example.com', location: { country: 'XX' } }], ['location', 'country']],
		['monitor crawl target: delay 0', monitor({ delay: 0 }), ['targets', 0, 'crawlOptions', 'delay']],
		['monitor crawl target: a look-ahead', monitor({ includePaths: ['(?!x)'] }), ['targets', 0, 'crawlOptions', 'includePaths']],
		['monitor webhook: a managed header', monitor({}, { url: 'https://h.example.com', headers: { 'X-Firecrawl-Scrape-Id': 'x' } }), ['webhook', 'headers']],
	])('%s', async (...row) => {
		// (rest parameters: rows without a message must not make jest pass a done callback)
		const [, [path, body], at, message] = row;
		const r = await post(path, body);
		expect(r.status).toBe(400);
		expect(r.json.success).toBe(false);
		expect(r.json.details.map((d) => d.path)).toContainEqual(at);
		if (message) expect(JSON.stringify(r.json)).toContain(message);
	});
});

describe('their neighbours pass', () => {
	test.each([
		['scrape: waitFor 60000 without a timeout', scrape({ waitFor: 60000 })],
		['scrape: waitFor exactly half the timeout', scrape({ timeout: 10000, waitFor: 5000 })],
		['scrape: wait actions of exactly 60 s', scrape({ actions: waits(30000, 30000) })],
		['scrape: waitFor and wait actions of exactly 60 s together', scrape({ waitFor: 20000, actions: waits(20000, 20000) })],
		['scrape: 50 actions', scrape({ actions: Array.from({ length: 50 }, () => ({ type: 'scroll' })) })],
		['scrape: a dictionary with patternProperties, and a $ref', scrape({ formats: [{ type: 'json', schema: { type: 'object', properties: { a: { type: 'object', additionalProperties: true, patternProperties: { '.*': { type: 'string' } } }, b: { $ref: '#/$defs/x' } }, $defs: { x: { type: 'string' } } } }] })],
		['scrape: lower-case country, proxy stealth', scrape({ location: { country: 'de' }, proxy: 'stealth' })],
		['search: markdown and json on scraped results', search({ formats: ['markdown', { type: 'json', prompt: 'p' }] })],
		['crawl: delay 60, (?i) and a bracketed (?=', crawl({ delay: 60, includePaths: ['(?i)blog/.*', '[(?=]x'] })],
		['crawl: 1000 patterns, text metadata, a custom header', crawl({ excludePaths: Array.from({ length: 1000 }, (_, n) => `e${n}`), webhook: { url: 'https://h.example.com', metadata: { run: '1' }, headers: { 'X-Mine': 'y' } } })],
		['monitor crawl target: delay 0.5', monitor({ delay: 0.5, includePaths: ['docs/.*'] })],
	])('%s', async (_name, [path, body]) => {
		const r = await post(path, body);
		expect(r.json).toMatchObject({ success: true });
	});
});
