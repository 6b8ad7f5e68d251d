'use strict';
// test/e2e/workflows/extract-v1-wildcard-agent.json: the Extract example exactly as 1.0.0 shipped it
// (a /* URL, Output Shape "From a JSON Example", Show Sources, Only Main Content), version 1, in the
// real n8n against a fake that answers /extract 410 (issue 43). The pages below the URL have to be
// found, so the Agent runs it: the URL without /*, the scope in the prompt, the schema; the item has
// the data in the example's shape and says which endpoint ran it and what it could not use.
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

const PROMPT = 'The name of the company behind this site, what it does in one sentence, and whether it offers single sign-on (SSO)';
const SCHEMA = {
	type: 'object',
	properties: { company: { type: 'string' }, mission: { type: 'string' }, supportsSso: { type: 'boolean' } },
	required: ['company', 'mission', 'supportsSso'],
};

async function check({ output, exitCode, fake }) {
	assert.equal(exitCode, 0, 'n8n execute should succeed');
	const items = nodeItems(output, 'Extract company facts');
	assert.equal(items.length, 1, 'one output item');
	const job = items[0].json;
	assert.match(job.id, /^[0-9a-f-]{36}$/);
	assert.equal(job.status, 'completed');
	assert.equal(typeof job.data?.company, 'string', 'the data follows the schema generated from the example');
	assert.equal(typeof job.data.mission, 'string');
	assert.equal(typeof job.data.supportsSso, 'boolean');
	assert.deepEqual(job.sources, ['https://example.com/'], 'Show Sources: the URLs the agent was given');
	assert.deepEqual(job.extractedWith, {
		endpoint: 'POST /v2/agent',
		reason: 'https://example.com/* ends in /*: the pages below it have to be found',
		notes: [
			'Scrape Options (onlyMainContent) left out: the agent reads pages its own way.',
			'Show Sources: the agent reports no sources per field; "sources" lists the URLs it was given.',
		],
	});
	assert.equal(items[0].pairedItem?.item, 0);

	const log = await fake.log();
	assert.equal(log.filter((r) => r.path.includes('/extract')).length, 0, 'nothing is sent to the retired /extract');
	assert.equal(`${log[0].method} ${log[0].path} ${log[0].status}`, 'POST /v2/agent 200');
	assert.deepEqual(log[0].body, {
		prompt: `${PROMPT}\nRead the pages below https://example.com/ as well.\nUse only pages of these sites.`,
		urls: ['https://example.com/'],
		schema: SCHEMA,
	});
	const reads = log.slice(1);
	assert.ok(reads.length >= 1 && reads.every((r) => r.method === 'GET' && r.path === `/v2/agent/${job.id}`), `reads of the run: ${reads.map((r) => `${r.method} ${r.path}`).join(', ')}`);
}

module.exports = check;
