'use strict';
// Unit checks of Crawl / Batch Scrape pieces: pairing pages back to input items, the shared On Timeout
// field (Agent keeps its saved name/values/default), webhook option checks. Build first.
const { pairPages } = require('../../dist/nodes/WebData/resources/batchScrape/shared');
const { onTimeoutField } = require('../../dist/nodes/WebData/jobs/wait');
const { buildWebhook } = require('../../dist/nodes/WebData/resources/crawl/fields');
const { runAndWait } = require('../../dist/nodes/WebData/resources/agent/runAndWait');

const doc = (sourceURL) => ({ markdown: 'x', metadata: { sourceURL } });

describe('pairPages', () => {
	test('by URL, not by position; a repeated URL pairs to its items in turn', () => {
		const urls = ['https://a.example.com/1', 'https://b.example.com/2', 'https://a.example.com/1'];
		const pairs = pairPages([doc('https://b.example.com/2'), doc('https://a.example.com/1'), doc('https://a.example.com/1')], urls, [4, 6, 9]);
		expect(pairs).toEqual([[6], [4], [9]]);
	});
	test('normalises a trailing slash and host case; an unknown page pairs to every item', () => {
		const pairs = pairPages([doc('https://EXAMPLE.com/x/'), doc('https://other.example.com/')], ['https://example.com/x'], [2]);
		expect(pairs).toEqual([[2], [2]]);
		expect(pairPages([doc('https://zzz.example.com/')], ['https://a.example.com', 'https://b.example.com'], [0, 1])).toEqual([[0, 1]]);
	});
});

describe('On Timeout (shared)', () => {
	test('Agent keeps name, values and default of its saved workflows', () => {
		const field = runAndWait.properties.find((p) => p.name === 'onTimeout');
		expect(field).toMatchObject({ name: 'onTimeout', type: 'options', default: 'returnStatus' });
		expect(field.options.map((o) => [o.name, o.value])).toEqual([
			['Cancel the Run and Fail', 'cancelAndFail'],
			['Fail', 'fail'],
			['Return Last Status', 'returnStatus'],
		]);
		expect(onTimeoutField('crawl', 'Get Status', 'scraping').options.map((o) => o.value)).toEqual(['cancelAndFail', 'fail', 'returnStatus']);
	});
});

describe('buildWebhook', () => {
	const node = { name: 'Web Data', type: 'n8n-nodes-webdata.webData', typeVersion: 1, position: [0, 0], parameters: {} };
	test('only what is set', () => {
		expect(buildWebhook(node, {}, 0)).toBeUndefined();
		expect(buildWebhook(node, { webhookUrl: ' https://h.example.com/x ', webhookEvents: [], webhookMetadata: '{}' }, 0)).toEqual({ url: 'https://h.example.com/x' });
		expect(buildWebhook(node, { webhookUrl: 'https://h.example.com', webhookEvents: ['page'], webhookMetadata: '{"a":"1"}' }, 0)).toEqual({
			url: 'https://h.example.com',
			events: ['page'],
			metadata: { a: '1' },
		});
	});
	test.each([
		[{ webhookUrl: 'h.example.com' }, /Webhook URL/],
		[{ webhookEvents: ['page'] }, /Webhook URL/],
		[{ webhookUrl: 'https://h.example.com', webhookEvents: ['done'] }, /Webhook Events/],
		[{ webhookUrl: 'https://h.example.com', webhookMetadata: 'nope' }, /Webhook Metadata/],
	])('%j is refused', (options, pattern) => {
		expect(() => buildWebhook(node, options, 0)).toThrow(pattern);
	});
});

// Issue 18.4: the status reads ask for `limit`; servers that ignore it (the self-hosted path @ 61e38dc8)
// or give one fewer (@ 014bc161: limit - 1 documents) still page by `next`, and every document is read once.
describe('status reads with limit against servers that page otherwise', () => {
	const { getStatusItems } = require('../../dist/nodes/WebData/resources/crawl/crawlAndBatch');
	const { defaultDeps } = require('../../dist/nodes/WebData/transport');
	const BASE = 'https://api.example.com';
	const ID = '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a';
	/** A stand-in server: `perPage(limit)` documents a page from ?skip=, next while more remain. */
	function server(total, perPage, { ignoreSkip = false } = {}) {
		const seen = [];
		const ctx = {
			getNode: () => ({ name: 'Web Data', type: 'n8n-nodes-webdata.webData', typeVersion: 1, position: [0, 0], parameters: {} }),
			getCredentials: async () => ({ apiKey: 'k', baseUrl: BASE }),
			helpers: {
				async httpRequestWithAuthentication(_type, options) {
					const url = new URL(options.url);
					for (const [k, v] of Object.entries(options.qs ?? {})) url.searchParams.set(k, String(v));
					seen.push(url.search);
					const skip = Number(url.searchParams.get('skip') ?? 0);
					const from = ignoreSkip ? 0 : skip;
					const limit = url.searchParams.get('limit');
					const n = Math.max(0, Math.min(perPage(limit === null ? undefined : Number(limit)), total - skip));
					const data = Array.from({ length: n }, (_, k) => ({ markdown: `page ${from + k}`, metadata: { sourceURL: `https://site.example/${from + k}` } }));
					const next = skip + n < total ? `${BASE}/v2/crawl/${ID}?skip=${skip + n}${limit === null ? '' : `&limit=${limit}`}` : undefined;
					return { statusCode: 200, headers: {}, body: { success: true, status: 'completed', total, completed: total, data, ...(next ? { next } : {}) } };
				},
			},
		};
		return { ctx, seen };
	}
	test.each([
		['honours limit (newest)', (limit) => limit ?? 100],
		['gives limit - 1 (014bc161)', (limit) => (limit === undefined ? 100 : limit - 1)],
		['ignores limit, cuts by size (61e38dc8-like)', () => 7],
	])('a server that %s: every document once, in order', async (_name, perPage) => {
		const { ctx, seen } = server(250, perPage);
		const items = await getStatusItems(ctx, 'crawl', ID, 'pages', 'full', 0, defaultDeps);
		expect(items.map((i) => i.json.markdown)).toEqual(Array.from({ length: 250 }, (_, k) => `page ${k}`));
		expect(seen[0]).toBe('?limit=100');
		expect(seen.length).toBe(Math.ceil(250 / perPage(100)));
	});

	// The self-hosted path @ 61e38dc8 also ignores `skip`: each `next` answers the first page again.
	// Without the check the node read 36 pages and output the first 7 documents 36 times over.
	test('a server that ignores skip: an error naming it after the second read, no repeated pages', async () => {
		const { ctx, seen } = server(250, () => 7, { ignoreSkip: true });
		await expect(getStatusItems(ctx, 'crawl', ID, 'pages', 'full', 0, defaultDeps)).rejects.toThrow(
			/first page of this crawl's results again.*ignores `skip`.*only the first 7 of 250 finished pages/,
		);
		expect(seen).toHaveLength(2);
	});

	test('a batch scrape whose first page repeats only one document further on is read whole', async () => {
		// One URL listed twice: the same document opens page 1 and appears again later, not as a repeated page start.
		const { ctx } = server(20, () => 7);
		const base = ctx.helpers.httpRequestWithAuthentication;
		ctx.helpers.httpRequestWithAuthentication = async (type, options) => {
			const answer = await base(type, options);
			if (options.url.includes('skip=7')) answer.body.data[0] = { markdown: 'page 0', metadata: { sourceURL: 'https://site.example/0' } };
			return answer;
		};
		const items = await getStatusItems(ctx, 'batch', ID, 'pages', 'full', 0, defaultDeps);
		expect(items).toHaveLength(20);
	});
});
