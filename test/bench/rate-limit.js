#!/usr/bin/env node
'use strict';
/**
 * Rate-limit benchmark (a script, not a test): many input items against a service that allows R
 * requests per second, with the Web Data node's default settings, side by side with the official
 * node's behaviour (every item's request sent at once, no retry: a 429 fails the item).
 *
 *   npm run bench:rate-limit            (builds, then node test/bench/rate-limit.js)
 *   node test/bench/rate-limit.js --rounds 5 --only scrape
 *
 * Scenarios (issue 9 and issue 11.1):
 *   scrape: 100 items → Scrape URL (defaults) against 10 requests/s, honest Retry-After (whole seconds
 *           until a slot frees up), 50 ms service latency. Ideal: 100 / 10 = 10 s.
 *   parse:  8 files → Parse File (default concurrency 3) against 1 request/s answered with
 *           `429 Retry-After: 2`. Ideal: 8 / 1 = 8 s.
 * The rate limit is the fake API's sliding window (test/fake-api/faults.js RateLimiter): at most R
 * accepted requests in any second. The node runs in n8n's engine (n8n-core WorkflowExecute) exactly
 * as in the integration tests. Rounds alternate the two contenders; medians are printed.
 *
 * "Inside a window" = a request that reached the service after a 429 had been answered (plus 5 ms for
 * a request already on its way) and before that 429's Retry-After had passed (test/helpers/rate-windows.js).
 */
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const { startFakeApi } = require(path.join(ROOT, 'test/fake-api/server'));
const { runWorkflow } = require(path.join(ROOT, 'test/helpers/workflow-runner'));
const { webDataWorkflow, WEB_DATA } = require(path.join(ROOT, 'test/helpers/workflows'));
const { requestsInsideWindows } = require(path.join(ROOT, 'test/helpers/rate-windows'));

const args = process.argv.slice(2);
const opt = (name, fallback) => {
	const i = args.indexOf(name);
	return i >= 0 ? args[i + 1] : fallback;
};
const ROUNDS = Number(opt('--rounds', 3));
const ONLY = opt('--only');
const KEY = 'bench-key';
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'report.pdf');

const SCENARIOS = [
	{
		name: 'scrape',
		title: '100 items → Scrape URL, service allows 10 requests/s (honest Retry-After), 50 ms latency',
		items: 100,
		rate: 10,
		limit: { limit: 10, windowMs: 1000, path: '/v2/scrape' },
		latencyMs: 50,
		route: { method: 'POST', path: '/v2/scrape' },
		parameters: { resource: 'scrape', operation: 'scrapeUrl', url: '={{ $json.url }}' },
		item: (i) => ({ json: { url: `https://example.com/page-${i}` } }),
		rawBody: (i) => JSON.stringify({ url: `https://example.com/page-${i}` }),
		rawType: 'application/json',
	},
	{
		name: 'parse',
		title: '8 files → Parse File, service allows 1 request/s and answers 429 with Retry-After: 2',
		items: 8,
		rate: 1,
		limit: { limit: 1, windowMs: 1000, retryAfter: 2, path: '/v2/parse' },
		latencyMs: 0,
		route: { method: 'POST', path: '/v2/parse' },
		parameters: { resource: 'parse', operation: 'parseFile' },
		item: (i) => ({ json: {}, binary: { data: { path: FIXTURE, fileName: `file-${i}.pdf` } } }),
		rawBody: null, // built per request below
		rawType: null,
	},
];

const median = (values) => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted.length ? sorted[Math.floor(sorted.length / 2)] : NaN;
};

function prepare(api, scenario) {
	api.reset();
	api.rateLimit(scenario.limit);
	if (scenario.latencyMs) api.fault({ ...scenario.route, delayMs: scenario.latencyMs, times: 1e9 });
}

function summarize(api, scenario, ms, failed) {
	const log = api.requests(scenario.route);
	const { inside } = requestsInsideWindows(log);
	return {
		ms,
		failed,
		requests: log.length,
		limited: log.filter((r) => r.status === 429).length,
		inside: inside.length,
	};
}

/** The Web Data node, default settings, in n8n's engine. */
async function runNode(api, scenario) {
	prepare(api, scenario);
	const items = Array.from({ length: scenario.items }, (_, i) => scenario.item(i));
	const started = Date.now();
	const result = await runWorkflow(webDataWorkflow(scenario.parameters, items), {
		credentials: { webDataApi: { apiKey: KEY, baseUrl: api.url } },
	});
	const ms = Date.now() - started;
	const ok = result.status === 'success' ? result.items(WEB_DATA).filter((it) => !it.json.error).length : 0;
	if (result.status !== 'success') console.log(`#   node run failed: ${result.error?.message ?? result.status}`);
	return summarize(api, scenario, ms, scenario.items - ok);
}

/** The official node's behaviour: one request per item, all at once, no retry. */
async function runAllAtOnce(api, scenario) {
	prepare(api, scenario);
	const started = Date.now();
	const answers = await Promise.all(
		Array.from({ length: scenario.items }, async (_, i) => {
			let body = scenario.rawBody?.(i);
			let type = scenario.rawType;
			if (!body) {
				const form = new FormData();
				const bytes = require('fs').readFileSync(FIXTURE);
				form.append('file', new Blob([bytes], { type: 'application/pdf' }), `file-${i}.pdf`);
				body = form;
				type = undefined;
			}
			const headers = { authorization: `Bearer ${KEY}` };
			if (type) headers['content-type'] = type;
			const res = await fetch(`${api.url}${scenario.route.path}`, { method: 'POST', headers, body });
			await res.arrayBuffer();
			return res.status;
		}),
	);
	const ms = Date.now() - started;
	return summarize(api, scenario, ms, answers.filter((s) => s !== 200).length);
}

const CONTENDERS = [
	{ name: 'Web Data node (defaults)', run: runNode },
	{ name: 'all at once, no retry (official node)', run: runAllAtOnce },
];

async function main() {
	const api = await startFakeApi({ apiKey: KEY });
	console.log(`# rate-limit benchmark: ${ROUNDS} rounds per scenario, contenders alternating; Node ${process.version}`);
	try {
		for (const scenario of SCENARIOS.filter((s) => !ONLY || s.name === ONLY)) {
			const ideal = (scenario.items / scenario.rate) * 1000;
			console.log(`\n## ${scenario.title}\n# ideal: ${scenario.items} / ${scenario.rate} per s = ${(ideal / 1000).toFixed(1)} s`);
			const runs = new Map(CONTENDERS.map((c) => [c.name, []]));
			for (let round = 0; round < ROUNDS; round++) {
				const order = round % 2 === 0 ? CONTENDERS : [...CONTENDERS].reverse();
				for (const contender of order) {
					const r = await contender.run(api, scenario);
					runs.get(contender.name).push(r);
					console.log(
						`# round ${round + 1} ${contender.name}: ${(r.ms / 1000).toFixed(2)} s, failed items ${r.failed}, requests ${r.requests} (429: ${r.limited}), inside a Retry-After window: ${r.inside}`,
					);
				}
			}
			console.log('| contender | wall time (median) | × ideal | failed items (median) | requests | 429s | requests inside a Retry-After window (max) |');
			console.log('|---|---|---|---|---|---|---|');
			for (const [name, list] of runs) {
				const ms = median(list.map((r) => r.ms));
				console.log(
					`| ${name} | ${(ms / 1000).toFixed(2)} s | ${(ms / ideal).toFixed(2)} | ${median(list.map((r) => r.failed))} | ${median(list.map((r) => r.requests))} | ${median(list.map((r) => r.limited))} | ${Math.max(...list.map((r) => r.inside))} |`,
				);
			}
		}
	} finally {
		await api.close();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
