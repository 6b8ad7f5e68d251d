#!/usr/bin/env node
'use strict';
/*
 * End-to-end suite: runs this package inside the real n8n 2.41.1 (CLI, headless, offline) against
 * the fake Web-Data API. With E2E_N8N=n8n1 (`npm run test:e2e:n8n1`) the same suite runs in the
 * oldest supported n8n, 1.123.x on Node 22 (`install.sh n8n1`), without the editor screenshots.
 *
 *   1. bash test/e2e/install.sh      (Node 24 + n8n into .cache/, skipped when present)
 *   2. npm pack → untar into <tmp>/user/.n8n/nodes/node_modules/n8n-nodes-webdata: n8n scans that
 *      folder for community packages (N8N_COMMUNITY_PACKAGES_ENABLED=true, no DB entry needed) and
 *      puts its own node_modules on NODE_PATH, so the peer dependency n8n-workflow is n8n's copy.
 *   3. the fake API as a child process, with a random canary API key
 *   4. n8n import:credentials: webDataApi "Web Data account" with plain `data` (n8n encrypts it with
 *      N8N_ENCRYPTION_KEY); run at log level debug, where n8n names the packages it loads.
 *   5. every examples/*.json and test/e2e/workflows/*.json, each with test/e2e/checks/<basename>.js:
 *        credential references → the imported credential; {{UPPER_CASE}} placeholders filled in;
 *        workflows whose placeholders are all given by the check's static `vars` are imported
 *        together in one n8n command up front (each n8n command costs ~3-4 s of start-up), the
 *        others one by one after their before();
 *        then per workflow: fake reset → check.before(fake, vars) → n8n execute --id --rawOutput →
 *        check({output, outputSource, exitCode, stdout, stderr, fake, vars, apiKey, workflow}).
 *      `output` is the IRun JSON printed by n8n (from the first line that is exactly "{"). n8n's
 *      CLI loses executions that end very early ("No active execution found", e.g. parameter
 *      issues); then it is read from n8n's sqlite DB instead (outputSource "database").
 *      Workflows with a Web Data Trigger node cannot run with `n8n execute`: they are left out of
 *      this step (and out of the batch import) and go to step 5b.
 *   5b. trigger phase (./lib/trigger-phase.js): `n8n start` on free ports with the same user folder,
 *      owner + API key, a signing fake API; per trigger workflow, activation / deliveries / forged
 *      deliveries / retries / restart / deactivation proofs, one "ok" line each, then its check
 *      module (which exports `trigger = {connection: 'create' | 'attach'}` or `{source: 'jobs'}`).
 *      examples/rag/ (the site → vector store pair) runs there too, in that one n8n process
 *      (./lib/vector-store-phase.js): n8n's Simple Vector Store lives in the memory of one process.
 *   5c. screenshots (./lib/editor.js, also `npm run screenshots`): its own `n8n start` with a copy of
 *      the package, headless Chromium signed in as the owner; per picture, its panel rendered and the
 *      editor logged no error about our nodes. Skipped when E2E_FILTER is set.
 *   6. the canary key must not appear in anything n8n printed or returned
 *   7. "ok - name" / "not ok - name: reason" per test ("# …" lines are diagnostics), and as the
 *      last line "N passed, N failed"; exit 1 when anything failed.
 *
 * Check modules: module.exports = async (ctx) => { … throw on failure … };
 *   optional module.exports.before = async (fake, vars) => ({PLACEHOLDER: value, …});
 *   optional module.exports.vars = {PLACEHOLDER: value, …} (known before import: faster).
 *   fake: {url, log(), reset(), fault(rule), createAgent(props), agent(id), call(method, route, body)}.
 *
 * Plain CommonJS and Node built-ins only: this file runs under the system Node (20); n8n runs
 * under .cache/node24. n8n's logs go to <tmp>/n8n.log (tails are printed on failure).
 * Environment: E2E_KEEP_TMP=1 keeps the temp dir, E2E_FILTER=<substring> runs matching workflows.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const proc = require('./lib/proc');
const { startFake, fakeClient } = require('./lib/fake');
const { freePort, n8nEnv, n8n, parseExecutionOutput, writeJson } = require('./lib/n8n');
const { runTriggerPhase, isTriggerWorkflow } = require('./lib/trigger-phase');
const { packInto, runScreenshots } = require('./lib/editor');
const { hostProfile } = require('./lib/hosts');

const ROOT = path.resolve(__dirname, '..', '..');
// Which n8n (E2E_N8N, set by `npm run test:e2e:n8n1`): ./lib/hosts.js.
const HOST = hostProfile(process.env.E2E_N8N);
const NODE_DIR = HOST.nodeDir;
const HOST_DIR = HOST.hostDir;
const PACKAGE_NAME = 'n8n-nodes-webdata';
const NODE_TYPE = `${PACKAGE_NAME}.webData`;
const CREDENTIAL = { id: 'WebDataE2eCred01', name: 'Web Data account', type: 'webDataApi' };

const results = []; // {name, ok, reason?, ms?, details?}
const captured = []; // {source, text}: everything n8n printed or returned, scanned for the canary
const timings = [];
let tmp;

const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const indent = (text) =>
	String(text)
		.split('\n')
		.map((l) => `#   ${l}`)
		.join('\n');
const oneLine = (text) => String(text).replace(/\s+/g, ' ').trim().slice(0, 500);

function record(name, ok, reason, details) {
	results.push({ name, ok, reason, details });
	console.log(ok ? `ok - ${name}` : `not ok - ${name}: ${oneLine(reason)}`);
	if (!ok && details) console.log(indent(details));
}

class SetupError extends Error {
	constructor(message, details) {
		super(message);
		this.details = details;
	}
}

function capture(source, r) {
	captured.push({ source: `${source} (stdout)`, text: r.stdout }, { source: `${source} (stderr)`, text: r.stderr });
}

/** What to show of a failed n8n command: the tail of its output. */
function commandTail(r, n = 30) {
	return proc.tail(`${r.stdout}\n${r.stderr}`, n);
}

// ---------------------------------------------------------------------------------------------
async function install() {
	const t0 = Date.now();
	const r = await proc.run('bash', [path.join(ROOT, 'test', 'e2e', 'install.sh'), HOST.installArg], {
		cwd: ROOT,
		logFile: path.join(tmp, 'install.log'),
		timeoutMs: 20 * 60 * 1000,
	});
	timings.push(['install.sh', Date.now() - t0]);
	if (r.code !== 0) throw new SetupError(`test/e2e/install.sh failed (exit ${r.code})`, commandTail(r));
	const installedNow = /\[e2e install\] (Node|n8n into)/.test(r.stdout);
	console.log(`# install: ${installedNow ? 'installed' : 'already present'} (${secs(Date.now() - t0)}); ${oneLine(r.stdout.split('\n').filter((l) => l.includes('ready')).pop() || '')}`);
}

/** npm pack of the built package, untarred where n8n looks for community packages (./lib/editor.js packInto). */
async function installPackage(userFolder) {
	const t0 = Date.now();
	let target;
	try {
		target = await packInto(ROOT, tmp, userFolder);
	} catch (error) {
		throw new SetupError(error.message);
	}
	timings.push(['npm pack + untar', Date.now() - t0]);
	console.log(`# package: ${path.relative(tmp, target)} (${secs(Date.now() - t0)})`);
}

/**
 * Imports the Web Data credential (the first n8n command: it also runs the DB migrations). It runs
 * at log level debug, where n8n names every package it loads: that line proves the community
 * package was found and loaded. Resolves {ok, summary, details} about the package load.
 */
async function importCredential(ctx, fakeUrl, apiKey) {
	// Plain data: import:credentials encrypts a `data` object with N8N_ENCRYPTION_KEY (an already
	// encrypted string would be stored as is).
	const file = writeJson(tmp, 'credentials.json', [
		{ ...CREDENTIAL, data: { apiKey, baseUrl: fakeUrl, webhookSecret: '' } },
	]);
	let r;
	try {
		r = await n8n(ctx, ['import:credentials', `--input=${file}`], { env: { N8N_LOG_LEVEL: 'debug' } });
	} finally {
		fs.rmSync(file, { force: true }); // holds the canary key
	}
	capture('n8n import:credentials', r);
	timings.push(['import:credentials (incl. DB migrations)', r.ms]);
	if (r.code !== 0 || !/Successfully imported 1 credential/.test(r.stdout + r.stderr))
		throw new SetupError(`n8n import:credentials failed (exit ${r.code})`, commandTail(r));
	console.log(`# credential: ${CREDENTIAL.type} "${CREDENTIAL.name}" (${CREDENTIAL.id}) → ${fakeUrl} (${secs(r.ms)}, incl. DB migrations)`);

	const all = `${r.stdout}\n${r.stderr}`;
	const line = all.split('\n').find((l) => /(Loaded all credentials and nodes|Lazy-loading nodes and credentials) from n8n-nodes-webdata\b/.test(l));
	const problem = all.split('\n').find((l) => l.includes(PACKAGE_NAME) && /fail|skip|error/i.test(l));
	const count = (what) => Number((new RegExp(`"${what}":\\s*(\\d+)`).exec(line || '') || [])[1] || 0);
	if (line && !problem && count('nodes') >= 1 && count('credentials') >= 1)
		return { ok: true, summary: `${count('nodes')} node, ${count('credentials')} credential` };
	return {
		ok: false,
		summary: problem ? oneLine(problem) : line ? `unexpected counts: ${oneLine(line)}` : `n8n did not report loading ${PACKAGE_NAME}`,
		details: all.split('\n').filter((l) => /n8n-nodes-|package/i.test(l)).slice(0, 20).join('\n'),
	};
}

// ---------------------------------------------------------------------------------------------
function listWorkflows() {
	const list = [];
	for (const [dir, label] of [
		[path.join(ROOT, 'examples'), 'examples'],
		// the site → vector store pair: both in the trigger phase's one n8n (lib/vector-store-phase.js)
		[path.join(ROOT, 'examples', 'rag'), 'examples/rag'],
		[path.join(ROOT, 'test', 'e2e', 'workflows'), 'workflows'],
	]) {
		if (!fs.existsSync(dir)) continue;
		for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.json')).sort()) {
			const base = f.slice(0, -'.json'.length);
			list.push({ name: `${label}/${base}`, base, file: path.join(dir, f), checkFile: path.join(ROOT, 'test', 'e2e', 'checks', `${base}.js`) });
		}
	}
	return list;
}

/** Replaces {{NAME}} placeholders (upper case only, so n8n expressions stay) with values from `before`. */
function substitute(text, vars) {
	const unknown = new Set();
	const out = text.replace(/\{\{([A-Z][A-Z0-9_]*)\}\}/g, (m, key) => {
		if (!Object.prototype.hasOwnProperty.call(vars, key)) {
			unknown.add(key);
			return m;
		}
		return JSON.stringify(String(vars[key])).slice(1, -1); // escaped for a JSON string
	});
	if (unknown.size) throw new Error(`placeholders without a value from before(): ${[...unknown].join(', ')}`);
	return out;
}

/** Points every Web Data credential reference at the imported credential; gives the workflow an id. */
function prepareWorkflow(wf, id) {
	if (!Array.isArray(wf.nodes) || typeof wf.connections !== 'object') throw new Error('not a workflow (nodes/connections missing)');
	wf.id = id;
	wf.active = false;
	let ours = 0;
	for (const node of wf.nodes) {
		const isOurs = typeof node.type === 'string' && node.type.startsWith(`${PACKAGE_NAME}.`);
		if (isOurs) ours++;
		if (node.credentials && typeof node.credentials === 'object') {
			for (const type of Object.keys(node.credentials)) {
				if (type === CREDENTIAL.type) node.credentials[type] = { id: CREDENTIAL.id, name: CREDENTIAL.name };
			}
		}
		if (isOurs && !node.credentials?.[CREDENTIAL.type]) {
			node.credentials = { ...(node.credentials || {}), [CREDENTIAL.type]: { id: CREDENTIAL.id, name: CREDENTIAL.name } };
		}
	}
	return { wf, ours };
}

const executedTypes = { ranOk: 0 };

const placeholdersOf = (text) => new Set([...text.matchAll(/\{\{([A-Z][A-Z0-9_]*)\}\}/g)].map((m) => m[1]));

/**
 * Loads the check and the workflow. A workflow whose placeholders are all given by the check's
 * static `vars` export is prepared now and imported with the others in one n8n command (each n8n
 * command costs about 4 s of start-up); the rest are imported one by one after their before().
 */
function loadItem(item, index) {
	if (!fs.existsSync(item.checkFile)) throw new Error(`no check module ${path.relative(ROOT, item.checkFile)} (every workflow needs one)`);
	const check = require(item.checkFile);
	if (typeof check !== 'function') throw new Error(`${path.relative(ROOT, item.checkFile)} must export an async function`);
	item.check = check;
	item.staticVars = check.vars && typeof check.vars === 'object' ? { ...check.vars } : {};
	item.text = fs.readFileSync(item.file, 'utf8');
	item.placeholders = placeholdersOf(item.text);
	item.id = `e2e${String(index).padStart(3, '0')}${crypto.randomBytes(5).toString('hex')}`; // 16 chars
	// Run by the trigger phase, not by n8n execute: trigger workflows, those that start a job
	// reporting to one (their check exports `trigger = {reportsTo}`), and the site → vector store pair
	// (`trigger = {vectorStore}` / `{partOf}`: the Simple Vector Store lives in one n8n process).
	item.trigger = isTriggerWorkflow(item.text) || Boolean(check.trigger?.reportsTo || check.trigger?.vectorStore || check.trigger?.partOf);
	item.batch = !item.trigger && [...item.placeholders].every((k) => Object.prototype.hasOwnProperty.call(item.staticVars, k));
	if (item.batch) item.wf = prepare(item, item.staticVars);
}

function prepare(item, vars) {
	const { wf, ours } = prepareWorkflow(JSON.parse(substitute(item.text, vars)), item.id);
	if (ours === 0) throw new Error(`the workflow has no ${PACKAGE_NAME} node`);
	return wf;
}

function importFailure(r, what) {
	const e = new Error(`n8n import:workflow failed for ${what} (exit ${r.code})`);
	e.details = commandTail(r);
	return e;
}

async function importBatch(ctx, items) {
	const dir = path.join(tmp, 'workflows-batch');
	fs.mkdirSync(dir);
	for (const item of items) writeJson(dir, `${item.base}.json`, item.wf);
	const r = await n8n(ctx, ['import:workflow', '--separate', `--input=${dir}`]);
	capture('n8n import:workflow (batch)', r);
	timings.push([`import:workflow of ${items.length} workflow(s) at once`, r.ms]);
	const n = items.length;
	if (r.code !== 0 || !new RegExp(`Successfully imported ${n} workflows?\\.`).test(r.stdout + r.stderr)) throw importFailure(r, `${n} workflows`);
}

async function runWorkflow(ctx, fake, apiKey, item) {
	const t0 = Date.now();
	if (item.loadError) throw item.loadError;
	await fake.reset();
	const returned = (typeof item.check.before === 'function' ? await item.check.before(fake, { ...item.staticVars }) : undefined) || {};
	const vars = { ...item.staticVars, ...returned };
	let importMs = 0;
	if (item.batch) {
		const clash = Object.keys(returned).filter((k) => item.placeholders.has(k) && String(returned[k]) !== String(item.staticVars[k]));
		if (clash.length) throw new Error(`before() returned other values than exports.vars for ${clash.join(', ')} (the workflow was imported with exports.vars)`);
	} else {
		item.wf = prepare(item, vars);
		const file = writeJson(path.join(tmp, 'workflows'), `${item.base}.json`, item.wf);
		const imp = await n8n(ctx, ['import:workflow', `--input=${file}`]);
		capture(`n8n import:workflow ${item.name}`, imp);
		importMs = imp.ms;
		if (imp.code !== 0 || !/Successfully imported 1 workflow/.test(imp.stdout + imp.stderr)) throw importFailure(imp, item.name);
	}

	const exe = await n8n(ctx, ['execute', `--id=${item.id}`, '--rawOutput']);
	capture(`n8n execute ${item.name}`, exe);
	if (exe.signal === 'SIGSEGV' && !item.crashedOnce) {
		// The n8n process itself crashed on its way out (seen now and then in n8n 1.123 on Node 22 and
		// in 2.41 on Node 24, after the execution had finished and printed its result): the caller runs
		// the workflow once more and says so. A second crash goes to the check as it is.
		item.crashedOnce = true;
		const e = new Error(`n8n execute crashed (${exe.signal}) after ${secs(exe.ms)}`);
		e.crashed = true;
		e.details = commandTail(exe);
		throw e;
	}
	if (exe.timedOut) {
		const e = new Error('n8n execute timed out');
		e.details = commandTail(exe);
		throw e;
	}
	let output = parseExecutionOutput(exe.stdout);
	let outputSource = 'stdout';
	if (output === undefined) {
		// n8n's CLI loses executions that end very early ("No active execution found"); read the DB.
		output = await readExecution(ctx, item.id);
		outputSource = 'database';
	}
	if (output) captured.push({ source: `execution data of ${item.name} (${outputSource})`, text: JSON.stringify(output) });
	const loadProblem = /Unrecognized node type[^\n]*|Failed to load package[^\n]*|Skipping package[^\n]*/.exec(exe.stdout + exe.stderr + JSON.stringify(output ?? ''));
	if (loadProblem) {
		const e = new Error(`n8n did not load ${PACKAGE_NAME}: ${loadProblem[0]}`);
		e.details = commandTail(exe);
		throw e;
	}
	const runData = output?.data?.resultData?.runData ?? {};
	for (const node of item.wf.nodes) {
		if (node.type === NODE_TYPE && runData[node.name]?.some((r) => r.executionStatus === 'success' && !r.error)) executedTypes.ranOk++;
	}

	try {
		await item.check({ output, outputSource, exitCode: exe.code, stdout: exe.stdout, stderr: exe.stderr, fake, vars, apiKey, workflow: item.wf });
	} catch (e) {
		e.details = [
			e.details,
			`n8n execute exit ${exe.code}; execution data (from ${outputSource}):`,
			describeExecution(output),
			'n8n log tail:',
			proc.tail(`${withoutJsonBlock(exe.stdout)}\n${exe.stderr}`, 15),
		]
			.filter(Boolean)
			.join('\n');
		throw e;
	}
	timings.push([item.name, Date.now() - t0, `${importMs ? `import ${secs(importMs)} + ` : ''}execute ${secs(exe.ms)}`]);
}

/** A short account of an execution for failure reports: status, error, and each node's items. */
function describeExecution(output) {
	if (!output) return '  (none)';
	const clip = (v) => {
		const t = JSON.stringify(v) ?? 'undefined';
		return t.length > 400 ? `${t.slice(0, 400)}…` : t;
	};
	const lines = [`  status ${output.status ?? '?'}, finished ${output.finished}`];
	const error = output.data?.resultData?.error;
	if (error) lines.push(`  error: ${oneLine(error.message)}${error.description ? ` (${oneLine(error.description)})` : ''}`);
	for (const [name, runs] of Object.entries(output.data?.resultData?.runData ?? {})) {
		const run = runs[runs.length - 1] || {};
		const items = run.data?.main?.[0] ?? [];
		lines.push(`  node "${name}": ${run.executionStatus ?? '?'}, ${items.length} item(s)${run.error ? `, error: ${oneLine(run.error.message)}` : ''}`);
		items.slice(0, 3).forEach((it, i) => lines.push(`    [${i}] ${clip(it.json)}`));
	}
	return lines.join('\n');
}

/** stdout without the execution JSON block (what is left are n8n's log lines). */
function withoutJsonBlock(stdout) {
	const lines = String(stdout).split(/\r?\n/);
	const start = lines.findIndex((l) => l === '{');
	const end = lines.findIndex((l, i) => i > start && l === '}');
	if (start < 0 || end < 0) return stdout;
	return [...lines.slice(0, start), ...lines.slice(end + 1)].join('\n');
}

/** The newest execution of a workflow from n8n's sqlite DB (IRun-like), or null. */
async function readExecution(ctx, workflowId) {
	const r = await proc.run(
		path.join(ctx.nodeDir, 'bin', 'node'),
		[path.join(__dirname, 'lib', 'read-execution.js'), ctx.hostDir, path.join(ctx.env.N8N_USER_FOLDER, '.n8n', 'database.sqlite'), workflowId],
		{ timeoutMs: 30000 },
	);
	if (r.code !== 0) throw new Error(`could not read the execution from n8n's database: ${oneLine(r.stderr)}`);
	return JSON.parse(r.stdout);
}

// ---------------------------------------------------------------------------------------------
function scanForCanary(apiKey) {
	const hits = captured.filter((c) => c.text && c.text.includes(apiKey)).map((c) => c.source);
	if (hits.length) record('the API key never appears in n8n output', false, `the canary API key appears in: ${hits.join('; ')}`);
	else record('the API key never appears in n8n output', true);
}

let finished = false;
async function finish(code) {
	if (finished) return;
	finished = true;
	await proc.stopAll();
	const failed = results.filter((r) => !r.ok).length;
	const passed = results.length - failed;
	if (tmp) {
		if (failed === 0 && code === 0 && !process.env.E2E_KEEP_TMP) fs.rmSync(tmp, { recursive: true, force: true });
		else console.log(`# logs kept in ${tmp}`);
	}
	console.log(`${passed} passed, ${failed} failed`);
	process.exit(failed > 0 || code !== 0 ? 1 : 0);
}

async function main() {
	const started = Date.now();
	tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'webdata-e2e-'));
	fs.mkdirSync(path.join(tmp, 'workflows'));
	const userFolder = path.join(tmp, 'user');
	fs.mkdirSync(userFolder);

	const newer = Object.entries(HOST.needsNewerN8n ?? {});
	const workflows = listWorkflows().filter((w) => {
		const why = newer.find(([prefix]) => w.name.startsWith(prefix));
		if (why) console.log(`# not run on ${HOST.name}: ${w.name}: ${why[1]}`);
		return !why && (!process.env.E2E_FILTER || w.name.includes(process.env.E2E_FILTER));
	});
	const bases = workflows.map((w) => w.base);
	const dup = bases.filter((b, i) => bases.indexOf(b) !== i);
	for (const [i, item] of workflows.entries()) {
		try {
			loadItem(item, i);
		} catch (e) {
			item.loadError = e; // reported as this workflow's failure
		}
	}

	const apiKey = `wd-canary-${crypto.randomBytes(16).toString('hex')}`;
	const SETUP = 'setup: n8n with the community package, fake API, credential, workflows imported';
	let ctx;
	let fake;
	try {
		if (dup.length) throw new SetupError(`workflow file names must be unique across examples/ and test/e2e/workflows/ (they pick the check): ${dup.join(', ')}`);
		if (workflows.length === 0) throw new SetupError('no workflows found');
		await install();
		await installPackage(userFolder);
		const f = await startFake({ root: ROOT, apiKey, logFile: path.join(tmp, 'fake-api.log') });
		fake = fakeClient(f.url);
		const [port, brokerPort] = [await freePort(), await freePort()];
		ctx = {
			nodeDir: NODE_DIR,
			hostDir: HOST_DIR,
			workDir: tmp,
			logFile: path.join(tmp, 'n8n.log'),
			env: n8nEnv({ nodeDir: NODE_DIR, userFolder, encryptionKey: 'webdata-e2e-encryption-key-0001', port, brokerPort, host: HOST }),
		};
		const loaded = await importCredential(ctx, f.url, apiKey);
		const batch = workflows.filter((w) => !w.loadError && w.batch);
		if (batch.length) await importBatch(ctx, batch);
		record(SETUP, true);
		if (loaded.ok) record(`n8n loads ${PACKAGE_NAME} as a community package (${loaded.summary})`, true);
		else record(`n8n loads ${PACKAGE_NAME} as a community package`, false, loaded.summary, loaded.details);
	} catch (e) {
		record(SETUP, false, e.message, e.details || (e instanceof SetupError ? undefined : e.stack));
		return finish(1);
	}

	for (const item of workflows.filter((w) => !w.trigger)) {
		try {
			try {
				await runWorkflow(ctx, fake, apiKey, item);
			} catch (e) {
				if (!e.crashed) throw e;
				console.log(`# ${item.name}: ${e.message}; running it once more`);
				await runWorkflow(ctx, fake, apiKey, item);
			}
			record(item.name, true);
		} catch (e) {
			const reason =
				e.code === 'ERR_ASSERTION'
					? e.message.split('\n')[0] + (e.generatedMessage ? '' : ` (actual: ${oneLine(JSON.stringify(e.actual) ?? '')})`)
					: e.message;
			record(item.name, false, reason, e.details);
		}
	}

	const triggerItems = workflows.filter((w) => w.trigger);
	try {
		await runTriggerPhase({ root: ROOT, tmp, ctx, items: triggerItems, apiKey, record, captured, timings, substitute, oneLine });
	} catch (e) {
		record('trigger phase', false, e.message, e.stack);
	}

	// Screenshots from the real editor in headless Chromium (lib/editor.js, also `npm run screenshots`):
	// its own `n8n start` with a copy of the package installed above; one "screenshots: …" line per
	// picture; pictures go to the temp dir, never over examples/screenshots/. Skipped with E2E_FILTER.
	if (!process.env.E2E_FILTER && HOST.screenshots) {
		const packageDir = path.join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
		await runScreenshots({ root: ROOT, tmp, nodeDir: NODE_DIR, hostDir: HOST_DIR, outDir: path.join(tmp, 'screenshots'), packageDir, apiKey, record, captured, timings });
	}

	// (only when `n8n execute` ran something: an E2E_FILTER may select trigger-phase workflows alone)
	if (executedTypes.ranOk > 0) record(`n8n runs ${NODE_TYPE} nodes`, true);
	else if (workflows.some((w) => !w.trigger)) record(`n8n runs ${NODE_TYPE} nodes`, false, `no workflow ran a ${NODE_TYPE} node successfully`);
	scanForCanary(apiKey);

	for (const [name, ms, extra] of timings) console.log(`# time ${name}: ${secs(ms)}${extra ? ` (${extra})` : ''}`);
	console.log(`# total ${secs(Date.now() - started)}`);
	return finish(0);
}

process.on('exit', () => proc.killAllSync());
for (const sig of ['SIGINT', 'SIGTERM']) {
	process.on(sig, () => {
		console.log(`# interrupted (${sig})`);
		record('run', false, `interrupted by ${sig}`);
		finish(130);
	});
}

main().catch((e) => {
	record('run', false, e.message, e.stack);
	finish(1);
});
