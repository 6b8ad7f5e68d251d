'use strict';
// test/e2e/workflows/crawl-cancelled-at-budget.json: Manual Trigger → Web Data (Crawl → Run and Wait,
// Page Limit 20, Proxy auto, Options → Credit Budget per Execution 12) in the real n8n. The limit is
// lowered to 12 (12 pages × 1 credit fit), but the site is one where the auto proxy escalates to
// stealth (the fake's `fake-antibot` host): 5 credits a page. The crawl lasts 30 s (a page every
// 2.5 s); the poll that reads more than 12 credits spent cancels it (DELETE), and the node outputs
// the pages scraped so far, each saying it was cancelled at the budget (issue 35.3). Goal of the
// issue: never much past the budget — here at most the budget plus two pages (what can finish
// between a poll and the cancel).
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

const BUDGET = 12;
const PER_PAGE = 5; // 1 + 4 for the stealth proxy

async function check({ output, exitCode, fake }) {
	assert.equal(exitCode, 0, 'n8n execute should succeed: the cancelled crawl outputs its pages');
	const log = await fake.log();
	const starts = log.filter((r) => r.method === 'POST' && r.path === '/v2/crawl');
	assert.equal(starts.length, 1, 'one crawl started');
	assert.equal(starts[0].body.limit, BUDGET, `the Page Limit 20 is lowered to what 12 credits pay for at 1 a page (sent ${starts[0].body.limit})`);
	assert.equal(starts[0].body.scrapeOptions?.proxy, 'auto');

	const pages = nodeItems(output, 'Crawl site');
	const id = pages[0]?.json.jobId;
	assert.match(String(id), /^[0-9a-f-]{36}$/, 'the pages carry the crawl id');
	const deletes = log.filter((r) => r.method === 'DELETE');
	assert.deepEqual(deletes.map((r) => `${r.path} ${r.status}`), [`/v2/crawl/${id} 200`], 'the crawl is cancelled once, at the service');
	const polls = log.filter((r) => r.method === 'GET' && r.path === `/v2/crawl/${id}`);
	const del = deletes[0];
	assert.ok(polls.some((r) => r.seq < del.seq) && polls.some((r) => r.seq > del.seq), 'polled before the cancel, its pages read after it');

	const n = pages.length;
	// Stopped when it passed the budget, or when at its rate it would pass before the next read: how many pages that is depends on the machine.
	assert.ok(n >= 1, `the pages scraped before the cancel come out (${n})`);
	assert.ok(n * PER_PAGE <= BUDGET + 2 * PER_PAGE, `cancelled soon after it passed the budget: ${n} pages, ${n * PER_PAGE} credits for a budget of ${BUDGET}`);
	assert.ok(n < BUDGET, `fewer pages than the limit: the crawl did not finish (${n})`);
	assert.equal(new Set(pages.map((p) => p.json.metadata?.sourceURL ?? p.json.url)).size, n, 'different pages');
	const spent = n * PER_PAGE;
	for (const page of pages) {
		assert.equal(page.json.jobId, id);
		assert.equal(page.json.metadata?.proxyUsed, 'stealth', 'the auto proxy escalated to stealth');
		assert.equal(page.json.metadata?.creditsUsed, PER_PAGE, 'a stealth page costs 5 credits');
		const c = page.json.credits;
		assert.equal(c?.cancelledAtBudget, true, 'each page says the crawl was cancelled at the budget');
		assert.match(String(c.message), new RegExp(`^The crawl was cancelled at the credit budget: it had spent \\d+ (credits where ${BUDGET} were left for it|of the ${BUDGET} credits left for it, at a rate that would pass them before the next read); \\d+ in all with the pages that finished while it stopped\\. These are the ${n} pages it scraped\\.`));
		assert.deepEqual({ ...c, message: undefined, cancelledAtBudget: undefined }, { used: spent, execution: spent, budget: BUDGET, left: 0, pageLimitLowered: { from: 20, to: BUDGET, creditsPerPage: 1 }, message: undefined, cancelledAtBudget: undefined }, `what the crawl cost: ${JSON.stringify(c)}`);
	}

	const custom = output.data?.resultData?.metadata;
	assert.equal(custom?.webdata_credits, String(spent), `the execution's total is what the cancelled crawl's pages cost (${custom?.webdata_credits})`);
	const ledger = JSON.parse(custom.webdata_budget);
	assert.deepEqual(Object.values(ledger.c), [{ s: spent, r: 0 }], `spent, nothing reserved, no hold left (${custom.webdata_budget})`);
	console.log(`# crawl-cancelled-at-budget: limit sent ${starts[0].body.limit}, ${n} pages out, ${spent} credits spent for a budget of ${BUDGET}, ${polls.filter((r) => r.seq < del.seq).length} polls before the cancel`);
}

module.exports = check;
