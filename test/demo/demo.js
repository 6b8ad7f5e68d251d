'use strict';
// `npm run demo`: runs every examples/*.json workflow through n8n's workflow engine (n8n-core) with
// this package's nodes, and prints what each produced.
//
// With no key it starts the project's fake API on 127.0.0.1 and seeds it the way the e2e checks do,
// so it works with no account. With WEBDATA_API_KEY (and optionally WEBDATA_BASE_URL) set, the same
// workflows go to the real service instead (examples that need an existing id will say so).
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const EXAMPLES = path.join(ROOT, 'examples');

function short(value, max = 160) {
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	if (text === undefined) return String(value);
	const flat = text.replace(/\s+/g, ' ');
	return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** The nodes of this package in a workflow, in run order. */
function webDataNodes(workflow) {
	return workflow.nodes.filter((n) => n.type === 'n8n-nodes-webdata.webData').map((n) => n.name);
}

function printItems(name, items) {
	console.log(`  ${name}: ${items.length} item(s)`);
	for (const [i, item] of items.slice(0, 3).entries()) {
		const fields = Object.entries(item.json).slice(0, 6).map(([k, v]) => `${k}=${short(v, 70)}`);
		const binaries = Object.keys(item.binary ?? {});
		console.log(`    [${i}] ${fields.join('  ')}${binaries.length ? `  binary: ${binaries.join(', ')}` : ''}`);
	}
	if (items.length > 3) console.log(`    … ${items.length - 3} more`);
}

async function main() {
	const realKey = process.env.WEBDATA_API_KEY;
	let api;
	let credentials;
	if (realKey) {
		credentials = { apiKey: realKey, baseUrl: process.env.WEBDATA_BASE_URL || 'https://api.firecrawl.dev' };
		console.log(`Using the real service at ${credentials.baseUrl}.`);
	} else {
		const { startFakeApi } = require('../fake-api/server');
		const key = 'demo-key';
		api = await startFakeApi({ apiKey: key, timeScale: Number(process.env.DEMO_TIME_SCALE || 1) });
		credentials = { apiKey: key, baseUrl: api.url };
		console.log(`No WEBDATA_API_KEY set: using the embedded fake API at ${api.url} (no account needed).`);
	}
	process.env.N8N_LOG_LEVEL = process.env.N8N_LOG_LEVEL || 'silent';
	const { runWorkflow } = require('../helpers/workflow-runner');
	const { fakeClient } = require('../e2e/lib/fake');

	const files = fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.json')).sort();
	let failed = 0;
	let skipped = 0;
	for (const file of files) {
		let text = fs.readFileSync(path.join(EXAMPLES, file), 'utf8');
		const base = path.basename(file, '.json');
		console.log(`\n▶ examples/${file}`);
		if (text.includes('"n8n-nodes-webdata.webDataTrigger"')) {
			// A webhook trigger only runs inside n8n: activate it there (npm run test:e2e does).
			console.log('  a Web Data Trigger workflow: import it into n8n and activate it (npm run test:e2e proves it in the real n8n)');
			skipped++;
			continue;
		}
		if (api) {
			// Seed the fake the way the e2e check of this example does (a job to look up, …).
			api.reset();
			const checkFile = path.join(ROOT, 'test', 'e2e', 'checks', `${base}.js`);
			if (fs.existsSync(checkFile)) {
				const check = require(checkFile);
				const vars = { ...(check.vars ?? {}), ...((check.before && (await check.before(fakeClient(api.url), {}))) ?? {}) };
				text = text.replace(/\{\{([A-Z][A-Z0-9_]*)\}\}/g, (m, key) => (key in vars ? String(vars[key]) : m));
			}
		}
		const workflow = JSON.parse(text);
		const started = Date.now();
		const result = await runWorkflow(workflow, { credentials: { webDataApi: credentials } });
		const seconds = ((Date.now() - started) / 1000).toFixed(1);
		console.log(`  ${workflow.name ?? base}: ${result.status} in ${seconds} s`);
		if (result.status !== 'success') {
			failed++;
			console.log(`  error: ${result.error?.message}`);
			if (result.error?.description) console.log(`  ${result.error.description}`);
			continue;
		}
		for (const name of webDataNodes(workflow)) {
			try {
				printItems(name, result.items(name));
			} catch {
				console.log(`  ${name}: did not run`);
			}
		}
		if (api) console.log(`  API calls: ${api.log.map((r) => `${r.method} ${r.path} → ${r.status}`).join(', ')}`);
	}
	if (api) await api.close();
	console.log(`\n${files.length - failed - skipped} of ${files.length - skipped} example workflows ran successfully${skipped ? ` (${skipped} trigger workflow(s) skipped)` : ''}.`);
	process.exit(failed ? 1 : 0);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
