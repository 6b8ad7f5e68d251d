'use strict';
// examples/crawl-site-and-wait.json: Manual Trigger → Web Data (Crawl → Run and Wait, limit 5) in the
// real n8n. The fake's crawl lasts 2 s: the node polls at ~1 s (scraping) and ~3 s (completed), then
// follows the `next` link of the result (3 pages per response) once.
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

async function check({ output, exitCode, fake, apiKey }) {
	assert.equal(exitCode, 0, 'n8n execute should succeed');
	const items = nodeItems(output, 'Crawl site');
	assert.equal(items.length, 5, 'one item per crawled page (limit 5)');
	const id = items[0].json.jobId;
	assert.match(id, /^[0-9a-f-]{36}$/);
	for (const item of items) {
		assert.deepEqual(Object.keys(item.json).sort(), ['credits', 'jobId', 'jobStatus', 'markdown', 'title', 'url'], 'compact output with the job id and what it cost');
		assert.deepEqual(item.json.credits, { used: 5, execution: 5 }, 'the crawl cost 5 credits (1 a page), no budget');
		assert.equal(item.json.jobId, id);
		assert.equal(item.json.jobStatus, 'completed');
		assert.match(item.json.url, /^https:\/\/example\.com/);
		assert.doesNotMatch(item.json.url, /legal|careers/, 'excluded paths are not crawled');
		assert.deepEqual(item.pairedItem, { item: 0 });
	}
	assert.equal(new Set(items.map((i) => i.json.url)).size, 5, 'five different pages');

	const log = await fake.log();
	assert.deepEqual(log[0].body, {
		url: 'https://example.com',
		limit: 5,
		excludePaths: ['legal/.*', 'careers'],
		scrapeOptions: { formats: ['markdown'], onlyMainContent: true },
	}, 'crawl options at the top level, scrape options nested in scrapeOptions');
	const query = (q) => (q ? Object.entries(q).map(([k, v]) => `${k}=${v}`).join('&') : '');
	const trail = log.map((r) => `${r.method} ${r.path}${query(r.query) ? `?${query(r.query)}` : ''} ${r.status}`);
	assert.equal(trail[0], 'POST /v2/crawl 200');
	// Polls ask for the smallest page (limit=1); then the pages are read from the start (limit=100), following next.
	assert.equal(trail[trail.length - 2], `GET /v2/crawl/${id}?limit=100 200`, `the pages are read after the polls: ${trail.join(', ')}`);
	assert.equal(trail[trail.length - 1], `GET /v2/crawl/${id}?skip=3&limit=100 200`, `the next link is followed: ${trail.join(', ')}`);
	const polls = trail.filter((t) => t === `GET /v2/crawl/${id}?limit=1 200`);
	assert.ok(polls.length >= 2 && polls.length <= 3, `two or three status polls (${trail.join(', ')})`);
	assert.equal(trail.length, polls.length + 3, `start, polls, two page reads: ${trail.join(', ')}`);
	for (const r of log) assert.equal(r.headers.authorization, `Bearer ${apiKey}`);
}

module.exports = check;
