'use strict';
// Monitor: how a check's `next` links are followed, and offset paging of lists (no server needed).
const { nextPage, readCheck, collectPages } = require('../../dist/nodes/shared/monitor/api');
const { fakeContext, recordingDeps } = require('../helpers/fake-context');

const M = '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a';
const C = '0190b7c4-7a10-7c1e-9a51-3f2b8e4d5c6b';
const page = (ids, next) => ({ status: 200, body: { success: true, ...(next ? { next } : {}), data: { id: C, status: 'completed', pages: ids.map((id) => ({ id, status: 'same' })), ...(next ? { next } : {}) } } });

test('nextPage: the query of a link is asked of our own path; a link without a query is followed as it is', () => {
	expect(nextPage(`https://api.example.com/v2/monitor/${M}/checks/${C}?skip=100&limit=100&status=new`)).toEqual({ qs: { skip: '100', limit: '100', status: 'new' } });
	expect(nextPage('/v2/monitor/x/checks/y?skip=5')).toEqual({ qs: { skip: '5' } });
	expect(nextPage('https://api.example.com/v2/pages/abc')).toEqual({ link: 'https://api.example.com/v2/pages/abc' });
	expect(nextPage('')).toBeUndefined();
	expect(nextPage(null)).toBeUndefined();
});

test('readCheck follows next links (another origin: only its query is used) until there is none', async () => {
	const { ctx, calls } = fakeContext({
		responses: [page(['p1', 'p2'], `https://elsewhere.example/v2/monitor/${M}/checks/${C}?skip=2&limit=2`), page(['p3'], 'http://127.0.0.1:9/v2/cursor/xyz'), page(['p4'])],
	});
	const { deps } = recordingDeps();
	const { check, pages } = await readCheck(ctx, M, C, [], 0, deps);
	expect(pages.map((p) => p.id)).toEqual(['p1', 'p2', 'p3', 'p4']);
	expect(check).toEqual({ id: C, status: 'completed' });
	expect(calls.map((c) => [c.url, c.qs])).toEqual([
		[`http://127.0.0.1:9/v2/monitor/${M}/checks/${C}`, { limit: 100 }],
		[`http://127.0.0.1:9/v2/monitor/${M}/checks/${C}`, { skip: '2', limit: '2' }],
		['http://127.0.0.1:9/v2/cursor/xyz', undefined],
	]);
});

test('readCheck stops when a next link only repeats pages already read', async () => {
	const { ctx, calls } = fakeContext({ responses: [page(['p1'], `http://127.0.0.1:9/v2/monitor/${M}/checks/${C}?skip=0`)] });
	const { deps } = recordingDeps();
	const { pages } = await readCheck(ctx, M, C, [], 0, deps);
	expect(pages.map((p) => p.id)).toEqual(['p1']);
	expect(calls).toHaveLength(2);
});

test('collectPages: up to 100 per request, stops at the limit, a short page, or a repeated page', async () => {
	const asked = [];
	const all = Array.from({ length: 250 }, (_, n) => ({ id: `m${n}` }));
	const fetchPage = async ({ limit, offset }) => {
		asked.push([limit, offset]);
		return all.slice(offset, offset + limit);
	};
	expect(await collectPages(fetchPage, Infinity)).toHaveLength(250);
	expect(asked).toEqual([[100, 0], [100, 100], [100, 200]]);
	asked.length = 0;
	expect(await collectPages(fetchPage, 130)).toHaveLength(130);
	expect(asked).toEqual([[100, 0], [30, 100]]);
	let calls = 0;
	const repeating = async ({ limit }) => {
		calls++;
		return Array.from({ length: limit }, (_, n) => ({ id: `r${n}` }));
	};
	expect(await collectPages(repeating, Infinity)).toHaveLength(100);
	expect(calls).toBe(2);
});
