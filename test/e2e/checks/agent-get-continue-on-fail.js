'use strict';
// Two items (an unknown job id, then a known one) into Agent → Get with "On Error: Continue":
// the first becomes an error item (HTTP 404), the second the job.
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

// Known before import, so the workflow is imported with the others in one n8n command.
const vars = {
	UNKNOWN_JOB_ID: '0190b7c4-0000-7000-8000-000000000404',
	JOB_ID: '0190b7c5-1111-7222-9333-444455556666',
};

async function before(fake) {
	await fake.createAgent({ id: vars.JOB_ID, prompt: 'Summarise the pricing pages', status: 'completed', data: { plans: 3 } });
}

async function check({ output, exitCode, fake, vars, apiKey }) {
	assert.equal(exitCode, 0, 'the workflow succeeds: the failure is turned into an item');
	const items = nodeItems(output, 'Get agent run');
	assert.equal(items.length, 2, 'two output items');

	const [failed, found] = items.map((i) => i.json);
	assert.equal(typeof failed.error, 'string', 'the first item is an error item');
	assert.equal(failed.httpStatus, 404);
	assert.ok(!('status' in failed), 'the error item carries no job');
	assert.equal(items[0].pairedItem?.item, 0, 'the error item is paired with input item 0');

	assert.equal(found.error, undefined, 'the second item is not an error');
	assert.equal(found.id, vars.JOB_ID);
	assert.equal(found.status, 'completed');
	assert.deepEqual(found.data, { plans: 3 });
	assert.equal(items[1].pairedItem?.item, 1, 'the job item is paired with input item 1');

	const log = await fake.log();
	assert.equal(log.length, 2, `two API requests (got ${log.map((r) => `${r.method} ${r.path}`).join(', ')})`);
	const paths = log.map((r) => `${r.method} ${r.path} ${r.status}`).sort();
	assert.deepEqual(paths, [`GET /v2/agent/${vars.UNKNOWN_JOB_ID} 404`, `GET /v2/agent/${vars.JOB_ID} 200`].sort());
	for (const r of log) assert.ok(r.headers.authorization === `Bearer ${apiKey}`, 'bearer auth on every request');
}

module.exports = check;
module.exports.before = before;
module.exports.vars = vars;
