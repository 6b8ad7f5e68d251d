'use strict';
// examples/parse-pdf-per-page.json: Parse File with one item per page, Max Pages 2, page markers, .md files.
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

async function check({ output, exitCode, fake }) {
	assert.equal(exitCode, 0, 'n8n execute should succeed');
	const items = nodeItems(output, 'Parse PDF per page');
	assert.equal(items.length, 2, 'Max Pages 2 of a 3-page PDF: two page items');
	assert.deepEqual(items.map((i) => i.json.pageNumber), [1, 2]);
	for (const [n, item] of items.entries()) {
		assert.equal(item.json.fileName, 'quarterly-report.pdf');
		assert.equal(item.json.truncated, true, 'totalPages 3 > numPages 2');
		assert.equal(item.json.metadata.totalPages, 3);
		assert.match(item.json.markdown, new RegExp(`## Page ${n + 1}`));
		assert.deepEqual(item.pairedItem, { item: 0 });
		assert.equal(item.binary.markdown.fileName, `quarterly-report-page-${n + 1}.md`);
		assert.equal(item.binary.markdown.mimeType, 'text/markdown');
	}
	const [req] = await fake.log();
	assert.deepEqual(JSON.parse(req.body.parts[1].text), { parsers: [{ type: 'pdf', maxPages: 2, pageMarkers: true, pages: true }] });
}

module.exports = check;
module.exports.vars = {};
