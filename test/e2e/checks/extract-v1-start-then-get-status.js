'use strict';
// test/e2e/workflows/extract-v1-start-then-get-status.json: version-1 Extract → Start (two pages, free
// form) → Wait 3 s → Get Status by the ID → Get Status of a job started with /extract before the
// retirement (On Error: Continue), in the real n8n against a fake that answers /extract 410 (issue 43).
// Start runs a batch scrape and gives its ID; Get Status reads it back and merges the pages; the old
// job's read finds no batch and no agent run (404s, free) and the /extract read's 410 says it was retired.
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

const OLD = '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a';

async function check({ output, exitCode, fake }) {
	assert.equal(exitCode, 0, 'the workflow succeeds: the old job\'s error is an item');
	const [started] = nodeItems(output, 'Start extract').map((i) => i.json);
	assert.match(started.id, /^[0-9a-f-]{36}$/);
	assert.deepEqual(started.extractedWith, { endpoint: 'POST /v2/batch/scrape', reason: '2 known pages' });

	const [read] = nodeItems(output, 'Read the job').map((i) => i.json);
	assert.equal(read.id, started.id);
	assert.equal(read.status, 'completed');
	assert.match(String(read.data?.answer), /^Extracted from https:\/\/example\.com/, 'the merged data: the first page\'s answer');
	assert.equal(read.extractedWith?.endpoint, 'POST /v2/batch/scrape');

	const [old] = nodeItems(output, 'Read a job from before the retirement').map((i) => i.json);
	assert.equal(old.error, `The service retired the endpoint GET /v2/extract/${OLD} on Thursday 2026-12-10, 15:00 UTC (HTTP 410 Gone)`);
	assert.equal(old.httpStatus, 410);

	const log = await fake.log();
	const trail = log.map((r) => `${r.method} ${r.path} ${r.status}`);
	assert.equal(trail[0], 'POST /v2/batch/scrape 200');
	assert.deepEqual(log[0].body, { urls: ['https://example.com', 'https://example.com/blog'], formats: [{ type: 'json', prompt: 'The titles of the pages' }], ignoreInvalidURLs: true });
	assert.deepEqual(trail.slice(-3), [`GET /v2/batch/scrape/${OLD} 404`, `GET /v2/agent/${OLD} 404`, `GET /v2/extract/${OLD} 410`]);
	assert.equal(log.filter((r) => r.path.startsWith('/v2/extract')).length, 1, 'only the old job\'s read goes to /extract');
}

module.exports = check;
