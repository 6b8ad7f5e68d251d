'use strict';
// Runs the real n8n CLI (installed by test/e2e/install.sh) under Node 24, isolated and offline.
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const proc = require('./proc');
const { hostProfile } = require('./hosts');

/** A TCP port that was free a moment ago on 127.0.0.1. */
function freePort() {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.once('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address();
			srv.close(() => resolve(port));
		});
	});
}

/**
 * Environment of an isolated n8n whose user folder is `userFolder` (n8n writes `<userFolder>/.n8n`);
 * `host`: the n8n install (./hosts.js, default 2.41.1).
 */
function n8nEnv({ nodeDir, userFolder, encryptionKey, port, brokerPort, host = hostProfile() }) {
	const env = {};
	// Keep only what a shell needs; drop anything n8n-related from the caller's environment.
	for (const k of ['HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'TERM', 'USER']) if (process.env[k] !== undefined) env[k] = process.env[k];
	Object.assign(env, {
		PATH: `${path.join(nodeDir, 'bin')}:${process.env.PATH || '/usr/bin:/bin'}`,
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: encryptionKey,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		WEBHOOK_URL: `http://127.0.0.1:${port}/`,
		N8N_WEBHOOK_URL: `http://127.0.0.1:${port}/`,
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_AI_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		DB_TYPE: 'sqlite',
		GENERIC_TIMEZONE: 'UTC',
		TZ: 'UTC',
		N8N_DISABLED_MODULES: host.disabledModules,
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_LOG_OUTPUT: 'console',
		N8N_LOG_LEVEL: 'info',
		N8N_NO_COLOR: 'true',
		NO_COLOR: '1',
	});
	return env;
}

/** Runs one n8n CLI command; resolves proc.run's result. */
function n8n(ctx, args, opts = {}) {
	const bin = path.join(ctx.hostDir, 'node_modules', 'n8n', 'bin', 'n8n');
	return proc.run(path.join(ctx.nodeDir, 'bin', 'node'), [bin, ...args], {
		env: opts.env ? { ...ctx.env, ...opts.env } : ctx.env,
		cwd: ctx.workDir,
		logFile: ctx.logFile,
		timeoutMs: opts.timeoutMs ?? 180000,
	});
}

/**
 * The execution data printed by `n8n execute --rawOutput` (also printed on failure): pretty JSON,
 * mixed with log lines. It starts at the first line that is exactly "{" and ends at the next line
 * that is exactly "}" (JSON.stringify(…, null, 2) indents everything nested, and escapes newlines).
 */
function parseExecutionOutput(stdout) {
	const lines = String(stdout).split(/\r?\n/);
	const start = lines.findIndex((l) => l === '{');
	if (start < 0) return undefined;
	const end = lines.findIndex((l, i) => i > start && l === '}');
	if (end < 0) return undefined;
	try {
		return JSON.parse(lines.slice(start, end + 1).join('\n'));
	} catch {
		return undefined;
	}
}

/** Writes `value` as JSON to `<dir>/<name>` and returns the path. */
function writeJson(dir, name, value) {
	const file = path.join(dir, name);
	fs.writeFileSync(file, JSON.stringify(value, null, 2));
	return file;
}

module.exports = { freePort, n8nEnv, n8n, parseExecutionOutput, writeJson };
