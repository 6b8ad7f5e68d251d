#!/usr/bin/env node
'use strict';
/*
 * n8n 3.0's Migration Report on the example workflows, in the real n8n 2.41.1 (`npm run
 * test:e2e:migration-report`).
 *
 * n8n 2.41 ships the report of 3.0's breaking changes: the "breaking-changes" backend module, its
 * rules under rules/v3, and the REST endpoints GET /rest/breaking-changes/report?version=v3 and
 * POST /rest/breaking-changes/report/refresh?version=v3 (the owner's session; the editor's Settings
 * → Migration Report reads the same). This suite:
 *   1. `n8n start` with the packed package as a community package and a fresh user folder, owner
 *      and API key (lib/editor.js EditorHost, without a browser), N8N_UNVERIFIED_PACKAGES_ENABLED
 *      not set: what a user who installed the package today runs;
 *   2. imports every examples/**.json through n8n's public API;
 *   3. asks for a fresh report for v3 and checks it:
 *      - no workflow rule flags any example workflow (each rule with affected workflows is read
 *        with GET /rest/breaking-changes/report/<ruleId> for their names);
 *      - the package's instance rule `unverified-packages-v3` is flagged: in 3.0 unverified community
 *        packages stop loading unless N8N_UNVERIFIED_PACKAGES_ENABLED=true (the README says so);
 *   4. runs the report once more with N8N_UNVERIFIED_PACKAGES_ENABLED=true: that rule is no longer
 *      flagged, and the other instance rules flagged are exactly those of step 3 (rules that read
 *      only n8n's own settings, flagged on any 2.41 instance: compression-node-limits-v3,
 *      task-runner-task-timeout-v3, workflow-import-url-removed-v3 here), so nothing else depends on
 *      this package or its examples.
 * One "ok - …" / "not ok - …" line per check, then "N passed, N failed"; exit 1 when anything failed.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { EditorHost } = require('./lib/editor');
const { hostProfile } = require('./lib/hosts');

const ROOT = path.resolve(__dirname, '..', '..');
const HOST = hostProfile(process.env.E2E_N8N);
const PACKAGE_RULE = 'unverified-packages-v3';

let passed = 0;
let failed = 0;
function record(name, ok, reason) {
	if (ok) passed++;
	else failed++;
	console.log(ok ? `ok - ${name}` : `not ok - ${name}${reason ? `: ${reason}` : ''}`);
}

/** Every example workflow, as the base name EditorHost.workflow() takes ("rag/site-to-vector-store"). */
function exampleBases() {
	const dir = path.join(ROOT, 'examples');
	const out = [];
	for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
		if (!entry.isFile() || !entry.name.endsWith('.json')) continue;
		const full = path.join(entry.parentPath ?? entry.path, entry.name);
		out.push(path.relative(dir, full).replace(/\\/g, '/').replace(/\.json$/, ''));
	}
	return out.sort();
}

/** One report for v3, fresh (not the cached one): {instance: [ruleId], workflows: {ruleId: [names]}}. */
async function report(host) {
	const refreshed = await host.rest('POST', '/rest/breaking-changes/report/refresh?version=v3', undefined, { cookie: host.cookie });
	if (refreshed.status !== 200) throw new Error(`POST /rest/breaking-changes/report/refresh answered ${refreshed.status}: ${JSON.stringify(refreshed.json).slice(0, 300)}`);
	const body = refreshed.json?.data ?? refreshed.json;
	const result = body?.report;
	if (!result || !Array.isArray(result.instanceResults) || !Array.isArray(result.workflowResults)) {
		throw new Error(`the report has no instanceResults / workflowResults: ${JSON.stringify(body).slice(0, 300)}`);
	}
	const instance = result.instanceResults.filter((r) => r.isAffected !== false && (r.instanceIssues?.length ?? 0) > 0).map((r) => r.ruleId);
	const workflows = {};
	for (const rule of result.workflowResults.filter((r) => (r.nbAffectedWorkflows ?? 0) > 0)) {
		const detail = await host.rest('GET', `/rest/breaking-changes/report/${encodeURIComponent(rule.ruleId)}`, undefined, { cookie: host.cookie });
		const affected = (detail.json?.data ?? detail.json)?.affectedWorkflows ?? [];
		workflows[rule.ruleId] = affected.map((w) => w.name ?? w.id);
	}
	return { instance, workflows, target: body.targetVersion ?? 'v3' };
}

/** `n8n start` with the package and `env` on top (breaking-changes enabled: the e2e hosts disable it). */
async function withHost(env, fn) {
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'webdata-migration-'));
	const disabled = HOST.disabledModules
		.split(',')
		.filter((m) => m && m !== 'breaking-changes')
		.join(',');
	const host = new EditorHost({ root: ROOT, tmp, nodeDir: HOST.nodeDir, hostDir: HOST.hostDir, envOverrides: { N8N_DISABLED_MODULES: disabled, ...env } });
	try {
		await host.start();
		return await fn(host);
	} catch (e) {
		e.message = `${e.message}${host.output.length ? ` (n8n start log tail: ${host.tail(8).replace(/\s+/g, ' ')})` : ''}`;
		throw e;
	} finally {
		await host.stop();
		if (!process.env.E2E_KEEP_TMP) fs.rmSync(tmp, { recursive: true, force: true });
	}
}

async function main() {
	const bases = exampleBases();
	let unset;
	// 1-3: as installed today, N8N_UNVERIFIED_PACKAGES_ENABLED not set
	try {
		unset = await withHost({ N8N_UNVERIFIED_PACKAGES_ENABLED: undefined }, async (host) => {
			for (const base of bases) await host.workflow(base);
			record(`the ${bases.length} example workflows are imported into n8n (${HOST.name})`, true);
			const r = await report(host);
			console.log(`# Migration Report ${r.target}: instance rules flagged: ${r.instance.join(', ') || 'none'}; workflow rules flagging workflows: ${Object.keys(r.workflows).join(', ') || 'none'}`);
			const flagged = Object.entries(r.workflows).flatMap(([rule, names]) => names.map((n) => `${n} (${rule})`));
			record('the Migration Report for n8n 3.0 flags no example workflow (no workflow rule affects any of them)', flagged.length === 0, flagged.join('; '));
			record(`the package's instance rule ${PACKAGE_RULE} is flagged while N8N_UNVERIFIED_PACKAGES_ENABLED is not set`, r.instance.includes(PACKAGE_RULE), `flagged: ${r.instance.join(', ') || 'none'}`);
			return r;
		});
	} catch (e) {
		record('the Migration Report for n8n 3.0 runs on the examples', false, e.message);
	}
	// 4: with what the README tells a 3.0 user to set. The instance rules still flagged then read only
	// n8n's own settings (task runner timeout, Compression node limits, Import from URL): the same
	// with or without this package's setting, so nothing but the package rule depends on it.
	try {
		await withHost({ N8N_UNVERIFIED_PACKAGES_ENABLED: 'true' }, async (host) => {
			const r = await report(host);
			record(`with N8N_UNVERIFIED_PACKAGES_ENABLED=true (the README's 3.0 setting) ${PACKAGE_RULE} is not flagged`, !r.instance.includes(PACKAGE_RULE), `flagged: ${r.instance.join(', ')}`);
			if (unset) {
				const before = unset.instance.filter((id) => id !== PACKAGE_RULE).sort();
				const after = [...r.instance].sort();
				console.log(`# instance rules about n8n's own settings, flagged either way (not about this package or its examples): ${after.join(', ') || 'none'}`);
				record('nothing else changes with it: the other flagged instance rules are the same with and without the setting', before.join(',') === after.join(','), `without: ${before.join(', ')}; with: ${after.join(', ')}`);
			}
		});
	} catch (e) {
		record('the Migration Report runs with N8N_UNVERIFIED_PACKAGES_ENABLED=true', false, e.message);
	}
	console.log(`${passed} passed, ${failed} failed`);
	process.exit(failed ? 1 : 0);
}

main().catch((e) => {
	console.log(`not ok - migration report: ${e.message}`);
	console.log(`${passed} passed, ${failed + 1} failed`);
	process.exit(1);
});
