'use strict';
// Installing the package the way the README says: `npm pack`, then the README's own tarball line
// (`cd ~/.n8n/nodes && npm install /path/to/n8n-nodes-webdata-<version>.tgz`) run verbatim by bash in
// an empty ~/.n8n/nodes, offline and with an empty npm cache. Only this package may arrive: npm must
// not pull the `n8n-workflow` peer (163 packages, 247 MB, a native build that fails on Node 20).
// Build first: `npm run build`.
const { spawnSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The environment of a child npm: no npm_* variables of the npm that started jest. */
function cleanEnv(extra) {
	const env = {};
	for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
	return { ...env, ...extra };
}

/** The README's install lines (fenced blocks of "Install in n8n" that run npm install). */
function readmeInstallLines() {
	const section = README.slice(README.indexOf('## Install in n8n'), README.indexOf('\n## ', README.indexOf('## Install in n8n') + 5));
	return section
		.split('\n')
		.map((l) => l.replace(/#.*$/, '').trim())
		.filter((l) => /\bnpm (install|i)\b/.test(l));
}

function filesUnder(dir) {
	const out = [];
	for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) out.push(...filesUnder(full));
		else out.push(full);
	}
	return out;
}

let tmp;
beforeAll(() => {
	tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'webdata-install-'));
});
afterAll(() => {
	fs.rmSync(tmp, { recursive: true, force: true });
});

test('the README installs with npm the same way from the registry and from a tarball', () => {
	const lines = readmeInstallLines();
	expect(lines).toContain('mkdir -p ~/.n8n/nodes && cd ~/.n8n/nodes && npm install n8n-nodes-webdata');
	expect(lines).toContain('mkdir -p ~/.n8n/nodes && cd ~/.n8n/nodes && npm install /path/to/n8n-nodes-webdata-<version>.tgz');
	// Issue 30: every install line (npm, tarball, Docker) creates the folder it installs into
	for (const line of lines) expect({ line, creates: /mkdir -p (~|\/home\/node)\/\.n8n\/nodes && cd (~|\/home\/node)\/\.n8n\/nodes && npm install/.test(line) }).toEqual({ line, creates: true });
});

test('the README\'s tarball line, run where ~/.n8n/nodes does not exist yet, installs this package alone', () => {
	for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) expect(fs.existsSync(path.join(ROOT, file))).toBe(true);
	const packDir = path.join(tmp, 'pack');
	fs.mkdirSync(packDir);
	const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packDir], { cwd: ROOT, env: cleanEnv(), encoding: 'utf8', timeout: 120000 });
	expect(pack.status).toBe(0);
	const packed = JSON.parse(pack.stdout)[0];
	const tarball = path.join(packDir, packed.filename);

	const line = readmeInstallLines().find((l) => l.includes('.tgz'));
	const command = line.replace('/path/to/n8n-nodes-webdata-<version>.tgz', tarball).replace('<version>', pkg.version);
	const home = path.join(tmp, 'home');
	const nodesDir = path.join(home, '.n8n', 'nodes');
	fs.mkdirSync(home, { recursive: true }); // a fresh home: no ~/.n8n/nodes (issue 30: the line must make it)
	const t0 = Date.now();
	// Offline with an empty cache: anything npm would have to download (the peer) fails the install.
	const install = spawnSync('bash', ['-c', command], {
		cwd: tmp,
		env: cleanEnv({ HOME: home, npm_config_offline: 'true', npm_config_cache: path.join(tmp, 'npm-cache'), npm_config_update_notifier: 'false' }),
		encoding: 'utf8',
		timeout: 120000,
	});
	const seconds = (Date.now() - t0) / 1000;
	expect({ status: install.status, stderr: install.status === 0 ? '' : install.stderr }).toEqual({ status: 0, stderr: '' });

	// What arrived: one package in node_modules, one entry in the lockfile, the tarball's files.
	const modules = fs.readdirSync(path.join(nodesDir, 'node_modules')).filter((n) => n !== '.package-lock.json' && n !== '.bin');
	expect(modules).toEqual([pkg.name]);
	const lock = JSON.parse(fs.readFileSync(path.join(nodesDir, 'package-lock.json'), 'utf8'));
	expect(Object.keys(lock.packages).sort()).toEqual(['', `node_modules/${pkg.name}`]);
	const installed = filesUnder(path.join(nodesDir, 'node_modules', pkg.name)).map((f) => path.relative(path.join(nodesDir, 'node_modules', pkg.name), f));
	expect(installed.sort()).toEqual(packed.files.map((f) => f.path).sort());
	expect(fs.existsSync(path.join(nodesDir, 'node_modules', 'n8n-workflow'))).toBe(false);
	expect(seconds).toBeLessThan(60); // the peer took about 5 minutes; the package alone takes seconds
});
