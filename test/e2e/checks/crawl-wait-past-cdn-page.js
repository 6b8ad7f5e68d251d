'use strict';
// test/e2e/workflows/crawl-wait-past-cdn-page.json, in the real n8n (issue 45.3): Crawl → Run and
// Wait (Poll, On Timeout Fail). The fake answers the first two status reads with a CDN's 403 HTML
// page, not the service's JSON: the wait goes on and the crawl's pages come. (The service's own 404
// still ends a wait at once: test/integration/wait-ends.test.js.)
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

async function before(fake) {
	await fake.fault({ method: 'GET', path: '/v2/crawl/', status: 403, body: '<html><body><h1>403 Forbidden</h1>blocked at the edge</body></html>', times: 2 });
}

async function check({ output, exitCode, fake }) {
	assert.equal(exitCode, 0, `n8n execute should succeed (${output?.data?.resultData?.error?.message ?? ''})`);
	const items = nodeItems(output, 'Crawl site');
	assert.equal(items.length, 3, 'one item per crawled page');
	const reads = (await fake.log()).filter((r) => r.method === 'GET' && r.path.startsWith('/v2/crawl/')).map((r) => r.status);
	assert.deepEqual(reads.slice(0, 3), [403, 403, 200], `the status reads: ${reads.join(', ')}`);
}

module.exports = check;
module.exports.before = before;
