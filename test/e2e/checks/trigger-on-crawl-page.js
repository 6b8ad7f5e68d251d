'use strict';
// examples/trigger-on-crawl-page.json: Web Data Trigger (Trigger On: Job Events; crawl.page,
// crawl.completed, crawl.failed) → Page summary (Set).
//
// Run by the trigger phase (test/e2e/lib/trigger-phase.js, runJobs) in the real `n8n start`: after
// activation, a crawl is started at the fake API with this workflow's production URL as its webhook
// (metadata {run}); the fake sends signed crawl.* deliveries; this check gets the executions n8n
// recorded. test/integration/trigger.test.js runs the same check in-process.
const assert = require('node:assert/strict');

/** ctx: {executions: [{id, status, mode, trigger: [json], nodes}], deliveries, jobId, run, urls}. */
async function check({ executions, deliveries, jobId, run, urls }) {
	const pageDeliveries = deliveries.filter((d) => d.type === 'crawl.page');
	assert.equal(executions.length, pageDeliveries.length + 1, 'one execution per page delivery, plus crawl.completed (crawl.started is not selected)');
	for (const e of executions) {
		assert.equal(e.status, 'success', `execution ${e.id} succeeded`);
		assert.equal(e.mode, 'webhook', `execution ${e.id} was started by the webhook`);
		assert.equal(e.trigger.length, 1, 'one item per delivery');
		assert.equal(e.trigger[0].jobId, jobId, 'the item holds the crawl id');
		assert.deepEqual(e.trigger[0].webhookMetadata, { run }, "the item holds the webhook's metadata");
	}
	const pages = executions.filter((e) => e.trigger[0].event === 'crawl.page').map((e) => e.trigger[0]);
	assert.deepEqual(pages.map((p) => p.metadata.sourceURL).sort(), [...urls].sort(), 'one execution per crawled page');
	for (const p of pages) {
		assert.equal(typeof p.markdown, 'string');
		assert.ok(p.markdown.length > 0, 'the page has its Markdown');
		assert.match(p.webhookId, /^[0-9a-f-]{36}$/);
	}
	// The end item: the crawl's real end, read once by the trigger through the credential (issue 23.3).
	const [end] = executions.filter((e) => e.trigger[0].event === 'crawl.completed').map((e) => e.trigger[0]);
	assert.deepEqual(
		{ status: end.status, total: end.total, completed: end.completed },
		{ status: 'completed', total: urls.length, completed: urls.length },
		'the end item says how the crawl ended, with its page counts',
	);
	const reports = executions.map((e) => e.nodes['Page summary']?.[0]?.report).sort();
	assert.deepEqual(reports, ['crawl completed', ...pages.map((p) => `page: ${p.metadata.sourceURL} (${p.markdown.length} characters)`)].sort());
	assert.ok(executions.every((e) => e.nodes['Page summary'][0].run === run));
}

module.exports = check;
module.exports.trigger = { source: 'jobs' };
