'use strict';
/**
 * One shared pace for all requests of a node run (issue 11.1): against a service that allows R
 * requests per second, no request of the run goes out inside a Retry-After window the service has
 * announced (first tries and retries alike), every item succeeds, and the rate settles near R.
 * Workflows run in n8n's engine against the fake API's sliding-window rate limit. Both views are
 * checked: the client's (no request given its turn while a hold it learned is in force; exact) and
 * the service's (no request arrives inside an announced window, beyond the in-flight grace).
 */
const path = require('path');
const { startFakeApi } = require('../fake-api/server');
const { runWorkflow } = require('../helpers/workflow-runner');
const { webDataWorkflow, WEB_DATA } = require('../helpers/workflows');
const { CANARY_KEY, record } = require('../helpers/canary');
const { requestsInsideWindows, watchPace } = require('../helpers/rate-windows');
// The same built module the node runs (the runner loads the package's dist files).
const { Pace } = require('../../dist/nodes/WebData/transport/pace');

/** A request given its turn just before its 429 was read may still arrive after the answer left. */
const IN_FLIGHT_GRACE_MS = 50;

const fixture = (name) => path.join(__dirname, '..', 'fixtures', name);

let api;
let pace;
beforeAll(async () => {
	api = await startFakeApi({ apiKey: CANARY_KEY });
	pace = watchPace(Pace);
});
afterAll(async () => {
	pace.restore();
	await api.close();
});
beforeEach(() => {
	api.reset();
	pace.reset();
});

async function run(parameters, items) {
	const result = await runWorkflow(webDataWorkflow(parameters, items), {
		credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url } },
	});
	record(result.error);
	return result;
}

const pdfs = (n) => Array.from({ length: n }, (_, i) => ({ json: {}, binary: { data: { path: fixture('report.pdf'), fileName: `f-${i}.pdf` } } }));

describe('shared pace across concurrent items', () => {
	test('8 files at concurrency 3, 2 requests/s with Retry-After: 2 — no request inside a window, all succeed', async () => {
		api.rateLimit({ limit: 2, windowMs: 1000, retryAfter: 2, path: '/v2/parse' });
		const started = Date.now();
		const result = await run({ resource: 'parse', operation: 'parseFile', options: { concurrency: 3 } }, pdfs(8));
		const elapsed = Date.now() - started;
		expect(result.status).toBe('success');
		expect(result.items(WEB_DATA)).toHaveLength(8);
		const log = api.requests('/v2/parse');
		const { windows, inside } = requestsInsideWindows(log, { graceMs: IN_FLIGHT_GRACE_MS });
		expect(windows).toBeGreaterThan(0); // the limit was reached, so the test means something
		expect(inside.map((r) => r.seq)).toEqual([]);
		// The learned rate keeps the 429s few: once paced, the run stays under the limit.
		expect(log.filter((r) => r.status === 429).length).toBeLessThanOrEqual(3);
		expect(log.filter((r) => r.status === 200)).toHaveLength(8);
		expect(pace.holds.length).toBeGreaterThan(0);
		expect(pace.turns.length).toBe(log.length);
		expect(pace.turnsInsideHolds()).toEqual([]);
		// Not a timing test, only a sanity bound far above the ~4.7 s the pace needs.
		expect(elapsed).toBeLessThan(20000);
	}, 30000);

	test('a retry waits for a longer hold announced to another request', async () => {
		// The first request hears "wait 3 s", the second "wait 1 s": the second must not come back
		// after its own 1 s while the service has asked the run to wait 3 s.
		api.fault({ method: 'POST', path: '/v2/parse', statuses: [429], retryAfter: '3', times: 1 });
		api.fault({ method: 'POST', path: '/v2/parse', statuses: [429], retryAfter: '1', times: 1 });
		const result = await run({ resource: 'parse', operation: 'parseFile', options: { concurrency: 2 } }, pdfs(2));
		expect(result.status).toBe('success');
		const log = api.requests('/v2/parse');
		expect(log.map((r) => r.status)).toEqual([429, 429, 200, 200]);
		expect(pace.turnsInsideHolds()).toEqual([]);
		expect(requestsInsideWindows(log, { graceMs: IN_FLIGHT_GRACE_MS }).inside.map((r) => r.seq)).toEqual([]);
		expect(log[2].at - log[0].answeredAt).toBeGreaterThanOrEqual(3000 - 5);
	}, 30000);
});
