'use strict';
// examples/agent-get-status.json: Manual Trigger → Web Data (Agent → Get Many, Limit 1) → Web Data
// (Agent → Get) with the id of the newest run from the node before (no id written in the example).
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

// The account's runs: an older one and the newest (the one the example must pick up).
const OLDER_ID = '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c00';
const JOB_ID = '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a';
const RESULT = { companies: [{ name: 'Acme Robotics', founded: 2019 }], summary: 'One company found' };

async function before(fake) {
	await fake.createAgent({ id: OLDER_ID, prompt: 'An older run', status: 'completed', data: { old: true }, cost: 5, createdAt: Date.now() - 3600e3 });
	await fake.createAgent({
		id: JOB_ID,
		prompt: 'Find robotics start-ups founded after 2018',
		status: 'completed',
		data: RESULT,
		cost: 37,
	});
	return {};
}

async function check({ output, exitCode, fake, apiKey }) {
	assert.equal(exitCode, 0, 'n8n execute should succeed');
	const latest = nodeItems(output, 'Latest agent run');
	assert.equal(latest.length, 1, 'Latest agent run: one item (Limit 1)');
	assert.equal(latest[0].json.id, JOB_ID, 'the newest run');
	const items = nodeItems(output, 'Get agent run');
	assert.equal(items.length, 1, 'one output item');
	const job = items[0].json;
	assert.equal(job.id, JOB_ID);
	assert.equal(job.status, 'completed');
	assert.deepEqual(job.data, RESULT);
	assert.equal(job.creditsUsed, 37);
	assert.equal(job.model, 'spark-2');
	assert.equal(typeof job.expiresAt, 'string');
	assert.ok(!('success' in job), 'the envelope flag "success" is not part of the item');
	assert.ok(!('error' in job), 'a completed job has no error');

	const log = await fake.log();
	const trail = log.map((r) => `${r.method} ${r.path} ${r.status}`);
	assert.deepEqual(trail, ['GET /v2/agent 200', `GET /v2/agent/${JOB_ID} 200`], 'one list page, then the run by the id the list gave');
	for (const r of log) assert.ok(r.headers.authorization === `Bearer ${apiKey}`, 'every request carries the credential as a bearer token');
}

module.exports = check;
module.exports.before = before;
