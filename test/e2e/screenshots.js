#!/usr/bin/env node
'use strict';
/*
 * Screenshots from the real n8n editor (n8n 2.41.1 with this package installed as a community
 * package), taken in headless Chromium, and the proof that our panels render there.
 *
 *   npm run screenshots                 pictures into a new temp dir (printed), nothing committed changes
 *   npm run screenshots -- --update     pictures into examples/screenshots/ (the ones the README shows)
 *   npm run screenshots -- --out DIR    pictures into DIR
 *
 * Needs: `npm run build` (the npm script does it), n8n in .cache/ (test/e2e/install.sh, run here when
 * absent), Debian's Chromium at /usr/bin/chromium (E2E_CHROMIUM=<path> for another binary), and
 * playwright-core (a devDependency) to drive it. What it does and checks: test/e2e/lib/editor.js.
 * The e2e suite (test/e2e/run.js) runs the same steps.
 *
 * Prints "ok - screenshots: …" / "not ok - screenshots: …" per picture and "N passed, N failed" last;
 * exits 1 when a panel did not render, the editor logged an error about our nodes, or set-up failed.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const proc = require('./lib/proc');
const { runScreenshots } = require('./lib/editor');

const ROOT = path.resolve(__dirname, '..', '..');
const CACHE = path.join(ROOT, '.cache');

function parseArgs(argv) {
	const opts = { update: false, out: undefined, packageDir: undefined };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		if (a === '--update') opts.update = true;
		else if (a === '--out') opts.out = path.resolve(argv[++i] || '');
		else if (a === '--package-dir') opts.packageDir = path.resolve(argv[++i] || ''); // an untarred package instead of npm pack
		else if (a === '-h' || a === '--help') {
			console.log('usage: node test/e2e/screenshots.js [--update | --out DIR] [--package-dir DIR]');
			process.exit(0);
		} else {
			console.error(`unknown argument ${a} (try --help)`);
			process.exit(2);
		}
	}
	if (opts.update && opts.out) {
		console.error('--update and --out exclude each other');
		process.exit(2);
	}
	return opts;
}

async function main() {
	const opts = parseArgs(process.argv.slice(2));
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'webdata-screenshots-'));
	const outDir = opts.update ? path.join(ROOT, 'examples', 'screenshots') : opts.out || path.join(tmp, 'screenshots');
	const results = [];
	const record = (name, ok, reason, details) => {
		results.push(ok);
		console.log(ok ? `ok - ${name}` : `not ok - ${name}: ${String(reason).replace(/\s+/g, ' ').trim()}`);
		if (!ok && details)
			console.log(
				String(details)
					.split('\n')
					.map((l) => `#   ${l}`)
					.join('\n'),
			);
	};
	const finish = async (code) => {
		await proc.stopAll();
		const failed = results.filter((ok) => !ok).length;
		console.log(`# pictures in ${outDir}${opts.update ? '' : ' (not the committed ones: --update writes examples/screenshots/)'}`);
		if (failed === 0 && code === 0 && !process.env.E2E_KEEP_TMP && !outDir.startsWith(tmp)) fs.rmSync(tmp, { recursive: true, force: true });
		else console.log(`# logs in ${tmp}`);
		console.log(`${results.length - failed} passed, ${failed} failed`);
		process.exit(failed > 0 || code !== 0 ? 1 : 0);
	};
	process.on('exit', () => proc.killAllSync());
	for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => finish(130));

	const t0 = Date.now();
	const install = await proc.run('bash', [path.join(ROOT, 'test', 'e2e', 'install.sh')], {
		cwd: ROOT,
		logFile: path.join(tmp, 'install.log'),
		timeoutMs: 20 * 60 * 1000,
	});
	if (install.code !== 0) {
		record('screenshots: n8n installed (test/e2e/install.sh)', false, `exit ${install.code}`, proc.tail(install.stdout + install.stderr, 20));
		return finish(1);
	}
	await runScreenshots({
		root: ROOT,
		tmp,
		nodeDir: path.join(CACHE, 'node24'),
		hostDir: path.join(CACHE, 'n8n-host'),
		outDir,
		packageDir: opts.packageDir,
		record,
	});
	console.log(`# total ${((Date.now() - t0) / 1000).toFixed(1)} s`);
	return finish(0);
}

main().catch((e) => {
	console.log(`not ok - screenshots: ${e.message}`);
	console.log(e.stack);
	console.log('0 passed, 1 failed');
	process.exit(1);
});
