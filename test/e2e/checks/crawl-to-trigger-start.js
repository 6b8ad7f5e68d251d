'use strict';
// examples/crawl-to-trigger-start.json: Manual Trigger → Start crawl (Crawl → Start, Options →
// Send Events to Web Data Trigger + Run Metadata "run"), the first half of a pair with
// examples/trigger-on-crawl-page.json (issue 18.2).
//
// Run by the trigger phase (test/e2e/lib/trigger-phase.js, runReportsTo) in the real `n8n start`:
// the receiving workflow is created with a Token and activated; this workflow's Trigger Production
// URL and Trigger Token are set to that workflow's production URL and Token (what a user pastes);
// it is run like "Execute workflow" in the editor; the fake's crawl sends its signed events to the
// real trigger. Then this check, and the receiving workflow's own check on its executions.
// test/integration/trigger.test.js runs the same pair in-process.
const assert = require('node:assert/strict');

const TOKEN_HEADER = 'X-WebData-Trigger-Token';

/**
 * ctx: {start: {status, items}, request (the fake's POST /v2/crawl), deliveries (of this crawl),
 * productionUrl, token, executions (of the receiving workflow), jobId, urls, receivingCheck}.
 */
async function check({ start, request, deliveries, productionUrl, token, executions, jobId, urls, receivingCheck }) {
	assert.equal(start.status, 'success', 'the starting workflow succeeded');
	assert.equal(start.items.length, 1, 'Start outputs one item');
	assert.equal(start.items[0].id, jobId, "the item holds the crawl's id");
	assert.equal(request.status, 200, 'the service accepted the crawl');
	const { webhook } = request.body;
	assert.equal(webhook.url, productionUrl, "the crawl's webhook is the trigger's production URL");
	assert.deepEqual(webhook.headers, { [TOKEN_HEADER]: token }, "the trigger's token goes in its header");
	assert.deepEqual(webhook.events, ['page', 'completed', 'failed']);
	assert.deepEqual(Object.keys(webhook.metadata), ['run']);
	const run = webhook.metadata.run;
	assert.match(run, /^nightly-\d{4}-\d{2}-\d{2}$/, 'Run Metadata "run" from its expression');
	assert.ok(deliveries.length > 0);
	for (const d of deliveries) {
		assert.equal(d.url, productionUrl);
		assert.equal(d.headers[TOKEN_HEADER], token, 'each delivery carries the token');
		assert.match(d.headers['X-Firecrawl-Signature'] ?? '', /^sha256=[0-9a-f]{64}$/, 'and the signature');
		assert.equal(d.responseStatus, 200, `n8n accepted ${d.type}`);
	}
	assert.deepEqual(deliveries.map((d) => d.type), ['crawl.page', 'crawl.page', 'crawl.page', 'crawl.completed'], 'crawl.started is not asked for');
	// The receiving half: one execution per page, with this run's metadata.
	await receivingCheck({ executions, deliveries, jobId, run, urls });
}

module.exports = check;
module.exports.trigger = { reportsTo: 'trigger-on-crawl-page' };
