'use strict';
// The real n8n installs the end-to-end suites run in (installed by test/e2e/install.sh <installArg>
// into .cache/, ignored by git). E2E_N8N picks one; the default is the newest tested.
const path = require('node:path');

const CACHE = path.resolve(__dirname, '..', '..', '..', '.cache');

const HOSTS = {
	// The newest tested: n8n 2.41.1 on Node 24 (test/e2e/host).
	n8n2: {
		name: 'n8n 2.41.1',
		installArg: 'n8n2',
		nodeDir: path.join(CACHE, 'node24'),
		hostDir: path.join(CACHE, 'n8n-host'),
		screenshots: true,
		major: 2,
		agentVersion: 3.1,
		credentialExtras: {},
		disabledModules: 'mcp-registry,instance-ai,agents,chat-hub,workflow-builder,quick-connect,mcp,insights,breaking-changes',
	},
	// The oldest supported: n8n 1.123.x on Node 22 (test/e2e/host-n8n1). The editor pictures come
	// from 2.41 only (the README shows those).
	n8n1: {
		name: 'n8n 1.123',
		installArg: 'n8n1',
		nodeDir: path.join(CACHE, 'node22'),
		hostDir: path.join(CACHE, 'n8n1-host'),
		screenshots: false,
		major: 1,
		agentVersion: 3, // the newest AI Agent of n8n 1.123
		// n8n 1.123's public API requires "allowedDomains" in the data of every credential that
		// authenticates unless the (injected) domain restriction is given: "all" is its default.
		credentialExtras: { allowedHttpRequestDomains: 'all' },
		// n8n 1.x refuses to start when N8N_DISABLED_MODULES names a module it does not know.
		disabledModules: 'insights,mcp,chat-hub,breaking-changes',
		// Workflows (name prefixes) that use node versions this n8n does not have, with the reason.
		needsNewerN8n: {
			'examples/rag/': 'its answer workflow uses the AI Agent 3.1, which n8n 1.123 does not have (its newest is 3)',
		},
	},
};

/** The host profile named `name` ('n8n2' when empty). */
function hostProfile(name) {
	const key = name || 'n8n2';
	if (!Object.prototype.hasOwnProperty.call(HOSTS, key)) throw new Error(`E2E_N8N=${key} is not known (one of ${Object.keys(HOSTS).join(', ')})`);
	return HOSTS[key];
}

module.exports = { hostProfile, HOSTS };
