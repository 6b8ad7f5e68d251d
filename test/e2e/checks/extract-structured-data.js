'use strict';
// examples/extract-structured-data.json: Manual Trigger → Web Data (Extract → Run and Wait) in the
// real n8n. The fake's extract job lasts 2 s: the node reads the status at ~1 s (processing) and
// ~3 s (completed), then outputs one item with the data, its sources and the status.
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

async function check({ output, exitCode, fake, apiKey }) {
	assert.equal(exitCode, 0, 'n8n execute should succeed');
	const items = nodeItems(output, 'Extract company facts');
	assert.equal(items.length, 1, 'one output item');
	const job = items[0].json;
	assert.match(job.id, /^[0-9a-f-]{36}$/);
	assert.equal(job.status, 'completed');
	assert.ok(!('success' in job), 'the envelope flag "success" is not part of the item');
	assert.equal(typeof job.data?.company, 'string', 'the data follows the schema generated from the example');
	assert.equal(typeof job.data.mission, 'string');
	assert.equal(typeof job.data.supportsSso, 'boolean');
	assert.deepEqual(job.sources, { company: ['https://example.com/*'], mission: ['https://example.com/*'], supportsSso: ['https://example.com/*'] }, 'Show Sources lists the pages of each field');
	assert.equal(items[0].pairedItem?.item, 0, 'the item is paired with the trigger item');

	const log = await fake.log();
	const trail = log.map((r) => `${r.method} ${r.path} ${r.status}`);
	assert.deepEqual(trail, ['POST /v2/extract 200', `GET /v2/extract/${job.id} 200`, `GET /v2/extract/${job.id} 200`], `requests: ${trail.join(', ')}`);
	assert.deepEqual(log[0].body, {
		urls: ['https://example.com/*'],
		prompt: 'The name of the company behind this site, what it does in one sentence, and whether it offers single sign-on (SSO)',
		schema: {
			type: 'object',
			properties: { company: { type: 'string' }, mission: { type: 'string' }, supportsSso: { type: 'boolean' } },
			required: ['company', 'mission', 'supportsSso'],
		},
		showSources: true,
		scrapeOptions: { onlyMainContent: true },
	}, 'only what the workflow sets is sent; scrape options nested without formats');
	const firstPoll = log[1].at - log[0].at;
	// 1 s counted from before the start is sent (its own trip is inside it: over 500 ms on a busy
	// machine and in n8n 1.123); the floor still tells a wait from a read right after the start.
	assert.ok(firstPoll >= 250 && firstPoll < 2000, `first status read about 1 s after the start (was ${firstPoll} ms)`);
	for (const r of log) assert.equal(r.headers.authorization, `Bearer ${apiKey}`, 'bearer auth on every request');
}

module.exports = check;
