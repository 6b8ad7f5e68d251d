'use strict';
// examples/agent-run-and-wait.json: Manual Trigger → Web Data (Agent → Run and Wait) in the real n8n.
// The fake's agent jobs last 2.5 s here, so the node polls at 1 s (processing) and 3 s (completed).
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

const PROMPT = 'Find three robotics start-ups founded after 2018, with the year each was founded and its home page';

async function before(fake) {
	await fake.call('POST', '/__fake/agent-defaults', { durationMs: 2500, cost: 23 });
	return {};
}

async function check({ output, exitCode, fake, apiKey }) {
	assert.equal(exitCode, 0, 'n8n execute should succeed');
	const items = nodeItems(output, 'Run agent');
	assert.equal(items.length, 1, 'one output item');
	const job = items[0].json;
	assert.equal(job.status, 'completed');
	assert.equal(job.creditsUsed, 23);
	assert.ok(!('success' in job), 'the envelope flag "success" is not part of the item');
	assert.ok(Array.isArray(job.data?.companies), 'the result follows the schema generated from the example');
	const [company] = job.data.companies;
	assert.equal(typeof company.name, 'string');
	assert.equal(typeof company.founded, 'number');
	assert.equal(typeof company.homepage, 'string');
	assert.equal(items[0].pairedItem?.item, 0, 'the item is paired with the trigger item');

	const log = await fake.log();
	const trail = log.map((r) => `${r.method} ${r.path} ${r.status}`);
	assert.deepEqual(trail, ['POST /v2/agent 200', `GET /v2/agent/${job.id} 200`, `GET /v2/agent/${job.id} 200`], `requests: ${trail.join(', ')}`);
	assert.deepEqual(log[0].body, {
		prompt: PROMPT,
		urls: ['https://www.ycombinator.com/companies'],
		schema: {
			type: 'object',
			properties: {
				companies: {
					type: 'array',
					items: {
						type: 'object',
						properties: { name: { type: 'string' }, founded: { type: 'number' }, homepage: { type: 'string' } },
						required: ['name', 'founded', 'homepage'],
					},
				},
			},
			required: ['companies'],
		},
		maxCredits: 300,
	});
	const firstPoll = log[1].at - log[0].at;
	const secondPoll = log[2].at - log[1].at;
	// The node counts its 1 s from before it sends the start, so the start's own trip (reading the
	// credential, the first request of the execution) is inside it: on a busy machine, and in n8n
	// 1.123, that took over 500 ms. The floor still tells a wait from a poll right after the start.
	assert.ok(firstPoll >= 250 && firstPoll < 2000, `first poll about 1 s after the start (the node counts from before it sends the start) (was ${firstPoll} ms)`);
	assert.ok(secondPoll >= 3400 && secondPoll < 5500, `next poll when the run is 4.75 s old, about 3.75 s later (was ${secondPoll} ms)`);
	for (const r of log) assert.ok(r.headers.authorization === `Bearer ${apiKey}`, 'bearer auth on every request');
	const internal = await fake.agent(job.id);
	assert.equal(internal.polls, 2, 'the fake counted two status polls');
}

module.exports = check;
module.exports.before = before;
