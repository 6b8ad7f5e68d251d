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
const { runWorkflow, startWorkflow } = require('../helpers/workflow-runner');
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

/**
 * Issue 37: a Retry-After held across items. Between a request's turn and its send nothing may wait on
 * I/O, or a 429 read meanwhile does not stop it: n8n's request helper, left to itself, reads the
 * credential again after the turn (a database read in n8n, slow on a busy machine), and a request given
 * its turn before another item's 429 was read reached the service inside the Retry-After window (seen
 * once with Parse: 1,998 ms before a 2 s Retry-After ran out). The node hands n8n the credential it read
 * before the turn; the runner's credential hooks stand for the database (`read`) and mark the moment
 * n8n's helper sends (`send`).
 */
describe('nothing between a turn and its send (issue 37)', () => {
	const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

	test('two files at once, the first answered 429 (Retry-After 2) while the other waits on a slow credential read: no send inside the window', async () => {
		api.fault({ method: 'POST', path: '/v2/parse', statuses: [429], retryAfter: '2', times: 1 });
		const sends = [];
		let slowed = false;
		const credentialHooks = {
			// The first credential read after both requests had their turn takes 300 ms.
			read: async () => {
				if (!slowed && pace.turns.length >= 2) {
					slowed = true;
					await sleep(300);
				}
			},
			send: () => sends.push(Date.now()),
		};
		const result = await runWorkflow(webDataWorkflow({ resource: 'parse', operation: 'parseFile', options: { concurrency: 2 } }, pdfs(2)), {
			credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url } },
			credentialHooks,
		});
		record(result.error);
		expect(result.status).toBe('success');
		const log = api.requests('/v2/parse');
		expect(log.map((r) => r.status).sort()).toEqual([200, 200, 429]);
		expect(pace.holds).toHaveLength(1);
		expect(sends).toHaveLength(3);
		const inside = sends.filter((t) => pace.holds.some((h) => t > h.from && t < h.to));
		expect(inside).toEqual([]);
		expect(arrivalsNotExplained(log, pace)).toEqual([]);
	}, 30000);

	test.each([
		['Scrape', { resource: 'scrape', operation: 'scrapeUrl', url: 'https://example.com' }, '/v2/scrape', [{ json: {} }]],
		['Parse', { resource: 'parse', operation: 'parseFile' }, '/v2/parse', pdfs(1)],
	])('%s, retried after a 429: no credential read between any turn and its send', async (_name, parameters, path, items) => {
		api.fault({ method: 'POST', path, statuses: [429], retryAfter: '1', times: 1 });
		const events = [];
		const credentialHooks = {
			read: async () => events.push({ read: true, turns: pace.turns.length, sends: events.filter((e) => e.send).length }),
			send: () => events.push({ send: true }),
		};
		const result = await runWorkflow(webDataWorkflow(parameters, items), {
			credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url } },
			credentialHooks,
		});
		record(result.error);
		expect(result.status).toBe('success');
		expect(api.requests(path).map((r) => r.status)).toEqual([429, 200]);
		expect(events.filter((e) => e.send)).toHaveLength(2);
		// One item at a time: a read while a turn is open (more turns than sends) waits between a turn and its send.
		expect(events.filter((e) => e.read && e.turns > e.sends)).toEqual([]);
	}, 30000);
});

/**
 * Issue 16.4: one pace per execution. Two Web Data nodes of one workflow (as every tool call of an
 * AI Agent's turn: each is a node run of its own) share the pace of their execution and credential;
 * two executions never do.
 */
describe('one pace per execution', () => {
	const CRED = { id: 'cred-1', name: 'Web Data account' };
	const node = (id, name, parameters, extra = {}) => ({
		id, name, type: 'n8n-nodes-webdata.webData', typeVersion: 1, position: [0, 0], parameters, credentials: { webDataApi: CRED }, ...extra,
	});
	/** Start → Test Items → First → Second (both scrape every item's URL). */
	function twoNodes(items, first, second, firstExtra = {}) {
		return {
			nodes: [
				{ id: 'n1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				{ id: 'n2', name: 'Test Items', type: 'test.items', typeVersion: 1, position: [0, 0], parameters: { items: JSON.stringify(items) } },
				node('n3', 'First', first, firstExtra),
				node('n4', 'Second', second),
			],
			connections: {
				Start: { main: [[{ node: 'Test Items', type: 'main', index: 0 }]] },
				'Test Items': { main: [[{ node: 'First', type: 'main', index: 0 }]] },
				First: { main: [[{ node: 'Second', type: 'main', index: 0 }]] },
			},
		};
	}
	const scrape = (extra = {}) => ({ resource: 'scrape', operation: 'scrapeUrl', url: "={{ $('Test Items').item.json.url }}", ...extra });
	const urls = (n) => Array.from({ length: n }, (_, i) => ({ json: { url: `https://example.com/p${i}` } }));
	const credentials = () => ({ webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url } });

	/** Which Pace instance gave each turn (the built class, as the node runs it). */
	function watchInstances() {
		const proto = Pace.prototype;
		const original = proto.turn;
		const seen = [];
		proto.turn = async function (signal) {
			const ticket = await original.call(this, signal);
			seen.push({ pace: this, at: ticket.at });
			return ticket;
		};
		return { seen, restore: () => (proto.turn = original) };
	}

	test('a hold the first node heard holds the second node: no request of it inside the Retry-After window', async () => {
		// First: one item, 429 with Retry-After 1 s on all 5 attempts → it gives up (Continue On
		// Fail) while the last 429's window is still open. Second starts at once and must wait for it.
		api.fault({ method: 'POST', path: '/v2/scrape', statuses: [429], retryAfter: '1', times: 5 });
		const result = await runWorkflow(twoNodes(urls(1), scrape(), scrape(), { onError: 'continueRegularOutput' }), { credentials: credentials() });
		record(result.error);
		expect(result.status).toBe('success');
		expect(result.json('First')[0]).toMatchObject({ httpStatus: 429 });
		expect(result.json('Second')[0]).not.toHaveProperty('error');
		const log = api.requests('/v2/scrape');
		expect(log.map((r) => r.status)).toEqual([429, 429, 429, 429, 429, 200]);
		expect(pace.turnsInsideHolds()).toEqual([]);
		expect(requestsInsideWindows(log, { graceMs: 0 }).inside).toEqual([]);
		// Second's request came after the last window closed (a pace per node run sends it at once).
		expect(log[5].at).toBeGreaterThanOrEqual(log[4].answeredAt + 1000 - 5);
	}, 30000);

	test('the rate the first node learned paces the second: at most 2 turns in any second across both nodes, one pace', async () => {
		api.rateLimit({ limit: 2, windowMs: 1000, retryAfter: 1, path: '/v2/scrape' });
		const watch = watchInstances();
		let result;
		try {
			result = await runWorkflow(twoNodes(urls(5), scrape({ options: { concurrency: 3 } }), scrape({ options: { concurrency: 3 } })), { credentials: credentials() });
		} finally {
			watch.restore();
		}
		record(result.error);
		expect(result.status).toBe('success');
		expect(result.json('Second')).toHaveLength(5);
		expect(result.json('Second').filter((j) => j.error)).toEqual([]);
		expect(new Set(watch.seen.map((s) => s.pace)).size).toBe(1); // both nodes, one pace
		const log = api.requests('/v2/scrape');
		expect(pace.holds.length).toBeGreaterThan(0); // the limit was reached, so the test means something
		expect(pace.turnsInsideHolds()).toEqual([]);
		expect(arrivalsNotExplained(log, pace)).toEqual([]);
		// Once learned, never 3 turns within a second — also not when Second starts (a fresh pace
		// would send its first 3 at once, concurrency 3).
		const afterHold = pace.turns.filter((t) => t >= pace.holds[0].to).sort((a, b) => a - b);
		expect(afterHold.length).toBeGreaterThan(5);
		for (let i = 2; i < afterHold.length; i++) expect(afterHold[i] - afterHold[i - 2]).toBeGreaterThanOrEqual(RATE_WINDOW_MS);
	}, 40000);

	test('two executions running at once do not share: a hold in one does not hold the other', async () => {
		// X hears 429 with Retry-After 3 s on its scrape; Y (map, started while X's hold is in force,
		// same credential) goes out at once. A pace for the whole process would hold Y for 3 s.
		api.fault({ method: 'POST', path: '/v2/scrape', statuses: [429], retryAfter: '3', times: 1 });
		const watch = watchInstances();
		try {
			const x = startWorkflow(webDataWorkflow(scrape({ url: 'https://example.com/x' })), { credentials: credentials() });
			const deadline = Date.now() + 10000;
			while (!api.requests('/v2/scrape').some((r) => r.status === 429) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
			const limited = api.requests('/v2/scrape').find((r) => r.status === 429);
			expect(limited).toBeDefined();
			const y = await runWorkflow(webDataWorkflow({ resource: 'map', operation: 'mapUrl', url: 'https://example.com' }), { credentials: credentials() });
			record(y.error);
			expect(y.status).toBe('success');
			const mapLog = api.requests('/v2/map');
			expect(mapLog).toHaveLength(1);
			expect(mapLog[0].at).toBeLessThan(limited.answeredAt + 3000 - 500); // inside X's window: Y was not held
			const xr = await x.done;
			record(xr.error);
			expect(xr.status).toBe('success');
			expect(new Set(watch.seen.map((s) => s.pace)).size).toBe(2);
		} finally {
			watch.restore();
		}
	}, 30000);
});
