'use strict';
// examples/search-and-scrape-results.json: a query → Search with Scrape Results (scrapeOptions nested).
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

async function check({ output, exitCode, fake, apiKey }) {
	assert.equal(exitCode, 0, 'n8n execute should succeed');
	const items = nodeItems(output, 'Search and Scrape');
	assert.equal(items.length, 3, 'one item per result (limit 3)');
	items.forEach((item, n) => {
		assert.equal(item.json.source, 'web');
		assert.equal(item.json.position, n + 1);
		assert.match(item.json.title, /^open source vector database benchmarks/);
		assert.match(item.json.url, /^https:\/\//);
		assert.match(item.json.markdown, /^# /, 'each result was scraped');
		assert.equal(item.json.metadata.sourceURL, item.json.url);
		assert.deepEqual(item.pairedItem, { item: 0 });
	});

	const log = await fake.log();
	assert.equal(log.length, 1, 'exactly one API request');
	const [req] = log;
	assert.equal(`${req.method} ${req.path}`, 'POST /v2/search');
	assert.equal(req.headers.authorization, `Bearer ${apiKey}`);
	assert.equal(req.status, 200);
	assert.deepEqual(req.body, {
		query: 'open source vector database benchmarks',
		limit: 3,
		tbs: 'qdr:m',
		scrapeOptions: { formats: ['markdown'], onlyMainContent: true },
	});
}

module.exports = check;
module.exports.vars = {};
