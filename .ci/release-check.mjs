#!/usr/bin/env node
// The release dry run (npm run release:check): makes the tarball a release publishes and checks it
// exactly as the release does before `npm publish` (.github/workflows/release.yml runs this script
// and then publishes this very tarball). Nothing is published here.
//   1. npm run release:pack: clean dist/, build (tsc + gulp), npm pack.
//   2. The tarball's files: package.json, README.md, LICENSE and dist/ only; every node and credential
//      package.json names is there, with the icon files its description names; no test, fake or
//      fixture code, no source maps of test files, no TypeScript sources.
//   3. The compiled code needs nothing but n8n-workflow, Node built-ins and its own files.
//   4. n8n's scanner lint (.ci/scan.mjs) on the checkout and on this tarball: 0 errors.
// Prints one line per check and exits 1 when any fails.
//
//   node .ci/release-check.mjs                        packs, then checks
//   node .ci/release-check.mjs --tarball <file.tgz>   checks that tarball (and the checkout)
import { builtinModules } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { pack, ROOT, scan, unpack } from './scan.mjs';

/** Every file of a folder, as paths relative to it with forward slashes. */
function walk(dir, prefix = '') {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
		return entry.isDirectory() ? walk(path.join(dir, entry.name), rel) : [rel];
	});
}

/** What is wrong with the unpacked package in `dir` (an empty list when nothing). */
export function problemsOf(dir) {
	const problems = [];
	const files = walk(dir);
	const has = new Set(files);
	const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));

	for (const file of files) {
		if (!['package.json', 'README.md', 'LICENSE'].includes(file) && !file.startsWith('dist/')) problems.push(`${file}: not part of the package (only dist/, README.md, LICENSE)`);
		if (/(^|\/)(test|tests|__tests__|fake-api|fixtures?|e2e|bench|demo)(\/|$)|\.(test|spec)\.[cm]?js$|fake/i.test(file)) problems.push(`${file}: test or fake code in the package`);
		if (/\.ts$/.test(file) && !/\.d\.ts$/.test(file)) problems.push(`${file}: a TypeScript source in the package`);
	}
	for (const file of ['README.md', 'LICENSE']) if (!has.has(file)) problems.push(`${file}: missing`);

	const entries = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
	if (!pkg.n8n?.nodes?.length || !pkg.n8n?.credentials?.length) problems.push('package.json: n8n.nodes and n8n.credentials must name the built files');
	for (const entry of entries) {
		if (!has.has(entry)) {
			problems.push(`${entry}: named in package.json (n8n) but missing`);
			continue;
		}
		// The icons its description names ("file:webdata.svg"), next to the compiled file.
		const code = fs.readFileSync(path.join(dir, entry), 'utf8');
		for (const [, icon] of code.matchAll(/['"]file:([^'"]+)['"]/g)) {
			const iconPath = path.posix.join(path.posix.dirname(entry), icon);
			if (!has.has(iconPath)) problems.push(`${iconPath}: icon of ${entry} missing`);
		}
	}

	// Compiled code may load only n8n-workflow (the peer dependency), Node built-ins and its own files.
	const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
	for (const file of files.filter((f) => f.endsWith('.js'))) {
		const code = fs.readFileSync(path.join(dir, file), 'utf8');
		for (const [, spec] of code.matchAll(/\brequire\(\s*['"]([^'"]+)['"]\s*\)/g)) {
			if (spec.startsWith('.')) {
				const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
				if (![target, `${target}.js`, `${target}/index.js`, `${target}.json`].some((t) => has.has(t))) problems.push(`${file}: requires ${spec}, which is not in the package`);
			} else if (spec !== 'n8n-workflow' && !builtins.has(spec)) {
				problems.push(`${file}: requires ${spec} (only n8n-workflow and Node built-ins are available)`);
			}
		}
	}
	return problems;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
	const i = process.argv.indexOf('--tarball');
	const tarball = i >= 0 ? path.resolve(process.argv[i + 1]) : pack();
	console.log(`release dry run: ${path.relative(ROOT, tarball) || tarball}`);
	const dir = unpack(tarball);
	let problems;
	try {
		problems = problemsOf(dir);
		console.log(`tarball: ${walk(dir).length} files`);
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
	for (const problem of problems) console.log(`  ✖ ${problem}`);
	console.log(`tarball contents: ${problems.length} problems`);
	const scanned = await scan(tarball);
	const ok = problems.length === 0 && scanned;
	console.log(ok ? 'release dry run: passed (this tarball may be published)' : 'release dry run: FAILED (a release would not publish this tarball)');
	process.exit(ok ? 0 : 1);
}
