'use strict';
// Agent → Get whose job id is an expression that yields "not-a-uuid". n8n does not validate
// expression values up front, so the node's own check refuses it, naming the field and the value,
// before any request.
const assert = require('node:assert/strict');
const { lastRun } = require('../lib/output');

module.exports = async function check(ctx) {
	const { exitCode, fake, output } = ctx;
	assert.notEqual(exitCode, 0, 'n8n execute should fail');
	const run = lastRun(output, 'Get agent run');
	assert.ok(run.error, 'the Web Data node failed');
	const message = String(run.error.message);
	assert.match(message, /Job ID/, 'the error names the "Job ID" field');
	assert.match(message, /not-a-uuid/, 'the error shows the rejected value');
	assert.match(String(run.error.description ?? ''), /Nothing was sent/, 'the description says nothing was sent');
	assert.equal(output.data.resultData.error?.message, message, 'the execution fails with that error');
	const log = await fake.log();
	assert.equal(log.length, 0, `no request reaches the API (got ${log.map((r) => `${r.method} ${r.path}`).join(', ')})`);
};
