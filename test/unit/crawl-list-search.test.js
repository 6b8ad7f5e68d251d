'use strict';
// searchActiveCrawls (the "From List" mode of Crawl ID): GET /v2/crawl/active, filter by the typed text.
const { searchActiveCrawls } = require('../../dist/nodes/WebData/methods/crawlSearch');
const { fakeContext } = require('../helpers/fake-context');

const A = '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a';
const B = '0190b7c4-7a10-7c1e-9a51-3f2b8e4d5c6b';

test('GET /v2/crawl/active; one result per running crawl; filter by URL or id', async () => {
	const body = {
		success: true,
		crawls: [
			{ id: A, teamId: 't', url: 'https://example.com', status: 'scraping', options: {} },
			{ id: B, teamId: 't', url: 'https://docs.example.org', status: 'scraping', options: {} },
		],
	};
	const { ctx, calls } = fakeContext({ responses: [{ status: 200, body }, { status: 200, body }] });
	const all = await searchActiveCrawls.call(ctx);
	expect(calls).toHaveLength(1);
	expect(calls[0].method).toBe('GET');
	expect(calls[0].url).toMatch(/\/v2\/crawl\/active$/);
	expect(all.results).toEqual([
		{ name: `https://example.com (${A})`, value: A },
		{ name: `https://docs.example.org (${B})`, value: B },
	]);
	const some = await searchActiveCrawls.call(ctx, 'DOCS');
	expect(some.results.map((r) => r.value)).toEqual([B]);
});
