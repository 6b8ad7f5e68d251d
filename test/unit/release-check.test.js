'use strict';
// The release dry run (.ci/release-check.mjs) and the scanner lint (.ci/scan.mjs) refuse what they
// must: checked on small packages made here (the real tarball is checked by `npm run release:check`
// in .ci/run). The scripts are ES modules, so each check runs in a child `node`.
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');

/** Runs `body` (an async ESM snippet with `ci` = the .ci folder URL) and returns its JSON output. */
function esm(body) {
	const code = `const ci = ${JSON.stringify(`file://${path.join(ROOT, '.ci')}/`)};\n${body}`;
	return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 24 }).trim().split('\n').pop());
}

function write(dir, files) {
	for (const [file, text] of Object.entries(files)) {
		fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
		fs.writeFileSync(path.join(dir, file), text);
	}
}

let dir;
beforeEach(() => {
	dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webdata-release-check-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const PKG = JSON.stringify({
	name: 'n8n-nodes-x',
	version: '1.0.0',
	n8n: { n8nNodesApiVersion: 1, nodes: ['dist/nodes/X/X.node.js'], credentials: ['dist/credentials/XApi.credentials.js'] },
});

test('a good package: no problems', () => {
	write(dir, {
		'package.json': PKG,
		'README.md': '# x',
		LICENSE: 'MIT',
		'dist/nodes/X/X.node.js': "const n8n_workflow_1 = require('n8n-workflow'); const crypto = require('crypto'); const h = require('./helpers'); exports.icon = 'file:x.svg';",
		'dist/nodes/X/helpers.js': "require('node:crypto');",
		'dist/nodes/X/x.svg': '<svg/>',
		'dist/credentials/XApi.credentials.js': "exports.icon = { light: 'file:x.svg', dark: 'file:x.dark.svg' };",
		'dist/credentials/x.svg': '<svg/>',
		'dist/credentials/x.dark.svg': '<svg/>',
	});
	expect(esm(`const { problemsOf } = await import(ci + 'release-check.mjs'); console.log(JSON.stringify(problemsOf(${JSON.stringify(dir)})));`)).toEqual([]);
});

test('test or fake code, a missing node or icon, a dependency other than n8n-workflow: each named', () => {
	write(dir, {
		'package.json': PKG,
		'README.md': '# x',
		'dist/nodes/X/X.node.js': "require('undici'); require('./gone'); exports.icon = 'file:x.svg';",
		'dist/test/fake-api/server.js': '',
		'dist/nodes/X/X.node.ts': '',
		'dist/credentials/XApi.credentials.js': "exports.icon = { light: 'file:x.svg', dark: 'file:x.dark.svg' };",
		'dist/credentials/x.svg': '<svg/>',
		'src/index.ts': '',
	});
	const problems = esm(`const { problemsOf } = await import(ci + 'release-check.mjs'); console.log(JSON.stringify(problemsOf(${JSON.stringify(dir)})));`);
	expect(problems).toEqual(
		expect.arrayContaining([
			expect.stringMatching(/^dist\/test\/fake-api\/server\.js: test or fake code/),
			expect.stringMatching(/^dist\/nodes\/X\/X\.node\.ts: a TypeScript source/),
			expect.stringMatching(/^src\/index\.ts: not part of the package/),
			'LICENSE: missing',
			'dist/nodes/X/x.svg: icon of dist/nodes/X/X.node.js missing',
			'dist/credentials/x.dark.svg: icon of dist/credentials/XApi.credentials.js missing',
			expect.stringMatching(/^dist\/nodes\/X\/X\.node\.js: requires undici/),
			expect.stringMatching(/^dist\/nodes\/X\/X\.node\.js: requires \.\/gone, which is not in the package/),
		]),
	);
});

test('the scanner lint ignores eslint-disable comments, as n8n\'s scanner does: a disabled error still counts', () => {
	write(dir, {
		'package.json': JSON.stringify({ name: 'n8n-nodes-x', version: '1.0.0', license: 'MIT', keywords: ['n8n-community-node-package'], n8n: { n8nNodesApiVersion: 1, strict: true, nodes: [], credentials: [] } }),
		'nodes/X/X.node.ts': [
			"import type { INodeType, INodeTypeDescription } from 'n8n-workflow';",
			'// eslint-disable-next-line @n8n/community-nodes/webhook-lifecycle-complete',
			'export class X implements INodeType {',
			"\tdescription: INodeTypeDescription = { displayName: 'X', name: 'x', group: ['trigger'], version: 1, description: 'X', defaults: { name: 'X' }, inputs: [], outputs: ['main'], webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }], properties: [] };",
			'}',
			'',
		].join('\n'),
	});
	const result = esm(`const { lint } = await import(ci + 'scan.mjs'); const r = await lint(${JSON.stringify(dir)}, ['package.json', '{nodes,credentials}/**/*.{js,ts,json}']); console.log(JSON.stringify({ passed: r.passed, errors: r.errors, lifecycle: /webhook-lifecycle-complete/.test(r.details ?? '') }));`);
	expect(result).toEqual({ passed: false, errors: expect.any(Number), lifecycle: true });
	expect(result.errors).toBeGreaterThanOrEqual(1);
}, 120_000);
