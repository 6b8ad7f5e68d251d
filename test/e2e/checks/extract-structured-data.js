'use strict';
// examples/extract-structured-data.json: Manual Trigger → Web Data (Extract → Run and Wait, two
// known pages) in the real n8n. /extract is retired (the fake answers it 410): the two pages go
// into one batch scrape with the JSON format, polled until completed; one item whose data merges
// the pages by field, with the pages each field came from.
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

const URLS = ['https://example.com', 'https://example.com/about'];
const SCHEMA = {
	type: 'object',
	properties: { company: { type: 'string' }, mission: { type: 'string' }, supportsSso: { type: 'boolean' } },
	required: ['company', 'mission', 'supportsSso'],
};

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
	assert.deepEqual(job.sources, { company: URLS, mission: URLS, supportsSso: URLS }, 'Show Sources lists the pages of each field, in URL order');
	assert.equal(job.extractedWith?.endpoint, 'POST /v2/batch/scrape', 'the item says which endpoint ran it');
	assert.equal(items[0].pairedItem?.item, 0, 'the item is paired with the trigger item');

	const log = await fake.log();
	assert.equal(log.filter((r) => r.path.includes('/extract')).length, 0, 'nothing is sent to the retired /extract');
	assert.equal(`${log[0].method} ${log[0].path} ${log[0].status}`, 'POST /v2/batch/scrape 200');
	assert.deepEqual(log[0].body, {
		urls: URLS,
		onlyMainContent: true,
		formats: [{ type: 'json', prompt: 'The name of the company behind this site, what it does in one sentence, and whether it offers single sign-on (SSO)', schema: SCHEMA }],
		ignoreInvalidURLs: true,
	}, 'the prompt and schema as the JSON format; the scrape options at the top of the batch body');
	const reads = log.slice(1);
	assert.ok(reads.length >= 2 && reads.every((r) => r.method === 'GET' && r.path === `/v2/batch/scrape/${job.id}` && r.status === 200), `status reads of the job: ${reads.map((r) => `${r.method} ${r.path}`).join(', ')}`);
	const firstPoll = log[1].at - log[0].at;
	// 1 s counted from before the start is sent (its own trip is inside it: over 500 ms on a busy
	// machine and in n8n 1.123); the floor still tells a wait from a read right after the start.
	assert.ok(firstPoll >= 250 && firstPoll < 2000, `first status read about 1 s after the start (was ${firstPoll} ms)`);
	for (const r of log) assert.equal(r.headers.authorization, `Bearer ${apiKey}`, 'bearer auth on every request');
}

module.exports = check;
