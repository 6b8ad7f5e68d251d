'use strict';
// examples/batch-scrape-urls.json: Set (website) → Map Website (4 links) → Batch Scrape → Run and Wait
// in the real n8n: the four URLs go into ONE job with the scrape options at the top level of its
// body; one item per page, paired to the Map item whose URL it is; the `next` link is followed.
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

async function check({ output, exitCode, fake }) {
	assert.equal(exitCode, 0, 'n8n execute should succeed');
	const links = nodeItems(output, 'Map Website');
	assert.equal(links.length, 4, 'four links from the map');
	const pages = nodeItems(output, 'Batch Scrape');
	assert.equal(pages.length, 4, 'one item per page');
	const id = pages[0].json.jobId;
	for (const [n, page] of pages.entries()) {
		assert.equal(page.json.jobId, id, 'one job');
		assert.equal(typeof page.json.markdown, 'string');
		assert.ok(Array.isArray(page.json.links), 'links format');
		const k = links.findIndex((l) => l.json.url === page.json.url);
		assert.ok(k >= 0, `page ${n} is one of the mapped URLs`);
		assert.deepEqual(page.pairedItem, { item: k }, 'paired to the item its URL came from');
	}

	const log = await fake.log();
	const posts = log.filter((r) => r.method === 'POST' && r.path === '/v2/batch/scrape');
	assert.equal(posts.length, 1, 'ONE batch job for all items');
	assert.deepEqual(posts[0].body, {
		urls: links.map((l) => l.json.url),
		formats: ['markdown', 'links'],
		onlyMainContent: true,
		maxConcurrency: 2,
	}, 'scrape options at the TOP LEVEL beside urls');
	const reads = log.filter((r) => r.method === 'GET' && r.path === `/v2/batch/scrape/${id}`);
	assert.ok(reads.some((r) => r.query && r.query.skip === '3'), 'the next link (?skip=3) is followed');
	assert.ok(reads.every((r) => r.status === 200));
}

module.exports = check;
