#!/usr/bin/env node
'use strict';
/**
 * A retried execution under a credit budget in the real n8n (npm run test:e2e:retry; in n8n 1.123 with
 * E2E_N8N=n8n1, npm run test:e2e:n8n1:retry), issue 44.4. `n8n start` with the packed package, an
 * owner, a Web Data credential on the fake API; a workflow whose nodes all have Options → Credit
 * Budget per Execution 42: Crawl → Start (Page Limit 40: it holds 40 for the crawl, not read again
 * in this execution) → Scrape with the JSON format (5 credits: 2 are left, so it is refused and the
 * execution fails). Then the editor's Retry (POST /rest/executions/:id/retry, "from the failed node"):
 * n8n copies the execution's custom data; the retried Scrape must run (the first execution's job hold
 * is let go; what it spent stays spent) and the retried execution's ledger says so.
 *
 * Output ends with "N passed, N failed"; exit 1 on any failure. RETRY_BUDGET_KEEP_TMP=1 keeps logs.
 */
const path = require('node:path');

const { runPhaseSuite, runScript } = require('./lib/instance');
const { secs, reporter } = require('./lib/report');
const { Phase } = require('./lib/trigger-phase');

const ROOT = path.resolve(__dirname, '..', '..');
const BUDGET = 42;

const report = reporter();
const { record } = report;

function workflowText() {
	const node = (id, name, parameters, x) => ({ id, name, type: 'n8n-nodes-webdata.webData', typeVersion: 1, position: [x, 0], parameters });
	const nodes = [
		{ id: 'r1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		node('r2', 'Start crawl', { resource: 'crawl', operation: 'start', url: 'https://example.com', pageLimit: 40, options: { creditBudget: BUDGET } }, 220),
		node('r3', 'Scrape with JSON', { resource: 'scrape', url: 'https://example.com/pricing', formats: ['markdown', 'json'], jsonPrompt: 'The plans', options: { creditBudget: BUDGET } }, 440),
	];
	const connections = {
		Start: { main: [[{ node: 'Start crawl', type: 'main', index: 0 }]] },
		'Start crawl': { main: [[{ node: 'Scrape with JSON', type: 'main', index: 0 }]] },
	};
	return JSON.stringify({ name: 'e2e: a retried execution starts clean of the first one\'s job holds', nodes, connections, settings: { executionOrder: 'v1' } });
}

const ledgerOf = (execution) => JSON.parse(execution.data?.resultData?.metadata?.webdata_budget ?? '{}');

async function retry(phase) {
	const w = await phase.createWorkflow({ text: workflowText(), base: 'retry-budget' }, {}, phase.credentials.tokenOnly);
	let first;
	await phase.step('the first execution: the crawl holds 40 of 42, the JSON scrape (5) is refused, the execution fails', async () => {
		const started = await phase.runManually(w.id, 'Start');
		if (started.status !== 200) throw new Error(`run answered ${started.status}`);
		const [e] = await phase.executions(w.id, { count: 1 });
		first = await phase.api('GET', `/executions/${e.id}?includeData=true`);
		if (first.status !== 'error') throw new Error(`status ${first.status}`);
		const error = first.data.resultData.error?.message ?? '';
		if (!/^Credit budget reached: This scrape would cost at least 5 credits, and 2 of this execution's 42 are left/.test(error)) throw new Error(`error: ${error}`);
		const ledger = ledgerOf(first);
		const [account] = Object.values(ledger.c ?? {});
		if (!account || Object.values(account.j ?? {}).join() !== '40') throw new Error(`the crawl should hold 40: ${JSON.stringify(ledger)}`);
		const scrapes = (await phase.fake.log()).filter((r) => r.method === 'POST' && r.path === '/v2/scrape');
		if (scrapes.length !== 0) throw new Error(`${scrapes.length} scrape(s) sent`);
		return `execution ${e.id}, ledger ${JSON.stringify(ledger)}`;
	});
	if (!first) return;
	await phase.step('Retry (from the failed node): the copied ledger lets go of the first execution\'s hold; the scrape runs and counts 5', async () => {
		const r = await phase.rest('POST', `/rest/executions/${first.id}/retry`, { loadWorkflow: false }, { cookie: phase.cookie });
		if (r.status !== 200) throw new Error(`retry answered ${r.status}: ${JSON.stringify(r.json).slice(0, 300)}`);
		const all = await phase.executions(w.id, { count: 2 });
		const retriedId = all.map((e) => e.id).find((id) => String(id) !== String(first.id));
		const retried = await phase.api('GET', `/executions/${retriedId}?includeData=true`);
		if (retried.status !== 'success') throw new Error(`retried status ${retried.status}: ${retried.data?.resultData?.error?.message}`);
		const items = retried.data.resultData.runData['Scrape with JSON'].at(-1).data.main[0];
		const credits = items[0].json.credits;
		if (credits?.used !== 5 || credits?.left !== BUDGET - 5) throw new Error(`the scrape's credits: ${JSON.stringify(credits)}`);
		const ledger = ledgerOf(retried);
		const [account] = Object.values(ledger.c ?? {});
		if (account?.s !== 5 || account?.j !== undefined || String(ledger.x) !== String(retriedId)) throw new Error(`the retried ledger: ${JSON.stringify(ledger)}`);
		const scrapes = (await phase.fake.log()).filter((x) => x.method === 'POST' && x.path === '/v2/scrape');
		if (scrapes.length !== 1) throw new Error(`${scrapes.length} scrapes sent`);
		return `execution ${retriedId}, ledger ${JSON.stringify(ledger)}`;
	});
}

runScript(() =>
	runPhaseSuite({
		report,
		root: ROOT,
		prefix: 'webdata-retry-budget-',
		encryptionKey: 'webdata-e2e-encryption-key-0007',
		keepTmpEnv: 'RETRY_BUDGET_KEEP_TMP',
		Suite: Phase,
		setupLabel: (startMs) => `set-up (package, fake API, n8n start ready in ${secs(startMs)}, owner, credentials)`,
		setupFailedLabel: 'set-up',
		run: retry,
		leakLabel: 'the API key never appears in n8n output',
		timingLines: false,
	}),
);
