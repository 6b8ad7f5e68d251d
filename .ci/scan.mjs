#!/usr/bin/env node
// n8n's verification scanner, its lint step, run here as n8n runs it (npm run scan).
//
// `npx @n8n/scan-community-package <package>` (pinned in devDependencies) first checks the npm
// provenance of the published package and fetches the source commit it attests; both need the
// registry and a published release, so they cannot run on a checkout. Then it lints, with the
// scanner's own ESLint setup (n8n's community rules, eslint-plugin-n8n-nodes-base's node,
// credential and package rules, no-console, and `allowInlineConfig: false`, so eslint-disable
// comments count for nothing):
//   the source   its SOURCE_FILE_PATTERNS (package.json, nodes/ and credentials/) in the checkout;
//   the tarball  every .js file and package.json of the packed package.
// This script calls that lint step, the scanner's exported analyzePackage, on both: the checkout
// and the tarball of `npm run release:pack` (or one given with --tarball). It prints each verdict
// with its error count and the scanner's report, and exits 1 on any error.
//
//   node .ci/scan.mjs                        packs (clean, build, npm pack), then lints both
//   node .ci/scan.mjs --tarball <file.tgz>   lints the checkout and that tarball
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The scanner's own module (the package has no exports map: its file is its API). */
async function scanner() {
	return await import('@n8n/scan-community-package/scanner/scanner.mjs');
}

/** Errors and warnings of a stylish report ("✖ 10 problems (9 errors, 1 warning)"). */
export function counts(details) {
	const m = /(\d+) problems? \((\d+) errors?, (\d+) warnings?\)/.exec(String(details ?? '').replace(/\u001b\[[0-9;]*m/g, ''));
	return m ? { errors: Number(m[2]), warnings: Number(m[3]) } : { errors: 0, warnings: 0 };
}

/** The scanner's lint of one directory with its own patterns; the verdict plus its error count. */
export async function lint(dir, patterns) {
	const { analyzePackage } = await scanner();
	const result = await analyzePackage(dir, patterns);
	let { errors, warnings } = counts(result.details);
	// A failure without a report (the analysis itself failed) counts as one error.
	if (!result.passed && errors === 0) errors = 1;
	return { ...result, errors, warnings };
}

/** Runs `npm run release:pack` and returns the path of the tarball it made. */
export function pack() {
	const run = spawnSync('npm', ['run', 'release:pack', '--silent'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
	if (run.status !== 0) throw new Error(`npm run release:pack failed (exit ${run.status}):\n${run.stdout}`);
	const name = run.stdout.trim().split('\n').pop().trim();
	const file = path.resolve(ROOT, name);
	if (!name.endsWith('.tgz') || !fs.existsSync(file)) throw new Error(`npm run release:pack made no tarball (it printed: ${run.stdout.trim()})`);
	return file;
}

/** Unpacks a tarball as the scanner does (tar -xz --strip-components=1) into a new temporary folder. */
export function unpack(tarball) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webdata-scan-'));
	const tar = spawnSync('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1'], { encoding: 'utf8' });
	if (tar.status !== 0) throw new Error(`tar failed: ${tar.stderr}`);
	return dir;
}

/** The scanner's lint on the checkout and on the tarball; prints both; true when both have 0 errors. */
export async function scan(tarball) {
	const { SOURCE_FILE_PATTERNS } = await scanner();
	const version = JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/@n8n/scan-community-package/package.json'), 'utf8')).version;
	const dir = unpack(tarball);
	try {
		const legs = [
			['source', await lint(ROOT, SOURCE_FILE_PATTERNS)],
			['tarball', await lint(dir, ['**/*.js', 'package.json'])],
		];
		for (const [name, r] of legs) {
			if (r.details) console.log(r.details);
			if (!r.passed && r.message) console.log(`${name}: ${r.message}`);
		}
		for (const [name, r] of legs) {
			console.log(`scanner ${version} lint, ${name}${name === 'tarball' ? ` (${path.basename(tarball)})` : ''}: ${r.errors} errors, ${r.warnings} warnings${r.passed ? '' : ' — FAILED'}`);
		}
		return legs.every(([, r]) => r.passed && r.errors === 0);
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
	const i = process.argv.indexOf('--tarball');
	const tarball = i >= 0 ? path.resolve(process.argv[i + 1]) : pack();
	const ok = await scan(tarball);
	console.log(ok ? 'scanner lint: passed' : 'scanner lint: FAILED');
	process.exit(ok ? 0 : 1);
}
