'use strict';
// test/e2e/workflows/batch-scrape-over-budget.json: Manual Trigger → Scrape (1 credit) → 3 URLs →
// Batch Scrape → Run and Wait, both Web Data nodes with Options → Credit Budget per Execution 3, in
// the real n8n. The batch needs at least 3 credits (3 URLs × 1) and 2 are left: it is refused before
// anything is sent (issue 35.2), naming the budget, what was spent and by which node.
const assert = require('node:assert/strict');
const { nodeItems, errorText } = require('../lib/output');

async function check(ctx) {
	const { output, exitCode, fake } = ctx;
	assert.notEqual(exitCode, 0, 'n8n execute fails: the batch is refused');
	assert.equal(output.status, 'error', `the execution has status "error" (${output.status})`);
	const scraped = nodeItems(output, 'Scrape home page');
	assert.equal(scraped.length, 1);
	assert.deepEqual(scraped[0].json.credits, { used: 1, execution: 1, budget: 3, left: 2 }, 'the scrape spent 1 of the 3');
	assert.equal(nodeItems(output, 'One item per URL').length, 3, 'three URLs reach the batch');

	const error = output.data.resultData.error;
	assert.ok(error, 'the execution carries an error');
	assert.match(
		String(error.message),
		/^Credit budget reached: This batch scrape \(3 URLs, at least 1 credit each\) would cost at least 3 credits, and 2 of this execution's 3 are left/,
		'the error names the budget, the cost and what is left',
	);
	const text = errorText(ctx);
	assert.match(text, /Nothing was sent/);
	assert.match(text, /Spent in this execution with this credential: 1 credit \(Scrape home page: 1\)/, 'it says what was spent and by which node');
	assert.match(text, /The budget \(3\) is this node's option Credit Budget per Execution/);

	const log = await fake.log();
	const trail = log.map((r) => `${r.method} ${r.path}`);
	assert.deepEqual(trail, ['POST /v2/scrape'], `nothing but the scrape reached the API: no POST /v2/batch/scrape (got ${trail.join(', ')})`);
	const custom = output.data.resultData.metadata;
	assert.equal(custom?.webdata_credits, '1', 'the execution spent 1 credit in all');
}

module.exports = check;
