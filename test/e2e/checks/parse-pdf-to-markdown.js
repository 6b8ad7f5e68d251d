'use strict';
// examples/parse-pdf-to-markdown.json: a sample PDF made in the workflow → Parse File (markdown + links).
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { nodeItems } = require('../lib/output');

const PDF = fs.readFileSync(path.join(__dirname, '..', '..', 'fixtures', 'report.pdf'));

async function check({ output, exitCode, fake, apiKey }) {
	assert.equal(exitCode, 0, 'n8n execute should succeed');
	const items = nodeItems(output, 'Parse PDF to Markdown');
	assert.equal(items.length, 1, 'one item for the one file');
	const item = items[0].json;
	assert.equal(item.fileName, 'quarterly-report.pdf');
	assert.match(item.markdown, /^# Quarterly Report/);
	assert.match(item.markdown, /Quarterly revenue grew 12 percent\./);
	assert.ok(Array.isArray(item.links), 'the links format was requested, so "links" is there');
	assert.equal(item.metadata.numPages, 3);
	assert.equal(item.truncated, undefined);
	assert.deepEqual(items[0].pairedItem, { item: 0 });

	const log = await fake.log();
	assert.equal(log.length, 1, 'exactly one API request');
	const [req] = log;
	assert.equal(`${req.method} ${req.path}`, 'POST /v2/parse');
	assert.equal(req.headers.authorization, `Bearer ${apiKey}`);
	assert.match(req.headers['content-type'], /^multipart\/form-data; boundary=/);
	assert.deepEqual(req.body.parts.map((p) => [p.name, p.filename ?? null, p.contentType]), [
		['file', 'quarterly-report.pdf', 'application/pdf'],
		['options', null, 'application/json'],
	]);
	assert.equal(req.body.parts[0].size, PDF.length, 'the whole file arrived');
	assert.equal(req.body.parts[0].sha256, crypto.createHash('sha256').update(PDF).digest('hex'), 'byte for byte');
	assert.deepEqual(JSON.parse(req.body.parts[1].text), { formats: [{ type: 'markdown' }, { type: 'links' }] });
}

module.exports = check;
module.exports.vars = {};
