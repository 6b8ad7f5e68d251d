'use strict';
// examples/crawl-with-credit-budget.json: Manual Trigger → Web Data (Crawl → Run and Wait, Page Limit
// 50, Options → Credit Budget per Execution 5) → Set "Credits spent" (once) in the real n8n. The
// budget pays for 5 pages at the least a page costs (1 credit: Markdown, no proxy), so the crawl is
// started with limit 5, not 50 (issue 35.3); its pages say so; the execution's custom data holds the
// 5 credits its pages cost, and the hold is gone once the crawl ended. ("Credits spent" reads the
// items' credits.execution: n8n's expressions cannot call $execution.customData.get — it is
// undefined in expressions in both 2.41 and 1.123; the Code node can.)
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

async function check({ output, exitCode, fake }) {
	assert.equal(exitCode, 0, 'n8n execute should succeed');
	const log = await fake.log();
	const starts = log.filter((r) => r.method === 'POST' && r.path === '/v2/crawl');
	assert.equal(starts.length, 1, 'one crawl started');
	assert.equal(starts[0].body.limit, 5, `the crawl is sent with the Page Limit lowered to the budget (sent ${starts[0].body.limit}, asked 50)`);

	const pages = nodeItems(output, 'Crawl site');
	assert.equal(pages.length, 5, 'one item per crawled page: 5');
	const id = pages[0].json.jobId;
	for (const page of pages) {
		assert.equal(page.json.jobId, id);
		assert.equal(page.json.jobStatus, 'completed');
		assert.deepEqual(
			page.json.credits,
			{ used: 5, execution: 5, budget: 5, left: 0, pageLimitLowered: { from: 50, to: 5, creditsPerPage: 1 } },
			'each page says what the crawl cost, the budget, and that its Page Limit was lowered',
		);
	}
	const status = log.filter((r) => r.method === 'GET' && r.path === `/v2/crawl/${id}`);
	assert.ok(status.length >= 2, 'the crawl was polled and read');
	assert.equal(log.filter((r) => r.method === 'DELETE').length, 0, 'nothing cancelled: the crawl fits');

	const [summary, ...more] = nodeItems(output, 'Credits spent');
	assert.equal(more.length, 0, '"Credits spent" runs once');
	assert.equal(summary.json.pages, 5);
	assert.equal(summary.json.creditsSpent, 5, "the items' credits.execution: what the crawl's pages cost");
	assert.equal(summary.json.creditBudget, 5);

	// The execution's custom data as n8n keeps it: the total, and the ledger with no hold left.
	const custom = output.data?.resultData?.metadata;
	assert.ok(custom, 'the execution carries its custom data');
	assert.equal(custom.webdata_credits, '5');
	const ledger = JSON.parse(custom.webdata_budget);
	const accounts = Object.values(ledger.c);
	assert.deepEqual(accounts, [{ s: 5, r: 0 }], `one credential's account: 5 spent, nothing reserved or held (${custom.webdata_budget})`);
	assert.deepEqual(ledger.n, { 'Crawl site': 5 });
}

module.exports = check;
