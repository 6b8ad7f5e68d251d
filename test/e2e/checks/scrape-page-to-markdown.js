'use strict';
// examples/scrape-page-to-markdown.json: one URL → Scrape URL (markdown, links, screenshot downloaded).
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

async function check({ output, exitCode, fake, apiKey }) {
	assert.equal(exitCode, 0, 'n8n execute should succeed');
	const items = nodeItems(output, 'Scrape Page');
	assert.equal(items.length, 1, 'one item for the one URL');
	const [item] = items;
	assert.equal(item.json.url, 'https://example.com/pricing');
	assert.match(item.json.markdown, /^# pricing \| example\.com/);
	assert.ok(Array.isArray(item.json.links) && item.json.links.length > 0, 'the links format was requested');
	assert.equal(item.json.metadata.statusCode, 200);
	assert.equal(item.json.metadata.sourceURL, 'https://example.com/pricing');
	assert.match(item.json.screenshot, /\/fake-screenshots\/.+\.png$/);
	assert.ok(item.binary && item.binary.screenshot, 'the screenshot was downloaded into the binary field "screenshot"');
	assert.equal(item.binary.screenshot.mimeType, 'image/png');
	assert.equal(item.binary.screenshot.fileName, 'example.com-pricing.png');
	assert.deepEqual(item.pairedItem, { item: 0 });

	const log = await fake.log();
	const scrapes = log.filter((r) => r.path === '/v2/scrape');
	assert.equal(scrapes.length, 1, 'exactly one scrape request');
	assert.equal(scrapes[0].method, 'POST');
	assert.equal(scrapes[0].headers.authorization, `Bearer ${apiKey}`);
	assert.deepEqual(scrapes[0].body, {
		url: 'https://example.com/pricing',
		formats: ['markdown', 'links', 'screenshot'],
		onlyMainContent: true,
		timeout: 30000,
	});
	const downloads = log.filter((r) => r.path.startsWith('/fake-screenshots/'));
	assert.equal(downloads.length, 1, 'the screenshot was fetched once');
	assert.equal(downloads[0].headers.authorization, undefined, 'the screenshot download carries no API key');
	assert.equal(log.length, 2, 'nothing else was requested');
}

module.exports = check;
module.exports.vars = {};
