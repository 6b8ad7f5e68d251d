'use strict';
// examples/interact-with-page.json: Start Session → Execute (code) → Stop Session, and
// Set url → Scrape URL → Execute on the scraped page (prompt) → Stop Session (scraped page).
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CODE = "await page.goto('https://example.com');\nconsole.log('Page opened');\nconsole.log(await page.title());";
const PROMPT = 'Accept the cookie banner if there is one, open the yearly prices and tell me the price of the Pro plan';

async function check({ output, exitCode, fake, apiKey }) {
	assert.equal(exitCode, 0, 'n8n execute should succeed');

	// Top row: a standalone session.
	const [session] = nodeItems(output, 'Start browser session');
	assert.match(session.json.id, UUID);
	assert.equal(typeof session.json.liveViewUrl, 'string');
	assert.ok(!('success' in session.json), 'the envelope flag is not part of the item');
	const [ran] = nodeItems(output, 'Run code in the session');
	assert.equal(ran.json.sessionId, session.json.id);
	assert.equal(ran.json.success, true);
	assert.equal(ran.json.exitCode, 0);
	assert.equal(ran.json.stdout, 'Page opened\n');
	const [stopped] = nodeItems(output, 'Stop browser session');
	assert.equal(stopped.json.sessionId, session.json.id);
	assert.equal(stopped.json.stopped, true);
	assert.equal(typeof stopped.json.creditsBilled, 'number');

	// Bottom row: the browser of a scraped page.
	const [scraped] = nodeItems(output, 'Scrape page');
	const scrapeId = scraped.json.metadata.scrapeId;
	assert.match(scrapeId, UUID);
	const [asked] = nodeItems(output, 'Ask the page');
	assert.equal(asked.json.scrapeId, scrapeId);
	assert.equal(asked.json.output, `Done: ${PROMPT}`);
	const [closed] = nodeItems(output, "Close the page's browser");
	assert.deepEqual(closed.json, { scrapeId, stopped: true });

	const log = await fake.log();
	const trail = log.map((r) => `${r.method} ${r.path} ${r.status}`);
	const expected = [
		'POST /v2/interact 200',
		`POST /v2/interact/${session.json.id}/execute 200`,
		`DELETE /v2/interact/${session.json.id} 200`,
		'POST /v2/scrape 200',
		`POST /v2/scrape/${scrapeId}/interact 200`,
		`DELETE /v2/scrape/${scrapeId}/interact 200`,
	];
	assert.deepEqual([...trail].sort(), [...expected].sort(), `the API calls (got ${trail.join(', ')})`);
	const body = (method, path) => log.find((r) => r.method === method && r.path === path).body;
	assert.deepEqual(body('POST', '/v2/interact'), { ttl: 300, activityTtl: 120 });
	assert.deepEqual(body('POST', `/v2/interact/${session.json.id}/execute`), { code: CODE, language: 'node', timeout: 60 });
	assert.deepEqual(body('POST', `/v2/scrape/${scrapeId}/interact`), { prompt: PROMPT, timeout: 120 });
	assert.ok(log.every((r) => r.headers.authorization === `Bearer ${apiKey}`), 'every call carries the credential');
}

module.exports = check;
module.exports.vars = {};
