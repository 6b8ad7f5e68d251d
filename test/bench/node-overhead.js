#!/usr/bin/env node
'use strict';
/**
 * Node overhead benchmark (a script, not a test; issue 15.5): N Scrape URL requests through the Web
 * Data node in n8n's engine (n8n-core WorkflowExecute, test/helpers/workflow-runner.js, default
 * settings: concurrency 5) beside the same N requests sent with undici at the same concurrency,
 * against a service that answers at once. What is left over is the node's cost per item (item
 * pairing, parameter reading, validation, output shaping, the pool, the pace) plus n8n's request
 * helper, which the node has to use.
 *
 *   npm run bench:overhead               (builds, then node test/bench/node-overhead.js)
 *   node test/bench/node-overhead.js --items 100,1000,10000 --rounds 3
 *   BENCH_CPU_PROF=<dir> node test/bench/node-overhead.js --items 10000 --rounds 1   (CPU profile)
 *
 * The service is a tiny HTTP server in a child process (overhead-service.js, so its work does not
 * share the event loop with the contenders), answering every POST /v2/scrape with one fixed Document at once (spec 4.2
 * shape: markdown + metadata). Contenders per round, order alternating, medians of the rounds:
 *   node   the workflow Manual Trigger → Test Items (N URLs) → Web Data (Scrape URL, URL from the
 *          item). Timed: the Web Data node's own execution time as n8n records it (runData
 *          executionTime), and the whole workflow's wall time.
 *   helper the floor any n8n node pays: a bare stand-in node (below) in the same workflow that reads
 *          the same URL expression per item and sends the same request with n8n's request helper
 *          (this.helpers.httpRequestWithAuthentication, which the Web Data node must use too: node
 *          code may not bring its own HTTP client), 5 at a time, one paired item per answer. No
 *          validation, options, pace or output shaping: node − helper is the Web Data node's own cost.
 *   undici undici.request (keep-alive pool of the same width) POSTing the same JSON body with the
 *          bearer header, C requests in flight at a time, each answer's JSON parsed.
 * Per-item cost = time / N; "flat" means the cost per item at 10,000 is about that at 100.
 */
const { fork } = require('child_process');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');

const { Agent, request } = require('undici');
const { runWorkflow, nodeTypes } = require(path.join(ROOT, 'test/helpers/workflow-runner'));
const { webDataWorkflow, WEB_DATA } = require(path.join(ROOT, 'test/helpers/workflows'));

const args = process.argv.slice(2);
const opt = (name, fallback) => {
	const i = args.indexOf(name);
	return i >= 0 ? args[i + 1] : fallback;
};
const SIZES = String(opt('--items', '100,1000,10000')).split(',').map(Number);
const ROUNDS = Number(opt('--rounds', 3));
const CONCURRENCY = 5; // the node's default (Scrape URL → Options → Concurrency)
const KEY = 'bench-key';

const median = (values) => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted.length ? sorted[Math.floor(sorted.length / 2)] : NaN;
};
const url = (i) => `https://example.com/page-${i}`;

async function startService() {
	const child = fork(path.join(__dirname, 'overhead-service.js'), [], { stdio: 'inherit' });
	const { port } = await new Promise((resolve) => child.once('message', resolve));
	return { url: `http://127.0.0.1:${port}`, close: () => child.kill() };
}

/** The floor: n8n's expression per item and n8n's request helper, nothing else. */
class HelperOnly {
	constructor() {
		this.description = {
			displayName: 'Helper Only',
			name: 'helperOnly',
			group: ['transform'],
			version: 1,
			description: 'One POST /v2/scrape per item with n8n’s request helper (benchmark floor)',
			defaults: { name: 'Helper Only' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: 'webDataApi', required: true }],
			properties: [{ displayName: 'URL', name: 'url', type: 'string', default: '' }],
		};
	}

	async execute() {
		const items = this.getInputData();
		const { baseUrl } = await this.getCredentials('webDataApi');
		const out = new Array(items.length);
		let next = 0;
		const worker = async () => {
			while (next < items.length) {
				const i = next++;
				const body = { url: this.getNodeParameter('url', i) };
				const answer = await this.helpers.httpRequestWithAuthentication.call(this, 'webDataApi', {
					method: 'POST',
					url: `${baseUrl}/v2/scrape`,
					body,
					json: true,
				});
				out[i] = { json: { url: body.url, ...answer.data }, pairedItem: { item: i } };
			}
		};
		await Promise.all(Array.from({ length: CONCURRENCY }, worker));
		return [out];
	}
}
nodeTypes.register('bench.helperOnly', new HelperOnly());

function workflowFor(contender, n) {
	const items = Array.from({ length: n }, (_, i) => ({ json: { url: url(i) } }));
	const workflow = webDataWorkflow({ resource: 'scrape', operation: 'scrapeUrl', url: '={{ $json.url }}' }, items);
	if (contender === 'helper') {
		const node = workflow.nodes.find((x) => x.name === WEB_DATA);
		node.type = 'bench.helperOnly';
		node.parameters = { url: '={{ $json.url }}' };
	}
	return workflow;
}

async function runNode(service, n, contender = 'node') {
	const workflow = workflowFor(contender, n);
	const started = process.hrtime.bigint();
	const result = await runWorkflow(workflow, { credentials: { webDataApi: { apiKey: KEY, baseUrl: service.url } } });
	const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
	if (result.status !== 'success') throw new Error(`${contender} run failed: ${result.error?.message}`);
	const out = result.items(WEB_DATA);
	if (out.length !== n || out[n - 1].json.url !== url(n - 1) || out[n - 1].pairedItem?.item !== n - 1) {
		throw new Error(`${contender}: the output is not one paired item per input`);
	}
	const nodeMs = result.runData[WEB_DATA][0].executionTime;
	return { ms: nodeMs, wallMs };
}

async function runUndici(service, n) {
	const dispatcher = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 60_000 });
	const started = process.hrtime.bigint();
	let next = 0;
	let ok = 0;
	const worker = async () => {
		while (next < n) {
			const i = next++;
			const res = await request(`${service.url}/v2/scrape`, {
				method: 'POST',
				dispatcher,
				headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
				body: JSON.stringify({ url: url(i) }),
			});
			const json = await res.body.json();
			if (res.statusCode === 200 && json.success) ok++;
		}
	};
	await Promise.all(Array.from({ length: CONCURRENCY }, worker));
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	await dispatcher.close();
	if (ok !== n) throw new Error(`undici: ${n - ok} of ${n} failed`);
	return { ms, wallMs: ms };
}

async function main() {
	const service = await startService();
	console.log(`# node-overhead benchmark: ${ROUNDS} rounds per size, contenders alternating, concurrency ${CONCURRENCY}; Node ${process.version}`);
	try {
		// Warm-up (JIT, n8n-core's first-run setup), not counted.
		await runNode(service, 200);
		await runNode(service, 200, 'helper');
		await runUndici(service, 200);
		const rows = [];
		for (const n of SIZES) {
			const names = ['node', 'helper', 'undici'];
			const runs = { node: [], helper: [], undici: [] };
			for (let round = 0; round < ROUNDS; round++) {
				// Rotate the order, so no contender always runs first.
				const order = names.map((_, k) => names[(k + round) % names.length]);
				for (const name of order) {
					const r = name === 'undici' ? await runUndici(service, n) : await runNode(service, n, name);
					runs[name].push(r);
					console.log(`# ${n} items, round ${round + 1}, ${name}: ${r.ms.toFixed(0)} ms${name !== 'undici' ? ` (workflow wall ${r.wallMs.toFixed(0)} ms)` : ''}`);
				}
			}
			const med = (name, key = 'ms') => median(runs[name].map((r) => r[key]));
			rows.push({ n, node: med('node'), wall: med('node', 'wallMs'), helper: med('helper'), raw: med('undici') });
		}
		console.log('| items | undici | per item | n8n helper floor | per item | Web Data node | per item | node × undici | node × floor | node − floor per item | workflow wall (node) |');
		console.log('|---|---|---|---|---|---|---|---|---|---|---|');
		for (const { n, node, wall, helper, raw } of rows) {
			const per = (ms) => `${((ms / n) * 1000).toFixed(0)} µs`;
			console.log(
				`| ${n.toLocaleString('en')} | ${raw.toFixed(0)} ms | ${per(raw)} | ${helper.toFixed(0)} ms | ${per(helper)} | ${node.toFixed(0)} ms | ${per(node)} | ${(node / raw).toFixed(2)} | ${(node / helper).toFixed(2)} | ${per(node - helper)} | ${wall.toFixed(0)} ms |`,
			);
		}
	} finally {
		service.close();
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
