#!/usr/bin/env node
'use strict';
/**
 * The credential's Test in the real n8n (npm run test:e2e:credential): `n8n start` 2.41.1 with the
 * packed package, an owner, a Web Data API credential on the fake API, then the editor's own call
 * (POST /rest/credentials/test), which runs n8n's CredentialsTester on the credential's declarative
 * `test`: a good key (also with a trailing /v2/ in Base URL) → "Connection successful!", a wrong
 * key → the 401 rule's message, a closed port → n8n's error code. One request per Test reaches the
 * fake (two on a 401: n8n retries it once; none for the closed port).
 *
 * Output ends with "N passed, N failed"; exit 1 on any failure. CREDENTIAL_TEST_KEEP_TMP=1 keeps logs.
 */
const path = require('node:path');

const { freePort } = require('./lib/n8n');
const { runPhaseSuite, runScript } = require('./lib/instance');
const { secs, reporter } = require('./lib/report');
const { Phase } = require('./lib/trigger-phase');

const ROOT = path.resolve(__dirname, '..', '..');

const report = reporter();
const { record } = report;

/** The checks, once n8n runs with the credential `phase.credentials.tokenOnly`. */
async function testCredential(phase, apiKey) {
	const stored = phase.credentials.tokenOnly;
	/** The editor's Test: POST /rest/credentials/test with the credential and changed fields. */
	const test = async (data) => {
		const count = async () => (await phase.fake.log()).filter((r) => r.method === 'GET' && r.path === '/v2/team/credit-usage').length;
		const before = await count();
		const r = await phase.rest('POST', '/rest/credentials/test', { credentials: { id: stored.id, name: stored.name, type: 'webDataApi', data: { apiKey, baseUrl: phase.fake.url, webhookSecret: '', ...data } } }, { cookie: phase.cookie });
		const after = await count();
		return { status: r.status, result: r.json?.data, sent: after - before };
	};
	const check = async (label, data, expected, sent) => {
		try {
			const got = await test(data);
			const ok = got.status === 200 && got.result?.status === expected.status && expected.message.test(got.result?.message ?? '') && got.sent === sent;
			record(label, ok, `answered ${got.status} ${JSON.stringify(got.result)}, ${got.sent} request(s) reached the fake`);
		} catch (e) {
			record(label, false, e.message);
		}
	};
	await check('Test, good key: Connection successful!, one request (GET /v2/team/credit-usage)', {}, { status: 'OK', message: /^Connection successful!$/ }, 1);
	await check('Test, Base URL with a trailing /v2/: the same', { baseUrl: `${phase.fake.url}/v2/` }, { status: 'OK', message: /^Connection successful!$/ }, 1);
	// n8n-core's requestWithAuthentication sends a request answered 401 once more (after its
	// preAuthentication hook, a no-op for this credential): two free requests.
	await check('Test, wrong key: the 401 rule\'s plain message (n8n asks twice on a 401, both free)', { apiKey: 'fc-wrong-key' }, { status: 'Error', message: /^The service refused the API key \(401\)\. Copy the key again from the dashboard/ }, 2);
	const closed = await freePort();
	await check('Test, nothing listening at Base URL: n8n\'s error code', { baseUrl: `http://127.0.0.1:${closed}` }, { status: 'Error', message: /ECONNREFUSED/ }, 0);
}

runScript(() =>
	runPhaseSuite({
		report,
		root: ROOT,
		prefix: 'webdata-credential-test-',
		encryptionKey: 'webdata-e2e-encryption-key-0003',
		keepTmpEnv: 'CREDENTIAL_TEST_KEEP_TMP',
		Suite: Phase,
		setupLabel: (startMs) => `set-up (package, fake API, n8n start ready in ${secs(startMs)}, owner, credentials)`,
		setupFailedLabel: 'set-up',
		failDetails: false,
		run: testCredential,
		leakLabel: 'the API key never appears in n8n output',
		timingLines: false,
	}),
);
