'use strict';
// `npm run demo`: runs the examples/*.json workflows through n8n's workflow engine (n8n-core) with
// this package's nodes, and shows what each is for and what it produced.
//
//   npm run demo                                   the embedded fake API on 127.0.0.1: no account, no cost
//   WEBDATA_API_KEY=fc-… npm run demo              the real service, READ-ONLY examples only
//   WEBDATA_API_KEY=fc-… npm run demo -- --spend   the real service, every example (spends credits)
//   … npm run demo -- --only monitor,agent         only the examples whose file name contains one of these
//
// Against the real service (WEBDATA_API_KEY set; WEBDATA_BASE_URL, default https://api.firecrawl.dev)
// the examples that spend credits or change the account run only with --spend, or when the demo runs
// in a terminal and the user answers "y" to its question. All requests go through ./guard.js: without
// --spend it lets only GET/HEAD through; with it, after each example it deletes the monitors the
// example created and cancels agent runs, crawls and batch scrapes that still run, and stops browser
// sessions left open (also on Ctrl-C).
const fs = require('fs');
const path = require('path');
const readline = require('readline');

const { startGuard } = require('./guard');
const { classify, purpose, describeRun } = require('./examples');

const ROOT = path.resolve(__dirname, '..', '..');
const EXAMPLES = path.join(ROOT, 'examples');
const DEFAULT_SERVICE = 'https://api.firecrawl.dev';

function parseArgs(argv) {
	const options = { spend: false, only: [] };
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--spend') options.spend = true;
		else if (arg === '--only' || arg.startsWith('--only=')) {
			const value = arg === '--only' ? argv[++i] : arg.slice('--only='.length);
			options.only.push(...String(value ?? '').split(',').map((s) => s.trim()).filter(Boolean));
		} else if (arg === '--help' || arg === '-h') options.help = true;
		else throw new Error(`unknown argument ${arg} (use --spend, --only <names>, --help)`);
	}
	return options;
}

/**
 * Whether spending examples run: 'all' (the fake API, or --spend), 'ask' (real service, a terminal
 * to ask in) or 'read-only' (real service, nobody to ask: never spend without the flag).
 */
function spendDecision({ realService, spendFlag, interactive }) {
	if (!realService || spendFlag) return 'all';
	return interactive ? 'ask' : 'read-only';
}

async function ask(question) {
	const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
	try {
		return await new Promise((resolve) => rl.question(question, resolve));
	} finally {
		rl.close();
	}
}

/** Request paths without ids: what a person reads in "API calls". */
const withoutIds = (p) => p.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '{id}');

function loadExamples(only) {
	return fs
		.readdirSync(EXAMPLES)
		.filter((f) => f.endsWith('.json'))
		.sort()
		.filter((f) => only.length === 0 || only.some((s) => f.includes(s)))
		.map((file) => {
			const text = fs.readFileSync(path.join(EXAMPLES, file), 'utf8');
			const workflow = JSON.parse(text);
			return { file, base: path.basename(file, '.json'), text, workflow, ...classify(workflow) };
		});
}

async function main() {
	const options = parseArgs(process.argv.slice(2));
	if (options.help) {
		console.log(fs.readFileSync(__filename, 'utf8').split('\n').slice(1, 16).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
		return 0;
	}
	const realKey = process.env.WEBDATA_API_KEY;
	const examples = loadExamples(options.only);
	if (examples.length === 0) throw new Error(`no example matches --only ${options.only.join(',')}`);

	let api;
	let apiKey;
	let upstream;
	if (realKey) {
		apiKey = realKey;
		upstream = process.env.WEBDATA_BASE_URL || DEFAULT_SERVICE;
		console.log(`Using the real service at ${upstream} with your WEBDATA_API_KEY.`);
	} else {
		const { startFakeApi } = require('../fake-api/server');
		apiKey = 'demo-key';
		api = await startFakeApi({ apiKey, timeScale: Number(process.env.DEMO_TIME_SCALE || 1) });
		upstream = api.url;
		console.log(`No WEBDATA_API_KEY set: using the embedded fake API at ${api.url} (no account needed, nothing is spent).`);
	}

	// --- may the spending examples run? ---
	const spending = examples.filter((e) => e.kind === 'spend');
	const decision = spendDecision({ realService: Boolean(realKey), spendFlag: options.spend, interactive: Boolean(process.stdin.isTTY && process.stdout.isTTY) });
	let allowWrites = decision === 'all';
	if (realKey && spending.length) {
		console.log(`\n${spending.length} example(s) spend credits or change your account:`);
		for (const e of spending) console.log(`  ${e.base}: ${[...new Set(e.spends)].join(', ')}`);
		if (decision === 'ask') {
			const answer = await ask('Run them too? The demo deletes the monitors it creates and cancels runs still going at the end of each example. [y/N] ');
			allowWrites = /^y(es)?$/i.test(answer.trim());
		}
		console.log(allowWrites ? 'They will run (--spend).' : 'They are skipped: only read-only examples run. Add --spend to run them (npm run demo -- --spend).');
	}

	const guard = await startGuard({ upstream, apiKey, allowWrites });
	const credentials = { apiKey, baseUrl: guard.url };
	let interrupted = false;
	const onSigint = async () => {
		if (interrupted) process.exit(130);
		interrupted = true;
		console.log('\nInterrupted: cleaning up what the examples created…');
		printCleanup(await guard.cleanup());
		process.exit(130);
	};
	process.on('SIGINT', onSigint);

	process.env.N8N_LOG_LEVEL = process.env.N8N_LOG_LEVEL || 'silent';
	const { runWorkflow } = require('../helpers/workflow-runner');
	const { fakeClient } = require('../e2e/lib/fake');

	const counts = { ran: 0, failed: 0, skippedSpend: 0, skippedTrigger: 0 };
	for (const example of examples) {
		console.log(`\n▶ ${example.workflow.name?.replace(/^Web Data:\s*/, '') ?? example.base}  (examples/${example.file})`);
		console.log(`  What it is for: ${purpose(example.workflow, example.base)}`);
		if (example.kind === 'trigger') {
			// A webhook trigger only runs inside n8n: activate it there (npm run test:e2e does).
			console.log('  A Web Data Trigger workflow, or one that reports to it: import it into n8n and activate the trigger (npm run test:e2e proves it in the real n8n).');
			counts.skippedTrigger++;
			continue;
		}
		if (example.kind === 'spend' && !allowWrites) {
			console.log(`  Skipped: spends credits or changes your account (${[...new Set(example.spends)].join(', ')}).`);
			counts.skippedSpend++;
			continue;
		}
		let text = example.text;
		if (api) {
			// Seed the fake the way the e2e check of this example does (a job to look up, …).
			api.reset();
			const checkFile = path.join(ROOT, 'test', 'e2e', 'checks', `${example.base}.js`);
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
		console.log(`  ${result.status === 'success' ? 'Ran' : result.status} in ${seconds} s`);
		if (result.status === 'success') counts.ran++;
		else {
			counts.failed++;
			console.log(`  Error: ${result.error?.message}`);
			if (result.error?.description) console.log(`  ${result.error.description}`);
		}
		for (const line of describeRun(workflow, result.runData ?? {})) console.log(`  ${line}`);
		printCleanup(await guard.cleanup());
		if (api) console.log(`  API calls: ${api.log.map((r) => `${r.method} ${withoutIds(r.path)} → ${r.status}`).join(', ') || 'none'}`);
	}
	process.off('SIGINT', onSigint);
	if (guard.blocked.length) console.log(`\nBlocked by the demo (read-only): ${guard.blocked.map((b) => `${b.method} ${withoutIds(b.path)}`).join(', ')}`);
	await guard.close();
	if (api) await api.close();

	const considered = examples.length - counts.skippedTrigger - counts.skippedSpend;
	const notes = [];
	if (counts.skippedSpend) notes.push(`${counts.skippedSpend} that spend credits skipped: add --spend to run them`);
	if (counts.skippedTrigger) notes.push(`${counts.skippedTrigger} trigger workflow(s) skipped`);
	console.log(`\n${counts.ran} of ${considered} example workflows ran successfully${notes.length ? ` (${notes.join('; ')})` : ''}.`);
	return counts.failed ? 1 : 0;
}

function printCleanup(report) {
	for (const r of report) {
		if (r.ok) console.log(`  Cleaned up: ${r.text}.`);
		else console.log(`  NOT cleaned up: ${r.text}. Remove it by hand (DELETE ${r.path}).`);
	}
}

if (require.main === module) {
	main().then(
		(code) => process.exit(code),
		(error) => {
			console.error(error);
			process.exit(1);
		},
	);
}

module.exports = { parseArgs, spendDecision, loadExamples };
