'use strict';
// examples/agent-get-status.json: Manual Trigger → Web Data (Agent → Get) with the example's job id.
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

// The job id written in the example (what a user replaces); the fake is seeded with a job of that id.
const JOB_ID = '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a';
const RESULT = { companies: [{ name: 'Acme Robotics', founded: 2019 }], summary: 'One company found' };

async function before(fake) {
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
	assert.equal(log.length, 1, `exactly one API request (got ${log.map((r) => `${r.method} ${r.path}`).join(', ')})`);
	assert.equal(log[0].method, 'GET');
	assert.equal(log[0].path, `/v2/agent/${JOB_ID}`);
	assert.equal(log[0].status, 200);
	assert.ok(log[0].headers.authorization === `Bearer ${apiKey}`, 'the request carries the credential as a bearer token');
}

module.exports = check;
module.exports.before = before;
