'use strict';
// examples/monitor-run-and-read-changes.json: Newest monitor (Monitor → Get Many, Limit 1) → Run
// Check Now on that monitor's id (wait, one item per changed/new/removed page) → Set, in the real n8n.
// The example holds no monitor id. before() seeds the account's monitor, with a finished first check,
// so this check finds the pricing page changed (with diff and judgment) and the plans page same.
// Checks take 1.5 s in the fake.
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

const MONITOR_ID = '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a'; // the account's only monitor
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function before(fake) {
	await fake.call('POST', '/__fake/monitor', {
		id: MONITOR_ID,
		name: 'Competitor pricing',
		goal: 'Tell me when a plan price changes',
		targets: [{ type: 'scrape', urls: ['https://example.com/pricing', 'https://example.com/plans'] }],
		baseline: true,
	});
	return {};
}

async function check({ output, exitCode, fake, apiKey }) {
	assert.equal(exitCode, 0, 'n8n execute should succeed');
	const newest = nodeItems(output, 'Newest monitor');
	assert.equal(newest.length, 1, 'Newest monitor: one item (Limit 1)');
	assert.equal(newest[0].json.id, MONITOR_ID);
	const pages = nodeItems(output, 'Run check now');
	assert.equal(pages.length, 1, 'one item: the changed page (the unchanged one is filtered out)');
	const page = pages[0].json;
	assert.equal(page.url, 'https://example.com/pricing');
	assert.equal(page.status, 'changed');
	assert.equal(page.monitorId, MONITOR_ID);
	assert.match(page.checkId, UUID);
	assert.match(page.diff.text, /\+Price: \$12/);
	assert.equal(page.judgment.meaningful, true);
	assert.equal(pages[0].pairedItem?.item, 0);

	const kept = nodeItems(output, 'Keep what matters');
	assert.equal(kept.length, 1);
	const row = kept[0].json;
	assert.equal(row.url, 'https://example.com/pricing');
	assert.equal(row.status, 'changed');
	assert.equal(row.meaningful, true);
	assert.match(row.why, /price/i);
	assert.match(row.diff, /-Price: \$10\n\+Price: \$12/);
	assert.equal(row.checkId, page.checkId);

	const log = await fake.log();
	const trail = log.map((r) => `${r.method} ${r.path} ${new URLSearchParams(r.query).toString()} ${r.status}`);
	const checkPath = `/v2/monitor/${MONITOR_ID}/checks/${page.checkId}`;
	assert.equal(trail[0], 'GET /v2/monitor limit=1&offset=0 200', `first the list (Limit 1): ${trail.join(', ')}`);
	assert.equal(trail[1], `POST /v2/monitor/${MONITOR_ID}/run  200`, `requests: ${trail.join(', ')}`);
	const polls = trail.slice(2).filter((t) => t.startsWith(`GET ${checkPath} limit=1 `));
	assert.ok(polls.length >= 1 && polls.length <= 3, `a few status polls (${polls.length}): ${trail.join(', ')}`);
	assert.deepEqual(
		trail.slice(2 + polls.length),
		['new', 'changed', 'removed'].map((s) => `GET ${checkPath} limit=100&status=${s} 200`),
		`then one paged read per page status: ${trail.join(', ')}`,
	);
	for (const r of log) assert.ok(r.headers.authorization === `Bearer ${apiKey}`, 'bearer auth on every request');
	const monitor = await fake.call('GET', `/__fake/monitor/${MONITOR_ID}`);
	assert.equal(monitor.checks.length, 2, 'the seeded first check and the one this run started');
	assert.equal(monitor.checks[0].trigger, 'manual');
}

module.exports = check;
module.exports.before = before;
