#!/usr/bin/env node
'use strict';
/**
 * Credit budget benchmark (a script, not a test; issue 35): a mixed workflow run under a range of
 * budgets, printing what the service billed against the budget and the requests refused before
 * spending. Goal: billed ≤ budget + one request's reported cost, in every run.
 *
 *   npm run bench:budget                         (builds, then node test/bench/budget.js)
 *   node test/bench/budget.js --rounds 5 --budgets 10,40,160
 *
 * The workflow (n8n's engine, n8n-core WorkflowExecute, as in the integration tests; every Web Data
 * node with Continue On Fail, so a refusal does not stop the run):
 *   12 URLs → Scrape URL (Concurrency 5; every 3rd URL with a JSON format = 5 credits, every 4th on a
 *   host where the auto proxy escalates to stealth = 5 credits where 1 was reserved)
 *   → Search with scraping (5 results, once) → Crawl Run and Wait (Page Limit 30, auto proxy on an
 *   escalating host, once) → Batch Scrape Run and Wait (the 12 URLs) → Agent Run and Wait (once)
 *   → Interact: a browser session (TTL 600 s), code run in it, stopped → Monitor → Run Check Now of a
 *   monitor of 3 pages on the Enhanced proxy (5 credits a page, waited for); and beside the chain,
 *   Parse File of a 3-page PDF with PDF Options → Max Pages 3 (issue 44).
 * Each budget also runs a retried execution: the same workflow again with the first run's custom
 * data, as n8n's Retry copies it; its row says what that run could still spend ("retry" columns).
 * "Billed" is the truth from the fake service's side, not the node's ledger: each answered scrape's
 * and search's creditsUsed as the fake computed it (its request log), plus each crawl's, batch's and
 * agent run's final creditsUsed read from the fake after the run. "Refused" = error items whose
 * error is a credit budget refusal; "sent" = requests that spend (scrape, search, crawl, batch,
 * agent starts) the fake received.
 */
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const args = process.argv.slice(2);
const arg = (name, fallback) => {
	const at = args.indexOf(`--${name}`);
	return at === -1 ? fallback : args[at + 1];
};
const ROUNDS = Number(arg('rounds', 3));
const BUDGETS = String(arg('budgets', '10,20,40,80,160,320')).split(',').map(Number);

const { runWorkflow } = require(path.join(ROOT, 'test/helpers/workflow-runner'));
const { startFakeApi } = require(path.join(ROOT, 'test/fake-api/server'));
const { CANARY_KEY } = require(path.join(ROOT, 'test/helpers/canary'));

const PDF = path.join(ROOT, 'test', 'fixtures', 'report.pdf');
const URLS = Array.from({ length: 12 }, (_, k) => (k % 4 === 3 ? `https://fake-antibot.example/p${k}` : `https://example.com/p${k}`));

function node(id, name, parameters, extra = {}) {
	return {
		id,
		name,
		type: 'n8n-nodes-webdata.webData',
		typeVersion: 1,
		position: [200 * Number(id.slice(1)), 0],
		parameters,
		credentials: { webDataApi: { id: 'c1', name: 'Web Data account' } },
		onError: 'continueRegularOutput',
		...extra,
	};
}

function workflow(monitorId) {
	const items = URLS.map((url, k) => ({ json: { url, json: k % 3 === 2 }, ...(k === 0 ? { binary: { data: { path: PDF } } } : {}) }));
	const session = { __rl: true, mode: 'id', value: "={{ $('Open browser').first().json.id }}" };
	const nodes = [
		{ id: 'n0', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{ id: 'n1', name: 'URLs', type: 'test.items', typeVersion: 1, position: [200, 0], parameters: { items: JSON.stringify(items) } },
		node('n2', 'Scrape', {
			resource: 'scrape',
			url: '={{ $json.url }}',
			formats: '={{ $json.json ? ["markdown", "json"] : ["markdown"] }}',
			jsonPrompt: 'the title',
			scrapeOptions: { proxy: 'auto' },
			options: { concurrency: 5 },
		}),
		node('n3', 'Search', { resource: 'search', query: 'web data budgets', maxResults: 5, scrapeResults: true, formats: ['markdown'] }, { executeOnce: true }),
		node('n4', 'Crawl', { resource: 'crawl', operation: 'runAndWait', url: 'https://fake-antibot.example/fake-duration-20000', pageLimit: 30, scrapeOptions: { proxy: 'auto' }, maxWait: 60 }, { executeOnce: true }),
		node('n5', 'Batch', { resource: 'batchScrape', operation: 'runAndWait', url: `={{ ${JSON.stringify(URLS)}[$itemIndex % ${URLS.length}] }}`, formats: ['markdown'], maxWait: 60 }),
		node('n6', 'Agent', { resource: 'agent', operation: 'runAndWait', prompt: 'Find the company behind example.com', maxWait: 60 }, { executeOnce: true }),
		node('n7', 'Open browser', { resource: 'interact', operation: 'start', options: { ttl: 600 } }, { executeOnce: true }),
		node('n8', 'Run in browser', { resource: 'interact', operation: 'execute', target: 'session', sessionId: session, code: 'console.log(document.title)', language: 'node' }, { executeOnce: true }),
		node('n9', 'Close browser', { resource: 'interact', operation: 'stop', target: 'session', sessionId: session }, { executeOnce: true }),
		node('n10', 'Monitor check', { resource: 'monitor', operation: 'runCheck', monitorId: { __rl: true, mode: 'id', value: monitorId }, waitForCheck: true, maxWait: 30 }, { executeOnce: true }),
		node('n11', 'Parse', { resource: 'parse', operation: 'parseFile', pdfOptions: { maxPages: 3 } }, { executeOnce: true }),
	];
	const chain = ['Start', 'URLs', 'Scrape', 'Search', 'Crawl', 'Batch', 'Agent', 'Open browser', 'Run in browser', 'Close browser', 'Monitor check'];
	const connections = Object.fromEntries(chain.slice(0, -1).map((name, k) => [name, { main: [[{ node: chain[k + 1], type: 'main', index: 0 }]] }]));
	connections.URLs.main[0].push({ node: 'Parse', type: 'main', index: 0 });
	return { nodes, connections, settings: { executionOrder: 'v1' } };
}

/** What the fake billed for this run: its answers' creditsUsed and the jobs' final status. */
async function billed(api) {
	let total = 0;
	let largest = 0;
	const add = (n) => {
		total += n;
		largest = Math.max(largest, n);
	};
	for (const r of api.requests({ method: 'POST' })) {
		if (r.status !== 200) continue;
		if (r.path === '/v2/scrape' || r.path === '/v2/search' || r.path === '/v2/parse') add(Number(r.creditsUsed ?? 0));
	}
	// A browser session: what stopping it billed (its code runs are inside it).
	for (const r of api.requests({ method: 'DELETE', path: '/v2/interact/' })) if (r.status === 200) add(Number(r.creditsUsed ?? 0));
	const read = async (p) => (await fetch(`${api.url}${p}`, { headers: { Authorization: `Bearer ${CANARY_KEY}` } })).json();
	for (const [start, base] of [['/v2/crawl', '/v2/crawl'], ['/v2/batch/scrape', '/v2/batch/scrape'], ['/v2/agent', '/v2/agent']]) {
		for (const r of api.requests({ method: 'POST', path: start })) {
			if (r.status !== 200 || !r.jobId) continue;
			const status = await read(`${base}/${r.jobId}${base === '/v2/agent' ? '' : '?limit=1'}`);
			const spent = Number(status.creditsUsed ?? 0);
			total += spent;
			// A job's "one request" is one page: the largest page cost is at most 5 here.
			largest = Math.max(largest, base === '/v2/agent' ? spent : 5);
		}
	}
	for (const r of api.requests({ method: 'POST', path: '/run' })) {
		if (r.status !== 200 || !r.jobId) continue;
		const monitorId = r.path.split('/')[3];
		const check = await read(`/v2/monitor/${monitorId}/checks/${r.jobId}`);
		add(Number(check.actualCredits ?? check.data?.actualCredits ?? 0));
	}
	return { total, largest };
}

const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const NODES = ['Scrape', 'Search', 'Crawl', 'Batch', 'Agent', 'Open browser', 'Run in browser', 'Close browser', 'Monitor check', 'Parse'];
const SPENDING = ['/v2/scrape', '/v2/search', '/v2/crawl', '/v2/batch/scrape', '/v2/agent', '/v2/interact', '/v2/parse'];

async function seedMonitor(api) {
	const targets = [{ type: 'scrape', urls: ['https://example.com/a', 'https://example.com/b', 'https://example.com/c'], scrapeOptions: { proxy: 'enhanced' } }];
	const res = await fetch(`${api.url}/__fake/monitor`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ targets }) });
	return (await res.json()).id;
}

async function round(budget) {
	const api = await startFakeApi({ apiKey: CANARY_KEY, timeScale: 10 });
	try {
		const credentials = { webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url, webhookSecret: '', creditBudget: budget } };
		const wf = workflow(await seedMonitor(api));
		const result = await runWorkflow(wf, { credentials, executionId: `bench-${budget}` });
		const first = await outcome(api, result, budget);
		// n8n's Retry: a new execution with the first one's custom data.
		api.reset();
		const retried = await runWorkflow(workflow(await seedMonitor(api)), { credentials, executionId: `bench-${budget}-retry`, customData: result.run.data.resultData.metadata ?? {} });
		const again = await outcome(api, retried, budget);
		return { ...first, retryBilled: again.billed, retrySent: again.sent, retryLedger: again.ledger };
	} finally {
		await api.close();
	}
}

async function outcome(api, result, budget) {
	const items = NODES.flatMap((name) => (result.runData[name] ? result.json(name) : []));
	const refused = items.filter((j) => typeof j.error === 'string' && j.error.startsWith('Credit budget reached')).length;
	const sent = api.requests({ method: 'POST' }).filter((r) => SPENDING.includes(r.path) || r.path.endsWith('/run') || r.path.endsWith('/execute')).length;
	const truth = await billed(api);
	const ledger = Number((result.run.data.resultData.metadata ?? {}).webdata_credits ?? 0);
	const byNode = JSON.parse((result.run.data.resultData.metadata ?? {}).webdata_budget ?? '{"n":{}}').n;
	if (process.env.BENCH_TRACE) console.log(budget, JSON.stringify(byNode));
	return { status: result.status, billed: truth.total, largest: truth.largest, ledger, refused, sent, over: truth.total - budget };
}

(async () => {
	console.log(`Credit budget benchmark: ${ROUNDS} rounds per budget, budgets ${BUDGETS.join(', ')}`);
	console.log('budget | billed (median, max) | node ledger (median) | over budget (max) | one request at most | refused before spending (median) | spending requests sent (median) | retry: billed (median) | retry: sent (median) | goal held');
	let allHeld = true;
	for (const budget of BUDGETS) {
		const runs = [];
		for (let k = 0; k < ROUNDS; k++) runs.push(await round(budget));
		// The retried run starts from what the first spent (the same ledger): both together stay inside.
		const held = runs.every((r) => r.billed <= budget + r.largest && r.billed + r.retryBilled <= budget + r.largest);
		allHeld &&= held;
		const maxBilled = Math.max(...runs.map((r) => r.billed));
		console.log(
			`${budget} | ${median(runs.map((r) => r.billed))}, ${maxBilled} | ${median(runs.map((r) => r.ledger))} | ${Math.max(...runs.map((r) => r.over))} | ${Math.max(...runs.map((r) => r.largest))} | ${median(runs.map((r) => r.refused))} | ${median(runs.map((r) => r.sent))} | ${median(runs.map((r) => r.retryBilled))} | ${median(runs.map((r) => r.retrySent))} | ${held ? 'yes' : 'NO'}`,
		);
	}
	console.log(allHeld ? 'Every run: billed ≤ budget + one request\'s reported cost.' : 'GOAL MISSED in at least one run.');
	process.exit(allHeld ? 0 : 1);
})().catch((error) => {
	console.error(error);
	process.exit(2);
});
