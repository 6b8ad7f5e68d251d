'use strict';
// examples/agent-start-then-poll-later.json: Start → n8n Wait (3 s) → Get, in the real n8n.
// The fake's agent jobs last 1.5 s here, so the run has finished when Get reads it.
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

async function before(fake) {
	await fake.call('POST', '/__fake/agent-defaults', { durationMs: 1500, cost: 31 });
	return {};
}

async function check({ output, exitCode, fake, apiKey }) {
	assert.equal(exitCode, 0, 'n8n execute should succeed');
	const started = nodeItems(output, 'Start agent run');
	assert.equal(started.length, 1, 'Start outputs one item');
	const { id } = started[0].json;
	assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'Start returns the job id');
	assert.ok(!('status' in started[0].json) || started[0].json.status !== 'completed', 'Start does not wait');

	const got = nodeItems(output, 'Get agent run');
	assert.equal(got.length, 1, 'Get outputs one item');
	const job = got[0].json;
	assert.equal(job.id, id, 'Get read the run that Start started');
	assert.equal(job.status, 'completed');
	assert.equal(job.creditsUsed, 31);
	assert.ok(Array.isArray(job.data?.tools), 'the result follows the JSON Schema');
	assert.equal(typeof job.data.tools[0].name, 'string');
	assert.equal(got[0].pairedItem?.item, 0);

	const log = await fake.log();
	const trail = log.map((r) => `${r.method} ${r.path} ${r.status}`);
	assert.deepEqual(trail, ['POST /v2/agent 200', `GET /v2/agent/${id} 200`], `requests: ${trail.join(', ')}`);
	assert.equal(log[0].body.prompt.startsWith('Summarise the public pricing'), true);
	assert.deepEqual(log[0].body.schema.required, ['tools']);
	assert.equal(log[0].body.maxCredits, 500);
	const waited = log[1].at - log[0].at;
	assert.ok(waited >= 2900, `Get ran after the 3 s Wait (${waited} ms after Start)`);
	for (const r of log) assert.ok(r.headers.authorization === `Bearer ${apiKey}`, 'bearer auth on every request');
}

module.exports = check;
module.exports.before = before;
