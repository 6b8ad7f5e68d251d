#!/usr/bin/env node
'use strict';
/**
 * Rate-limit benchmark (a script, not a test): many input items against a service that allows R
 * requests per second, with the Web Data node's default settings, side by side with the official
 * node's behaviour twice: with its defaults (every item's request sent at once, no retry: a 429
 * fails the item) and with its Batching option set by hand to R items per 1000 ms.
 *
 *   npm run bench:rate-limit            (builds, then node test/bench/rate-limit.js)
 *   node test/bench/rate-limit.js --rounds 5 --only scrape-10
 *   node test/bench/rate-limit.js --serial   (scenarios one after another; default: side by side)
 *   node test/bench/rate-limit.js --only scrape-10,scrape-2,parse   (these, one after another)
 *   node test/bench/rate-limit.js --only scrape-50-1000 --rounds 1 --node-only --trace
 *     (--node-only: the Web Data node alone; --trace: where its time went, per round)
 *
 * Scenarios (issues 9, 11.1 and 15.2): Scrape URL (defaults: concurrency 5) against R requests/s,
 * honest Retry-After (whole seconds until a slot frees up), 50 ms service latency, for 100 and 1,000
 * items at 10/s, 100 at 2/s and 1,000 at 50/s (also with Options → Concurrency 20, the most it
 * allows: the rest of the node's settings stay default); Parse File (default concurrency 3), 8 files against
 * 1 request/s answered with `429 Retry-After: 2`. Ideal: items / R seconds.
 * The rate limit is the fake API's sliding window (test/fake-api/faults.js RateLimiter): at most R
 * accepted requests in any second. The node runs in n8n's engine (n8n-core WorkflowExecute) exactly
 * as in the integration tests. Rounds alternate the contenders (rotating order); medians are printed.
 * Without --only, every scenario runs in its own child process, all at the same time, each against
 * its own fake API: they are bound by the rate limits, not by the CPU (a few requests per 100 ms).
 *
 * "Hand-set batching" is not the official node itself: it is what n8n's HTTP Request node does with
 * Options → Batching (Items per Batch N, Batch Interval T ms), simulated faithfully: for item i,
 * when i > 0 and i is a multiple of N it first waits T ms; each item's request is sent without
 * waiting for the previous answers; no retry (Retry On Fail is off by default), so a 429 fails the item.
 *
 * "Arrived inside a window" = a request that reached the service after a 429 had been answered (plus
 * 5 ms for a request already on its way) and before that 429's Retry-After had passed. "Sent inside a
 * window" = those of them that were sent after the client had read that 429 (counted per window:
 * arrivals inside it beyond the requests sent before the read that had not arrived yet), which is
 * what a client controls; a request sent before the 429 was read can still arrive late on a busy
 * machine (test/helpers/rate-windows.js). For the node the sends are its pace's turns; for the
 * official node, the moments its requests are sent and its 429s are read.
 */
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const { startFakeApi } = require(path.join(ROOT, 'test/fake-api/server'));
const { runWorkflow } = require(path.join(ROOT, 'test/helpers/workflow-runner'));
const { webDataWorkflow, WEB_DATA } = require(path.join(ROOT, 'test/helpers/workflows'));
const { requestsInsideWindows, watchPace, arrivalsNotExplained } = require(path.join(ROOT, 'test/helpers/rate-windows'));
const { Pace } = require(path.join(ROOT, 'dist/nodes/WebData/transport/pace'));

const args = process.argv.slice(2);
const opt = (name, fallback) => {
	const i = args.indexOf(name);
	return i >= 0 ? args[i + 1] : fallback;
};
const ROUNDS = Number(opt('--rounds', 3));
const TRACE = args.includes('--trace');
const NODE_ONLY = args.includes('--node-only');
const ONLY = opt('--only');
const KEY = 'bench-key';
const FIXTURE = path.join(ROOT, 'test', 'fixtures', 'report.pdf');

/** Scrape URL with default settings against a service that allows `rate` requests/s. */
const scrape = (items, rate, concurrency) => ({
	name: `scrape-${rate}${items === 100 ? '' : `-${items}`}${concurrency ? `-c${concurrency}` : ''}`,
	title: `${items.toLocaleString('en')} items → Scrape URL${concurrency ? ` with Concurrency ${concurrency}` : ''}, service allows ${rate} requests/s (honest Retry-After), 50 ms latency`,
	items,
	rate,
	limit: { limit: rate, windowMs: 1000, path: '/v2/scrape' },
	latencyMs: 50,
	route: { method: 'POST', path: '/v2/scrape' },
	parameters: { resource: 'scrape', operation: 'scrapeUrl', url: '={{ $json.url }}', ...(concurrency ? { options: { concurrency } } : {}) },
	item: (i) => ({ json: { url: `https://example.com/page-${i}` } }),
	rawBody: (i) => JSON.stringify({ url: `https://example.com/page-${i}` }),
	rawType: 'application/json',
});

const SCENARIOS = [
	scrape(100, 10),
	scrape(1000, 10),
	scrape(100, 2),
	scrape(1000, 50),
	// The default Concurrency 5 sends a window's 50 in about 0.6 s; the most the option allows
	// (not in the default set: run it with --only).
	{ ...scrape(1000, 50, 20), extra: true },
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

/**
 * Requests sent after the client had read a 429, arriving inside that 429's window. The official
 * node's requests carry their item number (x-bench-item), so they are matched exactly: `client` is
 * { sent: [send time per item], read: [429 read time per item] }. The node's requests cannot be told
 * apart at the fake, so its turns and holds are counted per window (arrivalsNotExplained).
 */
function sentInsideWindows(log, client) {
	if (!client.sent) return arrivalsNotExplained(log, client).reduce((sum, b) => sum + b.excess, 0);
	const item = (r) => r.headers['x-bench-item'];
	const windows = log
		.filter((r) => r.status === 429 && r.answeredAt && r.retryAfterMs)
		.map((r) => ({ seq: r.seq, from: r.answeredAt, to: r.answeredAt + r.retryAfterMs, readAt: client.read[item(r)] ?? Infinity }));
	return log.filter((r) => windows.some((w) => r.seq !== w.seq && r.at > w.from && r.at < w.to && client.sent[item(r)] > w.readAt)).length;
}

function summarize(api, scenario, ms, failed, client) {
	const log = api.requests(scenario.route);
	const { inside } = requestsInsideWindows(log);
	return {
		ms,
		failed,
		requests: log.length,
		limited: log.filter((r) => r.status === 429).length,
		inside: inside.length,
		sentInside: sentInsideWindows(log, client),
	};
}

const pace = watchPace(Pace);

/** The Web Data node, default settings, in n8n's engine. */
async function runNode(api, scenario) {
	prepare(api, scenario);
	pace.reset();
	const items = Array.from({ length: scenario.items }, (_, i) => scenario.item(i));
	const started = Date.now();
	const result = await runWorkflow(webDataWorkflow(scenario.parameters, items), {
		credentials: { webDataApi: { apiKey: KEY, baseUrl: api.url } },
	});
	const ms = Date.now() - started;
	const ok = result.status === 'success' ? result.items(WEB_DATA).filter((it) => !it.json.error).length : 0;
	if (result.status !== 'success') console.log(`#   node run failed: ${result.error?.message ?? result.status}`);
	if (TRACE) trace(api, scenario, started, ms);
	return summarize(api, scenario, ms, scenario.items - ok, pace);
}

/**
 * --trace: where the node's time went against the hand-set batching's (items/R - 1 s + one answer):
 * before the first 429 was read, the holds, the pace's windows (first turn to first turn of the
 * next R), idle gaps between turns, and the turn-to-arrival delay at the service (sorted order).
 */
function trace(api, scenario, started, ms) {
	const log = api.requests(scenario.route);
	const rel = (t) => ((t - started) / 1000).toFixed(3);
	const turns = [...pace.turns].sort((a, b) => a - b);
	const arrivals = log.map((r) => r.at).sort((a, b) => a - b);
	const holds = pace.holds.map((h) => `${rel(h.from)}→${rel(h.to)} (sent ${h.sentAt === undefined ? '?' : h.from - h.sentAt} ms before)`);
	console.log(`# trace: ${ms} ms; batching ideal ${(scenario.items / scenario.rate - 1) * 1000 + (scenario.latencyMs || 0)} ms; first turn ${rel(turns[0])}; holds ${holds.slice(0, 8).join(', ')}${holds.length > 8 ? ` … (${holds.length})` : ''}`);
	const accepted = log.filter((r) => r.status !== 429).map((r) => r.at).sort((a, b) => a - b);
	const R = scenario.rate;
	const spans = [];
	for (let k = R; k < accepted.length; k += R) spans.push(accepted[k] - accepted[k - R]);
	const gaps = [];
	for (let k = 1; k < turns.length; k++) if (turns[k] - turns[k - 1] > 200) gaps.push(`${rel(turns[k - 1])}+${turns[k] - turns[k - 1]}`);
	const delays = turns.map((t, k) => (arrivals[k] ?? t) - t).sort((a, b) => a - b);
	const q = (list, f) => list[Math.min(list.length - 1, Math.floor(f * list.length))];
	console.log(`#   accepted arrivals: first ${rel(accepted[0])}, last ${rel(accepted[accepted.length - 1])}; R-th to R-th (ms): min ${Math.min(...spans)}, median ${q([...spans].sort((a, b) => a - b), 0.5)}, max ${Math.max(...spans)}, sum of excess over 1000 ${spans.reduce((s, x) => s + Math.max(0, x - 1000), 0)}`);
	console.log(`#   turn→arrival (ms): p0 ${delays[0]}, p50 ${q(delays, 0.5)}, p90 ${q(delays, 0.9)}, p99 ${q(delays, 0.99)}, max ${delays[delays.length - 1]}; idle gaps > 200 ms: ${gaps.slice(0, 10).join(', ') || 'none'}`);
	const state = pace.last?.state;
	if (state) console.log(`#   pace at the end: limit ${state.limit}, window ${state.windowMs.toFixed(1)} ms`);
	console.log(`#   last accepted answer ${rel(Math.max(...log.filter((r) => r.status !== 429).map((r) => r.answeredAt)))}; 429 arrivals: ${log.filter((r) => r.status === 429).map((r) => rel(r.at)).join(', ')}`);
}

/** One request of the official node for item i: no retry, the status is the outcome. */
async function sendRaw(api, scenario, i, client) {
	let body = scenario.rawBody?.(i);
	let type = scenario.rawType;
	if (!body) {
		const form = new FormData();
		const bytes = require('fs').readFileSync(FIXTURE);
		form.append('file', new Blob([bytes], { type: 'application/pdf' }), `file-${i}.pdf`);
		body = form;
		type = undefined;
	}
	const headers = { authorization: `Bearer ${KEY}`, 'x-bench-item': String(i) };
	if (type) headers['content-type'] = type;
	client.sent[i] = Date.now();
	const res = await fetch(`${api.url}${scenario.route.path}`, { method: 'POST', headers, body });
	if (res.status === 429) client.read[i] = Date.now();
	await res.arrayBuffer();
	return res.status;
}

/** The official node's defaults: one request per item, all at once, no retry. */
async function runAllAtOnce(api, scenario) {
	prepare(api, scenario);
	const started = Date.now();
	const client = { sent: [], read: [] };
	const answers = await Promise.all(Array.from({ length: scenario.items }, async (_, i) => await sendRaw(api, scenario, i, client)));
	const ms = Date.now() - started;
	return summarize(api, scenario, ms, answers.filter((s) => s !== 200).length, client);
}

/**
 * The official node with Options → Batching set by hand to R items per 1000 ms, as n8n's HTTP
 * Request node does it: before item i (i > 0, a multiple of R) wait 1000 ms; never wait for answers.
 */
async function runBatched(api, scenario) {
	prepare(api, scenario);
	const size = scenario.rate;
	const intervalMs = 1000;
	const started = Date.now();
	const pending = [];
	const client = { sent: [], read: [] };
	for (let i = 0; i < scenario.items; i++) {
		if (i > 0 && i % size === 0) await new Promise((resolve) => setTimeout(resolve, intervalMs));
		pending.push(sendRaw(api, scenario, i, client));
	}
	const answers = await Promise.all(pending);
	const ms = Date.now() - started;
	return summarize(api, scenario, ms, answers.filter((s) => s !== 200).length, client);
}

const CONTENDERS = [
	{ name: 'Web Data node (defaults)', run: runNode },
	{ name: 'official node, Batching set by hand (R per 1000 ms)', run: runBatched },
	{ name: 'official node, defaults (all at once, no retry)', run: runAllAtOnce },
];

async function runScenario(api, scenario) {
	const ideal = (scenario.items / scenario.rate) * 1000;
	const out = [`\n## ${scenario.title}\n# ideal: ${scenario.items} / ${scenario.rate} per s = ${(ideal / 1000).toFixed(1)} s`];
	const log = (line) => {
		out.push(line);
		if (ONLY) console.log(line);
	};
	if (ONLY) console.log(out[0]);
	const runs = new Map(CONTENDERS.map((c) => [c.name, []]));
	for (let round = 0; round < ROUNDS; round++) {
		// Rotate the order, so no contender always runs first.
		const order = CONTENDERS.map((_, k) => CONTENDERS[(k + round) % CONTENDERS.length]).filter((c) => !NODE_ONLY || c.run === runNode);
		for (const contender of order) {
			const r = await contender.run(api, scenario);
			runs.get(contender.name).push(r);
			log(
				`# round ${round + 1} ${contender.name}: ${(r.ms / 1000).toFixed(2)} s, failed items ${r.failed}, requests ${r.requests} (429: ${r.limited}), inside a Retry-After window: arrived ${r.inside}, sent ${r.sentInside}`,
			);
		}
	}
	const batched = median(runs.get(CONTENDERS[1].name).map((r) => r.ms));
	log('| contender | wall time (median) | × ideal | × hand-set batching | failed items (median) | requests | 429s | sent inside a Retry-After window (max) | arrived inside one (max) |');
	log('|---|---|---|---|---|---|---|---|---|');
	for (const [name, list] of runs) {
		const ms = median(list.map((r) => r.ms));
		log(
			`| ${name} | ${(ms / 1000).toFixed(2)} s | ${(ms / ideal).toFixed(2)} | ${(ms / batched).toFixed(3)} | ${median(list.map((r) => r.failed))} | ${median(list.map((r) => r.requests))} | ${median(list.map((r) => r.limited))} | ${Math.max(...list.map((r) => r.sentInside))} | ${Math.max(...list.map((r) => r.inside))} |`,
		);
	}
	log(`# single rounds (s): ${[...runs].map(([name, list]) => `${name.split(',')[0]}${name.includes('Batching') ? ' batching' : name.includes('defaults (all') ? ' defaults' : ''}: ${list.map((r) => (r.ms / 1000).toFixed(2)).join(', ')}`).join('; ')}`);
	return out.join('\n');
}

/** Every scenario in its own child process, side by side; their reports are printed in order. */
async function runSideBySide() {
	const { execFile } = require('child_process');
	const scenarios = SCENARIOS.filter((s) => !s.extra).map((s) => s.name);
	const pass = args.filter((a, i) => a !== '--serial' && args[i - 1] !== '--only' && a !== '--only');
	const reports = await Promise.all(
		scenarios.map(
			(name) =>
				new Promise((resolve, reject) =>
					execFile(process.execPath, [__filename, ...pass, '--only', name, '--quiet'], { maxBuffer: 1 << 26 }, (error, stdout, stderr) =>
						error ? reject(new Error(`${name}: ${error.message}\n${stderr}`)) : resolve(stdout),
					),
				),
		),
	);
	for (const report of reports) process.stdout.write(report);
}

async function main() {
	const header = `# rate-limit benchmark: ${ROUNDS} rounds per scenario, contenders rotating; Node ${process.version}`;
	if (!ONLY && !args.includes('--serial')) {
		console.log(`${header}; scenarios side by side, one process each`);
		return await runSideBySide();
	}
	if (!args.includes('--quiet')) console.log(header);
	const api = await startFakeApi({ apiKey: KEY });
	try {
		for (const scenario of SCENARIOS.filter((s) => (ONLY ? ONLY.split(',').includes(s.name) : !s.extra))) {
			const report = await runScenario(api, scenario);
			if (!ONLY) console.log(report);
		}
	} finally {
		await api.close();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
