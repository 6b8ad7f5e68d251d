#!/usr/bin/env node
'use strict';
/*
 * Queue-mode end-to-end suite: this package in n8n 2.41.1's distributed mode.
 *
 *   1. bash test/e2e/install.sh (Node 24 + n8n in .cache/) and bash test/e2e/queue/install.sh
 *      (PostgreSQL and Redis from Debian packages), each skipped when present
 *   2. PostgreSQL (initdb in a throwaway folder, as the postgres user when run as root: postgres
 *      refuses root) and redis-server (--save '') on free loopback ports
 *   3. the package from `npm pack`, untarred into each n8n process's own user folder
 *      (community package, as test/e2e/run.js does)
 *   4. n8n processes, all with EXECUTIONS_MODE=queue, DB_TYPE=postgresdb, the same Redis and the
 *      same N8N_ENCRYPTION_KEY:
 *        main       `n8n start` (runs the migrations, so it starts first), N8N_DISABLE_PRODUCTION_MAIN_PROCESS=true:
 *                   production webhooks are served only by the webhook processes
 *        worker-1/2 `n8n worker --concurrency=5`, QUEUE_HEALTH_CHECK_ACTIVE=true (readiness endpoint)
 *        webhook-1/2 `n8n webhook`
 *      and a loopback round-robin HTTP proxy in this process in front of webhook-1/2: WEBHOOK_URL of
 *      every process points at it, so the URLs n8n registers (the trigger's monitor webhook) lead
 *      to both webhook processes in turn. The proxy records which process answered each request.
 *   5. owner, API key, credentials and workflows through main's REST / public API
 *   6. workflows run by a worker: each one in WORKFLOWS below is the example with its Manual
 *      Trigger replaced by a Webhook node of the same name (POST, respond immediately); it is
 *      activated and called through the proxy, the webhook process enqueues it, a worker runs it.
 *      The execution is read back with GET /api/v1/executions/:id?includeData=true and handed to
 *      the example's own check (test/e2e/checks/<name>.js, as in the main e2e suite); the worker
 *      that ran it is found in the workers' logs ("Worker started execution <id>").
 *   7. the Web Data Trigger across processes (examples/queue-mode/trigger-once-per-delivery.json:
 *      the trigger, an atomic claim of each delivery in Redis (n8n's Redis node, INCR) and an IF
 *      that lets only the first claim on to "Change report"; signed deliveries; n8n's Remove
 *      Duplicates node "Once per delivery" added on a second branch for comparison): activation
 *      registers one monitor (not one per process), deliveries of a check reach both webhook
 *      processes, forged deliveries → 401 on each webhook process and no execution, deactivation
 *      deletes the monitor once. De-duplication: the trigger's own lives in each process's memory
 *      (n8n 2.41 gives webhook code no shared store), so a retry on the other webhook process starts
 *      a second execution: asserted as measured (20 deliveries × 3 copies alternating → exactly 2
 *      executions each, the third copy answered "duplicate"), and with the trigger's path routed to
 *      one process, exactly 1 execution per delivery. The Redis claim lets every delivery reach
 *      "Change report" exactly once: with copies sent as the service retries (each after the
 *      previous copy's executions ended) and with all 3 copies sent at the same moment to both
 *      processes. Remove Duplicates is only asserted to lose no delivery: its history is a
 *      read-then-update per workflow, and executions recording at the same moment on two workers
 *      overwrite each other (measured: 21 passes for 20 deliveries in 2 of 3 runs with copies
 *      spaced; 23 for 20 with copies at once). Executions per delivery: "# MEASURED" lines.
 *   7b. Source "Job Events" (examples/queue-mode/trigger-on-crawl-page-once-per-delivery.json: the
 *      trigger with a Token, the same Redis claim and IF as the monitor example, then "Page summary";
 *      its events widened to batch_scrape.* and agent.* too): activation registers nothing; then for a
 *      crawl, a batch scrape and an agent run (JOB_KINDS, one shared jobKindProofs()) at the fake with
 *      their webhook on the proxy's production URL + ?token= → their deliveries reach both webhook
 *      processes, one execution per selected delivery on workers, one item per page, "Page summary"
 *      once each (the crawl also passes the single-process example's check); forged deliveries → 401
 *      on each webhook process and no execution; the service's retries of a page (agent: the
 *      agent.completed) delivery and copies of 10 deliveries (alternating, and all at once) → 2
 *      executions per delivery with copies alternating (as for monitor events) and "Page summary"
 *      exactly once per delivery.
 *   8. Agent, Crawl and Batch Scrape → Run and Wait with "Resume on Completion Webhook"
 *      (test/e2e/workflows/agent-run-and-resume.json behind a Webhook trigger, "Run agent" set up per
 *      kind by RESUME_KINDS; Batch Scrape gets 4 items from a Split Out of the webhook's body), one
 *      shared resumeStep(): started through a webhook process, the first part runs on a worker and the
 *      execution waits with no status read; forged resume calls → 401 on each webhook process; the
 *      job's signed <kind>.completed comes through the proxy and a worker runs the rest with the job
 *      read once (agent 1 read, crawl its status then 7 pages in 3, batch its status then 4 pages in 2) and the right items; 3 late
 *      copies sent at once → 409 and nothing runs again. Then (skipped with QUEUE_E2E_RESTART=0) the
 *      agent resume with every n8n process stopped while it waits, the run ending while they are down
 *      (the delivery fails) and all five started again: the service's retry (1 min, 12 s at the
 *      fake's time scale 5; then 5 min = 60 s) resumes it.
 *   8b. a credit budget across a resume on another worker (test/e2e/queue/budget-resume.json, a credential
 *      with Credit Budget per Execution 8): Scrape (1 credit) → Crawl → Run and Wait "Resume on
 *      Completion Webhook" with Page Limit 50 → the crawl starts with limit 7 and the saved waiting
 *      execution's custom data holds the 7 for the job; the worker that ran the first part is stopped
 *      and the crawl's completion webhook (held back at the fake until then) resumes it on the other
 *      worker: total 1 + the crawl's reported creditsUsed (Code node: $execution.customData), no hold
 *      left, the pages say the limit was lowered, and a follow-up Scrape is refused with nothing sent;
 *      the stopped worker is started again.
 *   9. everything stopped (n8n, Redis, Postgres, the fake, the proxy), also on failure or Ctrl-C;
 *      the canary API key must appear in nothing n8n printed or returned.
 * Output: "ok - …" / "not ok - …: reason" per test, "# …" diagnostics, last line "N passed, N failed";
 * exit 1 when anything failed. Plain CommonJS under the system Node; n8n runs under .cache/node24.
 * Environment: QUEUE_E2E_KEEP_TMP=1 keeps the temp dir (logs of every process are there);
 * QUEUE_E2E_N8N_LOG_LEVEL=debug; QUEUE_E2E_ONLY=<part>[,<part>…] runs only those parts (examples, trigger =
 * monitor events, jobs = job events, resume = agent, crawl and batch scrape resume, budget = the credit
 * budget across a resume on another worker); QUEUE_E2E_RESTART=0 skips the restart proof; QUEUE_E2E_TARBALL=<file.tgz> installs that package instead of `npm pack`.
 * Build first (`npm run build`). How to add a workflow: see README.md next to this file.
 */
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');

const proc = require('../lib/proc');
const { startFake, fakeClient } = require('../lib/fake');
const { freePort, n8nEnv } = require('../lib/n8n');
const { secs, oneLine, reporter } = require('../lib/report');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const CACHE = path.join(ROOT, '.cache');
const NODE_DIR = path.join(CACHE, 'node24');
const HOST_DIR = path.join(CACHE, 'n8n-host');
const N8N_BIN = path.join(HOST_DIR, 'node_modules', 'n8n', 'bin', 'n8n');
const PACKAGE_NAME = 'n8n-nodes-webdata';
const TRIGGER_TYPE = `${PACKAGE_NAME}.webDataTrigger`;
const TOKEN_HEADER = 'X-WebData-Trigger-Token';
const SIGNATURE_HEADER = 'X-Firecrawl-Signature';
const READY_TIMEOUT_MS = 240000; // five n8n processes on two cores start slowly
const API_KEY_SCOPES = [
	'workflow:create', 'workflow:read', 'workflow:update', 'workflow:delete', 'workflow:list',
	'workflow:activate', 'workflow:deactivate', 'execution:read', 'execution:list', 'credential:create',
];

/**
 * Workflows run by a worker: examples/<name>.json checked by test/e2e/checks/<name>.js.
 * `trigger`: the name of the node to replace with a Webhook node (the example's Manual Trigger).
 */
const WORKFLOWS = [
	{ name: 'parse-pdf-to-markdown', trigger: 'manual' },
	{ name: 'agent-run-and-wait', trigger: 'manual' },
	{ name: 'monitor-run-and-read-changes', trigger: 'manual' },
];
const TRIGGER_WORKFLOW = 'queue-mode/trigger-once-per-delivery'; // examples/<this>.json
const JOBS_WORKFLOW = 'queue-mode/trigger-on-crawl-page-once-per-delivery'; // examples/<this>.json

const report = reporter();
const { captured, timings, record } = report;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const sign = (secret, raw) => `sha256=${crypto.createHmac('sha256', secret).update(raw).digest('hex')}`;

async function step(name, fn, details) {
	const t0 = Date.now();
	try {
		const note = await fn();
		const ms = Date.now() - t0;
		timings.push([name, ms]);
		record(`${name} (${secs(ms)})${note ? ` — ${note}` : ''}`, true);
		return true;
	} catch (e) {
		const reason = e.code === 'ERR_ASSERTION' ? e.message.split('\n')[0] : e.message;
		record(name, false, reason, details ? details() : undefined);
		return false;
	}
}

async function until(fn, what, timeoutMs = 30000, everyMs = 200) {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await fn();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`timed out after ${secs(timeoutMs)} waiting for ${what}`);
		await sleep(everyMs);
	}
}

// ---- services ---------------------------------------------------------------------------------
function runCommand(cmd, args, opts = {}) {
	return proc.run(cmd, args, { timeoutMs: 120000, ...opts });
}

/** A long-running child whose output goes to `logFile`; resolves the child. */
function startLogged(name, cmd, args, { env, cwd, logFile }) {
	const child = proc.start(cmd, args, { env, cwd });
	const log = fs.createWriteStream(logFile, { flags: 'a' });
	const chunks = [];
	const keep = (d) => {
		log.write(d);
		chunks.push(d.toString('utf8'));
	};
	child.stdout.on('data', keep);
	child.stderr.on('data', keep);
	child.once('exit', (code, signal) => log.end(`[${name} exited: code ${code}, signal ${signal}]\n`));
	child.output = () => chunks.join('');
	child.label = name;
	return child;
}

const asPostgres = (cmd, args) => (process.getuid && process.getuid() === 0 ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]);

async function startPostgres(tmp, pgBin) {
	const dir = path.join(tmp, 'pg');
	fs.mkdirSync(dir, { mode: 0o700 });
	if (process.getuid && process.getuid() === 0) {
		fs.chmodSync(tmp, 0o755);
		await runCommand('chown', ['-R', 'postgres:postgres', dir]);
	}
	const [c1, a1] = asPostgres(path.join(pgBin, 'initdb'), ['-D', path.join(dir, 'data'), '-U', 'n8n', '--auth=trust', '-E', 'UTF8', '--no-instructions', '--no-sync']);
	const init = await runCommand(c1, a1, { logFile: path.join(tmp, 'postgres.log') });
	if (init.code !== 0) throw new Error(`initdb failed (exit ${init.code}): ${proc.tail(init.stdout + init.stderr, 10)}`);
	const port = await freePort();
	const [c2, a2] = asPostgres(path.join(pgBin, 'postgres'), [
		'-D', path.join(dir, 'data'), '-h', '127.0.0.1', '-p', String(port), '-k', dir,
		'-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=200',
	]);
	const child = startLogged('postgres', c2, a2, { env: process.env, cwd: dir, logFile: path.join(tmp, 'postgres.log') });
	await until(async () => {
		if (child.exitCode !== null) throw new Error(`postgres exited early: ${proc.tail(child.output(), 10)}`);
		return /ready to accept connections/.test(child.output());
	}, 'postgres to accept connections', 60000);
	return { child, port };
}

async function startRedis(tmp) {
	const dir = path.join(tmp, 'redis');
	fs.mkdirSync(dir);
	const port = await freePort();
	const child = startLogged('redis', 'redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], {
		env: process.env,
		cwd: dir,
		logFile: path.join(tmp, 'redis.log'),
	});
	await until(async () => {
		if (child.exitCode !== null) throw new Error(`redis-server exited early: ${proc.tail(child.output(), 10)}`);
		return /Ready to accept connections/i.test(child.output());
	}, 'redis to accept connections', 30000);
	return { child, port };
}

/** Round-robin HTTP proxy on loopback; `log` holds {n, backend, method, url, status}. */
function startProxy(backends) {
	const log = [];
	let next = 0;
	const server = http.createServer((req, res) => {
		const n = log.length;
		const backend = backends[next++ % backends.length];
		const entry = { n, backend: backend.name, method: req.method, url: req.url, status: undefined };
		log.push(entry);
		const out = http.request({ host: '127.0.0.1', port: backend.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
			entry.status = r.statusCode;
			res.writeHead(r.statusCode, r.headers);
			r.pipe(res);
		});
		out.on('error', (e) => {
			entry.status = 502;
			if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
			res.end(`proxy: ${e.message}`);
		});
		req.pipe(out);
	});
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: server.address().port, log })));
}

// ---- main ----------------------------------------------------------------------------------------
async function main() {
	const t0 = Date.now();
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'webdata-queue-e2e-'));
	console.log(`# temp dir ${tmp}`);
	const children = {};
	let proxy;
	let cleanedUp = false;
	const cleanup = async () => {
		if (cleanedUp) return;
		cleanedUp = true;
		// n8n first (they hold DB and Redis connections), then Redis, then Postgres (SIGINT: fast shutdown).
		const n8ns = Object.values(children).filter((c) => c && c.label?.startsWith('n8n'));
		for (const c of n8ns) proc.killGroup(c, 'SIGTERM');
		await Promise.race([Promise.all(n8ns.map((c) => (c.exitCode !== null || c.signalCode !== null ? null : new Promise((r) => c.once('exit', r))))), sleep(15000)]);
		if (children.redis) proc.killGroup(children.redis, 'SIGTERM');
		if (children.postgres) proc.killGroup(children.postgres, 'SIGINT');
		await sleep(500);
		await proc.stopAll(5000);
		if (proxy) proxy.server.close();
		if (!process.env.QUEUE_E2E_KEEP_TMP) fs.rmSync(tmp, { recursive: true, force: true });
	};
	process.once('SIGINT', () => cleanup().then(() => process.exit(130)));
	process.once('SIGTERM', () => cleanup().then(() => process.exit(143)));
	process.once('exit', () => proc.killAllSync());

	try {
		await run(tmp, children, (p) => (proxy = p));
	} catch (e) {
		record('queue suite set-up', false, e.message, e.details);
	} finally {
		const tc = Date.now();
		await cleanup();
		timings.push(['stop everything', Date.now() - tc]);
	}
	const leaked = captured.filter((c) => c.text && c.text.includes(canaryKey)).map((c) => c.source);
	record('queue: the API key appears in nothing n8n printed or returned', leaked.length === 0, `found in ${leaked.join(', ')}`);
	console.log('# timings:');
	for (const [name, ms] of timings) console.log(`#   ${secs(ms).padStart(7)}  ${name}`);
	console.log(`# queue suite wall time: ${secs(Date.now() - t0)}`);
	process.exitCode = report.summary() ? 1 : 0;
}

const canaryKey = `fc-queue-canary-${crypto.randomBytes(12).toString('hex')}`;

async function run(tmp, children, setProxy) {
	// 1. installs
	let t = Date.now();
	for (const script of [path.join(ROOT, 'test', 'e2e', 'install.sh'), path.join(__dirname, 'install.sh')]) {
		const r = await runCommand('bash', [script], { cwd: ROOT, logFile: path.join(tmp, 'install.log'), timeoutMs: 20 * 60 * 1000 });
		if (r.code !== 0) throw Object.assign(new Error(`${path.relative(ROOT, script)} failed (exit ${r.code})`), { details: proc.tail(r.stdout + r.stderr, 20) });
	}
	const ready = fs.readFileSync(path.join(tmp, 'install.log'), 'utf8').match(/\[queue install\] ready: postgres ([^\s,]+)/);
	const pgBin = ready[1];
	timings.push(['install scripts', Date.now() - t]);

	// 2. services
	t = Date.now();
	const [pg, redis] = await Promise.all([startPostgres(tmp, pgBin), startRedis(tmp)]);
	children.postgres = pg.child;
	children.redis = redis.child;
	const signingSecret = `queue-signing-${crypto.randomBytes(12).toString('hex')}`;
	const fakeApi = await startFake({ root: ROOT, apiKey: canaryKey, logFile: path.join(tmp, 'fake-api.log'), args: ['--signing-secret', signingSecret, '--time-scale', '5'] });
	children.fake = fakeApi.child;
	const fake = fakeClient(fakeApi.url); // the trigger's: signs deliveries, runs checks 5× faster
	// The examples' checks expect the fake's real-time pace (e.g. agent polls at 1 s and 3 s): a second fake.
	const plainFakeApi = await startFake({ root: ROOT, apiKey: canaryKey, logFile: path.join(tmp, 'fake-api-plain.log') });
	children.plainFake = plainFakeApi.child;
	const plainFake = fakeClient(plainFakeApi.url);
	timings.push(['postgres + redis + fake API', Date.now() - t]);
	console.log(`# postgres 127.0.0.1:${pg.port}, redis 127.0.0.1:${redis.port}, fake ${fakeApi.url}`);

	// 3. the package
	t = Date.now();
	let tarball = process.env.QUEUE_E2E_TARBALL; // a given package tarball instead of `npm pack` (diagnostics)
	if (tarball) console.log(`# package from QUEUE_E2E_TARBALL=${tarball}`);
	else {
		const pack = await runCommand('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], { cwd: ROOT });
		if (pack.code !== 0) throw new Error(`npm pack failed: ${proc.tail(pack.stderr, 5)}`);
		tarball = path.join(tmp, fs.readdirSync(tmp).find((f) => f.endsWith('.tgz')));
	}
	const names = ['main', 'worker-1', 'worker-2', 'webhook-1', 'webhook-2'];
	for (const name of names) {
		const target = path.join(tmp, name, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
		fs.mkdirSync(target, { recursive: true });
		const x = await runCommand('tar', ['xzf', tarball, '-C', target, '--strip-components=1']);
		if (x.code !== 0) throw new Error(`untar failed: ${x.stderr}`);
		if (!fs.existsSync(path.join(target, 'dist', 'nodes', 'WebDataTrigger', 'WebDataTrigger.node.js'))) throw new Error('the package is not built: run "npm run build" first');
	}
	timings.push(['npm pack + untar ×5', Date.now() - t]);

	// 4. n8n processes
	const proxyBackends = [{ name: 'webhook-1', port: await freePort() }, { name: 'webhook-2', port: await freePort() }];
	const proxy = await startProxy(proxyBackends);
	setProxy(proxy);
	const proxyBase = `http://127.0.0.1:${proxy.port}`;
	const encryptionKey = crypto.randomBytes(24).toString('hex');
	const mainPort = await freePort();
	const base = `http://127.0.0.1:${mainPort}`;
	const common = {
		EXECUTIONS_MODE: 'queue',
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(pg.port),
		DB_POSTGRESDB_DATABASE: 'postgres',
		DB_POSTGRESDB_USER: 'n8n',
		DB_POSTGRESDB_PASSWORD: '',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		WEBHOOK_URL: `${proxyBase}/`,
		N8N_WEBHOOK_URL: `${proxyBase}/`,
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '5',
		EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
	};
	const envOf = async (name, port) => ({
		...n8nEnv({ nodeDir: NODE_DIR, userFolder: path.join(tmp, name), encryptionKey, port, brokerPort: await freePort() }),
		...common,
		...(process.env.QUEUE_E2E_N8N_LOG_LEVEL ? { N8N_LOG_LEVEL: process.env.QUEUE_E2E_N8N_LOG_LEVEL } : {}),
	});
	const startN8n = async (name, args, port, extra = {}) => {
		const env = { ...(await envOf(name, port)), ...extra };
		const child = startLogged(`n8n ${name}`, path.join(NODE_DIR, 'bin', 'node'), [N8N_BIN, ...args], { env, cwd: tmp, logFile: path.join(tmp, `n8n-${name}.log`) });
		children[name] = child;
		return child;
	};
	const readiness = async (child, url) => {
		const t1 = Date.now();
		await until(async () => {
			if (child.exitCode !== null || child.signalCode !== null) throw Object.assign(new Error(`${child.label} exited early (code ${child.exitCode})`), { details: proc.tail(child.output(), 25) });
			try {
				return (await fetch(url)).ok;
			} catch {
				return false;
			}
		}, `${child.label} at ${url}`, READY_TIMEOUT_MS, 500);
		return Date.now() - t1;
	};

	const workerPorts = [await freePort(), await freePort()];
	/** Starts worker-1 or worker-2; resolves [child, readiness URL]. */
	const startWorker = async (name) => {
		const port = workerPorts[['worker-1', 'worker-2'].indexOf(name)];
		const child = await startN8n(name, ['worker', '--concurrency=5'], await freePort(), { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(port), N8N_WORKER_SERVER_ADDRESS: '127.0.0.1' });
		return [child, `http://127.0.0.1:${port}/healthz/readiness`];
	};
	// Main first (it migrates the database), then the workers and webhook processes in parallel.
	const startProcesses = async () => {
		const t0 = Date.now();
		const mainChild = await startN8n('main', ['start'], mainPort);
		const mainMs = await readiness(mainChild, `${base}/healthz/readiness`);
		const others = [
			await startWorker('worker-1'),
			await startWorker('worker-2'),
			[await startN8n('webhook-1', ['webhook'], proxyBackends[0].port), `http://127.0.0.1:${proxyBackends[0].port}/healthz/readiness`],
			[await startN8n('webhook-2', ['webhook'], proxyBackends[1].port), `http://127.0.0.1:${proxyBackends[1].port}/healthz/readiness`],
		];
		const otherMs = await Promise.all(others.map(([c, u]) => readiness(c, u)));
		return { ms: Date.now() - t0, mainMs, otherMs };
	};
	/** Stops the named n8n processes, every one by default (SIGTERM, SIGKILL after 20 s); Postgres, Redis, the fake and the proxy stay. */
	const stopProcesses = async (which = names) => {
		const list = which.map((n) => children[n]).filter((c) => c && c.exitCode === null && c.signalCode === null);
		for (const c of list) proc.killGroup(c, 'SIGTERM');
		const gone = () => list.every((c) => c.exitCode !== null || c.signalCode !== null);
		const deadline = Date.now() + 20000;
		while (!gone() && Date.now() < deadline) await sleep(100);
		for (const c of list) proc.killGroup(c, 'SIGKILL');
		while (!gone()) await sleep(100);
	};

	t = Date.now();
	const up = await startProcesses();
	timings.push(['n8n main, then 2 workers + 2 webhook processes in parallel, ready', Date.now() - t]);
	record(`queue: n8n main, 2 workers and 2 webhook processes ready on Postgres + Redis (${secs(up.ms)}: main ${secs(up.mainMs)}, others ${up.otherMs.map(secs).join(', ')})`, true);
	const n8nOut = () => names.map((n) => `--- ${n}\n${proc.tail(children[n]?.output() ?? '', 8)}`).join('\n');

	// 5. owner, API key, credentials
	const rest = async (method, route, body, headers = {}, at = base) => {
		const res = await fetch(`${at}${route}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
		const text = await res.text();
		captured.push({ source: `${method} ${route}`, text });
		let json;
		try {
			json = text ? JSON.parse(text) : undefined;
		} catch {
			json = text;
		}
		return { status: res.status, json, text, headers: res.headers };
	};
	const owner = await rest('POST', '/rest/owner/setup', { email: 'queue-owner@example.com', firstName: 'Queue', lastName: 'Owner', password: `Q-${crypto.randomBytes(8).toString('hex')}-Pw1` });
	const cookie = (owner.headers.get('set-cookie') || '').split(';')[0];
	if (owner.status !== 200 || !cookie) throw new Error(`owner setup answered ${owner.status}: ${oneLine(owner.text)}`);
	const key = await rest('POST', '/rest/api-keys', { label: 'queue-e2e', scopes: API_KEY_SCOPES, expiresAt: null }, { cookie });
	const apiKeyN8n = key.json?.data?.rawApiKey;
	if (!apiKeyN8n) throw new Error(`creating an API key answered ${key.status}: ${oneLine(key.text)}`);
	const api = async (method, route, body) => {
		const r = await rest(method, `/api/v1${route}`, body, { 'X-N8N-API-KEY': apiKeyN8n });
		if (r.status < 200 || r.status >= 300) throw new Error(`public API ${method} ${route} answered ${r.status}: ${oneLine(r.text)}`);
		return r.json;
	};
	const credential = async (name, webhookSecret, baseUrl = fake.url) => ({ id: (await api('POST', '/credentials', { name, type: 'webDataApi', data: { apiKey: canaryKey, baseUrl, webhookSecret } })).id, name });
	const plainCred = await credential('Web Data (queue)', '', plainFake.url);
	const signedCred = await credential('Web Data (queue, signed)', signingSecret);

	const createWorkflow = async (wf, cred) => {
		for (const node of wf.nodes) if (node.type.startsWith(`${PACKAGE_NAME}.`)) node.credentials = { webDataApi: { id: cred.id, name: cred.name } };
		const created = await api('POST', '/workflows', { name: `${wf.name} (queue e2e)`, nodes: wf.nodes, connections: wf.connections, settings: { executionOrder: 'v1' } });
		return created.id;
	};
	const executions = async (workflowId) => {
		const list = await api('GET', `/executions?workflowId=${encodeURIComponent(workflowId)}&includeData=true&limit=250`);
		captured.push({ source: `executions of ${workflowId}`, text: JSON.stringify(list) });
		return (list.data || []).sort((a, b) => Number(a.id) - Number(b.id));
	};
	const finished = (e) => e.finished || ['success', 'error', 'crashed', 'canceled'].includes(e.status);
	/** How many times each worker logged "Worker started execution <id> (" (a resumed execution: once per part). */
	const startsPerWorker = (executionId) => ['worker-1', 'worker-2'].map((w) => [w, children[w].output().split(`Worker started execution ${executionId} (`).length - 1]);
	/** The workers that ran (part of) an execution. */
	const workerOf = (executionId) => startsPerWorker(executionId).filter(([, n]) => n > 0).map(([w]) => w);
	/** How many times workers started an execution in all. */
	const startsOf = (executionId) => startsPerWorker(executionId).reduce((sum, [, n]) => sum + n, 0);
	const activate = async (id, probeUrl) => {
		await api('POST', `/workflows/${id}/activate`);
		// A GET to a POST webhook: n8n answers 404 "…not registered for GET requests. Did you mean to
		// make a POST request?" once it knows the webhook (and 404 "…is not registered" before).
		if (probeUrl)
			await until(
				async () => {
					const r = await fetch(probeUrl).catch(() => undefined);
					return r && (r.status !== 404 || /POST request/.test(await r.text()));
				},
				`the webhook ${probeUrl} to be served`,
				60000,
				300,
			);
	};

	// 6. workflows run by a worker
	const workerCount = { 'worker-1': 0, 'worker-2': 0 };
	// QUEUE_E2E_ONLY=<part>[,<part>…] runs only those parts: examples, trigger (monitor events), jobs (job events), resume (agent, crawl, batch scrape), budget
	const only = process.env.QUEUE_E2E_ONLY ? process.env.QUEUE_E2E_ONLY.split(',').map((p) => p.trim()) : undefined;
	const want = (part) => !only || only.includes(part);
	for (const w of want('examples') ? WORKFLOWS : []) {
		await step(`queue: examples/${w.name} runs on a worker (Webhook trigger → webhook process → Redis → worker) and passes its e2e check`, async () => {
			const check = require(path.join(ROOT, 'test', 'e2e', 'checks', `${w.name}.js`));
			const wf = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', `${w.name}.json`), 'utf8'));
			const manual = wf.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
			assert.ok(manual, `examples/${w.name}.json has no Manual Trigger to replace`);
			const hookPath = `queue-${w.name}-${crypto.randomBytes(4).toString('hex')}`;
			Object.assign(manual, { type: 'n8n-nodes-base.webhook', typeVersion: 2, parameters: { httpMethod: 'POST', path: hookPath, responseMode: 'onReceived', options: {} }, webhookId: crypto.randomUUID() });
			await plainFake.reset();
			const vars = { ...(check.vars || {}), ...((typeof check.before === 'function' && (await check.before(plainFake, check.vars || {}))) || {}) };
			const id = await createWorkflow(wf, plainCred);
			const url = `${proxyBase}/webhook/${hookPath}`;
			await activate(id, url);
			const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
			assert.equal(res.status, 200, `the webhook answered ${res.status}`);
			const [e] = await until(async () => {
				const list = await executions(id);
				return list.length && list.every(finished) ? list : undefined;
			}, 'the execution to finish', 120000, 500);
			const all = await executions(id);
			assert.equal(all.length, 1, `one execution (got ${all.length})`);
			const ran = workerOf(e.id);
			assert.equal(ran.length, 1, `exactly one worker logged "Worker started execution ${e.id}" (got ${ran.join(', ') || 'none'})`);
			workerCount[ran[0]]++;
			await check({ output: e, outputSource: 'public API', exitCode: e.status === 'success' ? 0 : 1, stdout: '', stderr: '', fake: plainFake, vars, apiKey: canaryKey, workflow: wf });
			await api('POST', `/workflows/${id}/deactivate`);
			return `execution ${e.id} (${e.mode}, ${e.status}) ran on ${ran[0]}`;
		}, n8nOut);
	}

	// 7. the trigger across processes: monitor events, then job events (both claim deliveries in database 1 of the suite's Redis)
	const redisCred = want('trigger') || want('jobs') ? await api('POST', '/credentials', { name: 'Redis (queue e2e, db 1)', type: 'redis', data: { host: '127.0.0.1', port: redis.port, password: '', user: '', database: 1, ssl: false } }) : undefined;
	if (want('trigger')) await triggerProofs({ fake, api, createWorkflow, executions, finished, workerOf, redisCred, proxy, proxyBase, proxyBackends, signingSecret, signedCred, n8nOut, activate });
	if (want('jobs')) await jobEventsProofs({ fake, api, createWorkflow, executions, finished, workerOf, redisCred, proxy, proxyBase, proxyBackends, signingSecret, signedCred, n8nOut });

	// 8. Agent, Crawl and Batch Scrape → Run and Wait, "Resume on Completion Webhook", through the webhook processes
	if (want('resume')) await resumeProof({ fake, api, createWorkflow, executions, workerOf, startsOf, proxy, proxyBase, proxyBackends, signingSecret, signedCred, n8nOut, activate, stopProcesses, startProcesses });

	// 8b. A credit budget kept across a resume on another worker (issue 35.4)
	const restartWorker = async (name) => readiness(...(await startWorker(name)));
	if (want('budget')) await budgetResumeProof({ fake, api, createWorkflow, executions, startsPerWorker, proxy, proxyBase, signingSecret, n8nOut, activate, stopProcesses, restartWorker });
	console.log(`# executions per worker (worker-run examples): ${JSON.stringify(workerCount)}`);
}

/**
 * Run and Wait with Wait Method "Resume on Completion Webhook", per job kind: the node "Run agent" of
 * test/e2e/workflows/agent-run-and-resume.json set up for that kind. `params(tag)`: the node's
 * parameters (merged into the agent's, or with `replace` instead of them); `urls`: the start URLs
 * (Batch Scrape: one per item, split out of the webhook's body); `end(fake, jobId)`: ends the job
 * (else it ends by itself); `reads`: status reads of the ended job (3 documents per status page);
 * `items(items, jobId, urls)`: checks the resumed output.
 */
const RESUME_KINDS = {
	agent: {
		label: 'Agent',
		prefix: 'agent',
		startPath: '/v2/agent',
		events: ['completed', 'failed', 'cancelled'],
		// The run lasts an hour at the fake: the proof ends it.
		params: (tag) => ({ prompt: `Queue ${tag} FAKE_DURATION_MS=18000000`, maxWait: 3600 }),
		end: (fake, jobId) => fake.call('POST', `/__fake/agent/${jobId}/finish`),
		reads: 1,
		items: (items, jobId) => {
			assert.equal(items.length, 1, `one item (got ${items.length})`);
			assert.equal(items[0].id, jobId);
			assert.equal(items[0].status, 'completed');
		},
	},
	crawl: {
		label: 'Crawl',
		prefix: 'crawl',
		startPath: '/v2/crawl',
		events: ['completed', 'failed'],
		replace: true,
		// 60000 ms at the fake's time scale 5: the crawl ends 12 s after it starts, by itself.
		params: (tag) => ({ resource: 'crawl', operation: 'runAndWait', url: `https://example.com/fake-duration-60000?run=${tag}`, pageLimit: 7, waitMethod: 'completionWebhook', maxWait: 3600, onTimeout: 'returnStatus' }),
		reads: 4, // the status (one document at most), then the first page and its two next pages
		items: (items, jobId) => {
			assert.equal(items.length, 7, `7 pages (got ${items.length})`);
			assert.ok(items.every((i) => i.jobId === jobId && i.jobStatus === 'completed'), 'one item per page of this crawl');
			assert.equal(new Set(items.map((i) => i.metadata?.sourceURL)).size, 7, 'seven different pages');
		},
	},
	batch: {
		label: 'Batch Scrape',
		prefix: 'batch_scrape',
		startPath: '/v2/batch/scrape',
		events: ['completed', 'failed'],
		replace: true,
		// Four items → one batch job of four URLs; fake-duration-60000: it ends 12 s after it starts.
		urls: (tag) => ['a', 'b', 'c', 'd'].map((p) => `https://example.com/${p}?fake-duration-60000&run=${tag}`),
		params: () => ({ resource: 'batchScrape', operation: 'runAndWait', url: '={{ $json.url }}', waitMethod: 'completionWebhook', maxWait: 3600, onTimeout: 'returnStatus' }),
		reads: 3, // the status (one document at most), then the first page (3 documents) and its next page
		items: (items, jobId, urls) => {
			assert.deepEqual(items.map((i) => [i.jobId, i.metadata?.sourceURL]), urls.map((u) => [jobId, u]), 'one item per URL, in order');
		},
	},
};

/**
 * Activates workflow `id` (x.activate), POSTs `body` to its webhook `hookPath` through the proxy and
 * resolves its execution once that has stopped: it must be waiting.
 */
async function callUntilWaiting({ activate, executions, proxyBase }, id, hookPath, body) {
	const url = `${proxyBase}/webhook/${hookPath}`;
	await activate(id, url);
	const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
	assert.equal(res.status, 200, `the workflow webhook answered ${res.status}`);
	const [e] = await until(async () => {
		const list = await executions(id);
		return list.length && ['waiting', 'error', 'success'].includes(list[0].status) ? list : undefined;
	}, 'the execution to wait', 60000, 300);
	assert.equal(e.status, 'waiting', `the execution waits (status ${e.status})`);
	return e;
}

async function resumeProof(x) {
	const { fake, api, createWorkflow, executions, workerOf, startsOf, proxy, proxyBase, proxyBackends, signingSecret, signedCred, n8nOut, stopProcesses, startProcesses } = x;
	/**
	 * A fresh copy of test/e2e/workflows/agent-run-and-resume.json behind a Webhook trigger with "Run
	 * agent" set up for `kind` (Batch Scrape: a Split Out of the body's URLs before it), called once
	 * through the proxy; resolves when its execution waits, with the job's id (from the waiting item)
	 * and its start request at the fake.
	 */
	const startWaitingRun = async (kind, name) => {
		await fake.reset();
		const tag = `${name}-${crypto.randomBytes(4).toString('hex')}`;
		const wf = JSON.parse(fs.readFileSync(path.join(ROOT, 'test', 'e2e', 'workflows', 'agent-run-and-resume.json'), 'utf8'));
		const manual = wf.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
		const hookPath = `queue-resume-${tag}`;
		Object.assign(manual, { type: 'n8n-nodes-base.webhook', typeVersion: 2, parameters: { httpMethod: 'POST', path: hookPath, responseMode: 'onReceived', options: {} }, webhookId: crypto.randomUUID() });
		const node = wf.nodes.find((n) => n.name === 'Run agent');
		node.parameters = kind.replace ? kind.params(tag) : { ...node.parameters, ...kind.params(tag) };
		const urls = kind.urls ? kind.urls(tag) : undefined;
		if (urls) {
			wf.nodes.push({ id: crypto.randomUUID(), name: 'One item per URL', type: 'n8n-nodes-base.splitOut', typeVersion: 1, position: [120, 0], parameters: { fieldToSplitOut: 'body.urls', include: 'noOtherFields', options: { destinationFieldName: 'url' } } });
			wf.connections = { [manual.name]: { main: [[{ node: 'One item per URL', type: 'main', index: 0 }]] }, 'One item per URL': { main: [[{ node: node.name, type: 'main', index: 0 }]] } };
		}
		const id = await createWorkflow(wf, signedCred);
		const e = await callUntilWaiting(x, id, hookPath, urls ? { urls } : {});
		const waitingData = await api('GET', `/executions/${e.id}?includeData=true`);
		const jobId = waitingData.data.resultData.runData[node.name].at(-1).data.main[0][0].json.id; // the waiting item comes first
		assert.match(String(jobId), /^[0-9a-f-]{36}$/, 'the waiting item holds the job id');
		const starts = (await fake.log()).filter((r) => r.method === 'POST' && r.path === kind.startPath);
		assert.equal(starts.length, 1, `one ${kind.label} job started (got ${starts.length})`);
		return { e, jobId, id, urls, start: starts[0] };
	};
	/** The fake's deliveries of the job's webhook (every try). */
	const deliveriesOf = async (jobId) => (await fake.call('GET', '/__fake/deliveries')).filter((d) => d.jobId === jobId);
	/** Status reads of the job at the fake (GET <start path>/{id}; next pages too: the fake logs the path only). */
	const readsOf = async (kind, jobId) => (await fake.log()).filter((r) => r.method === 'GET' && r.path === `${kind.startPath}/${jobId}`);
	/** The execution with its data once it has ended. */
	const finishedExecution = async (executionId, what, timeoutMs) =>
		await until(async () => {
			const d = await api('GET', `/executions/${executionId}?includeData=true`);
			return ['success', 'error', 'crashed'].includes(d.status) ? d : undefined;
		}, what, timeoutMs, 300);

	const resumeStep = (kind) => step(`queue: ${kind.label} → Run and Wait "Resume on Completion Webhook": started through a webhook process, the first part on a worker, waiting with 0 status reads; forged resume calls → 401 on each webhook process; the signed ${kind.prefix}.completed through the proxy resumes it on a worker with the job read once by its check (${kind.reads} read${kind.reads > 1 ? 's' : ''}); late copies at once → 409, nothing runs again`, async () => {
		const { e, jobId, id, urls, start } = await startWaitingRun(kind, kind.prefix);
		const startedOn = workerOf(e.id);
		assert.equal(startedOn.length, 1, `one worker ran the first part (${startedOn.join(', ') || 'none'})`);
		const hook = start.body.webhook;
		assert.ok(hook.url.startsWith(`${proxyBase}/webhook-waiting/${e.id}/webdata-`), `the resume URL goes through the proxy (${hook.url.replace(/\?.*$/, '')})`);
		assert.deepEqual(hook.events, kind.events);
		assert.equal((await readsOf(kind, jobId)).length, 0, 'no status read while waiting');
		// Forged resume calls straight to each webhook process (n8n's URL signature is right; the node's token is wrong).
		const type = `${kind.prefix}.completed`;
		const forged = JSON.stringify({ success: true, type, id: jobId, webhookId: crypto.randomUUID(), data: [], metadata: {} });
		const target = new URL(hook.url);
		for (const b of proxyBackends) {
			const f = await fetch(`http://127.0.0.1:${b.port}${target.pathname}${target.search}`, { method: 'POST', headers: { 'content-type': 'application/json', 'X-WebData-Resume-Token': 'f'.repeat(64), [SIGNATURE_HEADER]: sign(signingSecret, forged) }, body: forged });
			assert.equal(f.status, 401, `the forged call on ${b.name} answered ${f.status}`);
		}
		assert.equal((await api('GET', `/executions/${e.id}`)).status, 'waiting', 'still waiting after the forged calls');
		const logFrom = proxy.log.length;
		if (kind.end) await kind.end(fake, jobId);
		const done = await finishedExecution(e.id, `the ${kind.label} job to end and its webhook to resume the execution`, 90000);
		assert.equal(done.status, 'success', `execution ${done.status}`);
		kind.items(done.data.resultData.runData['Run agent'].at(-1).data.main[0].map((i) => i.json), jobId, urls);
		const deliveries = await deliveriesOf(jobId);
		assert.deepEqual(deliveries.map((d) => [d.type, d.responseStatus]), [[type, 200]], 'the end event resumed the execution');
		const via = proxy.log.slice(logFrom).filter((l) => l.url.startsWith(`/webhook-waiting/${e.id}`)).map((l) => l.backend);
		assert.equal(via.length, 1, 'the completion webhook came through the proxy');
		const r = await readsOf(kind, jobId);
		assert.equal(r.length, kind.reads, `${kind.reads} status read(s), each once (got ${r.length})`);
		assert.ok(r.every((x) => x.at >= deliveries[0].at), 'every read after the delivery');
		const resumedOn = workerOf(e.id);
		const latency = Date.parse(done.stoppedAt) - deliveries[0].at;
		// Late copies (the service retries what it thinks failed), together through both webhook processes.
		const copies = await Promise.all([1, 2, 3].map(() => fake.call('POST', `/__fake/redeliver/${deliveries[0].webhookId}`)));
		assert.deepEqual(copies.map((c) => c.responseStatus), [409, 409, 409], 'each late copy is refused');
		await sleep(1000);
		assert.equal((await readsOf(kind, jobId)).length, kind.reads, 'the copies read nothing');
		assert.deepEqual((await executions(id)).map((x) => x.id), [e.id], 'the copies started no execution');
		assert.equal(startsOf(e.id), 2, 'workers ran the execution twice in all (first part, rest) — not again');
		await api('POST', `/workflows/${id}/deactivate`);
		return `execution ${e.id}: first part on ${startedOn[0]}, waiting with 0 reads; forged calls 401 on both processes; ${type} via ${via.join(', ')}; resumed on ${resumedOn.join(' and ')}; finished ${latency} ms after the delivery with ${kind.reads} read(s); 3 late copies 409, nothing ran again`;
	}, n8nOut);

	for (const kind of [RESUME_KINDS.agent, RESUME_KINDS.crawl, RESUME_KINDS.batch]) await resumeStep(kind);

	// In CI. Its history: one unexplained failure in its first 6 runs (the resumed output was not the
	// completed run; the assertion then printed nothing); 0 in 15 runs since (8 of them the whole
	// suite). If it fails again, its message shows every run of the node.
	if (process.env.QUEUE_E2E_RESTART === '0') {
		console.log('# skipped (QUEUE_E2E_RESTART=0): the restart-of-every-process proof of the agent resume');
		return;
	}
	await step('queue: Agent resume survives a restart of every n8n process: all five stopped while the execution waits, the run ends while they are down (its webhook refused), all started again → the service\'s retry resumes the execution on a worker', async () => {
		const agent = RESUME_KINDS.agent;
		const { e, jobId } = await startWaitingRun(agent, 'restart');
		const tStop = Date.now();
		await stopProcesses();
		await agent.end(fake, jobId);
		const refused = await until(async () => (await deliveriesOf(jobId)).find((d) => d.responseStatus != null || d.error != null), 'the completion webhook to be tried and answered', 20000, 200);
		assert.notEqual(refused.responseStatus, 200, `with every n8n process down the delivery failed (${refused.responseStatus ?? refused.error})`);
		const up = await startProcesses();
		const done = await finishedExecution(e.id, 'the service\'s retry to resume the execution', 240000);
		assert.equal(done.status, 'success', `execution ${done.status}`);
		const runs = done.data.resultData.runData['Run agent'];
		const item = runs.at(-1).data.main[0][0].json;
		// If this fails, say everything the execution holds about the node (seen once in 15 runs: cause not found).
		const seen = () => `${runs.length} run(s) of "Run agent": ${runs.map((r) => oneLine(JSON.stringify(r.data?.main?.[0]?.[0]?.json ?? null))).join(' | ')}; last node ${done.data.resultData.lastNodeExecuted}`;
		assert.equal(item.id, jobId, `the output is the run (${seen()})`);
		assert.equal(item.status, 'completed', `the run completed (${seen()})`);
		const tries = await deliveriesOf(jobId);
		const reads = (await readsOf(agent, jobId)).length;
		assert.equal(reads, 1, 'the run was read once, after the webhook');
		const resumedOn = workerOf(e.id);
		assert.equal(resumedOn.length, 1, `a restarted worker ran the rest (${resumedOn.join(', ') || 'none'})`);
		return `execution ${e.id}: all processes stopped and started again (${secs(up.ms)} to ready, ${secs(Date.now() - tStop)} in all); deliveries answered ${tries.map((d) => d.responseStatus).join(' → ')}; resumed on ${resumedOn[0]} with 1 read`;
	}, n8nOut);
}

/**
 * Issue 35.4: the credit budget of an execution that waits for a job lives in the execution's custom
 * data, not in a process. test/e2e/queue/budget-resume.json under a credential whose Credit Budget
 * per Execution is 8: Scrape (1 credit) → Crawl → Run and Wait "Resume on Completion Webhook" (Page
 * Limit 50, lowered to the 7 left; 7 held for the job while it waits) → Code "Read the ledger" →
 * Scrape again (Continue On Fail). The worker that ran the first part is stopped while the execution
 * waits; the crawl's completion webhook is held back at the fake (lost) until then and sent again
 * after: the other worker resumes it with nothing of the first in memory. After the resume the total
 * is 1 + the crawl's reported creditsUsed, the hold is gone, and the follow-up scrape is refused
 * before sending (the ledger says 0 left). The stopped worker is started again at the end.
 */
async function budgetResumeProof(x) {
	const { fake, api, createWorkflow, startsPerWorker, proxy, signingSecret, n8nOut, stopProcesses, restartWorker } = x;
	const BUDGET = 8;
	await step(`queue: a credit budget (credential: ${BUDGET}) kept across a resume on another worker: Scrape (1) → Crawl → Run and Wait "Resume on Completion Webhook" with its Page Limit 50 lowered to the 7 left and held while waiting; the worker that ran the first part stopped; the other resumes it → total 1 + the crawl's creditsUsed, no hold left, and a follow-up Scrape refused with nothing sent`, async () => {
		await fake.reset();
		await fake.call('POST', '/__fake/webhook-delivery', { loseEvents: ['crawl.completed'] });
		let stopped;
		try {
			const cred = await api('POST', '/credentials', { name: `Web Data (queue, budget ${BUDGET})`, type: 'webDataApi', data: { apiKey: canaryKey, baseUrl: fake.url, webhookSecret: signingSecret, creditBudget: BUDGET } });
			const run = `budget-${crypto.randomBytes(4).toString('hex')}`;
			const hookPath = `queue-${run}`;
			const text = fs
				.readFileSync(path.join(__dirname, 'budget-resume.json'), 'utf8')
				.replace(/\{\{HOOK_PATH\}\}/g, hookPath)
				.replace(/\{\{WEBHOOK_ID\}\}/g, crypto.randomUUID())
				.replace(/\{\{RUN\}\}/g, run);
			const wf = JSON.parse(text);
			const id = await createWorkflow(wf, { id: cred.id, name: cred.name });
			const e = await callUntilWaiting(x, id, hookPath, {});
			const first = startsPerWorker(e.id).filter(([, n]) => n > 0).map(([w]) => w);
			assert.equal(first.length, 1, `one worker ran the first part (${first.join(', ') || 'none'})`);
			const other = first[0] === 'worker-1' ? 'worker-2' : 'worker-1';

			// While waiting: the crawl was sent with the lowered limit; the saved execution holds the ledger with the job's hold.
			const waiting = await api('GET', `/executions/${e.id}?includeData=true`);
			const waitingItem = waiting.data.resultData.runData['Crawl site'].at(-1).data.main[0][0].json;
			const jobId = waitingItem.id;
			assert.match(String(jobId), /^[0-9a-f-]{36}$/, 'the waiting item holds the crawl id');
			const log = await fake.log();
			assert.deepEqual(log.map((r) => `${r.method} ${r.path}`), ['POST /v2/scrape', 'POST /v2/crawl'], 'the scrape, then the crawl start; no status read');
			const crawlStart = log[1];
			assert.equal(crawlStart.body.limit, BUDGET - 1, `the Page Limit 50 is sent as the ${BUDGET - 1} credits left (sent ${crawlStart.body.limit})`);
			assert.deepEqual(waitingItem.credits, { used: 0, execution: 1, budget: BUDGET, left: 0, pageLimitLowered: { from: 50, to: BUDGET - 1, creditsPerPage: 1 } }, `the waiting item says the Page Limit was lowered and the rest is held (${JSON.stringify(waitingItem.credits)})`);
			const jobKey = jobId.replace(/-/g, '').slice(0, 12);
			const heldWhileWaiting = waiting.data.resultData.metadata;
			assert.equal(heldWhileWaiting?.webdata_credits, '1', `the saved execution's total while waiting: the scrape's 1 (${JSON.stringify(heldWhileWaiting)})`);
			assert.deepEqual(JSON.parse(heldWhileWaiting.webdata_budget), { c: { [cred.id]: { s: 1, r: 0, j: { [jobKey]: BUDGET - 1 } } }, n: { 'Scrape home page': 1 }, x: String(e.id) }, 'the saved ledger: 1 spent, the crawl holding the 7 left, written by this execution');

			// The worker that ran the first part goes away; the crawl ends (its webhook held back), then the webhook comes.
			const tStop = Date.now();
			await stopProcesses([first[0]]);
			stopped = first[0];
			const stopMs = Date.now() - tStop;
			const [lost] = await until(async () => {
				const d = (await fake.call('GET', '/__fake/deliveries')).filter((r) => r.jobId === jobId && r.type === 'crawl.completed');
				return d.length ? d : undefined;
			}, 'the crawl to end (its completion webhook held back at the fake)', 60000, 300);
			assert.equal(lost.lost, true, 'the completion webhook was held back');
			assert.equal((await api('GET', `/executions/${e.id}`)).status, 'waiting', `still waiting with ${first[0]} stopped`);
			const logFrom = proxy.log.length;
			const sent = await fake.call('POST', `/__fake/redeliver/${lost.webhookId}`);
			assert.equal(sent.responseStatus, 200, `the completion webhook answered ${sent.responseStatus}`);
			const done = await until(async () => {
				const d = await api('GET', `/executions/${e.id}?includeData=true`);
				return ['success', 'error', 'crashed'].includes(d.status) ? d : undefined;
			}, 'the execution to resume and finish', 120000, 300);
			assert.equal(done.status, 'success', `execution ${done.status}`);
			const via = proxy.log.slice(logFrom).filter((l) => l.url.startsWith(`/webhook-waiting/${e.id}`)).map((l) => l.backend);
			const starts = Object.fromEntries(startsPerWorker(e.id));
			assert.deepEqual(starts, { [first[0]]: 1, [other]: 1 }, `the first part ran on ${first[0]}, the rest on ${other} (${JSON.stringify(starts)})`);

			// After the resume: the crawl's reported credits counted once, the hold gone, the follow-up refused.
			const rd = done.data.resultData.runData;
			const pages = rd['Crawl site'].at(-1).data.main[0].map((i) => i.json);
			assert.equal(pages.length, BUDGET - 1, `one item per page: ${BUDGET - 1} (got ${pages.length})`);
			assert.ok(pages.every((p) => p.jobId === jobId && p.jobStatus === 'completed'), 'the pages of this crawl');
			const reads = (await fake.log()).filter((r) => r.method === 'GET' && r.path === `/v2/crawl/${jobId}`);
			const status = reads[0];
			assert.ok(status && status.at >= lost.at, 'the job read after its end');
			const crawlCredits = pages.reduce((n, p) => n + (p.metadata?.creditsUsed ?? 0), 0);
			assert.equal(crawlCredits, BUDGET - 1, `the crawl's pages cost ${crawlCredits}`);
			const [read] = rd['Read the ledger'].at(-1).data.main[0].map((i) => i.json);
			const total = 1 + crawlCredits;
			assert.equal(read.total, String(total), `$execution.customData.get('webdata_credits') after the resume: 1 + ${crawlCredits} (got ${read.total})`);
			assert.deepEqual(read.ledger, { c: { [cred.id]: { s: total, r: 0 } }, n: { 'Crawl site': crawlCredits, 'Scrape home page': 1 }, x: String(e.id) }, `the ledger after the resume: ${total} spent, no hold left (${JSON.stringify(read.ledger)})`);
			const lowered = { from: 50, to: BUDGET - 1, creditsPerPage: 1 };
			for (const p of pages) assert.deepEqual(p.credits, { used: crawlCredits, execution: total, budget: BUDGET, left: 0, pageLimitLowered: lowered }, `the pages say what the crawl cost and that its Page Limit was lowered (${JSON.stringify(p.credits)})`);
			const [refused] = rd['Scrape again'].at(-1).data.main[0].map((i) => i.json);
			assert.match(String(refused.error), new RegExp(`^Credit budget reached: This scrape would cost at least 1 credit, and 0 of this execution's ${BUDGET} are left`), `the follow-up scrape is refused (${oneLine(JSON.stringify(refused))})`);
			assert.match(String(refused.description), new RegExp(`Spent in this execution with this credential: ${total} credits \\(Crawl site: ${crawlCredits}, Scrape home page: 1\\)`), 'it names what was spent and by which nodes');
			const scrapes = (await fake.log()).filter((r) => r.method === 'POST' && r.path === '/v2/scrape');
			assert.equal(scrapes.length, 1, `nothing sent for the refused scrape (${scrapes.length} POST /v2/scrape)`);
			assert.equal(done.data.resultData.metadata?.webdata_credits, String(total), "the finished execution's custom data");
			await api('POST', `/workflows/${id}/deactivate`);
			return `execution ${e.id}: limit sent ${crawlStart.body.limit} (asked 50), ${BUDGET - 1} held while waiting; first part on ${first[0]}, stopped (${secs(stopMs)}); crawl.completed via ${via.join(', ') || '?'}; resumed on ${other}; ${pages.length} pages, creditsUsed ${crawlCredits}; total ${total} of ${BUDGET}, hold gone; follow-up scrape refused, not sent`;
		} finally {
			await fake.call('POST', '/__fake/webhook-delivery', { loseEvents: [] });
			if (stopped) await restartWorker(stopped);
		}
	}, n8nOut);
}

/**
 * Waits on the executions of one workflow (`workflowId()`): `waitCount(n)` until there are at least
 * n and all have finished, then 1.5 s more (anything extra would show up by then); `settle()` until
 * no new one comes. The service retries a delivery 1, 5 and 15 minutes after a failed one, so a real
 * retry comes long after the first copy's execution ended; the proofs send spaced copies the same way.
 */
function executionWaits(executions, finished, workflowId) {
	const waitCount = async (n, what) => {
		await until(async () => {
			const list = await executions(workflowId());
			return list.length >= n && list.every(finished);
		}, what, 60000, 300);
		await sleep(1500);
		return await executions(workflowId());
	};
	const settle = async (what) => {
		let last = -1;
		for (;;) {
			const list = await waitCount(0, what);
			if (list.length === last) return list;
			last = list.length;
		}
	};
	return { waitCount, settle };
}

/**
 * Sends each delivery's 3 copies (copy k of ids[i], made by `copyOf(webhookId)`, to webhook process
 * `backends[backendOf(i, k)]` with `post(port, raw, headers)`) the way the service retries — each
 * round after the previous round's executions ended (`settle`) — or, with `together`, all at the
 * same moment; resolves the answers {i, k, status, duplicate}.
 */
async function sendThreeCopies(ids, backendOf, { backends, copyOf, post, settle, together = false }) {
	const send = async (i, k) => {
		const { raw, headers } = copyOf(ids[i]);
		const r = await post(backends[backendOf(i, k)].port, raw, headers);
		return { i, k, status: r.status, duplicate: /"duplicate":true/.test(r.body) };
	};
	if (together) {
		const answers = await Promise.all(ids.flatMap((_, i) => [0, 1, 2].map((k) => send(i, k))));
		await settle('the executions of the copies');
		return answers;
	}
	const answers = [];
	for (let k = 0; k < 3; k++) {
		for (let i = 0; i < ids.length; i++) answers.push(await send(i, k));
		await settle(`the executions of copy ${k + 1}`);
	}
	return answers;
}

async function triggerProofs(x) {
	const { fake, api, createWorkflow, executions, finished, redisCred, proxy, proxyBase, proxyBackends, signingSecret, signedCred, n8nOut } = x;
	const label = `examples/${TRIGGER_WORKFLOW}`;
	const wf = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', `${TRIGGER_WORKFLOW}.json`), 'utf8'));
	const triggerNode = wf.nodes.find((n) => n.type === TRIGGER_TYPE);
	triggerNode.webhookId = crypto.randomUUID();
	triggerNode.parameters.runCheckWhenListening = false;
	// Measured beside the example's claim: n8n's own database-backed de-duplication (Remove
	// Duplicates) on a second branch from the trigger, same key: the item's dedupeKey (one per page or
	// completion of a check, the same for every copy of a delivery and for a catch-up). Not atomic.
	const ONCE = 'Once per delivery';
	wf.nodes.push({
		id: crypto.randomUUID(),
		name: ONCE,
		type: 'n8n-nodes-base.removeDuplicates',
		typeVersion: 2,
		position: [200, 200],
		parameters: { operation: 'removeItemsSeenInPreviousExecutions', logic: 'removeItemsWithAlreadySeenKeyValues', dedupeValue: '={{ $json.dedupeKey }}', options: {} },
	});
	// The example's atomic claim in Redis (what queue mode already runs; here database 1 of the
	// suite's Redis): INCR of a key per delivery and item, and only the copy that got 1 reaches
	// "Change report". INCR is atomic, so this holds however copies spread over processes and time.
	const ONCE_REDIS = 'Change report';
	assert.ok(wf.nodes.some((n) => n.name === ONCE_REDIS) && wf.nodes.some((n) => n.type === 'n8n-nodes-base.redis'), 'the example has its Redis claim and "Change report"');
	for (const n of wf.nodes) if (n.type === 'n8n-nodes-base.redis') n.credentials = { redis: { id: redisCred.id, name: redisCred.name } };
	wf.connections[triggerNode.name].main[0].push({ node: ONCE, type: 'main', index: 0 });
	/** Executions in which items got past a de-duplication node (Remove Duplicates by default). */
	const passed = (list, node = ONCE) => list.filter((e) => ((e.data?.resultData?.runData?.[node] ?? [])[0]?.data?.main?.[0] ?? []).length > 0);
	const productionPath = `/webhook/${triggerNode.webhookId}/webhook`;
	let id;
	let monitorId;
	let token;
	let real;
	const settled = () => fake.call('POST', '/__fake/settled', { timeoutMs: 30000 });
	const count = async () => (await executions(id)).length;
	// Two copies running at the same moment on two workers can both pass Remove Duplicates: its
	// check-and-record is not atomic across workers (see the steps below).
	const { waitCount, settle } = executionWaits(executions, finished, () => id);
	const post = async (port, raw, headers) => {
		const res = await fetch(`http://127.0.0.1:${port}${productionPath}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: raw });
		return { status: res.status, body: await res.text() };
	};
	/** The real delivery's bytes under another webhookId, with a valid token and signature. */
	/**
	 * A new delivery made from the real one: its own webhookId and its own check (the webhookId doubles
	 * as the check id). The trigger tells each check once per process (issue 29), so copies of one new
	 * delivery are one check, and a new delivery is a new check, as the service sends them.
	 */
	const freshBody = (webhookId) => {
		const body = JSON.parse(real.rawBody);
		body.data = body.data.map((entry) => ({ ...entry, checkId: webhookId }));
		return JSON.stringify({ ...body, id: webhookId, webhookId }); // a monitor envelope's id is its check's
	};
	const copyOf = (webhookId) => {
		const raw = freshBody(webhookId);
		return { raw, headers: { [TOKEN_HEADER]: token, [SIGNATURE_HEADER]: sign(signingSecret, raw) } };
	};
	/** The executions whose trigger output holds this webhookId. */
	const holdingId = (list, webhookId) => list.filter((e) => JSON.stringify(e.data?.resultData?.runData?.[triggerNode.name] ?? {}).includes(webhookId));

	const ok = await step(`queue: ${label}: activation registers one monitor for the proxy's URL (not one per process)`, async () => {
		await fake.reset();
		id = await createWorkflow(wf, signedCred);
		await api('POST', `/workflows/${id}/activate`);
		await until(async () => (await fake.log()).some((r) => r.method === 'POST' && r.path === '/v2/monitor'), 'the monitor creation', 60000);
		await until(async () => (await fetch(`http://127.0.0.1:${proxyBackends[0].port}${productionPath}`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).status !== 404, 'webhook-1 to serve the trigger', 60000, 300);
		await until(async () => (await fetch(`http://127.0.0.1:${proxyBackends[1].port}${productionPath}`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })).status !== 404, 'webhook-2 to serve the trigger', 60000, 300);
		await sleep(3000); // a second registration (one per process) would have happened by now
		const posts = (await fake.log()).filter((r) => r.method === 'POST' && r.path === '/v2/monitor');
		assert.equal(posts.length, 1, `one POST /v2/monitor (got ${posts.length})`);
		assert.equal(posts[0].body.webhook.url, `${proxyBase}${productionPath}`, 'the webhook URL is the proxy (WEBHOOK_URL)');
		token = posts[0].body.webhook.headers[TOKEN_HEADER];
		assert.match(token, /^[0-9a-f]{64}$/);
		const monitors = await (await fetch(`${fake.url}/v2/monitor?limit=100`, { headers: { authorization: `Bearer ${canaryKey}` } })).json();
		assert.equal(monitors.data.length, 1, 'one monitor at the service');
		monitorId = monitors.data[0].id;
		return `monitor ${monitorId.slice(0, 8)}…, ${posts[0].body.webhook.url}`;
	}, n8nOut);
	if (!ok) return;

	await step(`queue: ${label}: a check's deliveries reach both webhook processes through the proxy; one execution each, run by workers`, async () => {
		const before = proxy.log.length;
		await fake.call('POST', `/__fake/monitor/${monitorId}/tick`);
		await settled();
		const deliveries = await fake.call('GET', '/__fake/deliveries');
		assert.deepEqual(deliveries.map((d) => d.responseStatus), deliveries.map(() => 200), 'every delivery answered 200');
		const list = await waitCount(deliveries.length, 'one execution per delivery');
		assert.equal(list.length, deliveries.length, `${deliveries.length} deliveries → ${list.length} executions`);
		const backends = new Set(proxy.log.slice(before).map((l) => l.backend));
		assert.equal(backends.size, 2, `deliveries went to ${[...backends].join(', ')}`);
		const workers = list.map((e) => x.workerOf(e.id)[0] ?? 'none');
		assert.ok(workers.every((w) => w.startsWith('worker-')), `executions ran on workers: ${workers.join(', ')}`);
		real = deliveries.find((d) => d.type === 'monitor.check.completed') ?? deliveries[0];
		return `${deliveries.length} deliveries (${deliveries.map((d) => d.type).join(', ')}) → ${list.length} executions on ${workers.join(', ')}`;
	}, n8nOut);

	// Issue 34.5: each webhook process knows only the pages it told. A check whose page deliveries go to
	// one process and whose completion goes to the other brings, with the completion, the pages that
	// process has not told (the catch-up): told a second time. What is exact is the key: a page or
	// completion has one dedupeKey however it comes, so the example's Redis claim passes each once.
	await step(`queue: ${label}: 5 checks whose deliveries alternate between the two webhook processes → each page and completion told at most once per process (caught-up copies counted), and each reaches "${ONCE_REDIS}" exactly once by its dedupeKey`, async () => {
		const checks = [];
		for (let k = 0; k < 5; k++) {
			const logFrom = proxy.log.length;
			const check = await fake.call('POST', `/__fake/monitor/${monitorId}/tick`);
			await settled();
			await settle(`the executions of check ${k + 1}`);
			const hits = proxy.log.slice(logFrom).filter((l) => l.url === productionPath).map((l) => l.backend);
			checks.push({ id: check.id, hits });
		}
		const all = await executions(id);
		let events = 0;
		let told = 0;
		let caughtUp = 0;
		let reports = 0;
		const perCheck = [];
		for (const c of checks) {
			const holding = holdingId(all, c.id);
			const items = holding.flatMap((e) => (e.data.resultData.runData[triggerNode.name]?.[0]?.data?.main?.[0] ?? []).map((it) => it.json)).filter((j) => j.checkId === c.id);
			const keys = new Set(items.map((j) => j.dedupeKey));
			const perKey = [...keys].map((key) => items.filter((j) => j.dedupeKey === key).length);
			// "Change report" sets checkId from the trigger's item: an execution may also tell another check's pages.
			const reportItems = holding.flatMap((e) => e.data.resultData.runData[ONCE_REDIS]?.[0]?.data?.main?.[0] ?? []).map((it) => it.json);
			const passedReport = reportItems.filter((j) => j.checkId === c.id).length;
			assert.ok(items.every((j) => typeof j.dedupeKey === 'string' && j.dedupeKey.length > 0), 'every item has a dedupeKey');
			assert.ok(perKey.every((n) => n <= proxyBackends.length), `no page told more than once per webhook process (${perKey.join(',')})`);
			const detail = () => holding.map((e) => `execution ${e.id}: ${(e.data.resultData.runData[triggerNode.name]?.[0]?.data?.main?.[0] ?? []).map((it) => `${it.json.event}/${String(it.json.checkId).slice(-4)}/${String(it.json.dedupeKey).slice(-6)}${it.json.caughtUp ? '/caught up' : ''}`).join(' ')} → ${oneLine(JSON.stringify(e.data.resultData.runData['Claim this delivery']?.[0]?.data?.main?.[0]?.map((it) => it.json) ?? []))}`).join('; ');
			assert.equal(passedReport, keys.size, `check ${c.id.slice(0, 8)}…: ${keys.size} pages and completions, ${passedReport} reached "${ONCE_REDIS}" (deliveries via ${c.hits.join(' → ')}): ${detail()}`);
			events += keys.size;
			told += items.length;
			caughtUp += items.filter((j) => j.caughtUp === true).length;
			reports += passedReport;
			perCheck.push(`${items.length}/${keys.size} via ${c.hits.map((h) => h.replace('webhook-', '')).join('')}`);
		}
		assert.ok(checks.some((c) => new Set(c.hits).size === 2), 'some check\'s deliveries reached both processes');
		const note = `5 checks, ${events} pages and completions → ${told} trigger items (${caughtUp} caught up; at most ${proxyBackends.length}× each, one per webhook process), "${ONCE_REDIS}" ${reports} (exactly once each); per check items/events via process: ${perCheck.join(', ')}`;
		console.log(`# MEASURED catch-up across webhook processes: ${note}`);
		return note;
	}, n8nOut);

	await step(`queue: ${label}: the same webhookId delivered 3 times, alternately to both webhook processes → counted by the executions holding it; a fresh id sent 3 times with nothing else running gets through "Remove Duplicates" once`, async () => {
		assert.ok(real, 'a real delivery from the previous step');
		const before = await executions(id);
		const logFrom = proxy.log.length;
		// The service's retry: the fake sends the identical bytes again, through the proxy (round robin).
		for (let k = 0; k < 3; k++) {
			await fake.call('POST', `/__fake/redeliver/${real.webhookId}`);
			await settle(`the executions of copy ${k + 1}`);
		}
		const hits = proxy.log.slice(logFrom).filter((l) => l.url === productionPath);
		assert.equal(hits.length, 3);
		assert.equal(new Set(hits.map((h) => h.backend)).size, 2, `the retries reached both processes (${hits.map((h) => h.backend).join(', ')})`);
		await sleep(2500);
		const list = await waitCount(before.length, 'the executions to finish');
		const holding = holdingId(list, real.webhookId);
		// The original ran beside the check's other deliveries (two workers at once). n8n's history for
		// a node is one row, created by the first execution that records: two first executions at the
		// same moment both insert it, and one fails on the duplicate key (measured in CI). So either it
		// got through, or its node failed on that race.
		const onceError = (e) => e.data?.resultData?.runData?.[ONCE]?.[0]?.error ?? null;
		const raced = holding.filter((e) => /duplicate key|unique constraint/i.test(JSON.stringify(onceError(e) ?? '')));
		assert.ok(passed(holding).length >= 1 || raced.length >= 1, `items of webhookId ${real.webhookId} got through "${ONCE}" (${passed(holding).length} of ${holding.length}), or its node failed on n8n's first-record race (${raced.length}): ${holding.map((e) => `execution ${e.id} ${e.status}: ${oneLine(JSON.stringify(onceError(e)))}`).join('; ')}`);
		// A fresh id sent 3 times alternately, straight to the two processes, nothing else running:
		// Remove Duplicates lets it through exactly once.
		const freshId = crypto.randomUUID();
		const { raw, headers } = copyOf(freshId);
		const answers = [];
		for (const p of [proxyBackends[0], proxyBackends[1], proxyBackends[0]]) {
			answers.push(await post(p.port, raw, headers));
			await settle('the execution of this copy');
		}
		assert.deepEqual(answers.map((a) => a.status), [200, 200, 200]);
		await sleep(2000);
		const after = await waitCount(list.length + 1, 'the new delivery’s executions');
		const fresh = holdingId(after, freshId);
		assert.equal(passed(fresh).length, 1, `the fresh id passed "${ONCE}" in exactly one execution (got ${passed(fresh).length} of ${fresh.length})`);
		const first = raced.length ? `its first execution failed in "${ONCE}" on n8n's first-record race (duplicate key)` : `${passed(holding).length} passed "${ONCE}"`;
		const note = `retries via ${hits.map((h) => h.backend).join(' → ')}: ${holding.length} executions hold the id, ${first}; fresh id via webhook-1 → webhook-2 → webhook-1 (${answers.map((a) => oneLine(a.body)).join(' | ')}): ${fresh.length} executions, 1 passed`;
		console.log(`# MEASURED trigger-level de-duplication across processes: ${note}`);
		return note;
	}, n8nOut);

	await step(`queue: ${label}: forged deliveries (no token, wrong token, wrong signature) → 401 on each webhook process, no execution`, async () => {
		const before = await count();
		const raw = freshBody(crypto.randomUUID());
		const cases = [
			['no token', { [SIGNATURE_HEADER]: sign(signingSecret, raw) }],
			['wrong token', { [TOKEN_HEADER]: 'f'.repeat(64), [SIGNATURE_HEADER]: sign(signingSecret, raw) }],
			['wrong signature', { [TOKEN_HEADER]: token, [SIGNATURE_HEADER]: sign('not-the-secret', raw) }],
			['no signature', { [TOKEN_HEADER]: token }],
		];
		const seen = [];
		for (const b of proxyBackends) {
			for (const [name, headers] of cases) {
				const r = await post(b.port, raw, headers);
				assert.equal(r.status, 401, `${name} on ${b.name}: ${r.status} ${r.body.slice(0, 100)}`);
				seen.push(`${b.name}/${name} 401`);
			}
		}
		// The same id, now genuine, still starts its execution: forged requests recorded nothing.
		const good = await post(proxyBackends[1].port, raw, { [TOKEN_HEADER]: token, [SIGNATURE_HEADER]: sign(signingSecret, raw) });
		assert.equal(good.status, 200);
		const after = await waitCount(before + 1, 'the genuine delivery’s execution');
		assert.equal(after.length, before + 1, `only the genuine delivery started an execution (before ${before}, now ${after.length})`);
		return `${seen.length} forged → 401; then the genuine one → 1 execution`;
	}, n8nOut);

	// One delivery's copies, sent the way the service retries: each after the previous copy's executions ended.
	/**
	 * Sends each delivery's 3 copies (copy k of delivery i to webhook process backendOf(i, k)) the way
	 * the service retries — each round after the previous round's executions ended — or, with
	 * `together`, all at the same moment; then counts per delivery the executions holding it and
	 * those that passed Remove Duplicates and the Redis claim.
	 */
	const sendCopies = async (ids, backendOf, { together = false } = {}) => {
		const answers = await sendThreeCopies(ids, backendOf, { backends: proxyBackends, copyOf, post, settle, together });
		const all = await executions(id);
		const of = (wid) => holdingId(all, wid);
		const made = ids.map((wid) => of(wid).length);
		return {
			answers,
			of,
			made,
			total: made.reduce((a, b) => a + b, 0),
			passes: ids.map((wid) => passed(of(wid)).length),
			claims: ids.map((wid) => passed(of(wid), ONCE_REDIS).length),
		};
	};

	await step(`queue: ${label}: executions per delivery — 20 deliveries, each sent 3× alternately to both webhook processes (a copy after the previous one's executions ended, as the service retries) → 2 executions each (the trigger's de-duplication is per process); Remove Duplicates lets every delivery through at least once; the Redis claim exactly once`, async () => {
		const ids = Array.from({ length: 20 }, () => crypto.randomUUID());
		// copy 1 → process i%2, copy 2 → the other one, copy 3 → the first again
		const { answers, made, total, passes, claims } = await sendCopies(ids, (i, k) => (i + k) % 2);
		assert.ok(answers.every((a) => a.status === 200), `every copy answered 200 (${answers.map((a) => a.status).join(',')})`);
		const dupAnswers = answers.filter((a) => a.duplicate);
		assert.deepEqual(dupAnswers.map((a) => a.k), ids.map(() => 2), 'exactly the third copies (back on the first process) were answered "duplicate"');
		const twice = passes.filter((n) => n > 1).length;
		console.log(`# MEASURED executions per delivery in queue mode (2 webhook processes, copies alternating): 60 requests (20 webhookIds × 3) → ${total} executions (${(total / 20).toFixed(2)} per delivery); "${ONCE}" let ${passes.reduce((a, b) => a + b, 0)} through (${twice} deliveries twice: n8n 2.41 records its history with a read-then-update that concurrent executions on two workers can overwrite)`);
		assert.deepEqual(made, ids.map(() => 2), `2 executions per delivery (${made.join(',')})`);
		assert.ok(passes.every((n) => n >= 1), `every delivery got through "${ONCE}" at least once (${passes.join(',')})`);
		assert.deepEqual(claims, ids.map(() => 1), `every delivery got through "${ONCE_REDIS}" exactly once (${claims.join(',')})`);
		return `${total} executions (2.00 per delivery); third copies answered duplicate; "${ONCE}" passes ${passes.join('')}; "${ONCE_REDIS}" passes ${claims.join('')}`;
	}, n8nOut);

	await step(`queue: ${label}: the example's atomic claim in Redis — 20 deliveries, their 3 copies sent at the same moment to both webhook processes → each reaches "Change report" exactly once`, async () => {
		const ids = Array.from({ length: 20 }, () => crypto.randomUUID());
		// copies 1 and 3 to webhook-1, copy 2 to webhook-2, all 60 at once
		const { answers, of, made, total, passes, claims } = await sendCopies(ids, (i, k) => k % 2, { together: true });
		assert.ok(answers.every((a) => a.status === 200), `every copy answered 200 (${answers.map((a) => a.status).join(',')})`);
		console.log(`# MEASURED copies at the same moment (20 deliveries × 3, both processes): ${total} executions (${(total / 20).toFixed(2)} per delivery); "${ONCE}" let ${passes.reduce((a, b) => a + b, 0)} through; "${ONCE_REDIS}" let ${claims.reduce((a, b) => a + b, 0)} through`);
		assert.ok(made.every((n) => n >= 1), `every delivery started an execution (${made.join(',')})`);
		assert.deepEqual(claims, ids.map(() => 1), `every delivery got through "${ONCE_REDIS}" exactly once (${claims.join(',')})`);
		// After the claim the example reads the delivery back from the trigger ($(…).item): its report is the check's.
		const reports = ids.map((wid) => passed(of(wid), ONCE_REDIS)[0].data.resultData.runData[ONCE_REDIS][0].data.main[0][0].json);
		assert.ok(reports.every((r, k) => r.checkId === ids[k] && r.event === real.type), `"${ONCE_REDIS}" holds the delivery (${oneLine(JSON.stringify(reports[0]))})`);
		return `${total} executions for 60 copies; "${ONCE}" passes ${passes.join('')}; "${ONCE_REDIS}" passes ${claims.join('')}`;
	}, n8nOut);

	await step(`queue: ${label}: all deliveries of the trigger routed to one webhook process → exactly one execution per delivery (10 deliveries × 3 copies)`, async () => {
		const ids = Array.from({ length: 10 }, () => crypto.randomUUID());
		const { answers, made, total, claims } = await sendCopies(ids, () => 1);
		assert.ok(answers.every((a) => a.status === 200));
		assert.deepEqual(answers.filter((a) => a.duplicate).map((a) => a.k).sort(), [...ids.map(() => 1), ...ids.map(() => 2)], 'copies 2 and 3 answered "duplicate"');
		assert.deepEqual(made, ids.map(() => 1), `one execution per delivery (${made.join(',')})`);
		assert.deepEqual(claims, ids.map(() => 1), `each passed "${ONCE_REDIS}" once`);
		console.log(`# MEASURED executions per delivery with the trigger's path routed to one webhook process: 30 requests (10 webhookIds × 3) → ${total} executions (1.00 per delivery)`);
		return '30 requests → 10 executions; copies 2 and 3 answered duplicate';
	}, n8nOut);

	await step(`queue: ${label}: deactivation deletes the monitor once (not once per process)`, async () => {
		const logFrom = (await fake.log()).length;
		await api('POST', `/workflows/${id}/deactivate`);
		await until(async () => (await fake.log()).slice(logFrom).some((r) => r.method === 'DELETE'), 'the monitor deletion', 60000);
		await sleep(3000);
		const deletes = (await fake.log()).slice(logFrom).filter((r) => r.method === 'DELETE');
		assert.equal(deletes.length, 1, `one DELETE (got ${deletes.length})`);
		assert.equal(deletes[0].path, `/v2/monitor/${monitorId}`);
		const monitors = await (await fetch(`${fake.url}/v2/monitor?limit=100`, { headers: { authorization: `Bearer ${canaryKey}` } })).json();
		assert.equal(monitors.data.length, 0, 'no monitor left');
		const r = await post(proxyBackends[0].port, '{}', {});
		assert.equal(r.status, 404, `the webhook is gone from webhook-1 (${r.status})`);
		return `DELETE ${deletes[0].path}`;
	}, n8nOut);
}

/**
 * The jobs that report to the trigger (Source "Job Events"), each started at the fake with its
 * webhook on the trigger's production URL: `start(run, webhook)` → [path, body]; `types`: the
 * deliveries it sends, in order; `events`: the trigger's events for it (the others are answered 200
 * and start nothing); `real`: the delivery the retry and copy proofs send again.
 */
const JOB_KINDS = [
	{
		label: 'crawl',
		urls: ['https://docs.example.com/', 'https://docs.example.com/about', 'https://docs.example.com/pricing'],
		start(webhook) {
			return ['/v2/crawl', { url: this.urls[0], limit: this.urls.length, webhook }];
		},
		types: ['crawl.started', 'crawl.page', 'crawl.page', 'crawl.page', 'crawl.completed'],
		events: ['crawl.page', 'crawl.completed', 'crawl.failed'], // the example's
		real: 'crawl.page',
		check: 'trigger-on-crawl-page', // the single-process example's check: same trigger, same "Page summary"
	},
	{
		label: 'batch scrape',
		urls: ['https://shop.example.com/a', 'https://shop.example.com/b', 'https://shop.example.com/c'],
		start(webhook) {
			return ['/v2/batch/scrape', { urls: this.urls, webhook }];
		},
		types: ['batch_scrape.started', 'batch_scrape.page', 'batch_scrape.page', 'batch_scrape.page', 'batch_scrape.completed'],
		events: ['batch_scrape.page', 'batch_scrape.completed', 'batch_scrape.failed'],
		real: 'batch_scrape.page',
	},
	{
		label: 'agent run',
		start(webhook, run) {
			return ['/v2/agent', { prompt: `Queue job events ${run}: find three robotics start-ups`, webhook: { ...webhook, events: ['started', 'action', 'completed', 'failed'] } }];
		},
		types: ['agent.started', 'agent.action', 'agent.completed'],
		events: ['agent.action', 'agent.completed', 'agent.failed'],
		real: 'agent.completed',
	},
];

/**
 * Source "Job Events" across the webhook processes (examples/queue-mode/trigger-on-crawl-page-once-per-delivery.json,
 * its trigger also listening to batch scrape and agent events): a crawl, a batch scrape and an
 * agent run at the fake report to the proxy's production URL with ?token=; for each, forged
 * deliveries on each webhook process; copies of a delivery on both processes, claimed in Redis as
 * the monitor events are.
 */
async function jobEventsProofs(x) {
	const { fake, api, createWorkflow, executions, finished, workerOf, redisCred, proxy, proxyBase, proxyBackends, signingSecret, signedCred, n8nOut } = x;
	const label = `examples/${JOBS_WORKFLOW}`;
	const wf = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', `${JOBS_WORKFLOW}.json`), 'utf8'));
	const triggerNode = wf.nodes.find((n) => n.type === TRIGGER_TYPE);
	assert.equal(triggerNode.parameters.source, 'jobs', `${label}: its trigger listens to job events`);
	assert.deepEqual(triggerNode.parameters.jobEvents, JOB_KINDS[0].events, `${label}: the crawl events`);
	triggerNode.parameters.jobEvents = JOB_KINDS.flatMap((k) => k.events);
	triggerNode.webhookId = crypto.randomUUID();
	const token = crypto.randomBytes(24).toString('hex');
	triggerNode.parameters.jobToken = token;
	const SUMMARY = 'Page summary'; // after the example's Redis claim and its IF
	assert.ok(wf.nodes.some((n) => n.name === SUMMARY) && wf.nodes.some((n) => n.type === 'n8n-nodes-base.redis'), 'the example has its Redis claim and "Page summary"');
	for (const n of wf.nodes) if (n.type === 'n8n-nodes-base.redis') n.credentials = { redis: { id: redisCred.id, name: redisCred.name } };
	const productionPath = `/webhook/${triggerNode.webhookId}/webhook`;
	const hookUrl = `${proxyBase}${productionPath}?token=${token}`;
	let id;
	const outOf = (e, node) => (e.data?.resultData?.runData?.[node]?.[0]?.data?.main?.[0] ?? []).map((i) => i.json);
	const passed = (list) => list.filter((e) => outOf(e, SUMMARY).length > 0);
	const holdingId = (list, webhookId) => list.filter((e) => outOf(e, triggerNode.name).some((j) => j.webhookId === webhookId));
	const { waitCount, settle } = executionWaits(executions, finished, () => id);
	const post = async (port, raw, headers, query = `?token=${token}`) => {
		const res = await fetch(`http://127.0.0.1:${port}${productionPath}${query}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: raw });
		return { status: res.status, body: await res.text() };
	};
	/** A real delivery's bytes under another webhookId, signed. */
	const copyOf = (real, webhookId) => {
		const raw = JSON.stringify({ ...JSON.parse(real.rawBody), webhookId });
		return { raw, headers: { [SIGNATURE_HEADER]: sign(signingSecret, raw) } };
	};

	const ok = await step(`queue: ${label}: activation registers nothing at the service; both webhook processes serve the production URL and refuse an unsigned probe (401)`, async () => {
		await fake.reset();
		id = await createWorkflow(wf, signedCred);
		await api('POST', `/workflows/${id}/activate`);
		const probes = [];
		for (const b of proxyBackends) {
			const r = await until(async () => {
				const p = await post(b.port, '{}', {}, '');
				return p.status !== 404 ? p : undefined;
			}, `${b.name} to serve the trigger`, 60000, 300);
			assert.equal(r.status, 401, `the unsigned probe on ${b.name}: ${r.status}`);
			probes.push(`${b.name} ${r.status}`);
		}
		await sleep(1000);
		assert.deepEqual((await fake.log()).map((r) => `${r.method} ${r.path}`), [], 'no call to the service');
		assert.equal((await executions(id)).length, 0, 'no execution');
		return probes.join(', ');
	}, n8nOut);
	if (!ok) return;

	/** Each delivery's 3 copies (copy k of delivery i to backendOf(i, k)), as the service retries or all at once. */
	const sendCopies = async (real, ids, backendOf, { together = false } = {}) => {
		const answers = await sendThreeCopies(ids, backendOf, { backends: proxyBackends, copyOf: (wid) => copyOf(real, wid), post, settle, together });
		const all = await executions(id);
		const made = ids.map((wid) => holdingId(all, wid).length);
		return { answers, made, total: made.reduce((a, b) => a + b, 0), claims: ids.map((wid) => passed(holdingId(all, wid)).length) };
	};

	for (const kind of JOB_KINDS) await jobKindProofs(kind);

	await step(`queue: ${label}: deactivation calls nothing at the service; the URL is gone from both webhook processes`, async () => {
		const logFrom = (await fake.log()).length;
		await api('POST', `/workflows/${id}/deactivate`);
		const gone = [];
		for (const b of proxyBackends) {
			await until(async () => (await post(b.port, '{}', {})).status === 404, `the webhook to be gone from ${b.name}`, 60000, 300);
			gone.push(`${b.name} 404`);
		}
		assert.deepEqual((await fake.log()).slice(logFrom), [], 'no call to the service');
		return gone.join(', ');
	}, n8nOut);

	/** The same proofs for each job kind: its deliveries, forged ones, the service's retries, copies spaced and at once. */
	async function jobKindProofs(kind) {
		const run = `queue-${crypto.randomBytes(4).toString('hex')}`;
		let real;
		await step(`queue: ${label}: ${/^[aeiou]/.test(kind.label) ? 'an' : 'a'} ${kind.label} with its webhook on the proxy's production URL (?token=) → its deliveries reach both webhook processes; one execution per selected delivery on workers${kind.urls ? ', one item per page' : ''}, each through "${SUMMARY}" once`, async () => {
			const logFrom = proxy.log.length;
			const before = await executions(id);
			const [startPath, body] = kind.start({ url: hookUrl, metadata: { run } }, run);
			const res = await fetch(`${fake.url}${startPath}`, { method: 'POST', headers: { authorization: `Bearer ${canaryKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
			const started = await res.json();
			assert.equal(started.success, true, `POST ${startPath}: ${oneLine(JSON.stringify(started))}`);
			const jobId = started.id;
			const ofJob = async () => (await fake.call('GET', '/__fake/deliveries')).filter((d) => d.jobId === jobId);
			await until(async () => {
				const d = await ofJob();
				return d.length >= kind.types.length && d.every((r) => r.responseStatus != null || r.error != null);
			}, `the ${kind.label}'s ${kind.types.length} deliveries`, 30000, 200);
			await fake.call('POST', '/__fake/settled', { timeoutMs: 30000 });
			const deliveries = await ofJob();
			assert.deepEqual(deliveries.map((d) => d.type), kind.types);
			assert.deepEqual(deliveries.map((d) => d.responseStatus), deliveries.map(() => 200), 'every delivery answered 200');
			const selected = deliveries.filter((d) => kind.events.includes(d.type));
			const list = (await waitCount(before.length + selected.length, 'one execution per selected delivery')).slice(before.length);
			assert.equal(list.length, selected.length, `${selected.length} selected deliveries → ${list.length} executions`);
			const backends = proxy.log.slice(logFrom).filter((l) => l.url.startsWith(productionPath)).map((l) => l.backend);
			assert.equal(backends.length, deliveries.length, 'every delivery came through the proxy');
			assert.equal(new Set(backends).size, 2, `deliveries went to ${backends.join(', ')}`);
			const workers = list.map((e) => workerOf(e.id)[0] ?? 'none');
			assert.ok(workers.every((w) => w.startsWith('worker-')), `executions ran on workers: ${workers.join(', ')}`);
			for (const d of selected) {
				const [e, ...more] = holdingId(list, d.webhookId);
				assert.ok(e && more.length === 0, `one execution holds the ${d.type} delivery ${d.webhookId} (got ${1 + more.length})`);
				assert.equal(e.status, 'success', `execution ${e.id}: ${e.status}`);
				assert.equal(e.mode, 'webhook');
				const items = outOf(e, triggerNode.name);
				const sent = JSON.parse(d.rawBody);
				assert.equal(items.length, d.type.endsWith('.page') ? Math.max(1, sent.data.length) : 1, `one item per page, one for any other event (${d.type})`);
				for (const item of items) assert.deepEqual([item.event, item.jobId, item.webhookMetadata], [d.type, jobId, { run }], 'the item holds the event, the job and its metadata');
				if (d.type === 'agent.completed') assert.deepEqual(items[0].data, sent.data[0].data, "the item holds the run's result");
				const summary = outOf(e, SUMMARY);
				assert.deepEqual(summary.map((s) => [s.event, s.jobId, s.run]), [[d.type, jobId, run]], `"${SUMMARY}" ran once for it`);
			}
			if (kind.urls) {
				const pages = list.flatMap((e) => outOf(e, triggerNode.name)).filter((i) => i.event.endsWith('.page'));
				assert.deepEqual(pages.map((p) => p.metadata?.sourceURL).sort(), [...kind.urls].sort(), 'one item per page');
			}
			if (kind.check) {
				const check = require(path.join(ROOT, 'test', 'e2e', 'checks', `${kind.check}.js`));
				const shaped = list.map((e) => ({ id: e.id, status: e.status, mode: e.mode, trigger: outOf(e, triggerNode.name), nodes: { [SUMMARY]: outOf(e, SUMMARY) } }));
				await check({ executions: shaped, deliveries, jobId, run, urls: kind.urls, fake });
			}
			real = deliveries.find((d) => d.type === kind.real);
			return `${deliveries.length} deliveries via ${backends.join(', ')} → ${list.length} executions on ${workers.join(', ')}: ${list.map((e) => outOf(e, SUMMARY)[0]?.report).join('; ')}`;
		}, n8nOut);
		if (!real) return;

		await step(`queue: ${label}: forged ${kind.label} deliveries (no token, wrong token, no signature, wrong signature, body changed after signing) → 401 on each webhook process, no execution`, async () => {
			const before = (await executions(id)).length;
			const { raw, headers: good } = copyOf(real, crypto.randomUUID());
			const cases = [
				['no token', raw, good, ''],
				['wrong token', raw, good, `?token=${'f'.repeat(48)}`],
				['no signature', raw, {}, undefined],
				['wrong signature', raw, { [SIGNATURE_HEADER]: sign('not-the-secret', raw) }, undefined],
				['body changed after signing', raw.replace('"success":true', '"success":false'), good, undefined],
			];
			let n = 0;
			for (const b of proxyBackends) {
				for (const [name, body, headers, query] of cases) {
					const r = await post(b.port, body, headers, query);
					assert.equal(r.status, 401, `${name} on ${b.name}: ${r.status} ${r.body.slice(0, 100)}`);
					n++;
				}
			}
			// The same id, now genuine, still starts its execution: the forged ones recorded nothing.
			const r = await post(proxyBackends[0].port, raw, good);
			assert.equal(r.status, 200);
			const after = await waitCount(before + 1, 'the genuine delivery’s execution');
			assert.equal(after.length, before + 1, `only the genuine delivery started an execution (before ${before}, now ${after.length})`);
			return `${n} forged → 401; then the genuine one → 1 execution`;
		}, n8nOut);

		await step(`queue: ${label}: the ${real.type} delivery retried 3 times by the service through the proxy (both webhook processes) → "${SUMMARY}" still ran once for it`, async () => {
			const logFrom = proxy.log.length;
			const answers = [];
			for (let k = 0; k < 3; k++) {
				answers.push((await fake.call('POST', `/__fake/redeliver/${real.webhookId}`)).responseStatus);
				await settle(`the executions of retry ${k + 1}`);
			}
			const hits = proxy.log.slice(logFrom).filter((l) => l.url.startsWith(productionPath)).map((l) => l.backend);
			assert.equal(new Set(hits).size, 2, `the retries reached both processes (${hits.join(', ')})`);
			assert.deepEqual(answers, [200, 200, 200]);
			const holding = holdingId(await executions(id), real.webhookId);
			assert.equal(passed(holding).length, 1, `"${SUMMARY}" ran once for webhookId ${real.webhookId} (${passed(holding).length} of ${holding.length} executions)`);
			return `retries via ${hits.join(' → ')}: ${holding.length} executions hold the id (the trigger's memory is per process), 1 reached "${SUMMARY}"`;
		}, n8nOut);

		await step(`queue: ${label}: 10 ${real.type} deliveries, each sent 3× alternately to both webhook processes (a copy after the previous one's executions ended) → 2 executions each, the third copy answered "duplicate"; the Redis claim lets each on exactly once`, async () => {
			const ids = Array.from({ length: 10 }, () => crypto.randomUUID());
			const { answers, made, total, claims } = await sendCopies(real, ids, (i, k) => (i + k) % 2);
			assert.ok(answers.every((a) => a.status === 200), `every copy answered 200 (${answers.map((a) => a.status).join(',')})`);
			assert.deepEqual(answers.filter((a) => a.duplicate).map((a) => a.k), ids.map(() => 2), 'exactly the third copies (back on the first process) were answered "duplicate"');
			console.log(`# MEASURED ${real.type} job events in queue mode (2 webhook processes, copies alternating): 30 requests (10 webhookIds × 3) → ${total} executions (${(total / 10).toFixed(2)} per delivery); "${SUMMARY}" reached ${claims.reduce((a, b) => a + b, 0)} times`);
			assert.deepEqual(made, ids.map(() => 2), `2 executions per delivery (${made.join(',')})`);
			assert.deepEqual(claims, ids.map(() => 1), `every delivery reached "${SUMMARY}" exactly once (${claims.join(',')})`);
			return `${total} executions for 30 copies; "${SUMMARY}" per delivery ${claims.join('')}`;
		}, n8nOut);

		await step(`queue: ${label}: 10 ${real.type} deliveries, their 3 copies sent at the same moment to both webhook processes → each reaches "${SUMMARY}" exactly once`, async () => {
			const ids = Array.from({ length: 10 }, () => crypto.randomUUID());
			const { answers, made, total, claims } = await sendCopies(real, ids, (i, k) => k % 2, { together: true });
			assert.ok(answers.every((a) => a.status === 200), `every copy answered 200 (${answers.map((a) => a.status).join(',')})`);
			console.log(`# MEASURED ${real.type} job events, copies at the same moment (10 deliveries × 3, both processes): ${total} executions (${(total / 10).toFixed(2)} per delivery); "${SUMMARY}" reached ${claims.reduce((a, b) => a + b, 0)} times`);
			assert.ok(made.every((n) => n >= 1), `every delivery started an execution (${made.join(',')})`);
			assert.deepEqual(claims, ids.map(() => 1), `every delivery reached "${SUMMARY}" exactly once (${claims.join(',')})`);
			return `${total} executions for 30 copies; "${SUMMARY}" per delivery ${claims.join('')}`;
		}, n8nOut);
	}
}

main().catch((e) => {
	console.error(e);
	console.log('0 passed, 1 failed');
	process.exit(1);
});
