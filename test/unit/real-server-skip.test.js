'use strict';
// The real-server suite (npm run test:real-server) without a server: one clear line, exit code 0,
// and nothing loaded or started (it returns before requiring n8n-core).
const { spawnSync } = require('child_process');
const path = require('path');

const SCRIPT = path.join(__dirname, '..', 'real-server', 'run.js');

function runWithout(extra = {}) {
	const env = { ...process.env, ...extra };
	for (const key of Object.keys(env)) if (key.startsWith('WEBDATA_REAL_') && !(key in extra)) delete env[key];
	return spawnSync(process.execPath, [SCRIPT], { env, encoding: 'utf8', timeout: 20000 });
}

test.each([
	['no variables', {}, 'WEBDATA_REAL_URL is not set'],
	['a URL but no key', { WEBDATA_REAL_URL: 'http://127.0.0.1:9' }, 'WEBDATA_REAL_KEY is not set'],
])('skips with one line when %s', (_label, extra, reason) => {
	const result = runWithout(extra);
	expect(result.status).toBe(0);
	expect(result.stderr).toBe('');
	const lines = result.stdout.trim().split('\n');
	expect(lines).toHaveLength(1);
	expect(lines[0]).toMatch(/^real-server suite skipped: set WEBDATA_REAL_URL and WEBDATA_REAL_KEY to run it/);
	expect(lines[0]).toContain(reason);
});
