'use strict';
// examples/account-credit-usage.json: Manual Trigger → Web Data (Account → Get Credit Usage) → Set (percentLeft).
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

async function before(fake) {
	await fake.call('POST', '/__fake/team', {
		remainingCredits: 750,
		planCredits: 3000,
		billingPeriodStart: '2026-11-01T00:00:00Z',
		billingPeriodEnd: '2026-11-30T23:59:59Z',
	});
	return {};
}

async function check({ output, exitCode, fake, apiKey }) {
	assert.equal(exitCode, 0, 'n8n execute should succeed');
	const usage = nodeItems(output, 'Get credit usage');
	assert.equal(usage.length, 1, 'one item');
	assert.deepEqual(usage[0].json, {
		remainingCredits: 750,
		planCredits: 3000,
		billingPeriodStart: '2026-11-01T00:00:00Z',
		billingPeriodEnd: '2026-11-30T23:59:59Z',
	});
	assert.deepEqual(usage[0].pairedItem, { item: 0 });
	const [summary] = nodeItems(output, 'Share of the plan left');
	assert.equal(summary.json.percentLeft, 25);
	assert.equal(summary.json.remainingCredits, 750, 'the usage fields are kept');

	const log = await fake.log();
	assert.equal(log.length, 1, `exactly one API request (got ${log.map((r) => `${r.method} ${r.path}`).join(', ')})`);
	assert.equal(log[0].method, 'GET');
	assert.equal(log[0].path, '/v2/team/credit-usage');
	assert.deepEqual(log[0].query, {}, 'no query parameter');
	assert.equal(log[0].status, 200);
	assert.equal(log[0].headers.authorization, `Bearer ${apiKey}`);
}

module.exports = check;
module.exports.before = before;
