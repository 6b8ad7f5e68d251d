'use strict';
// Agent → Get with the fixed job id "not-a-uuid" ("By ID" mode). n8n itself refuses to start the
// workflow: the mode's regex validation makes it a parameter issue ("WorkflowHasIssuesError"), so
// the node never runs and nothing is sent. (n8n's CLI loses such early executions; the harness then
// reads the execution from n8n's database.)
const assert = require('node:assert/strict');
const { errorText } = require('../lib/output');
const { hostProfile } = require('../lib/hosts');

module.exports = async function check(ctx) {
	const { exitCode, fake, output } = ctx;
	assert.notEqual(exitCode, 0, 'n8n execute should fail');
	assert.ok(output, 'the failed execution is found');
	assert.equal(output.status, 'error', 'the execution has status "error"');
	const error = output.data?.resultData?.error;
	assert.ok(error, 'the execution carries an error');
	if (hostProfile(process.env.E2E_N8N).major === 1) {
		// n8n 1.x refuses it the same way but names no node or field in the execution's error.
		assert.match(String(error.message), /The workflow has issues and cannot be executed/);
	} else {
		assert.match(String(error.message), /Get agent run/, 'the error names the node');
		assert.match(String(error.message), /The Job ID must be a UUID/, 'the error names the "Job ID" field');
		assert.match(errorText(ctx), /Job ID/);
	}
	const log = await fake.log();
	assert.equal(log.length, 0, `no request reaches the API (got ${log.map((r) => `${r.method} ${r.path}`).join(', ')})`);
};
