'use strict';
// test/e2e/workflows/trigger-attach-existing.json: Web Data Trigger attached to an existing monitor
// (only monitor.page, only status "changed") → Note the change (Set).
//
// Run by the trigger phase (test/e2e/lib/trigger-phase.js) in the real `n8n start`. The phase creates
// the monitor first, with a webhook of its own (metadata owner "team-a") and a check plan of three
// pages: one changed, one same, one new. Only the changed page may start an execution, and the
// monitor.check.completed event is not even registered.
const assert = require('node:assert/strict');

async function check({ executions, monitorId, deliveries }) {
	assert.deepEqual(
		deliveries.map((d) => d.type),
		['monitor.page', 'monitor.page', 'monitor.page'],
		'the service sends only the registered event (monitor.page), one per page',
	);
	assert.equal(executions.length, 1, 'only the changed page starts an execution');
	const [e] = executions;
	assert.equal(e.status, 'success');
	const page = e.trigger[0];
	assert.equal(page.event, 'monitor.page');
	assert.equal(page.status, 'changed');
	assert.equal(page.monitorId, monitorId);
	assert.match(page.diff.text, /\+Price: \$12/);
	assert.deepEqual(page.metadata, { owner: 'team-a' }, "the monitor's webhook metadata is kept");
	assert.deepEqual(e.nodes['Note the change'], [{ changed: page.url, owner: 'team-a' }]);
}

module.exports = check;
module.exports.trigger = { connection: 'attach' };
