'use strict';
// examples/map-website.json: Map URL (search "docs", limit 3) → Scrape URL per link, compact output.
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

async function check({ output, exitCode, fake }) {
	assert.equal(exitCode, 0, 'n8n execute should succeed');
	const links = nodeItems(output, 'Map Website');
	assert.equal(links.length, 3, 'one item per link, limit 3');
	for (const link of links) {
		assert.match(link.json.url, /^https:\/\/example\.com\//);
		assert.ok('title' in link.json);
	}
	assert.match(links[0].json.url, /docs/, 'ordered by the search words');

	const pages = nodeItems(output, 'Scrape Each Page');
	assert.deepEqual(pages.map((p) => p.json.url), links.map((l) => l.json.url), 'one scraped page per link, in order');
	for (const [n, page] of pages.entries()) {
		assert.deepEqual(Object.keys(page.json).sort(), ['markdown', 'title', 'url'], 'compact output');
		assert.deepEqual(page.pairedItem, { item: n });
	}

	// Version-1 nodes without a budget keep their items; the execution's total is counted all the same.
	assert.equal(output.data.resultData.metadata?.webdata_credits, '4', "the execution's total: the map (1) and three pages");

	const log = await fake.log();
	const maps = log.filter((r) => r.path === '/v2/map');
	assert.equal(maps.length, 1);
	assert.deepEqual(maps[0].body, { url: 'https://example.com', search: 'docs', limit: 3 });
	const scrapes = log.filter((r) => r.path === '/v2/scrape');
	assert.equal(scrapes.length, 3);
	assert.deepEqual(scrapes.map((r) => r.body.url).sort(), links.map((l) => l.json.url).sort());
	for (const r of scrapes) assert.deepEqual(Object.keys(r.body).sort(), ['formats', 'url']);
}

module.exports = check;
module.exports.vars = {};
