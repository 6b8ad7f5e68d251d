'use strict';
// examples/scrape-with-custom-body-fields.json: Scrape URL with Options → Custom Body Fields
// given by an expression; the fields reach the service merged into the body the node builds.
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

async function check({ output, exitCode, fake }) {
	assert.equal(exitCode, 0, 'n8n execute should succeed');
	const items = nodeItems(output, 'Scrape Page');
	assert.equal(items.length, 1, 'one item for the one URL');
	assert.equal(items[0].json.url, 'https://example.com/blog/first-post');
	assert.match(items[0].json.markdown, /first post/);
	assert.deepEqual(items[0].pairedItem, { item: 0 });

	const log = await fake.log();
	const scrapes = log.filter((r) => r.path === '/v2/scrape');
	assert.equal(scrapes.length, 1, 'exactly one scrape request');
	assert.equal(scrapes[0].status, 200);
	assert.deepEqual(scrapes[0].body, {
		url: 'https://example.com/blog/first-post',
		formats: ['markdown'],
		onlyMainContent: true,
		onlyCleanContent: true,
		origin: 'n8n-newsletter',
	});
	assert.equal(log.length, 1, 'nothing else was requested');
}

module.exports = check;
module.exports.vars = {};
