'use strict';
/**
 * Monitor: the exported building blocks of a monitor body (also used by the Web Data Trigger):
 * what they send for valid input. The rules they refuse are in monitor-validation.test.js.
 * Build first: `npm run build`.
 */
const m = { ...require('../../dist/nodes/shared/monitor/body'), ...require('../../dist/nodes/shared/monitor/schedule') };
const { targetsFromForm, formLabeler, jsonLabeler } = require('../../dist/nodes/shared/monitor/targets');
const { NODE } = require('../helpers/fake-context');

const errorOf = (fn) => {
	try {
		fn();
	} catch (e) {
		return e;
	}
	throw new Error('expected an error');
};

describe('buildSchedule', () => {
	test.each(['*/5 * * * *', '0 9 * * 1-5', '30 8 * * 1-5', '0 0 1 1,7 *', '0 */2 * * *', '7-59/15 * * * *', '0 9 * * 7', '0,30 * * * *', '0 9 13 * 5', '0,58 0,23 * * 1'])(
		'accepts the cron expression %s',
		(cron) => {
			expect(m.cronProblem(cron)).toBeUndefined();
			expect(m.buildSchedule(NODE, { cron })).toEqual({ cron });
		},
	);

	test('the run-within-a-year rule looks from now: 29 February passes when one comes within a year', () => {
		expect(m.cronProblem('0 0 29 2 *', new Date('2027-06-01T00:00:00Z'))).toBeUndefined();
		expect(m.cronProblem('0 0 29 2 *', new Date('2026-11-24T00:00:00Z'))).toMatch(/no day in the next year matches it/);
		expect(m.cronProblem('0 0 31 4 *', new Date('2027-06-01T00:00:00Z'))).toMatch(/no day in the next year matches it/);
	});

	// The service's "in words" grammar (firecrawl/firecrawl services/monitoring/cron.ts a05b9f288f4d).
	test.each([
		['every 30 minutes', '*/30 * * * *'],
		['every 5 mins', '*/5 * * * *'],
		['every 60 minutes', '*/60 * * * *'],
		['every 15 minutes starting at :07', '7-59/15 * * * *'],
		['Every 20 Minutes, start on 5', '5-59/20 * * * *'],
		['hourly', '0 * * * *'],
		['every hour at :15', '15 * * * *'],
		['every 2 hours', '0 */2 * * *'],
		['every 24 hrs', '0 */24 * * *'],
		['daily', '0 0 * * *'],
		['every day at 9am', '0 9 * * *'],
		['daily at 9 a.m.', '0 9 * * *'],
		['daily at 12am', '0 0 * * *'],
		['daily at 5:30 PM', '30 17 * * *'],
		['daily at 17:30', '30 17 * * *'],
		['weekly', '0 0 * * 0'],
		['every week', '0 0 * * 0'],
	])('the phrase %s is accepted and sent as written (the service reads it as %s)', (text, cron) => {
		expect(m.scheduleTextCron(text)).toEqual({ cron });
		expect(m.buildSchedule(NODE, { text })).toEqual({ text });
	});

	test('cron spacing is normalised; a blank time zone is left to the service (UTC)', () => {
		expect(m.buildSchedule(NODE, { cron: '  0   9 * *   1-5 ', timezone: ' ' })).toEqual({ cron: '0 9 * * 1-5' });
	});

	test('text with a time zone', () => {
		expect(m.buildSchedule(NODE, { text: ' daily at 9am ', timezone: 'Europe/Berlin' })).toEqual({ text: 'daily at 9am', timezone: 'Europe/Berlin' });
	});

	test('exactly one of cron and text', () => {
		expect(errorOf(() => m.buildSchedule(NODE, { cron: '0 9 * * *', text: 'daily' })).message).toMatch(/exactly one of "Cron Expression" or "Schedule", not both/);
		expect(errorOf(() => m.buildSchedule(NODE, {})).message).toMatch(/give exactly one of "Schedule"/);
	});

	test('field names in messages can be chosen by the caller', () => {
		const e = errorOf(() => m.buildSchedule(NODE, { cron: 'every day' }, 0, { cron: 'Cron', text: 'Text', timezone: 'TZ' }));
		expect(e.message).toMatch(/^Cron "every day" is not valid: it has 2 fields/);
	});

	test('isTimeZone', () => {
		expect(m.isTimeZone('America/New_York')).toBe(true);
		expect(m.isTimeZone('UTC')).toBe(true);
		expect(m.isTimeZone('Europe/Atlantis')).toBe(false);
		expect(m.isTimeZone('')).toBe(false);
		expect(m.isTimeZone('Etc/GMT-2')).toBe(true);
		expect(m.isTimeZone('US/Eastern')).toBe(true);
		expect(m.isTimeZone('+05:30')).toBe(false);
		expect(m.isTimeZone('-0800')).toBe(false);
	});
});

describe('buildWebhook (shared with the Web Data Trigger)', () => {
	test('metadata values are sent as strings', () => {
		const webhook = m.buildWebhook(NODE, {
			url: ' https://hooks.example.com/m ',
			metadata: { count: 3, live: true, nested: { a: 1 }, list: [1, 2], none: null, text: 'x' },
		});
		expect(webhook).toEqual({
			url: 'https://hooks.example.com/m',
			metadata: { count: '3', live: 'true', nested: '{"a":1}', list: '[1,2]', none: '', text: 'x' },
		});
	});

	test('headers from an object or from {name, value} entries; events in a fixed order, without repeats', () => {
		expect(
			m.buildWebhook(NODE, {
				url: 'http://n8n.local/webhook/abc',
				events: ['monitor.check.completed', 'monitor.page', 'monitor.page'],
				headers: [{ name: 'Authorization', value: 'Bearer t' }, { name: 'X-Num', value: 7 }],
				metadata: [{ key: 'workflow', value: 'w1' }],
			}),
		).toEqual({
			url: 'http://n8n.local/webhook/abc',
			events: ['monitor.page', 'monitor.check.completed'],
			headers: { Authorization: 'Bearer t', 'X-Num': '7' },
			metadata: { workflow: 'w1' },
		});
		expect(m.buildWebhook(NODE, { url: 'https://h.example.com', headers: { 'X-A': 'b' } })).toEqual({ url: 'https://h.example.com', headers: { 'X-A': 'b' } });
	});

	test('a header value that is an object is refused, the value hidden (a header may hold a secret)', () => {
		expect(errorOf(() => m.buildWebhook(NODE, { url: 'https://h.example.com', headers: { 'X-A': { b: 1 } } })).message).toMatch(
			/^Webhook Headers "\[hidden\]" is not valid: the value of header "X-A" must be text/,
		);
	});
});

describe('buildNotification', () => {
	test('recipients split at commas, semicolons and new lines, repeats dropped', () => {
		expect(m.buildNotification(NODE, { enabled: true, includeDiffs: false, recipients: 'a@example.com; b@example.com\nA@example.com,' })).toEqual({
			email: { enabled: true, includeDiffs: false, recipients: ['a@example.com', 'b@example.com'] },
		});
	});

	test('no recipients: the key is left out (the service mails the team)', () => {
		expect(m.buildNotification(NODE, { enabled: true, recipients: '' })).toEqual({ email: { enabled: true } });
	});

	test('25 recipients are allowed', () => {
		const recipients = Array.from({ length: 25 }, (_, n) => `r${n}@example.com`);
		expect(m.buildNotification(NODE, { recipients }).email.recipients).toHaveLength(25);
	});

	test('enabled must be true or false', () => {
		expect(errorOf(() => m.buildNotification(NODE, { enabled: 'yes' })).message).toMatch(/^E-Mail Notification → Enabled "yes" is not valid: it must be true or false/);
	});
});

const scrapeTarget = { list: [{ type: 'scrape', urls: ['https://example.com'] }], label: jsonLabeler(), field: 'Targets (JSON)' };

describe('buildMonitorBody', () => {
	test('create: a blank goal is left out', () => {
		const body = m.buildMonitorBody(NODE, { name: 'n', goal: '  ', schedule: { text: 'hourly' }, targets: scrapeTarget }, 'create');
		expect(body).toEqual({ name: 'n', schedule: { text: 'hourly' }, targets: [{ type: 'scrape', urls: ['https://example.com'] }] });
	});

	test('create: a search target without a goal is fine when judging is off', () => {
		const targets = { ...scrapeTarget, list: [{ type: 'search', queries: ['acme'] }] };
		const body = m.buildMonitorBody(NODE, { name: 'n', goal: '', judgeEnabled: false, schedule: { text: 'hourly' }, targets }, 'create');
		expect(body).toMatchObject({ judgeEnabled: false, targets: [{ type: 'search', queries: ['acme'] }] });
		expect(body.goal).toBeUndefined();
	});

	test('create: a status is refused (monitors start active)', () => {
		expect(errorOf(() => m.buildMonitorBody(NODE, { name: 'n', schedule: { text: 'hourly' }, targets: scrapeTarget, status: 'paused' }, 'create')).message).toMatch(
			/^Status "paused" is not valid: a new monitor always starts active/,
		);
	});

	test('update: only what is given; a cleared goal is sent as null', () => {
		expect(m.buildMonitorBody(NODE, { goal: '' }, 'update')).toEqual({ goal: null });
		expect(m.buildMonitorBody(NODE, { status: 'active', retentionDays: '90' }, 'update')).toEqual({ status: 'active', retentionDays: 90 });
	});

	test('update: new search targets without a goal in the update are left for the service to judge (it knows the goal)', () => {
		const targets = { ...scrapeTarget, list: [{ type: 'search', queries: ['acme'] }] };
		expect(m.buildMonitorBody(NODE, { targets }, 'update')).toEqual({ targets: [{ type: 'search', queries: ['acme'] }] });
	});

	test('raw JSON targets: a single "url" on a scrape target and keys the node does not know pass through', () => {
		const targets = {
			...scrapeTarget,
			list: [
				{ type: 'scrape', url: 'https://example.com/a', id: '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a' },
				{ type: 'crawl', url: 'https://example.com/blog', crawlOptions: { limit: 5, sitemap: 'include' } },
			],
		};
		expect(m.buildMonitorBody(NODE, { targets }, 'update').targets).toEqual(targets.list);
	});
});

describe('targets from the form', () => {
	test('each group becomes its API shape; only what was set is sent', () => {
		const { targets, numberInGroup } = targetsFromForm({
			scrape: [
				{
					urls: 'https://example.com/a\nhttps://example.com/b, https://example.com/c',
					scrapeOptions: {
						onlyMainContent: false,
						includeTags: 'main, #pricing',
						excludeTags: '',
						country: 'DE',
						languages: 'de-DE, en',
						headers: { header: [{ name: 'Cookie', value: 'a=1' }, { name: ' ', value: 'dropped' }] },
						proxy: 'enhanced',
						timeout: 90000,
					},
				},
				{ urls: ['https://example.com/d'] },
			],
			crawl: [{ url: ' https://example.com/blog ', pageLimit: 20, crawlOptions: { includePaths: '/blog/.*', maxDiscoveryDepth: 2 } }],
			search: [{ queries: 'acme, inc. funding\n\nacme layoffs', searchOptions: { searchWindow: '7d', maxResults: 20, excludeDomains: 'pinterest.com' } }],
		});
		expect(targets).toEqual([
			{
				type: 'scrape',
				urls: ['https://example.com/a', 'https://example.com/b', 'https://example.com/c'],
				scrapeOptions: {
					onlyMainContent: false,
					includeTags: ['main', '#pricing'],
					location: { country: 'DE', languages: ['de-DE', 'en'] },
					headers: { Cookie: 'a=1' },
					proxy: 'enhanced',
					timeout: 90000,
				},
			},
			{ type: 'scrape', urls: ['https://example.com/d'] },
			{ type: 'crawl', url: 'https://example.com/blog', crawlOptions: { limit: 20, maxDiscoveryDepth: 2, includePaths: ['/blog/.*'] } },
			{ type: 'search', queries: ['acme, inc. funding', 'acme layoffs'], searchWindow: '7d', maxResults: 20, excludeDomains: ['pinterest.com'] },
		]);
		expect(numberInGroup).toEqual([1, 2, 1, 1]);
		const label = formLabeler('Targets', numberInGroup);
		expect(label(1, 'scrape', 'urls')).toBe('Targets → Scrape Pages 2 → URLs');
		expect(label(3, 'search', 'maxResults')).toBe('Targets → Search the Web 1 → Search Options → Limit');
	});
});
