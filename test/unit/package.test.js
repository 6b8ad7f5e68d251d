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

test('the n8n section lists the credential and the three nodes, and they exist in dist', () => {
	expect(pkg.n8n.credentials).toEqual(['dist/credentials/WebDataApi.credentials.js']);
	expect(pkg.n8n.nodes).toEqual(['dist/nodes/WebData/WebData.node.js', 'dist/nodes/WebDataTrigger/WebDataTrigger.node.js', 'dist/nodes/WebDataPollTrigger/WebDataPollTrigger.node.js']);
	for (const file of [...pkg.n8n.credentials, ...pkg.n8n.nodes]) expect(fs.existsSync(path.join(ROOT, file))).toBe(true);
	const { WebData } = require(path.join(ROOT, pkg.n8n.nodes[0]));
	const { WebDataTrigger } = require(path.join(ROOT, pkg.n8n.nodes[1]));
	expect(new WebData().description).toMatchObject({ name: 'webData', displayName: 'Web Data', usableAsTool: true });
	expect(new WebDataTrigger().description).toMatchObject({ name: 'webDataTrigger', displayName: 'Web Data Trigger' });
	expect(new WebDataTrigger().description.usableAsTool).toBeUndefined();
	// Issue 29.3: the polling trigger (n8n: a node type is either a webhook trigger or a polling one).
	const { WebDataPollTrigger } = require(path.join(ROOT, pkg.n8n.nodes[2]));
	expect(new WebDataPollTrigger().description).toMatchObject({ name: 'webDataPollTrigger', displayName: 'Web Data Poll Trigger', polling: true });
});

test('the tarball holds dist, README and package.json only: no tests, no fake API', () => {
	const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
	const files = JSON.parse(out)[0].files.map((f) => f.path);
	expect(files.length).toBeGreaterThan(10);
	for (const file of files) expect(file).toMatch(/^(dist\/(nodes|credentials)\/|README\.md$|package\.json$|LICENSE)/);
	expect(files.some((f) => /fake|test/i.test(f))).toBe(false);
});

// --- issue 11.4 / 11.6: the scripts build without npm's pre-scripts; main, LICENSE, engines --------

const os = require('os');
const { spawnSync } = require('child_process');

/** The environment of a child npm without the npm_* variables of the npm that started jest. */
function cleanEnv() {
	const env = {};
	for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
	return env;
}

/**
 * A throw-away project with this package's .npmrc and the given scripts of package.json verbatim,
 * where `build` is a stub that writes dist/nodes/Stub.node.js and `jest` a stub that records its
 * arguments: what npm runs for `npm test` / `npm run release:pack` under the project's settings.
 */
function stubProject(scriptNames) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webdata-scripts-'));
	fs.copyFileSync(path.join(ROOT, '.npmrc'), path.join(dir, '.npmrc'));
	const scripts = { build: 'node build-stub.js' };
	for (const name of scriptNames) scripts[name] = pkg.scripts[name];
	fs.writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify({ name: 'scripts-probe', version: '1.0.0', license: 'MIT', files: ['dist'], scripts }, null, 2),
	);
	fs.writeFileSync(path.join(dir, 'README.md'), '# probe\n');
	fs.writeFileSync(
		path.join(dir, 'build-stub.js'),
		"const fs = require('fs');\n" +
			"fs.mkdirSync('dist/nodes', { recursive: true });\n" +
			"fs.writeFileSync('dist/nodes/Stub.node.js', 'module.exports = {};\\n');\n" +
			"fs.appendFileSync('trace.log', 'build\\n');\n",
	);
	const bin = path.join(dir, 'node_modules', '.bin');
	fs.mkdirSync(bin, { recursive: true });
	fs.writeFileSync(
		path.join(bin, 'jest'),
		'#!/usr/bin/env node\n' +
			"const fs = require('fs');\n" +
			"fs.appendFileSync('trace.log', 'jest ' + JSON.stringify({ args: process.argv.slice(2), built: fs.existsSync('dist/nodes/Stub.node.js') }) + '\\n');\n",
		{ mode: 0o755 },
	);
	return dir;
}

function npm(dir, args) {
	const r = spawnSync('npm', args, { cwd: dir, env: cleanEnv(), encoding: 'utf8', timeout: 60000 });
	return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', trace: readTrace(dir) };
}

function readTrace(dir) {
	const file = path.join(dir, 'trace.log');
	return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim().split('\n') : [];
}

test('.npmrc keeps ignore-scripts (the reason the scripts below must build by themselves)', () => {
	expect(fs.readFileSync(path.join(ROOT, '.npmrc'), 'utf8')).toMatch(/^ignore-scripts=true$/m);
	// pre-scripts never run here: none may carry the build
	for (const name of Object.keys(pkg.scripts)) expect(name).not.toMatch(/^(pre|post)/);
});

test('`npm test` builds first under the project .npmrc and passes `-- args` on to jest (as .ci/run calls it)', () => {
	const dir = stubProject(['test']);
	try {
		const r = npm(dir, ['test', '--', '--ci', '--json', '--outputFile=/tmp/x y/jest.json']);
		expect({ code: r.code, trace: r.trace }).toEqual({
			code: 0,
			trace: [
				'build',
				`jest ${JSON.stringify({ args: ['--config', 'test/jest.config.js', '--ci', '--json', '--outputFile=/tmp/x y/jest.json'], built: true })}`,
			],
		});
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
});

test('a failed build stops `npm test` before jest runs on a stale dist/', () => {
	const dir = stubProject(['test']);
	try {
		fs.writeFileSync(path.join(dir, 'build-stub.js'), "require('fs').appendFileSync('trace.log', 'build failed\\n'); process.exit(2);\n");
		const r = npm(dir, ['test']);
		expect(r.code).not.toBe(0);
		expect(r.trace).toEqual(['build failed']);
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
});

test('every script that runs built code builds it itself (tests, demo, benchmarks, e2e, screenshots, pack)', () => {
	const runsBuiltCode = Object.entries(pkg.scripts).filter(([, command]) => /\bnode test\/|\bjest\b|\bnpm pack\b/.test(command));
	expect(runsBuiltCode.map(([name]) => name)).toEqual(expect.arrayContaining(['test', 'test:e2e', 'demo', 'release:pack']));
	for (const [name, command] of runsBuiltCode) {
		expect(`${name}: ${command}`).toMatch(new RegExp(`^${name.replace(/[:.]/g, '\\$&')}: npm run (build|clean) --silent && `));
	}
});

test('`npm run release:pack` in a fresh clone (no dist/) packs a freshly built dist/, nothing stale', () => {
	const dir = stubProject(['clean', 'release:pack']);
	try {
		fs.mkdirSync(path.join(dir, 'dist'));
		fs.writeFileSync(path.join(dir, 'dist', 'Stale.node.js'), '// from an earlier build\n');
		const r = npm(dir, ['run', 'release:pack', '--', '--dry-run', '--json']);
		expect(r.code).toBe(0);
		const listing = JSON.parse(r.stdout.slice(r.stdout.indexOf('[')));
		const files = listing[0].files.map((f) => f.path).sort();
		expect(files).toEqual(['README.md', 'dist/nodes/Stub.node.js', 'package.json']);
		expect(r.trace).toEqual(['build']);
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
});

test('the real tarball holds the built nodes, the credential and the LICENSE', () => {
	const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
	const files = JSON.parse(out)[0].files.map((f) => f.path);
	for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials, 'LICENSE', 'README.md', 'package.json']) expect(files).toContain(file);
	expect(files.filter((f) => /^dist\/.*\.node\.js$/.test(f)).length).toBe(pkg.n8n.nodes.length);
});

test('no "main" pointing at a file that does not exist; an MIT LICENSE matching package.json', () => {
	if ('main' in pkg) expect(fs.existsSync(path.join(ROOT, pkg.main))).toBe(true);
	expect(pkg.license).toBe('MIT');
	const license = fs.readFileSync(path.join(ROOT, 'LICENSE'), 'utf8');
	expect(license).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} n8n-nodes-webdata contributors\n/);
	expect(license).toMatch(/THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND/);
});

test('engines: every installed package accepts the lowest Node the package promises (one stated exception)', () => {
	// semver comes with the dev tooling (npm, jest, typescript-eslint all use it).
	const semver = require('semver');
	const floor = semver.minVersion(pkg.engines.node).version;
	expect(semver.satisfies(floor, '>=20.19.0')).toBe(true);
	// Stated, not hidden: isolated-vm 7 (n8n-core / n8n-workflow 2.41 → @n8n/expression-runtime) wants
	// Node 24, like n8n 2.41.1 itself. On Node 20/22 `npm ci` prints one EBADENGINE warning for it.
	// It is only loaded by n8n's optional isolated-vm expression engine, which the tests never use
	// (its native build is skipped by ignore-scripts anyway). No release of it supports both n8n 2.41's
	// API and Node 20, so it is not pinned to an older major.
	const stated = new Map([['isolated-vm', '>=24.0.0']]);
	const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
	const refusing = [];
	for (const [where, entry] of Object.entries(lock.packages)) {
		const range = entry.engines?.node;
		if (!where || !range || semver.satisfies(floor, range)) continue;
		const name = where.replace(/^.*node_modules\//, '');
		if (stated.get(name) === range) continue;
		refusing.push(`${name}@${entry.version} wants node ${range}`);
	}
	expect(refusing).toEqual([]);
	// the package itself: no warning on the promised versions, nor on Node 24 (n8n 2.41.1's own floor)
	for (const version of [floor, '20.20.2', '22.13.0', '24.0.0']) expect(semver.satisfies(version, pkg.engines.node)).toBe(true);
});

// --- issue 11.9: the release path (GitHub Actions) -------------------------------------------------

/**
 * Steps of the (single) job of a workflow as [{uses, run, name, …}]: enough YAML for these files, a
 * block list of maps under `steps:`, values on one line or as a `|` block.
 */
function workflowSteps(text) {
	const lines = text.split('\n');
	const start = lines.findIndex((l) => /^\s+steps:\s*$/.test(l));
	expect(start).toBeGreaterThan(-1);
	const base = lines[start].search(/\S/); // items at base + 2, their keys at base + 4
	const steps = [];
	let key;
	for (const raw of lines.slice(start + 1)) {
		if (raw.trim() === '' || raw.trim().startsWith('#')) continue;
		const indent = raw.search(/\S/);
		if (indent <= base) break;
		let line = raw;
		if (indent === base + 2 && raw.slice(indent).startsWith('- ')) {
			steps.push({});
			line = `${' '.repeat(base + 4)}${raw.slice(indent + 2)}`;
		}
		const step = steps[steps.length - 1];
		const field = new RegExp(`^ {${base + 4}}([\\w-]+):\\s*(.*)$`).exec(line);
		if (field) {
			key = field[1];
			step[key] = field[2] === '|' ? '' : field[2];
		} else if (key) {
			step[key] = `${step[key]}${step[key] ? '\n' : ''}${line.trim()}`;
		}
	}
	return steps;
}

test('release.yml: on a v* tag, npm ci → build → lint → npm test → release dry run → npm publish of that tarball --provenance, with id-token: write', () => {
	const text = fs.readFileSync(path.join(ROOT, '.github', 'workflows', 'release.yml'), 'utf8');
	expect(text).toMatch(/^on:\n  push:\n    tags: \['v\*'\]\n/m);
	// id-token: write under the publishing job's permissions (or the workflow's)
	expect(text).toMatch(/^( *)permissions:\n(?:\1  .*\n)*?\1  id-token: write\b/m);
	const steps = workflowSteps(text);
	const index = (predicate, what) => {
		const i = steps.findIndex(predicate);
		expect([what, i]).not.toEqual([what, -1]);
		return i;
	};
	const checkout = index((s) => /^actions\/checkout@/.test(s.uses ?? ''), 'checkout');
	const setup = index((s) => /^actions\/setup-node@/.test(s.uses ?? ''), 'setup-node');
	expect(text).toMatch(/registry-url: https:\/\/registry\.npmjs\.org/);
	const run = (re, what) => index((s) => re.test(s.run ?? ''), what);
	const ci = run(/^npm ci\b/, 'npm ci');
	const build = run(/^npm run build$/, 'build');
	const lint = run(/^npm run lint$/, 'lint');
	const tests = run(/^npm test$/, 'npm test');
	// the release dry run (pack, files, n8n's scanner lint) between the tests and the publish step
	const dryRun = run(/^npm run release:check$/, 'release dry run');
	const publish = run(/\bnpm publish\b/, 'npm publish');
	expect([checkout, setup, ci, build, lint, tests, dryRun, publish]).toEqual([checkout, setup, ci, build, lint, tests, dryRun, publish].sort((a, b) => a - b));
	// exactly the checked tarball (release:pack's n8n-nodes-webdata-<version>.tgz), with provenance
	expect(steps[publish].run).toMatch(/^npm publish "\.\/n8n-nodes-webdata-\$\(node -p 'require\("\.\/package\.json"\)\.version'\)\.tgz" --provenance --access public$/);
	expect(steps.filter((s) => /\bnpm publish\b/.test(s.run ?? ''))).toHaveLength(1);
	expect(pkg.scripts['release:check']).toBe('node .ci/release-check.mjs');
});

test('npm run lint is n8n-node lint; scan and the release dry run are scripts that .ci/run runs as failing steps', () => {
	expect(pkg.scripts.lint).toBe('n8n-node lint');
	expect(pkg.scripts.scan).toBe('node .ci/scan.mjs');
	expect(pkg.devDependencies['@n8n/scan-community-package']).toBe('0.32.0');
	const ciRun = fs.readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8');
	for (const script of ['lint', 'scan', 'release:check']) {
		expect(ciRun).toMatch(new RegExp(`^npm run ${script} \\|\\| \\{ .*status=1; total_failed=\\$\\(\\(total_failed \\+ 1\\)\\); \\}$`, 'm'));
	}
});

test('ci.yml runs the project CI script as the README shows it', () => {
	const text = fs.readFileSync(path.join(ROOT, '.github', 'workflows', 'ci.yml'), 'utf8');
	const steps = workflowSteps(text);
	expect(steps.map((s) => s.run).filter(Boolean)).toEqual(['bash .ci/run']);
	expect(steps[0].uses).toMatch(/^actions\/checkout@/);
	expect(text).toMatch(/^on:\n  push:/m);
	expect(text).toMatch(/^  pull_request:/m);
});

// --- issue 17.8: the README inside the package (npm page, n8n's package view) -----------------------

/** Every link target of a Markdown file: [text](target), ![alt](target), src="target", href="target". */
function linkTargets(markdown) {
	const targets = [];
	for (const m of markdown.matchAll(/\]\(\s*([^)\s]+)(?:\s+"[^"]*")?\s*\)/g)) targets.push(m[1]);
	for (const m of markdown.matchAll(/\b(?:src|href)="([^"]+)"/g)) targets.push(m[1]);
	return targets;
}

test('every README link works inside the package: shipped, in-page, or absolute to a file the repository has', () => {
	const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
	const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
	const shipped = new Set(JSON.parse(out)[0].files.map((f) => f.path));
	const repo = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, ''); // https://github.com/<owner>/<name>
	const [, owner, name] = /github\.com\/([^/]+)\/([^/]+)$/.exec(repo);
	const inRepo = [
		new RegExp(`^https://github\\.com/${owner}/${name}/(?:blob|tree)/main/([^#?]+)`),
		new RegExp(`^https://raw\\.githubusercontent\\.com/${owner}/${name}/main/([^#?]+)`),
	];
	const targets = linkTargets(readme);
	expect(targets.length).toBeGreaterThan(20);
	const broken = [];
	for (const target of targets) {
		if (target.startsWith('#') || /^mailto:/.test(target)) continue;
		if (/^https?:\/\//.test(target)) {
			const match = inRepo.map((re) => re.exec(target)).find(Boolean);
			// a link into this repository must name a file or folder it has
			if (match && !fs.existsSync(path.join(ROOT, decodeURIComponent(match[1])))) broken.push(`${target} (no such file in the repository)`);
			continue;
		}
		if (!shipped.has(target.split('#')[0])) broken.push(`${target} (relative, and not in the tarball)`);
	}
	expect(broken).toEqual([]);
	// the pictures are there on the npm page and in n8n's package view
	expect(targets.filter((t) => /\.png$/.test(t)).every((t) => t.startsWith('https://raw.githubusercontent.com/'))).toBe(true);
});

test('the import menu is named as n8n 2.41 names it (… → Import → From file)', () => {
	for (const file of ['README.md', 'examples/README.md']) {
		const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
		expect({ file, old: /Import from File/i.test(text) }).toEqual({ file, old: false });
		expect({ file, now: text.includes('Import → From file') }).toEqual({ file, now: true });
	}
});
