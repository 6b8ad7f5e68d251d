'use strict';
// examples/trigger-on-page-change-polling.json: Web Data Poll Trigger (a monitor picked from the
// list, both events) → Change report (Set).
//
// A polling trigger runs on n8n's poll schedule, not with `n8n execute`, so this check is run by the
// trigger phase of the e2e suite (test/e2e/lib/trigger-phase.js runPoll) in the real `n8n start`:
// the phase seeds a monitor at the fake (no webhook: nothing reaches n8n), activates the workflow,
// runs one check and waits for n8n's scheduled poll. test/integration/poll-trigger.test.js drives
// the node in n8n-core's PollContext.
const assert = require('node:assert/strict');

const URLS = ['https://example.com/pricing', 'https://example.com/plans'];

/** ctx: {executions (the polls' executions), checkId (the check run after activation), monitorId}. */
async function check({ executions, checkId, monitorId }) {
	assert.equal(executions.length, 1, 'one execution: the poll after the check finished');
	const [e] = executions;
	assert.equal(e.status, 'success');
	assert.equal(e.mode, 'trigger', 'started by the poll schedule');
	assert.deepEqual(
		e.trigger.map((i) => [i.event, i.checkId, i.url ?? null]),
		[...URLS.map((u) => ['monitor.page', checkId, u]), ['monitor.check.completed', checkId, null]],
		'the check: its pages, then its completion',
	);
	for (const i of e.trigger) {
		assert.equal(i.monitorId, monitorId);
		assert.equal(i.webhookId, null, 'no delivery: read from the service');
		const key = i.event === 'monitor.page' ? new RegExp(`^monitor\\.page:${checkId}:[0-9a-f]{32}$`) : new RegExp(`^monitor\\.check\\.completed:${checkId}$`);
		assert.match(i.dedupeKey, key, 'the key a delivery of the same page or completion has (issue 34)');
	}
	assert.equal(new Set(e.trigger.map((i) => i.dedupeKey)).size, e.trigger.length);
	assert.deepEqual(e.trigger.slice(0, 2).map((i) => i.status), ['changed', 'same'], 'the second check of the monitor: the first page changed');
	assert.match(e.trigger[0].diff.text, /\+Price: \$12/);
	const reports = e.nodes['Change report'].map((r) => r.report);
	assert.deepEqual(reports, ['changed: https://example.com/pricing (meaningful)', 'same: https://example.com/plans', 'check completed: 1 changed, 0 new, 0 failed of 2']);
}

module.exports = check;
module.exports.trigger = { poll: true };
