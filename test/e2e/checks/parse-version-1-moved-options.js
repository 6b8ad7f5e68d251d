'use strict';
// test/e2e/workflows/parse-version-1-moved-options.json: a saved Parse File node at typeVersion 1
// whose Options hold settings that node version 2 moved to Advanced Options (Block Ads, Proxy, Skip
// TLS Verification, Audit Username, Origin, Integration). It must still run and send them all.
// parse-version-2-advanced-options.json (the same settings at version 2) must send the same.
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

/** The options part both versions send for these settings. */
const SENT = {
	formats: [{ type: 'markdown' }, { type: 'links' }],
	timeout: 60000,
	blockAds: false,
	proxy: 'auto',
	skipTlsVerification: false,
	auditMetadata: { username: 'ana' },
	origin: 'e2e',
	integration: '_e2e',
};

async function check({ output, exitCode, fake }) {
	assert.equal(exitCode, 0, 'n8n execute should succeed');
	const items = nodeItems(output, 'Parse PDF to Markdown');
	assert.equal(items.length, 1, 'one item for the one file');
	assert.match(items[0].json.markdown, /^# Quarterly Report/);
	const log = await fake.log();
	assert.deepEqual(log.map((r) => `${r.method} ${r.path} ${r.status}`), ['POST /v2/parse 200']);
	const parts = log[0].body.parts;
	assert.deepEqual(parts.map((p) => p.name), ['file', 'options']);
	assert.deepEqual(JSON.parse(parts[1].text), SENT, 'the options part holds every setting, moved or not');
}

module.exports = check;
module.exports.vars = {};
