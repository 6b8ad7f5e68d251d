'use strict';
/**
 * One shared pace for all requests of a node run (issue 11.1): against a service that allows R
 * requests per second, no request of the run goes out inside a Retry-After window the service has
 * announced (first tries and retries alike), every item succeeds, and the rate settles near R.
 * Workflows run in n8n's engine against the fake API's sliding-window rate limit. Both views are
 * checked: the client's (no request given its turn while a hold it learned is in force; exact) and
 * the service's (every request that arrived inside an announced window had been given its turn
 * before the run read that 429).
 *
 * Issue 15.4: on a busy machine (load ~13 on 2 cores) the first test failed 2 runs in 3 with
 * "requests inside a Retry-After window". It counted arrivals at the fake after the 429 was
 * answered plus a 50 ms grace; the requests it found had been given their turn before the run read
 * the 429 (the client's exact view never failed) and reached the fake late: between a turn and the
 * arrival lie n8n's request helper, the event loop and loopback, which a loaded machine stretches
 * past any fixed grace. That is arrival jitter the product does not control (a request already sent
 * cannot be called back), not a request let out after a 429. The service view now counts, per
 * window, the turns given before the run read its 429 (test/helpers/rate-windows.js
 * arrivalsNotExplained): no grace, no timing margin, and a request sent after the 429 was read
 * still fails it. Likewise the limit is checked where the product sets it, on the turns (at most
 * 2 in any second once learned), not on the 429 count, which arrival jitter can raise.
 */
const path = require('path');
const { startFakeApi } = require('../fake-api/server');
const { runWorkflow } = require('../helpers/workflow-runner');
const { webDataWorkflow, WEB_DATA } = require('../helpers/workflows');
const { CANARY_KEY, record } = require('../helpers/canary');
const { requestsInsideWindows, watchPace, arrivalsNotExplained } = require('../helpers/rate-windows');
// The same built module the node runs (the runner loads the package's dist files).
const { Pace, RATE_WINDOW_MS } = require('../../dist/nodes/WebData/transport/pace');

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
		expect(requestsInsideWindows(log).windows).toBeGreaterThan(0); // the limit was reached, so the test means something
		expect(log.filter((r) => r.status === 200)).toHaveLength(8);
		expect(pace.holds.length).toBeGreaterThan(0);
		expect(pace.turns.length).toBe(log.length); // every request that reached the service had its turn
		expect(pace.turnsInsideHolds()).toEqual([]);
		expect(arrivalsNotExplained(log, pace)).toEqual([]);
		// The learned limit: after the first hold, never more than 2 turns in any second (concurrency 3
		// without it would send 3 at once after every hold).
		const afterHold = pace.turns.filter((t) => t >= pace.holds[0].to).sort((a, b) => a - b);
		expect(afterHold.length).toBeGreaterThan(2);
		for (let i = 2; i < afterHold.length; i++) expect(afterHold[i] - afterHold[i - 2]).toBeGreaterThanOrEqual(RATE_WINDOW_MS);
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
		expect(arrivalsNotExplained(log, pace)).toEqual([]);
		expect(log[2].at - log[0].answeredAt).toBeGreaterThanOrEqual(3000 - 5);
	}, 30000);
});
