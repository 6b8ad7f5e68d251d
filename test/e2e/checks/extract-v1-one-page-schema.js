'use strict';
// test/e2e/workflows/extract-v1-one-page-schema.json: a version-1 Extract → Run and Wait of one page
// with a JSON Schema and a System Prompt, in the real n8n against a fake that answers /extract 410
// (issue 43): one POST /v2/scrape with the JSON format (the system prompt first), 5 credits; the item
// has the data in the schema's shape.
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

async function check({ output, exitCode, fake, workflow }) {
	assert.equal(exitCode, 0, 'n8n execute should succeed');
	const items = nodeItems(output, 'Extract pricing');
	assert.equal(items.length, 1, 'one output item');
	const { json } = items[0];
	assert.equal(json.status, 'completed');
	assert.ok(Array.isArray(json.data?.plans) && json.data.plans.length > 0, 'plans is a list');
	assert.equal(typeof json.data.plans[0].name, 'string', 'each plan follows the schema');
	assert.equal(json.creditsUsed, 5, 'a page with the JSON format costs 5 credits');
	assert.deepEqual(json.extractedWith, { endpoint: 'POST /v2/scrape', reason: 'one known page' });

	const log = await fake.log();
	assert.deepEqual(log.map((r) => `${r.method} ${r.path} ${r.status}`), ['POST /v2/scrape 200'], 'one request, no /extract');
	const schema = JSON.parse(workflow.nodes.find((n) => n.name === 'Extract pricing').parameters.jsonSchema);
	assert.deepEqual(log[0].body, {
		url: 'https://example.com/pricing',
		formats: [{ type: 'json', prompt: 'Prices are per month.\n\nThe plans and their monthly prices', schema }],
	});
}

module.exports = check;
