'use strict';
// searchInteractSessions (the "From List" source for a Session ID, once registered in the node):
// asks only for active sessions and filters by the typed text. Build first: `npm run build`.
const { searchInteractSessions } = require('../../dist/nodes/WebData/methods/interactSearch');
const { fakeContext } = require('../helpers/fake-context');

const A = '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a';
const B = '0190b7c4-7a10-7c1e-9a51-3f2b8e4d5c6b';

test('GET /v2/interact?status=active; one result per session with its live view link; filter', async () => {
	const { ctx, calls } = fakeContext({
		responses: [
			{
				status: 200,
				body: {
					success: true,
					sessions: [
						{ id: A, status: 'active', createdAt: '2026-11-22T10:00:00.000Z', liveViewUrl: 'https://live.example/a' },
						{ id: B, status: 'active', createdAt: '2026-11-22T11:30:00.000Z' },
					],
				},
			},
		],
	});
	const all = await searchInteractSessions.call(ctx);
	expect(calls).toHaveLength(1);
	expect(calls[0].method).toBe('GET');
	expect(calls[0].url).toMatch(/\/v2\/interact$/);
	expect(calls[0].qs).toEqual({ status: 'active' });
	expect(all.results).toEqual([
		{ name: `${A} (started 2026-11-22 10:00:00 UTC)`, value: A, url: 'https://live.example/a' },
		{ name: `${B} (started 2026-11-22 11:30:00 UTC)`, value: B, url: undefined },
	]);
	const some = await searchInteractSessions.call(ctx, '11:30');
	expect(some.results.map((r) => r.value)).toEqual([B]);
});

test('a start time in Postgres text with an offset is shown in UTC (issue 34: times are parsed as times)', async () => {
	const { ctx } = fakeContext({
		responses: [{ status: 200, body: { success: true, sessions: [{ id: A, status: 'active', createdAt: '2026-11-22 15:30:00.123456+05:30' }, { id: B, status: 'active', createdAt: 'soon' }] } }],
	});
	const all = await searchInteractSessions.call(ctx);
	expect(all.results.map((r) => r.name)).toEqual([`${A} (started 2026-11-22 10:00:00 UTC)`, B]);
});
