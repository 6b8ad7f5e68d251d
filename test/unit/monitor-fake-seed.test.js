'use strict';
// The fake API's monitor seeding route (test/fake-api/monitor.js), used by the e2e checks' before():
// no auth, not logged, and a baseline check makes the next check report changes.
const { startFakeApi } = require('../fake-api/server');
const { CANARY_KEY } = require('../helpers/canary');

let api;
beforeAll(async () => {
	api = await startFakeApi({ apiKey: CANARY_KEY });
});
afterAll(async () => api.close());
beforeEach(() => api.reset());

const seed = async (body) => {
	const res = await fetch(`${api.url}/__fake/monitor`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	return { status: res.status, body: await res.json() };
};
const authed = (path, init = {}) => fetch(`${api.url}${path}`, { ...init, headers: { authorization: `Bearer ${CANARY_KEY}`, 'content-type': 'application/json' } });

test('a seeded monitor is a normal monitor of the API; the seed call is not logged', async () => {
	const { status, body } = await seed({ name: 'Pricing', goal: 'prices', targets: [{ type: 'scrape', urls: ['https://example.com/a'] }] });
	expect(status).toBe(200);
	expect(body).toMatchObject({ name: 'Pricing', goal: 'prices', judgeEnabled: true, status: 'active', checks: [] });
	expect(api.log).toHaveLength(0);
	const res = await authed(`/v2/monitor/${body.id}`);
	expect(res.status).toBe(200);
	expect((await res.json()).data).toMatchObject({ id: body.id, name: 'Pricing', schedule: { timezone: 'UTC' } });
});

test('baseline: a finished first check (all new), so a run reports the first URL as changed', async () => {
	const { body } = await seed({ goal: 'prices', targets: [{ type: 'scrape', urls: ['https://example.com/a', 'https://example.com/b'] }], baseline: true });
	expect(body.checks).toHaveLength(1);
	expect(body.checks[0]).toMatchObject({ status: 'completed', summary: { new: 2, totalPages: 2 } });
	const run = await (await authed(`/v2/monitor/${body.id}/run`, { method: 'POST', body: '{}' })).json();
	await api.settled();
	const check = await (await authed(`/v2/monitor/${body.id}/checks/${run.id}`)).json();
	expect(check.data.pages.map((p) => [p.url, p.status])).toEqual([
		['https://example.com/a', 'changed'],
		['https://example.com/b', 'same'],
	]);
	expect(check.data.pages[0].judgment).toMatchObject({ meaningful: true });
});

test('status and plan are applied', async () => {
	const { body } = await seed({ status: 'paused', plan: { checkDurationMs: 100 } });
	expect(body).toMatchObject({ status: 'paused', plan: { checkDurationMs: 100 } });
	const res = await authed(`/v2/monitor/${body.id}/run`, { method: 'POST', body: '{}' });
	expect(res.status).toBe(409);
});

test('a fixed id (as written in an example workflow); a second seed with it is refused', async () => {
	const id = '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a';
	expect((await seed({ id })).body.id).toBe(id);
	expect((await seed({ id })).status).toBe(409);
	expect((await seed({ id: 'nope' })).status).toBe(400);
});
