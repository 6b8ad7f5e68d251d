'use strict';
// examples/trigger-on-page-change.json: Web Data Trigger (Create a Monitor for This Workflow, both
// events) → Change report (Set).
//
// A webhook trigger cannot run with `n8n execute`, so this check is run by the trigger phase of the
// e2e suite (test/e2e/lib/trigger-phase.js) in the real `n8n start`: after activating the workflow and
// one check of the monitor it created, with the executions n8n recorded (read through its public
// API). test/integration/examples.test.js skips trigger examples; test/integration/trigger.test.js
// drives the trigger in-process instead.
const assert = require('node:assert/strict');

const URLS = ['https://example.com/pricing', 'https://example.com/plans'];

/** ctx: {executions: [{id, status, mode, trigger: [json], nodes: {name: [json]}}], deliveries, monitorId}. */
async function check({ executions, monitorId }) {
	assert.equal(executions.length, 3, 'one execution per delivery: two pages and the completed check');
	for (const e of executions) {
		assert.equal(e.status, 'success', `execution ${e.id} succeeded`);
		assert.equal(e.mode, 'webhook', `execution ${e.id} was started by the webhook`);
	}
	const pages = executions.filter((e) => e.trigger[0]?.event === 'monitor.page').map((e) => e.trigger[0]);
	assert.deepEqual(pages.map((p) => p.url).sort(), [...URLS].sort(), 'the page events hold the watched URLs');
	for (const p of pages) {
		assert.equal(p.status, 'new', 'the first check of a new monitor reports every page as new');
		assert.equal(p.monitorId, monitorId);
		assert.match(p.webhookId, /^[0-9a-f-]{36}$/);
		assert.equal(p.success, true);
		assert.match(p.dedupeKey, new RegExp(`^monitor\\.page:${p.checkId}:[0-9a-f]{32}$`), 'one key per page of the check (issue 34)');
	}
	const completed = executions.find((e) => e.trigger[0]?.event === 'monitor.check.completed');
	assert.ok(completed, 'the completed check started an execution');
	assert.deepEqual(completed.trigger[0].summary, { totalPages: 2, same: 0, changed: 0, new: 2, removed: 0, error: 0 });
	assert.equal(completed.trigger[0].dedupeKey, `monitor.check.completed:${completed.trigger[0].checkId}`);
	// Issue 35.5: the end of a check of the monitor the trigger created says what its schedule means a day
	// ("every 30 minutes", 2 URLs judged against the goal: 48 checks, 96 page visits, 192 credits).
	assert.deepEqual(
		{ ...completed.trigger[0].dailyEstimate, note: undefined },
		{ checksPerDay: 48, pagesPerCheck: 2, searchResultsPerCheck: 0, pageVisitsPerDay: 96, creditsPerDay: 192, note: undefined },
	);
	for (const p of pages) assert.equal(p.dailyEstimate, undefined, 'a page event does not repeat the estimate');

	const reports = executions.map((e) => e.nodes['Change report']?.[0]?.report).sort();
	assert.deepEqual(reports, ['check completed: 0 changed, 2 new, 0 failed of 2', ...URLS.map((u) => `new: ${u}`)].sort());
}

module.exports = check;
module.exports.trigger = { connection: 'create' };
