#!/usr/bin/env node
'use strict';
/**
 * Trigger throughput benchmark (a script, not a test): the Web Data Trigger beside n8n's own
 * Webhook node, in the real `n8n start` (2.41.1 from .cache/, see test/e2e/install.sh), loopback only.
 *
 *   npm run bench:trigger                (builds, then node test/bench/trigger-throughput.js)
 *   node test/bench/trigger-throughput.js --deliveries 500 --concurrency 20 --rounds 3
 *   node test/bench/trigger-throughput.js --package <dir>   (a package folder with package.json + dist/)
 *   node test/bench/trigger-throughput.js --n8n-env N8N_EXPRESSION_ENGINE=legacy   (n8n settings, both alike)
 *
 * Set-up (helpers of the e2e trigger phase, test/e2e/lib): the built package is copied where n8n
 * looks for community packages (registering only the credential and the trigger node); the fake API with a webhook signing secret; `n8n start`; owner,
 * API key, credentials; two active workflows, each a lone trigger:
 *   builtin   n8n-nodes-base.webhook v2, POST, Respond "Immediately"
 *   webdata   Web Data Trigger, "Create a Monitor for This Workflow", credential WITH the signing
 *             secret: every delivery carries the activation's secret token and a valid
 *             X-Firecrawl-Signature, and has its own webhookId (no de-dup short cut).
 * Each round fires N deliveries at concurrency C at one workflow, waits until n8n has finished every
 * execution, then does the same at the other (the order alternates per round), after a warm-up of
 * 50 each. Every delivery must be answered 200 — the Web Data Trigger with {"received":true} — and
 * start one execution (counted through n8n's public API at the end).
 * Printed per round and as medians: deliveries/s (N / wall time), p50/p95 latency, the ratio
 * webdata/builtin. Environment: BENCH_CPU_PROF=<dir> runs n8n with --cpu-prof into <dir>.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const proc = require(path.join(ROOT, 'test/e2e/lib/proc'));
const { n8nEnv, freePort } = require(path.join(ROOT, 'test/e2e/lib/n8n'));
const { Phase, TOKEN_HEADER } = require(path.join(ROOT, 'test/e2e/lib/trigger-phase'));

const args = process.argv.slice(2);
const opt = (name, fallback) => {
	const i = args.indexOf(name);
	return i >= 0 ? args[i + 1] : fallback;
};
const N = Number(opt('--deliveries', 500));
const C = Number(opt('--concurrency', 20));
const ROUNDS = Number(opt('--rounds', 3));
const WARMUP = Number(opt('--warmup', 50));
const PACKAGE = path.resolve(opt('--package', ROOT));
if (!(N > 0 && N <= 5000 && C > 0 && C <= 100 && ROUNDS > 0 && ROUNDS <= 20)) {
	console.error('bounds: 1 ≤ deliveries ≤ 5000, 1 ≤ concurrency ≤ 100, 1 ≤ rounds ≤ 20');
	process.exit(2);
}
const CACHE = path.join(ROOT, '.cache');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	const m = s.length >> 1;
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const pct = (xs, p) => {
	const s = [...xs].sort((a, b) => a - b);
	return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

const BUILTIN_WORKFLOW = (webhookId) => ({
	name: 'Bench: built-in Webhook',
	nodes: [
		{
			parameters: { httpMethod: 'POST', path: `bench-builtin-${webhookId.slice(0, 8)}`, responseMode: 'onReceived', options: {} },
			id: crypto.randomUUID(),
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId,
		},
	],
	connections: {},
	settings: { executionOrder: 'v1' },
});

const WEBDATA_WORKFLOW = (webhookId) => ({
	name: 'Bench: Web Data Trigger',
	nodes: [
		{
			parameters: {
				connection: 'create',
				events: ['monitor.page', 'monitor.check.completed'],
				monitorName: 'Bench monitor',
				urls: 'https://bench.example.com/a',
				scheduleType: 'text',
				scheduleText: 'hourly',
				timezone: 'UTC',
				runCheckWhenListening: false,
			},
			id: crypto.randomUUID(),
			name: 'Web Data Trigger',
			type: 'n8n-nodes-webdata.webDataTrigger',
			typeVersion: 1,
			position: [0, 0],
			webhookId,
			credentials: { webDataApi: { id: 'x', name: 'x' } },
		},
	],
	connections: {},
	settings: { executionOrder: 'v1' },
});

/** One monitor.page envelope per delivery, signed like the service signs it (api-facts 3). */
function deliveries(count, monitorId, token, secret) {
	const out = [];
	for (let i = 0; i < count; i++) {
		const raw = JSON.stringify({
			success: true,
			type: 'monitor.page',
			id: crypto.randomUUID(),
			webhookId: crypto.randomUUID(),
			data: [{ monitorId, checkId: crypto.randomUUID(), url: `https://bench.example.com/p${i}`, status: 'changed', statusCode: 200, diff: { text: '-a\n+b' }, judgment: null }],
			metadata: {},
		});
		out.push({
			raw,
			headers: {
				'content-type': 'application/json',
				'content-length': String(Buffer.byteLength(raw)),
				[TOKEN_HEADER]: token,
				'X-Firecrawl-Signature': `sha256=${crypto.createHmac('sha256', secret).update(raw).digest('hex')}`,
			},
		});
	}
	return out;
}

/** Fires `list` at `url` with `concurrency` requests in flight; resolves {ms, latencies, statuses, bodies}. */
async function fire(url, list, concurrency) {
	const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
	const target = new URL(url);
	const latencies = [];
	const statuses = {};
	const bodies = {};
	let next = 0;
	const one = (d) =>
		new Promise((resolve) => {
			const t0 = process.hrtime.bigint();
			const req = http.request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: d.headers, agent }, (res) => {
				const chunks = [];
				res.on('data', (c) => chunks.push(c));
				res.on('end', () => {
					latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
					statuses[res.statusCode] = (statuses[res.statusCode] || 0) + 1;
					const body = Buffer.concat(chunks).toString('utf8');
					bodies[body] = (bodies[body] || 0) + 1;
					resolve();
				});
			});
			req.on('error', (e) => {
				statuses[e.code || 'error'] = (statuses[e.code || 'error'] || 0) + 1;
				resolve();
			});
			req.end(d.raw);
		});
	const t0 = Date.now();
	await Promise.all(
		Array.from({ length: Math.min(concurrency, list.length) }, async () => {
			while (next < list.length) await one(list[next++]);
		}),
	);
	const ms = Date.now() - t0;
	agent.destroy();
	return { ms, latencies, statuses, bodies };
}

async function main() {
	for (const need of [path.join(CACHE, 'node24', 'bin', 'node'), path.join(CACHE, 'n8n-host', 'node_modules', 'n8n', 'bin', 'n8n')]) {
		if (!fs.existsSync(need)) throw new Error(`${path.relative(ROOT, need)} is missing: run "bash test/e2e/install.sh" first`);
	}
	const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE, 'package.json'), 'utf8'));
	for (const f of pkg.n8n.nodes) if (!fs.existsSync(path.join(PACKAGE, f))) throw new Error(`${f} is missing in ${PACKAGE}: run "npm run build" first`);

	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'webdata-bench-trigger-'));
	const userFolder = path.join(tmp, 'user');
	const target = path.join(userFolder, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-webdata');
	fs.mkdirSync(target, { recursive: true });
	// Only the credential and the trigger are registered: the benchmark measures the trigger, and so a
	// half-finished resource of the regular node (work in progress) cannot stop n8n from starting.
	const trimmed = { ...pkg, n8n: { ...pkg.n8n, nodes: pkg.n8n.nodes.filter((f) => f.includes('WebDataTrigger')) } };
	fs.writeFileSync(path.join(target, 'package.json'), JSON.stringify(trimmed, null, 2));
	fs.cpSync(path.join(PACKAGE, 'dist'), path.join(target, 'dist'), { recursive: true });

	const [port, brokerPort] = [await freePort(), await freePort()];
	const ctx = {
		nodeDir: path.join(CACHE, 'node24'),
		hostDir: path.join(CACHE, 'n8n-host'),
		workDir: tmp,
		env: n8nEnv({ nodeDir: path.join(CACHE, 'node24'), userFolder, encryptionKey: 'webdata-bench-encryption-key-01', port, brokerPort }),
	};
	const phase = new Phase({
		root: ROOT,
		tmp,
		ctx,
		apiKey: `wd-bench-${crypto.randomBytes(8).toString('hex')}`,
		record: () => {},
		captured: [],
		timings: [],
		substitute: (text) => text,
		oneLine: (t) => String(t).replace(/\s+/g, ' ').slice(0, 300),
	});
	phase.extraEnv = { N8N_LOG_LEVEL: 'warn' };
	// --n8n-env KEY=VALUE (repeatable): n8n settings for both workflows alike, e.g. N8N_EXPRESSION_ENGINE=legacy.
	args.forEach((a, i) => {
		if (a !== '--n8n-env') return;
		const [k, ...v] = String(args[i + 1]).split('=');
		if (!/^N8N_[A-Z0-9_]+$/.test(k)) throw new Error(`--n8n-env takes N8N_…=value (got ${args[i + 1]})`);
		phase.extraEnv[k] = v.join('=');
	});
	if (process.env.BENCH_CPU_PROF) {
		fs.mkdirSync(process.env.BENCH_CPU_PROF, { recursive: true });
		phase.nodeArgs = ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`];
	}
	try {
		console.log(`# n8n 2.41.1 (n8n start, sqlite), package from ${path.relative(process.cwd(), PACKAGE) || '.'}${Object.keys(phase.extraEnv).length > 1 ? `, ${Object.entries(phase.extraEnv).filter(([k]) => k !== 'N8N_LOG_LEVEL').map(([k, v]) => `${k}=${v}`).join(' ')}` : ''}; ${N} deliveries at concurrency ${C}, ${ROUNDS} rounds (+ warm-up ${WARMUP}); ${os.cpus().length} CPUs`);
		await phase.setup();
		const item = (wf) => ({ text: JSON.stringify(wf), base: wf.name });
		const builtinWf = BUILTIN_WORKFLOW(crypto.randomUUID());
		const builtin = { id: (await phase.api('POST', '/workflows', builtinWf)).id, wf: builtinWf, url: `${phase.base}/webhook/${builtinWf.nodes[0].parameters.path}` };
		const webdata = await phase.createWorkflow(item(WEBDATA_WORKFLOW(crypto.randomUUID())), {}, phase.credentials.signed);
		webdata.url = webdata.productionUrl;
		await phase.api('POST', `/workflows/${builtin.id}/activate`);
		await phase.api('POST', `/workflows/${webdata.id}/activate`);
		const monitor = await phase.until(async () => (await phase.monitorsAtFake())[0], 'the monitor of the Web Data Trigger');
		const token = monitor.webhook.headers[TOKEN_HEADER];
		for (const w of [builtin, webdata]) {
			await phase.until(async () => (await phase.postToN8n(w.url, '{}', {})).status !== 404, `${w.wf.name} to be served`);
		}
		// The probes above started an execution of the built-in workflow (and none of ours: 401).
		const make = (count) => deliveries(count, monitor.id, token, phase.signingSecret);

		const idle = async () => {
			await phase.until(async () => ((await phase.api('GET', '/executions?status=running&limit=1')).data || []).length === 0, 'n8n to finish its executions', 120000);
			await sleep(500);
		};
		const contenders = { builtin, webdata };
		const results = { builtin: [], webdata: [] };
		const round = async (name, count, label) => {
			const list = make(count);
			const from = process.hrtime.bigint() / 1000n;
			const r = await fire(contenders[name].url, list, C);
			await idle();
			// Monotonic µs, the clock of V8's CPU profiles: lets a profile be split by round.
			if (process.env.BENCH_CPU_PROF) console.log(`# window ${name} ${label} ${from} ${process.hrtime.bigint() / 1000n}`);
			const line = {
				rate: (count / r.ms) * 1000,
				p50: pct(r.latencies, 50),
				p95: pct(r.latencies, 95),
				statuses: r.statuses,
				bodies: r.bodies,
			};
			if (label) {
				console.log(
					`${label} ${name.padEnd(8)} ${line.rate.toFixed(1).padStart(6)} deliveries/s  p50 ${line.p50.toFixed(0).padStart(5)} ms  p95 ${line.p95.toFixed(0).padStart(5)} ms  answers ${JSON.stringify(r.statuses)} ${Object.keys(r.bodies).map((b) => b.slice(0, 60)).join(' | ')}`,
				);
			}
			return line;
		};
		await round('builtin', WARMUP, '# warm-up');
		await round('webdata', WARMUP, '# warm-up');
		for (let i = 1; i <= ROUNDS; i++) {
			const order = i % 2 ? ['webdata', 'builtin'] : ['builtin', 'webdata'];
			for (const name of order) results[name].push(await round(name, N, `round ${i}`));
		}

		// Every delivery answered 200 (ours with the small JSON body) and started one execution.
		const problems = [];
		for (const [name, rs] of Object.entries(results)) {
			for (const r of rs) {
				if (r.statuses[200] !== N) problems.push(`${name}: answers ${JSON.stringify(r.statuses)}`);
				if (name === 'webdata' && r.bodies['{"received":true}'] !== N) problems.push(`webdata: bodies ${JSON.stringify(r.bodies).slice(0, 200)}`);
			}
		}
		const countExecutions = async (workflowId) => {
			let n = 0;
			let cursor;
			do {
				const page = await phase.api('GET', `/executions?workflowId=${workflowId}&limit=250${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
				n += (page.data || []).length;
				cursor = page.nextCursor;
			} while (cursor);
			return n;
		};
		const executed = await countExecutions(webdata.id);
		const expected = WARMUP + ROUNDS * N;
		if (executed !== expected) problems.push(`webdata: ${executed} executions for ${expected} deliveries`);

		const summary = (name) => ({
			rate: median(results[name].map((r) => r.rate)),
			p50: median(results[name].map((r) => r.p50)),
			p95: median(results[name].map((r) => r.p95)),
		});
		const b = summary('builtin');
		const w = summary('webdata');
		console.log('');
		console.log(`medians of ${ROUNDS} rounds          deliveries/s   p50 ms   p95 ms`);
		console.log(`n8n Webhook node (built-in)   ${b.rate.toFixed(1).padStart(12)} ${b.p50.toFixed(0).padStart(8)} ${b.p95.toFixed(0).padStart(8)}`);
		console.log(`Web Data Trigger (signed)     ${w.rate.toFixed(1).padStart(12)} ${w.p50.toFixed(0).padStart(8)} ${w.p95.toFixed(0).padStart(8)}`);
		console.log(`ratio Web Data / built-in     ${(w.rate / b.rate).toFixed(2).padStart(12)}`);
		console.log(`executions of the Web Data Trigger workflow: ${executed} for ${expected} deliveries`);
		if (problems.length) {
			console.log(`FAILED: ${problems.join('; ')}`);
			process.exitCode = 1;
		}
	} finally {
		await phase.stopN8n();
		await proc.stopAll();
		if (!process.env.BENCH_KEEP_TMP) fs.rmSync(tmp, { recursive: true, force: true });
		else console.log(`# kept ${tmp}`);
	}
}

main().catch(async (e) => {
	console.error(e.stack || e.message);
	await proc.stopAll();
	process.exit(1);
});
