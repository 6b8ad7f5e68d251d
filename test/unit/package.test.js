// The published package: community-node rules and what goes into the tarball.
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

test('no runtime dependencies; n8n-workflow is the only peer; only dist is published', () => {
	expect(pkg.name).toBe('n8n-nodes-webdata');
	expect(pkg.dependencies ?? {}).toEqual({});
	expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
	expect(pkg.files).toEqual(['dist']);
	expect(pkg.keywords).toContain('n8n-community-node-package');
	expect(pkg.n8n).toMatchObject({ n8nNodesApiVersion: 1, strict: true });
});

test('the n8n section lists the credential and both nodes, and they exist in dist', () => {
	expect(pkg.n8n.credentials).toEqual(['dist/credentials/WebDataApi.credentials.js']);
	expect(pkg.n8n.nodes).toEqual(['dist/nodes/WebData/WebData.node.js', 'dist/nodes/WebDataTrigger/WebDataTrigger.node.js']);
	for (const file of [...pkg.n8n.credentials, ...pkg.n8n.nodes]) expect(fs.existsSync(path.join(ROOT, file))).toBe(true);
	const { WebData } = require(path.join(ROOT, pkg.n8n.nodes[0]));
	const { WebDataTrigger } = require(path.join(ROOT, pkg.n8n.nodes[1]));
	expect(new WebData().description).toMatchObject({ name: 'webData', displayName: 'Web Data', usableAsTool: true });
	expect(new WebDataTrigger().description).toMatchObject({ name: 'webDataTrigger', displayName: 'Web Data Trigger' });
	expect(new WebDataTrigger().description.usableAsTool).toBeUndefined();
});

test('the tarball holds dist, README and package.json only: no tests, no fake API', () => {
	const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
	const files = JSON.parse(out)[0].files.map((f) => f.path);
	expect(files.length).toBeGreaterThan(10);
	for (const file of files) expect(file).toMatch(/^(dist\/(nodes|credentials)\/|README\.md$|package\.json$|LICENSE)/);
	expect(files.some((f) => /fake|test/i.test(f))).toBe(false);
});
