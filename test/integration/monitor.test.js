'use strict';
/**
 * Monitor resource end to end in n8n's engine: workflows run with n8n-core's WorkflowExecute
 * (test/helpers/workflow-runner.js) against the strict fake API (test/fake-api), on real time.
 * Checks take 1.5 s in the fake (shortened per monitor with its plan where waiting is not the point).
 * Every test asserts on what the fake received and on what the items hold.
 * Build first: `npm run build`.
 */
const { runWorkflow } = require('../helpers/workflow-runner');
const { webDataWorkflow, WEB_DATA } = require('../helpers/workflows');
const { startFakeApi } = require('../fake-api/server');
const { CANARY_KEY, record } = require('../helpers/canary');
const { searchMonitors, searchMonitorChecks } = require('../../dist/nodes/WebData/methods/monitorSearch');
const { NODE } = require('../helpers/fake-context');

jest.setTimeout(30000);

let api;
beforeAll(async () => {
	api = await startFakeApi({ apiKey: CANARY_KEY });
});
afterAll(async () => api.close());
beforeEach(() => api.reset());

const UNKNOWN = '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a';
const rl = (value) => ({ __rl: true, mode: 'id', value });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function run(parameters, items = [{ json: {} }], node = {}) {
	const result = await runWorkflow(webDataWorkflow({ resource: 'monitor', ...parameters }, items, node), {
		credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url } },
	});
	record(result.error);
	if (result.runData[WEB_DATA]) record(result.items(WEB_DATA));
	return result;
}

/** API requests as the fake received them: "METHOD path?query status". */
const trail = () =>
	api.log.map((r) => {
		const q = new URLSearchParams(r.query).toString();
		return `${r.method} ${r.path}${q ? `?${q}` : ''} ${r.status}`;
	});

/** A monitor made through the fake's seeding route (not logged), optionally with a finished first check. */
async function seed(body = {}) {
	const res = await fetch(`${api.url}/__fake/monitor`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ goal: 'Tell me when a price changes', targets: [{ type: 'scrape', urls: ['https://example.com/pricing', 'https://example.com/plans'] }], ...body }),
	});
	expect(res.status).toBe(200);
	return res.json();
}

// -------------------------------------------------------------------------------------------------
describe('Create', () => {
	test('the whole form arrives as MonitorCreate; the item is the monitor record', async () => {
		const result = await run({
			operation: 'create',
			name: 'Competitor pricing',
			goal: 'Tell me when a plan price or limit changes',
			judgeEnabled: true,
			scheduleMode: 'text',
			scheduleText: 'daily at 9am',
			timezone: 'Europe/Berlin',
			targetsSource: 'fields',
			targets: {
				scrape: [{ urls: 'https://example.com/pricing\nhttps://example.com/plans', scrapeOptions: { onlyMainContent: true, excludeTags: 'nav, footer', waitFor: 1000 } }],
				crawl: [{ url: 'https://example.com/changelog', pageLimit: 5, crawlOptions: { includePaths: '/changelog/.*' } }],
				search: [{ queries: 'example.com pricing change', searchOptions: { searchWindow: '7d', maxResults: 5, includeDomains: 'news.example.org' } }],
			},
			options: {
				retentionDays: 90,
				webhook: {
					settings: {
						url: 'https://hooks.example.com/monitor',
						events: ['monitor.page'],
						headers: { header: [{ name: 'Authorization', value: 'Bearer hook-token' }] },
						metadata: { entry: [{ key: 'team', value: 'growth' }, { key: 'priority', value: 2 }] },
					},
				},
				emailNotification: { email: { enabled: true, includeDiffs: true, recipients: 'ana@example.com, ops@example.com' } },
			},
		});
		expect(result.status).toBe('success');
		expect(trail()).toEqual(['POST /v2/monitor 200']);
		const [req] = api.log;
		expect(req.headers.authorization).toBe(`Bearer ${CANARY_KEY}`);
		expect(req.headers['content-type']).toMatch(/^application\/json/);
		expect(req.body).toEqual({
			name: 'Competitor pricing',
			goal: 'Tell me when a plan price or limit changes',
			judgeEnabled: true,
			schedule: { text: 'daily at 9am', timezone: 'Europe/Berlin' },
			targets: [
				{ type: 'scrape', urls: ['https://example.com/pricing', 'https://example.com/plans'], scrapeOptions: { onlyMainContent: true, excludeTags: ['nav', 'footer'], waitFor: 1000 } },
				{ type: 'crawl', url: 'https://example.com/changelog', crawlOptions: { limit: 5, includePaths: ['/changelog/.*'] } },
				{ type: 'search', queries: ['example.com pricing change'], searchWindow: '7d', maxResults: 5, includeDomains: ['news.example.org'] },
			],
			retentionDays: 90,
			webhook: {
				url: 'https://hooks.example.com/monitor',
				events: ['monitor.page'],
				headers: { Authorization: 'Bearer hook-token' },
				metadata: { team: 'growth', priority: '2' },
			},
			notification: { email: { enabled: true, includeDiffs: true, recipients: ['ana@example.com', 'ops@example.com'] } },
		});
		const [item] = result.items(WEB_DATA);
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(item.json.id).toMatch(UUID);
		expect(item.json).toMatchObject({
			name: 'Competitor pricing',
			status: 'active',
			schedule: { cron: '0 9 * * *', timezone: 'Europe/Berlin' },
			retentionDays: 90,
			judgeEnabled: true,
			webhook: { metadata: { team: 'growth', priority: '2' } },
		});
		expect(item.json.targets).toHaveLength(3);
		expect(item.json.success).toBeUndefined();
		expect(api.monitor(item.json.id).name).toBe('Competitor pricing');
	});

	test('cron schedule; JSON targets with a search target and a Goal', async () => {
		const targets = [
			{ type: 'search', queries: ['acme robotics funding'], maxResults: 10 },
			{ type: 'scrape', urls: ['https://acme.example/press'], scrapeOptions: { proxy: 'enhanced', location: { country: 'US', languages: ['en'] } } },
		];
		const result = await run({
			operation: 'create',
			name: 'Acme news',
			goal: 'Funding rounds only',
			judgeEnabled: false,
			scheduleMode: 'cron',
			cron: '0 */6 * * *',
			timezone: 'America/New_York',
			targetsSource: 'json',
			targetsJson: JSON.stringify(targets),
		});
		expect(result.status).toBe('success');
		expect(api.log[0].body).toEqual({
			name: 'Acme news',
			goal: 'Funding rounds only',
			judgeEnabled: false,
			schedule: { cron: '0 */6 * * *', timezone: 'America/New_York' },
			targets,
		});
		expect(result.json(WEB_DATA)[0]).toMatchObject({ judgeEnabled: false, goal: 'Funding rounds only', schedule: { cron: '0 */6 * * *' } });
	});

	// Issue 37: a search target needs a goal (the open-source server refuses it: "A search target
	// requires a non-empty goal"). "Judge Changes Against Goal" shows only with a Goal, so the node never
	// switches judging off on the user's behalf: with no Goal, Create is refused before anything is sent,
	// naming Goal, whether the targets come from the form or from JSON (and a saved switch the panel
	// hides does not count: n8n drops a hidden parameter).
	test.each([
		['the form', { targets: { search: [{ queries: 'acme robotics funding' }], scrape: [{ urls: 'https://acme.example/press' }] } }, /Targets → Search the Web 1/],
		['JSON', { targetsSource: 'json', targetsJson: JSON.stringify([{ type: 'scrape', urls: ['https://acme.example/press'] }, { type: 'search', queries: ['acme'] }]) }, /Targets \(JSON\) \[1\]/],
		['JSON, with the switch saved off but hidden', { targetsSource: 'json', judgeEnabled: false, targetsJson: JSON.stringify([{ type: 'search', queries: ['acme'] }]) }, /Targets \(JSON\) \[0\]/],
	])('a search target and no Goal (targets from %s) is refused before sending, naming Goal', async (_how, targets, where) => {
		const result = await run({ operation: 'create', name: 'Acme news', scheduleText: 'hourly', timezone: 'UTC', ...targets });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/^Goal "" is not valid: a search target/);
		expect(result.error.message).toMatch(where);
		expect(result.error.message).toMatch(/write a Goal$/);
		expect(api.log).toHaveLength(0);
		api.reset();
		const judged = await run({ operation: 'create', name: 'Acme news', scheduleText: 'hourly', timezone: 'UTC', goal: 'Funding rounds only', ...targets });
		expect(judged.status).toBe('success');
		expect(api.log[0].body.goal).toBe('Funding rounds only');
	});

	test('no Goal and only page targets: judgeEnabled is not sent', async () => {
		const result = await run({ operation: 'create', name: 'Plain watch', scheduleText: 'hourly', timezone: 'UTC', targets: { scrape: [{ urls: 'https://example.com' }] } });
		expect(result.status).toBe('success');
		expect(api.log[0].body.judgeEnabled).toBeUndefined();
	});

	test('no goal and judging left on: judgeEnabled is not sent (nothing to judge)', async () => {
		const result = await run({
			operation: 'create',
			name: 'Plain watch',
			scheduleText: 'every 30 minutes',
			timezone: 'UTC',
			targets: { scrape: [{ urls: 'https://example.com' }] },
		});
		expect(result.status).toBe('success');
		expect(api.log[0].body).toEqual({
			name: 'Plain watch',
			schedule: { text: 'every 30 minutes', timezone: 'UTC' },
			targets: [{ type: 'scrape', urls: ['https://example.com'] }],
		});
	});

	test('a blank Time Zone means the workflow\'s time zone (its setting, else the instance\'s)', async () => {
		const wf = webDataWorkflow({ resource: 'monitor', operation: 'create', name: 'Local', scheduleText: 'daily at 9am', timezone: ' ', targets: { scrape: [{ urls: 'https://example.com' }] } });
		wf.settings = { timezone: 'Asia/Tokyo' };
		const result = await runWorkflow(wf, { credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url } } });
		record(result.error);
		expect(result.status).toBe('success');
		expect(api.log[0].body.schedule).toEqual({ text: 'daily at 9am', timezone: 'Asia/Tokyo' });
	});

	test('any 2xx is success (the spec leaves the status open; here 201)', async () => {
		api.fault({ method: 'POST', path: '/v2/monitor', status: 201, body: { success: true, data: { id: UNKNOWN, name: 'Made', status: 'active' } } });
		const result = await run({ operation: 'create', name: 'Made', scheduleText: 'hourly', targets: { scrape: [{ urls: 'https://example.com' }] } });
		expect(result.status).toBe('success');
		expect(trail()).toEqual(['POST /v2/monitor 201']);
		expect(result.json(WEB_DATA)).toEqual([{ id: UNKNOWN, name: 'Made', status: 'active', dailyEstimate: expect.objectContaining({ checksPerDay: 24, creditsPerDay: 24 }) }]);
	});

	test('a schedule the service refuses: its message with the hint', async () => {
		// The service measures only its next two runs, so it can refuse what the node let through.
		api.fault({ method: 'POST', path: '/v2/monitor', statuses: [400], body: { success: false, error: 'Monitor schedule must not run more often than every 5 minutes' } });
		const result = await run({ operation: 'create', name: 'n', scheduleText: 'hourly', targets: { scrape: [{ urls: 'https://example.com' }] } });
		expect(result.status).toBe('error');
		expect(result.error.message).toBe('Monitor schedule must not run more often than every 5 minutes');
		expect(result.error.description).toContain('Choose a longer interval');
		expect(result.error.context).toMatchObject({ httpStatus: 400, retryable: false });
		expect(trail()).toEqual(['POST /v2/monitor 400']);
	});

	// Schedules the service's newest rules refuse (firecrawl/firecrawl services/monitoring/cron.ts
	// a05b9f288f4d): the node refuses them before sending, naming the field, and the fake (standing
	// for the service) refuses the same schedule when it is sent to it directly.
	test.each([
		['cron with weekday names', { scheduleMode: 'cron', cron: '0 9 * * MON-FRI' }, { cron: '0 9 * * MON-FRI' }, /^Cron Expression "0 9 \* \* MON-FRI" is not valid: .*write "1-5"$/],
		['cron with month names', { scheduleMode: 'cron', cron: '0 0 1 JAN *' }, { cron: '0 0 1 JAN *' }, /^Cron Expression "0 0 1 JAN \*" is not valid: .*write "1"$/],
		['a cron date that never comes', { scheduleMode: 'cron', cron: '0 9 31 4 *' }, { cron: '0 9 31 4 *' }, /^Cron Expression "0 9 31 4 \*" is not valid: no day in the next year matches it/],
		['"every 45 minutes"', { scheduleText: 'every 45 minutes' }, { text: 'every 45 minutes' }, /^Schedule "every 45 minutes" is not valid: the minute interval must divide 60 evenly/],
		['"every weekday at 9am"', { scheduleText: 'every weekday at 9am' }, { text: 'every weekday at 9am' }, /^Schedule "every weekday at 9am" is not valid: the service understands only: .*"0 9 \* \* 1-5"/],
		['"on full moons"', { scheduleText: 'on full moons' }, { text: 'on full moons' }, /^Schedule "on full moons" is not valid: the service understands only/],
		['a UTC offset as time zone', { scheduleText: 'hourly', timezone: '+02:00' }, { text: 'hourly', timezone: '+02:00' }, /^Time Zone "\+02:00" is not valid: a UTC offset is not a time zone name/],
	])('Create refuses %s before sending; the fake refuses it too', async (_label, form, schedule, message) => {
		const result = await run({ operation: 'create', name: 'n', targets: { scrape: [{ urls: 'https://example.com' }] }, ...form });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(message);
		expect(api.log).toHaveLength(0);

		const direct = await fetch(`${api.url}/v2/monitor`, {
			method: 'POST',
			headers: { authorization: `Bearer ${CANARY_KEY}`, 'content-type': 'application/json' },
			body: JSON.stringify({ name: 'n', schedule, targets: [{ type: 'scrape', urls: ['https://example.com'] }] }),
		});
		expect(direct.status).toBe(400);
	});

	test('Update refuses a schedule the service refuses before sending', async () => {
		const m = await seed({ name: 'Docs watch' });
		for (const updateFields of [{ cron: '30 8 * * MON-FRI' }, { scheduleText: 'every 45 minutes' }, { scheduleText: 'hourly', timezone: '+05:30' }]) {
			const result = await run({ operation: 'update', monitorId: rl(m.id), updateFields });
			expect(result.status).toBe('error');
			expect(result.error.message).toMatch(/^(Cron Expression|Schedule|Time Zone) ".*" is not valid: /);
		}
		expect(api.log).toHaveLength(0);
	});

	test('a validation error sends nothing', async () => {
		const result = await run({ operation: 'create', name: 'n', scheduleText: 'every minute', targets: { scrape: [{ urls: 'https://example.com' }] } });
		expect(result.status).toBe('error');
		expect(result.error.message).toBe('Schedule "every minute" is not valid: the shortest interval is 5 minutes (e.g. "every 5 minutes")');
		expect(api.log).toHaveLength(0);
	});
});

// -------------------------------------------------------------------------------------------------
describe('Get, Get Many, Update, Delete', () => {
	test('Get: GET /v2/monitor/{id}; the record as the item', async () => {
		const m = await seed({ name: 'Docs watch' });
		const result = await run({ operation: 'get', monitorId: { __rl: true, mode: 'list', value: m.id, cachedResultName: 'Docs watch' } });
		expect(trail()).toEqual([`GET /v2/monitor/${m.id} 200`]);
		const [item] = result.items(WEB_DATA);
		expect(item.json).toMatchObject({ id: m.id, name: 'Docs watch', status: 'active', goal: 'Tell me when a price changes' });
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	test('Get of a monitor that does not exist: 404 with the monitor hint', async () => {
		const result = await run({ operation: 'get', monitorId: rl(UNKNOWN) });
		expect(result.status).toBe('error');
		expect(result.error.message).toBe('Monitor not found');
		expect(result.error.description).toContain('No monitor has this ID for your team');
		expect(result.error.context).toMatchObject({ httpStatus: 404, retryable: false });
	});

	test('Get Many, Return All: offset paging, 100 per request, until a short page', async () => {
		for (let n = 0; n < 130; n++) await seed({ name: `m${n}` });
		const result = await run({ operation: 'getMany', returnAll: true });
		expect(trail()).toEqual(['GET /v2/monitor?limit=100&offset=0 200', 'GET /v2/monitor?limit=100&offset=100 200']);
		const names = result.json(WEB_DATA).map((j) => j.name);
		expect(names).toHaveLength(130);
		expect(new Set(names).size).toBe(130);
		expect(result.items(WEB_DATA).every((i) => i.pairedItem.item === 0)).toBe(true);
	}, 60000);

	test('Get Many with a Limit asks for no more than needed', async () => {
		for (let n = 0; n < 5; n++) await seed({ name: `m${n}` });
		const result = await run({ operation: 'getMany', returnAll: false, limit: 3 });
		expect(trail()).toEqual(['GET /v2/monitor?limit=3&offset=0 200']);
		expect(result.json(WEB_DATA)).toHaveLength(3);
	});

	test('Update: only the added fields are sent (PATCH), and the item is the updated record', async () => {
		const m = await seed({ name: 'Old name' });
		const result = await run({
			operation: 'update',
			monitorId: rl(m.id),
			updateFields: {
				name: 'New name',
				cron: '*/15 * * * *',
				timezone: 'Asia/Tokyo',
				retentionDays: 7,
				emailNotification: { email: { enabled: false } },
			},
		});
		expect(result.status).toBe('success');
		expect(trail()).toEqual([`PATCH /v2/monitor/${m.id} 200`]);
		expect(api.log[0].body).toEqual({
			name: 'New name',
			schedule: { cron: '*/15 * * * *', timezone: 'Asia/Tokyo' },
			retentionDays: 7,
			notification: { email: { enabled: false, includeDiffs: false } },
		});
		expect(result.json(WEB_DATA)[0]).toMatchObject({ id: m.id, name: 'New name', retentionDays: 7, schedule: { cron: '*/15 * * * *', timezone: 'Asia/Tokyo' } });
		expect(result.json(WEB_DATA)[0].goal).toBe('Tell me when a price changes');
	});

	test('Update: new targets replace the old ones; a webhook is set', async () => {
		const m = await seed();
		const result = await run({
			operation: 'update',
			monitorId: rl(m.id),
			updateFields: {
				targets: { scrape: [{ urls: 'https://example.com/new' }] },
				webhook: { settings: { url: 'https://hooks.example.com/n8n', events: ['monitor.page', 'monitor.check.completed'] } },
			},
		});
		expect(api.log[0].body).toEqual({
			targets: [{ type: 'scrape', urls: ['https://example.com/new'] }],
			webhook: { url: 'https://hooks.example.com/n8n', events: ['monitor.page', 'monitor.check.completed'] },
		});
		expect(result.json(WEB_DATA)[0].targets.map((t) => t.urls)).toEqual([['https://example.com/new']]);
	});

	test('Update: pause, then resume (status)', async () => {
		const m = await seed();
		const paused = await run({ operation: 'update', monitorId: rl(m.id), updateFields: { status: 'paused' } });
		expect(paused.json(WEB_DATA)[0]).toMatchObject({ status: 'paused', nextRunAt: null });
		const resumed = await run({ operation: 'update', monitorId: rl(m.id), updateFields: { status: 'active' } });
		expect(resumed.json(WEB_DATA)[0].status).toBe('active');
		expect(api.log.map((r) => [r.method, r.body])).toEqual([
			['PATCH', { status: 'paused' }],
			['PATCH', { status: 'active' }],
		]);
	});

	test('Update with nothing to change: refused before sending', async () => {
		const result = await run({ operation: 'update', monitorId: rl(UNKNOWN), updateFields: {} });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/^Update Fields \{\} is not valid: add at least one field/);
		expect(api.log).toHaveLength(0);
	});

	test('Delete: DELETE /v2/monitor/{id}; the item says which monitor was deleted', async () => {
		const m = await seed();
		const result = await run({ operation: 'delete', monitorId: rl(m.id) });
		expect(trail()).toEqual([`DELETE /v2/monitor/${m.id} 200`]);
		expect(result.json(WEB_DATA)).toEqual([{ id: m.id, deleted: true }]);
		const again = await run({ operation: 'get', monitorId: rl(m.id) });
		expect(again.error.context.httpStatus).toBe(404);
	});
});

// -------------------------------------------------------------------------------------------------
describe('Run Check Now', () => {
	test('without waiting: POST /run (no body) and the queued check at once', async () => {
		const m = await seed();
		const result = await run({ operation: 'runCheck', monitorId: rl(m.id) });
		expect(trail()).toEqual([`POST /v2/monitor/${m.id}/run 200`]);
		expect(api.log[0].body).toBeNull();
		const [check] = result.json(WEB_DATA);
		expect(check).toMatchObject({ monitorId: m.id, status: 'queued', trigger: 'manual' });
		expect(check.id).toMatch(UUID);
		expect(check.pages).toBeUndefined();
		await api.settled();
	});

	test('Wait for Check to Finish: polls with the poller, then returns the check and all its pages', async () => {
		const m = await seed({ baseline: true });
		const result = await run({ operation: 'runCheck', monitorId: rl(m.id), waitForCheck: true, maxWait: 30 });
		expect(result.status).toBe('success');
		const [item] = result.items(WEB_DATA);
		const check = item.json;
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(check).toMatchObject({ id: expect.stringMatching(UUID), monitorId: m.id, status: 'completed', trigger: 'manual', summary: { totalPages: 2, changed: 1, same: 1 } });
		expect(check.next).toBeUndefined();
		expect(check.pages.map((p) => [p.url, p.status])).toEqual([
			['https://example.com/pricing', 'changed'],
			['https://example.com/plans', 'same'],
		]);
		expect(check.pages[0].diff.text).toContain('+Price: $12');
		expect(check.pages[0].judgment).toMatchObject({ meaningful: true, confidence: 'high' });
		const path = `/v2/monitor/${m.id}/checks/${check.id}`;
		// 1.5 s check: polled at 1 s (running) and 3 s (completed), then read in full.
		expect(trail()).toEqual([
			`POST /v2/monitor/${m.id}/run 200`,
			`GET ${path}?limit=1 200`,
			`GET ${path}?limit=1 200`,
			`GET ${path}?limit=100 200`,
		]);
		const [post, first, second] = api.log;
		expect(first.at - post.at).toBeGreaterThanOrEqual(900);
		expect(second.at - first.at).toBeGreaterThanOrEqual(1900);
	});

	test('waiting with One Item per Page and only changed pages', async () => {
		const m = await seed({ baseline: true, plan: { checkDurationMs: 200 } });
		const result = await run({ operation: 'runCheck', monitorId: rl(m.id), waitForCheck: true, maxWait: 30, options: { onePerPage: true, pageStatuses: ['changed'] } });
		const pages = result.json(WEB_DATA);
		expect(pages).toHaveLength(1);
		expect(pages[0]).toMatchObject({ url: 'https://example.com/pricing', status: 'changed', monitorId: m.id, checkId: expect.stringMatching(UUID) });
		expect(trail().pop()).toMatch(/\?limit=100&status=changed 200$/);
	});

	test('Max Wait passes: the last status is returned (default), or a clear error that names the check', async () => {
		const m = await seed({ plan: { checkDurationMs: 8000 } });
		const result = await run({ operation: 'runCheck', monitorId: rl(m.id), waitForCheck: true, maxWait: 2 });
		expect(result.status).toBe('success');
		const [check] = result.json(WEB_DATA);
		expect(['queued', 'running']).toContain(check.status);
		expect(check.pages).toBeUndefined();
		api.reset();

		const m2 = await seed({ plan: { checkDurationMs: 8000 } });
		const failed = await run({ operation: 'runCheck', monitorId: rl(m2.id), waitForCheck: true, maxWait: 2, onTimeout: 'fail' });
		expect(failed.status).toBe('error');
		expect(failed.error.message).toBe('The check did not finish within Max Wait (2 s)');
		const checkId = api.monitor(m2.id).checks[0].id;
		expect(failed.error.description).toContain(`check ${checkId}`);
		api.reset();
	}, 20000);

	test('pause → run → 409: a clear message that says to resume it', async () => {
		const m = await seed();
		await run({ operation: 'update', monitorId: rl(m.id), updateFields: { status: 'paused' } });
		const result = await run({ operation: 'runCheck', monitorId: rl(m.id), waitForCheck: true, maxWait: 10 });
		expect(result.status).toBe('error');
		expect(result.error.message).toBe('The monitor is paused, so no check was started');
		expect(result.error.description).toContain('Resume it first with Monitor → Update (Update Fields → Status: Active)');
		expect(result.error.description).toContain('Monitor is paused. Resume it before running a check.');
		expect(result.error.context).toMatchObject({ httpStatus: 409, retryable: false, reason: 'paused' });
		expect(trail()).toEqual([`PATCH /v2/monitor/${m.id} 200`, `POST /v2/monitor/${m.id}/run 409`]);
	});

	test('run while a check is running → 409: the message names the running check', async () => {
		const m = await seed({ plan: { checkDurationMs: 3000 } });
		const first = await run({ operation: 'runCheck', monitorId: rl(m.id) });
		const runningId = first.json(WEB_DATA)[0].id;
		const result = await run({ operation: 'runCheck', monitorId: rl(m.id) });
		expect(result.status).toBe('error');
		expect(result.error.message).toBe('A check of this monitor is already running, so no new check was started');
		expect(result.error.description).toContain(`Wait for check ${runningId} to finish`);
		expect(result.error.context).toMatchObject({ httpStatus: 409, reason: 'alreadyRunning', checkId: runningId });
		// The 409's body names the running check: no read of the monitor follows.
		expect(trail()).toEqual([`POST /v2/monitor/${m.id}/run 200`, `POST /v2/monitor/${m.id}/run 409`]);
		await api.settled();
	});
});

// -------------------------------------------------------------------------------------------------
describe('checks', () => {
	async function monitorWithChecks() {
		const m = await seed({ baseline: true, plan: { checkDurationMs: 50 } });
		await fetch(`${api.url}/__fake/monitor/${m.id}/tick`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
		await api.settled();
		api.setMonitorPlan(m.id, { checkStatus: 'failed' });
		await fetch(`${api.url}/__fake/monitor/${m.id}/tick`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
		await api.settled();
		return api.monitor(m.id);
	}

	test('Get Many Checks: newest first, with the status filter sent as ?status=', async () => {
		const m = await monitorWithChecks();
		const all = await run({ operation: 'getManyChecks', monitorId: rl(m.id), returnAll: true });
		expect(all.json(WEB_DATA).map((c) => c.status)).toEqual(['failed', 'completed', 'completed']);
		const completed = await run({ operation: 'getManyChecks', monitorId: rl(m.id), returnAll: false, limit: 10, filters: { status: 'completed' } });
		expect(completed.json(WEB_DATA).map((c) => c.id)).toEqual([m.checks[1].id, m.checks[2].id]);
		expect(completed.json(WEB_DATA)[0].pages).toBeUndefined();
		expect(trail()).toEqual([
			`GET /v2/monitor/${m.id}/checks?limit=100&offset=0 200`,
			`GET /v2/monitor/${m.id}/checks?limit=10&offset=0&status=completed 200`,
		]);
	});

	test('Get Check pages through 3 pages of results by following the next links', async () => {
		const m = await seed({ baseline: true, plan: { checkDurationMs: 50, extraPages: 248 } });
		const checkId = m.checks[0].id;
		const result = await run({ operation: 'getCheck', monitorId: rl(m.id), checkId: rl(checkId) });
		expect(result.status).toBe('success');
		const path = `/v2/monitor/${m.id}/checks/${checkId}`;
		expect(trail()).toEqual([`GET ${path}?limit=100 200`, `GET ${path}?skip=100&limit=100 200`, `GET ${path}?skip=200&limit=100 200`]);
		const [check] = result.json(WEB_DATA);
		expect(check).toMatchObject({ id: checkId, monitorId: m.id, status: 'completed', summary: { totalPages: 250 } });
		expect(check.pages).toHaveLength(250);
		expect(new Set(check.pages.map((p) => p.id)).size).toBe(250);
		expect(check.pages.map((p) => p.url).slice(0, 3)).toEqual(['https://example.com/pricing', 'https://example.com/plans', 'https://example.com/fake-extra-1']);
		expect(check.next).toBeUndefined();
	});

	test('Get Check: One Item per Page, filtered by two statuses (one paged pass per status)', async () => {
		const m = await seed({ baseline: true, plan: { checkDurationMs: 50, extraPages: 248 } });
		const checkId = m.checks[0].id;
		const result = await run({
			operation: 'getCheck',
			monitorId: rl(m.id),
			checkId: rl(checkId),
			options: { onePerPage: true, pageStatuses: ['error', 'changed'] },
		});
		const pages = result.json(WEB_DATA);
		// 248 extra pages cycle through the five statuses: 50 changed (3rd, 8th, …), 49 error.
		expect(pages.filter((p) => p.status === 'changed')).toHaveLength(50);
		expect(pages.filter((p) => p.status === 'error')).toHaveLength(49);
		expect(pages).toHaveLength(99);
		expect(pages[0]).toMatchObject({ status: 'changed', monitorId: m.id, checkId });
		expect(pages[98].status).toBe('error');
		expect(result.items(WEB_DATA).every((i) => i.pairedItem.item === 0)).toBe(true);
		const path = `/v2/monitor/${m.id}/checks/${checkId}`;
		expect(trail()).toEqual([`GET ${path}?limit=100&status=changed 200`, `GET ${path}?limit=100&status=error 200`]);
	});

	test('Get Check of an unknown check: 404 "Check not found" with a hint', async () => {
		const m = await seed();
		const result = await run({ operation: 'getCheck', monitorId: rl(m.id), checkId: rl(UNKNOWN) });
		expect(result.status).toBe('error');
		expect(result.error.message).toBe('Check not found');
		expect(result.error.description).toContain("Pick it from the list of the monitor's checks");
	});
});

// -------------------------------------------------------------------------------------------------
describe('Continue On Fail and items', () => {
	test('one item per input; a bad ID and an API error become error items, paired, and the rest goes on', async () => {
		const m = await seed({ name: 'Kept' });
		const result = await run(
			{ operation: 'get', monitorId: { __rl: true, mode: 'id', value: '={{ $json.id }}' } },
			[{ json: { id: m.id } }, { json: { id: 'not-a-uuid' } }, { json: { id: UNKNOWN } }],
			{ onError: 'continueRegularOutput' },
		);
		expect(result.status).toBe('success');
		const items = result.items(WEB_DATA);
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(items[0].json).toMatchObject({ id: m.id, name: 'Kept' });
		expect(items[1].json.error).toBe('Monitor "not-a-uuid" is not valid: it must be a UUID such as 0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a (copy it from the output of the operation that created it)');
		expect(items[2].json).toMatchObject({ error: 'Monitor not found', httpStatus: 404, retryable: false });
		expect(trail()).toEqual([`GET /v2/monitor/${m.id} 200`, `GET /v2/monitor/${UNKNOWN} 404`]);
	});

	test('Run Check Now on a paused monitor under Continue On Fail: the 409 as an error item', async () => {
		const m = await seed({ status: 'paused' });
		const result = await run({ operation: 'runCheck', monitorId: rl(m.id) }, [{ json: {} }], { onError: 'continueRegularOutput' });
		expect(result.json(WEB_DATA)).toEqual([
			expect.objectContaining({ error: 'The monitor is paused, so no check was started', httpStatus: 409, retryable: false }),
		]);
	});
});

// -------------------------------------------------------------------------------------------------
describe('list searches', () => {
	/** An ILoadOptionsFunctions stand-in whose HTTP helper talks to the fake. */
	function loadOptions(current = {}) {
		return {
			getNode: () => NODE,
			getCredentials: async () => ({ apiKey: CANARY_KEY, baseUrl: api.url }),
			getCurrentNodeParameter: (name, options) => {
				const v = current[name];
				return options && options.extractValue && v && typeof v === 'object' ? v.value : v;
			},
			helpers: {
				async httpRequestWithAuthentication(_type, options) {
					const url = new URL(options.url);
					for (const [k, v] of Object.entries(options.qs ?? {})) url.searchParams.set(k, String(v));
					const res = await fetch(url, { method: options.method, headers: { authorization: `Bearer ${CANARY_KEY}` } });
					return { statusCode: res.status, body: await res.json(), headers: {} };
				},
			},
		};
	}

	test('monitors by name, with paused ones marked', async () => {
		const a = await seed({ name: 'Competitor pricing' });
		const b = await seed({ name: 'Careers page', status: 'paused' });
		await seed({ name: 'Blog' });
		const result = await searchMonitors.call(loadOptions(), 'CAR');
		expect(result.results).toEqual([{ name: 'Careers page (paused)', value: b.id }]);
		const all = await searchMonitors.call(loadOptions());
		expect(all.results.map((r) => r.value)).toContain(a.id);
		expect(all.paginationToken).toBeUndefined();
		expect(trail()).toEqual(['GET /v2/monitor?limit=100&offset=0 200', 'GET /v2/monitor?limit=100&offset=0 200']);
	});

	test("checks of the chosen monitor, with status and what changed", async () => {
		const m = await seed({ baseline: true });
		const result = await searchMonitorChecks.call(loadOptions({ monitorId: rl(m.id) }));
		expect(result.results).toEqual([{ name: expect.stringMatching(/\(completed, scheduled, 2 new\)$/), value: m.checks[0].id }]);
		await expect(searchMonitorChecks.call(loadOptions({ monitorId: rl('') }))).rejects.toThrow('Choose the monitor first');
	});
});

// -------------------------------------------------------------------------------------------------
// issue 14: a crawl target's crawlOptions are checked like a crawl's (fields/serverRules.ts)
describe('crawl targets: the crawl rules of the server, before sending', () => {
	const create = (crawlOptions) =>
		run({
			operation: 'create',
			name: 'Changelog',
			scheduleText: 'hourly',
			targetsSource: 'json',
			targetsJson: JSON.stringify([{ type: 'crawl', url: 'https://example.com/changelog', crawlOptions }]),
		});
	test.each([
		['delay 0', { delay: 0 }, /^Targets \(JSON\) \[0\]\.crawlOptions\.delay 0 is not valid: a number of seconds above 0 and at most 60/],
		['delay 61', { delay: 61 }, /^Targets \(JSON\) \[0\]\.crawlOptions\.delay 61 is not valid/],
		['a look-ahead path', { includePaths: ['/changelog/(?!draft).*'] }, /^Targets \(JSON\) \[0\]\.crawlOptions\.includePaths .* is not valid: look-ahead and look-behind/],
		['a backreference', { excludePaths: ['(\\w+)/\\1'] }, /^Targets \(JSON\) \[0\]\.crawlOptions\.excludePaths .* is not valid: backreferences/],
		['1001 paths', { excludePaths: Array.from({ length: 1001 }, (_, n) => `x${n}`) }, /crawlOptions\.excludePaths "1001 patterns" is not valid: at most 1000 patterns/],
		['a 2001-character path', { includePaths: ['a'.repeat(2001)] }, /crawlOptions\.includePaths .* is not valid: each pattern may have at most 2000 characters/],
		['100,001 characters of paths (issue 37)', { includePaths: Array(50).fill('a'.repeat(2000)), excludePaths: ['b'] }, /crawlOptions\.includePaths "100001 characters" is not valid: Include Paths and Exclude Paths together take at most 100000 characters/],
	])('%s: an error naming the field, zero requests', async (_name, crawlOptions, pattern) => {
		const result = await create(crawlOptions);
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(pattern);
		expect(api.log).toHaveLength(0);
	});

	test('a webhook header of the service (X-Firecrawl-Event): refused before sending', async () => {
		const result = await run({
			operation: 'create',
			name: 'Changelog',
			scheduleText: 'hourly',
			targets: { scrape: [{ urls: 'https://example.com' }] },
			options: { webhook: { settings: { url: 'https://hooks.example.com/m', headers: { header: [{ name: 'X-Firecrawl-Event', value: 'x' }] } } } },
		});
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/^Webhook Headers "X-Firecrawl-Event" is not valid: header names starting with X-Firecrawl- are set by the service/);
		expect(api.log).toHaveLength(0);
	});

	test('delay 60, a (?i) flag group and 1000 patterns together pass and are sent as given', async () => {
		const crawlOptions = { delay: 60, includePaths: ['(?i)/changelog/.*', ...Array.from({ length: 999 }, (_, n) => `p${n}`)] };
		const result = await create(crawlOptions);
		expect(result.status).toBe('success');
		expect(api.log[0].body.targets[0].crawlOptions).toEqual(crawlOptions);
	});
});

// Time Zone's default is empty: the workflow's time zone.
describe('Time Zone left empty', () => {
	const workflow = (parameters, settings) => {
		const wf = webDataWorkflow({ resource: 'monitor', ...parameters }, [{ json: {} }]);
		if (settings) wf.settings = settings;
		return wf;
	};
	const go = async (wf) => {
		const result = await runWorkflow(wf, { credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url } } });
		record(result.error);
		expect(result.status).toBe('success');
		return api.log.at(-1).body.schedule;
	};
	const create = { operation: 'create', name: 'Local', scheduleText: 'daily at 9am', targets: { scrape: [{ urls: 'https://example.com' }] } };

	test('Create, Time Zone left at its default: the workflow\'s time zone; a chosen zone is kept', async () => {
		const tokyo = { timezone: 'Asia/Tokyo' };
		expect(await go(workflow(create, tokyo))).toEqual({ text: 'daily at 9am', timezone: 'Asia/Tokyo' });
		expect(await go(workflow({ ...create, timezone: 'Europe/Berlin' }, tokyo))).toEqual({ text: 'daily at 9am', timezone: 'Europe/Berlin' });
	});

	test('Create, a workflow without its own time zone: the instance\'s time zone', async () => {
		const { setGlobalState, getGlobalState } = require('n8n-workflow');
		const before = getGlobalState();
		setGlobalState({ ...before, defaultTimezone: 'Pacific/Auckland' }); // what GENERIC_TIMEZONE sets in n8n
		try {
			expect(await go(workflow(create))).toEqual({ text: 'daily at 9am', timezone: 'Pacific/Auckland' });
		} finally {
			setGlobalState(before);
		}
	});

	test('Update with a new schedule and no Time Zone: the workflow\'s', async () => {
		const m = await seed();
		const update = (updateFields) => ({ operation: 'update', monitorId: rl(m.id), updateFields });
		const tokyo = { timezone: 'Asia/Tokyo' };
		expect(await go(workflow(update({ scheduleText: 'hourly' }), tokyo))).toEqual({ text: 'hourly', timezone: 'Asia/Tokyo' });
		expect(await go(workflow(update({ scheduleText: 'hourly', timezone: '' }), tokyo))).toEqual({ text: 'hourly', timezone: 'Asia/Tokyo' });
		expect(await go(workflow(update({ cron: '0 9 * * *', timezone: 'Europe/Berlin' }), tokyo))).toEqual({ cron: '0 9 * * *', timezone: 'Europe/Berlin' });
		// a Time Zone alone is no schedule change
		const result = await runWorkflow(workflow(update({ timezone: 'Europe/Berlin' }), tokyo), { credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url } } });
		expect(result.error.message).toMatch(/^Time Zone "Europe\/Berlin" is not valid: a schedule change needs/);
	});
});
