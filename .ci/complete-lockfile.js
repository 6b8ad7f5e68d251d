'use strict';
// Adds lockfile entries for optional, platform-specific packages that the lockfile names but
// does not list (npm leaves them out when the registry in use does not serve them), so that
// `npm ci` accepts the lockfile. Each added entry carries the os/cpu read from the package name,
// so npm skips it on every other platform and never fetches it. Run after changing dependencies:
//   node .ci/complete-lockfile.js [package-lock.json]
const fs = require('fs');
const path = require('path');

const file = path.resolve(process.argv[2] || path.join(__dirname, '..', 'package-lock.json'));
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const OSES = ['android', 'darwin', 'freebsd', 'linux', 'openharmony', 'win32', 'netbsd', 'openbsd', 'sunos', 'aix'];
const CPUS = ['arm64', 'arm', 'x64', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x', 'mips64el'];

function platformOf(name) {
	const tokens = name.split('/').pop().split(/[-_]/);
	const os = tokens.find((t) => OSES.includes(t));
	const cpu = tokens.find((t) => CPUS.includes(t));
	return os && cpu ? { os, cpu } : undefined;
}

/** Where npm would look for `dep` from the package at `at` (nearest node_modules upwards). */
function resolves(at, dep) {
	let dir = at;
	for (;;) {
		if (lock.packages[`${dir ? `${dir}/` : ''}node_modules/${dep}`]) return true;
		if (!dir) return false;
		const idx = dir.lastIndexOf('/node_modules/');
		dir = idx < 0 ? '' : dir.slice(0, idx);
	}
}

let added = 0;
for (const [at, pkg] of Object.entries(lock.packages)) {
	for (const [dep, range] of Object.entries(pkg.optionalDependencies || {})) {
		if (resolves(at, dep)) continue;
		const platform = platformOf(dep);
		if (!platform || !/^\d+\.\d+\.\d+$/.test(range)) continue;
		lock.packages[`node_modules/${dep}`] = {
			version: range,
			cpu: [platform.cpu],
			optional: true,
			os: [platform.os],
		};
		added++;
	}
}
const sorted = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
lock.packages = sorted;
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} platform-specific optional entr${added === 1 ? 'y' : 'ies'} to ${path.basename(file)}`);
