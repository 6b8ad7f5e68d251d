'use strict';
// One fresh n8n instance for an end-to-end script: its folders, a canary API key, the package
// installed as a community package, and the context ./trigger-phase.js Phase runs n8n with.
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { hostProfile } = require('./hosts');
const { n8nEnv, freePort } = require('./n8n');
const { packInto } = require('./editor');

/**
 * The instance's temporary folder (`prefix`…), its n8n user folder and a canary API key (which must
 * never appear in anything n8n prints or returns). `install()` then checks that test/e2e/install.sh
 * installed the host's n8n, packs the package into the user folder, picks free ports and gives the
 * Phase context; call it inside the script's try, so a failure is reported as the set-up's.
 */
function prepareInstance({ root, prefix, encryptionKey, host = hostProfile(process.env.E2E_N8N) }) {
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	const userFolder = path.join(tmp, 'user');
	fs.mkdirSync(userFolder);
	const apiKey = `wd-canary-${crypto.randomBytes(16).toString('hex')}`;
	async function install() {
		if (!fs.existsSync(path.join(host.hostDir, 'node_modules', 'n8n'))) {
			throw new Error(`${host.name} is not installed in .cache/: run bash test/e2e/install.sh ${host.installArg}`);
		}
		await packInto(root, tmp, userFolder);
		return {
			nodeDir: host.nodeDir,
			hostDir: host.hostDir,
			workDir: tmp,
			env: n8nEnv({ nodeDir: host.nodeDir, userFolder, encryptionKey, port: await freePort(), brokerPort: await freePort(), host }),
		};
	}
	return { tmp, userFolder, apiKey, host, install };
}

module.exports = { prepareInstance };
