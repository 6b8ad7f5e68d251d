'use strict';
// test/e2e/workflows/interact-session-budget.json, in the real n8n (issue 44.2): every node has
// Options → Credit Budget per Execution 50. Start Session asks for a TTL of 3600 s (120 credits at 2 a
// minute): it is lowered to 1500 s (50 credits), said on the item, and held; a scrape beside the open
// session is refused before sending; Stop Session settles what the service billed, and the next
// scrape fits.
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

async function check({ output, exitCode, fake }) {
	assert.equal(exitCode, 0, 'n8n execute should succeed (the refusal is an item)');
	const [opened] = nodeItems(output, 'Open browser').map((i) => i.json);
	assert.deepEqual(opened.credits?.ttlLowered, { from: 3600, to: 1500 }, `the TTL lowered to what is left (${JSON.stringify(opened.credits)})`);
	const [refused] = nodeItems(output, 'Scrape while open').map((i) => i.json);
	assert.match(String(refused.error), /^Credit budget reached: This scrape would cost at least 1 credit, and 0 of this execution's 50 are left/);
	const [closed] = nodeItems(output, 'Close browser').map((i) => i.json);
	assert.equal(closed.stopped, true);
	const billed = closed.creditsBilled;
	assert.equal(typeof billed, 'number');
	const [after] = nodeItems(output, 'Scrape after').map((i) => i.json);
	assert.equal(after.credits?.left, 50 - billed - 1, `after Stop the session counts what it was billed (${billed}), and the scrape fits (${JSON.stringify(after.credits)})`);

	const log = await fake.log();
	const trail = log.map((r) => `${r.method} ${r.path.replace(/[0-9a-f-]{36}/, '{id}')}`);
	assert.deepEqual(trail, ['POST /v2/interact', 'DELETE /v2/interact/{id}', 'POST /v2/scrape'], `nothing sent for the refused scrape: ${trail.join(', ')}`);
	assert.deepEqual(log[0].body, { ttl: 1500 });
}

module.exports = check;
