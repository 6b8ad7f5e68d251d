'use strict';
// examples/monitor-create.json: Manual Trigger → Web Data (Monitor → Create) in the real n8n.
// The form (scrape and search targets, text schedule with time zone, e-mail) must reach the API as
// one MonitorCreate body, and the item must be the created monitor record.
const assert = require('node:assert/strict');
const { nodeItems } = require('../lib/output');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function check({ output, exitCode, fake, apiKey }) {
	assert.equal(exitCode, 0, 'n8n execute should succeed');
	const items = nodeItems(output, 'Create monitor');
	assert.equal(items.length, 1, 'one output item: the monitor');
	const monitor = items[0].json;
	assert.match(monitor.id, UUID, 'the monitor has an id');
	assert.equal(monitor.name, 'Competitor pricing');
	assert.equal(monitor.status, 'active');
	assert.deepEqual(monitor.schedule, { cron: '0 9 * * *', timezone: 'Europe/Berlin' }, '"daily at 9am" comes back as a cron in the time zone');
	assert.equal(monitor.judgeEnabled, true);
	assert.equal(monitor.retentionDays, 90);
	assert.equal(monitor.targets.length, 2);
	assert.match(monitor.targets[0].id, UUID, 'targets get ids');
	assert.deepEqual(monitor.notification, { email: { enabled: true, includeDiffs: true, recipients: ['pricing-team@example.com'] } });
	assert.equal(typeof monitor.estimatedCreditsPerMonth, 'number');
	assert.ok(!('success' in monitor), 'the envelope flag "success" is not part of the item');
	assert.equal(items[0].pairedItem?.item, 0, 'the item is paired with the trigger item');

	const log = await fake.log();
	const trail = log.map((r) => `${r.method} ${r.path} ${r.status}`);
	assert.deepEqual(trail, ['POST /v2/monitor 200'], `requests: ${trail.join(', ')}`);
	assert.ok(log[0].headers.authorization === `Bearer ${apiKey}`, 'bearer auth');
	assert.deepEqual(log[0].body, {
		name: 'Competitor pricing',
		goal: 'Tell me when a plan price, a plan limit or a free-trial offer changes',
		judgeEnabled: true,
		schedule: { text: 'daily at 9am', timezone: 'Europe/Berlin' },
		targets: [
			{
				type: 'scrape',
				urls: ['https://example.com/pricing', 'https://example.com/plans'],
				scrapeOptions: { onlyMainContent: true, excludeTags: ['nav', 'footer', '.cookie-banner'] },
			},
			{ type: 'search', queries: ['example.com price increase', 'example.com new pricing plan'], searchWindow: '7d', maxResults: 10 },
		],
		retentionDays: 90,
		notification: { email: { enabled: true, includeDiffs: true, recipients: ['pricing-team@example.com'] } },
	});
	const stored = await fake.call('GET', `/__fake/monitor/${monitor.id}`);
	assert.equal(stored.name, 'Competitor pricing', 'the fake holds the monitor');
}

module.exports = check;
module.exports.vars = {};
