'use strict';
// test/e2e/workflows/monitor-update-over-daily-limit.json in the real n8n: a monitor of 2 pages every
// 30 minutes (96 credits a day) → Update to every 5 minutes with Max Credits per Day 500 (576 a day):
// refused after one read, the monitor unchanged, an error item (Continue On Fail) → Update to every 10
// minutes (288 a day): sent, its item says what the changed monitor means per day.
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

async function check(ctx) {
	const { output, exitCode, fake } = ctx;
	assert.equal(exitCode, 0, 'n8n execute succeeds');
	const [created] = nodeItems(output, 'Create monitor');
	const [refused] = nodeItems(output, 'Every 5 minutes, at most 500 a day');
	assert.equal(refused.json.error, 'This monitor may cost up to 576 credits a day, over Max Credits per Day (500)', 'the faster schedule is refused with the estimate');
	const [changed] = nodeItems(output, 'Every 10 minutes, at most 500 a day');
	assert.equal(changed.json.id, created.json.id);
	assert.deepEqual(
		{ checksPerDay: changed.json.dailyEstimate.checksPerDay, creditsPerDay: changed.json.dailyEstimate.creditsPerDay },
		{ checksPerDay: 144, creditsPerDay: 288 },
		'the changed monitor says what it means per day',
	);
	const trail = (await fake.log()).map((r) => `${r.method} ${r.path.replace(created.json.id, ':id')}`);
	assert.deepEqual(trail, ['POST /v2/monitor', 'GET /v2/monitor/:id', 'GET /v2/monitor/:id', 'PATCH /v2/monitor/:id'], `one read before each change, one change sent (got ${trail.join(', ')})`);
	console.log(`# monitor-update-over-daily-limit: refused "${refused.json.error}"; then ${changed.json.dailyEstimate.creditsPerDay} credits a day`);
}

module.exports = check;
