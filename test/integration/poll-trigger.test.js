'use strict';
/**
 * Web Data Poll Trigger (issue 29.3) in n8n-core's own PollContext, as n8n runs a `polling: true`
 * node: poll() at each poll time in mode "trigger" with the workflow's static data kept between
 * polls (n8n saves it after each poll), and once in mode "manual" for "Fetch Test Event". The
 * strict fake API (test/fake-api) runs the monitor's checks; no webhook reaches this n8n.
 * Build first: `npm run build`.
 */
const { nodeTypes } = require('../helpers/workflow-runner'); // sets up n8n-core's environment first
const core = require('n8n-core');
const workflowLib = require('n8n-workflow');
const crypto = require('crypto');
const http = require('http');
const { startFakeApi } = require('../fake-api/server');
const { CANARY_KEY } = require('../helpers/canary');
const { WebDataApi } = require('../../dist/credentials/WebDataApi.credentials');
const { TestCredentialsHelper, instanceData } = require('../helpers/n8n-contexts');

jest.setTimeout(30000);

const TYPE = 'n8n-nodes-webdata.webDataPollTrigger';
const CHECK_MS = 1500;

let api;
beforeAll(async () => {
	api = await startFakeApi({ apiKey: CANARY_KEY, timeScale: 10 });
});
afterAll(async () => {
	await api.close();
});
beforeEach(() => api.reset());

const nodeType = () => nodeTypes.getByNameAndVersion(TYPE, 1);

/** One poll trigger node in one active workflow; `poll(mode)` runs poll() like n8n's poll job. */
function pollTrigger(parameters) {
	const node = {
		id: 'poll-node-1',
		name: 'Web Data Poll Trigger',
		type: TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: { events: ['monitor.page', 'monitor.check.completed'], ...parameters },
		credentials: { webDataApi: { id: 'cred-1', name: 'Web Data account' } },
	};
	const credentialsHelper = new TestCredentialsHelper(
		{ apiKey: CANARY_KEY, baseUrl: api.url },
		{ defaults: { apiKey: '', baseUrl: 'https://api.firecrawl.dev', webhookSecret: '' }, properties: new WebDataApi().properties },
	);
	let saved = '{}'; // the static data as n8n's database keeps it
	async function poll(mode = 'trigger') {
		const workflow = new workflowLib.Workflow({ id: 'wf-poll', name: 'Poll test', nodes: [structuredClone(node)], connections: {}, nodeTypes, staticData: JSON.parse(saved), settings: { executionOrder: 'v1' }, active: mode !== 'manual' });
		const context = new core.PollContext(workflow, workflow.getNode(node.name), instanceData('http://127.0.0.1:9', credentialsHelper), mode, mode === 'manual' ? 'manual' : 'activate');
		const result = await nodeType().poll.call(context);
		if (workflow.staticData.__dataChanged) saved = JSON.stringify(workflow.staticData);
		return result === null ? null : result[0].map((i) => i.json);
	}
	// n8n keeps a node's static data under "node:<node name>".
	return { poll, staticData: () => JSON.parse(saved)[`node:${node.name}`] ?? {} };
}

async function monitor(extra = {}) {
	const res = await fetch(`${api.url}/v2/monitor`, {
		method: 'POST',
		headers: { authorization: `Bearer ${CANARY_KEY}`, 'content-type': 'application/json' },
		body: JSON.stringify({ name: 'Pricing', schedule: { text: 'hourly' }, targets: [{ type: 'scrape', urls: ['https://shop.example.com/pricing', 'https://shop.example.com/plans'] }], ...extra }),
	});
	const json = await res.json();
	if (!json.success) throw new Error(JSON.stringify(json));
	return json.data;
}
async function runCheck(monitorId) {
	api.tickMonitor(monitorId);
	await api.settled(CHECK_MS * 5);
}
const checkIds = (monitorId) => api.monitor(monitorId).checks.map((c) => c.id).reverse(); // oldest first
const monitorParam = (id) => ({ monitor: { __rl: true, mode: 'id', value: id } });
const sha = (text) => crypto.createHash('sha256').update(text).digest('hex').slice(0, 32);

test('the node is a polling trigger (n8n adds Poll Times and "Fetch Test Event"); no webhook', () => {
	const { description } = nodeType();
	expect(description).toMatchObject({ name: 'webDataPollTrigger', polling: true, group: ['trigger'], inputs: [] });
	expect(description.webhooks).toBeUndefined();
	expect(description.properties.map((p) => p.name)).toEqual(['pollNotice', 'monitor', 'events', 'options']);
	expect(description.properties[0].displayName).toMatch(/need not reach this n8n.*first poll after it finishes.*Fetch Test Event/);
});

test('active: the first poll remembers the newest check and starts nothing; later polls tell each new check once, oldest first, with the items of the webhook trigger', async () => {
	const m = await monitor({ goal: 'Tell me when a price changes' });
	await runCheck(m.id); // history: before the trigger was active
	const t = pollTrigger(monitorParam(m.id));
	expect(await t.poll()).toBeNull();
	// The mark: reading back stops at this check (or one created before it).
	expect(t.staticData().toldChecks).toEqual({ [m.id]: { mark: { id: checkIds(m.id)[0], at: api.monitor(m.id).checks[0].createdAt }, checks: [], behind: [] } });
	expect(await t.poll()).toBeNull(); // nothing new
	await runCheck(m.id);
	await runCheck(m.id);
	const [, c2, c3] = checkIds(m.id);
	const items = await t.poll();
	expect(items.map((i) => [i.checkId, i.event, i.url ?? null])).toEqual([
		[c2, 'monitor.page', 'https://shop.example.com/pricing'],
		[c2, 'monitor.page', 'https://shop.example.com/plans'],
		[c2, 'monitor.check.completed', null],
		[c3, 'monitor.page', 'https://shop.example.com/pricing'],
		[c3, 'monitor.page', 'https://shop.example.com/plans'],
		[c3, 'monitor.check.completed', null],
	]);
	expect(items[0]).toEqual({
		event: 'monitor.page',
		checkId: c2,
		webhookId: null,
		success: true,
		error: null,
		metadata: {},
		monitorId: m.id,
		url: 'https://shop.example.com/pricing',
		status: 'changed',
		previousScrapeId: expect.any(String),
		currentScrapeId: expect.any(String),
		isMeaningful: true,
		judgment: expect.objectContaining({ meaningful: true }),
		diff: expect.objectContaining({ text: expect.stringContaining('+Price: $12') }),
		dedupeKey: `monitor.page:${c2}:${sha(items[0].url)}`,
	});
	expect(items[2].dedupeKey).toBe(`monitor.check.completed:${c2}`);
	expect(items[2]).toMatchObject({ event: 'monitor.check.completed', success: true, status: 'completed', summary: { totalPages: 2, changed: 1, same: 1 } });
	expect(items.some((i) => 'caughtUp' in i)).toBe(false);
	expect(await t.poll()).toBeNull(); // each check once
});

test('the options filter as in the webhook trigger; one poll tells every check since the last, reading only the pages asked for', async () => {
	const m = await monitor();
	const t = pollTrigger({ ...monitorParam(m.id), events: ['monitor.page'], options: { statuses: ['changed'] } });
	await runCheck(m.id);
	await t.poll();
	for (let i = 0; i < 7; i++) await runCheck(m.id);
	const ids = checkIds(m.id);
	const before = api.log.length;
	const first = await t.poll();
	expect(first.map((i) => [ids.indexOf(i.checkId) + 1, i.status])).toEqual([2, 3, 4, 5, 6, 7, 8].map((n) => [n, 'changed']));
	expect(await t.poll()).toBeNull();
	// Only the changed pages were read (status filter on the check reads), one list page per poll.
	const reads = api.log.slice(before).filter((r) => r.method === 'GET');
	const pageReads = reads.filter((r) => /\/checks\/[^/]+$/.test(r.path));
	expect(pageReads).toHaveLength(7);
	expect(pageReads.every((r) => r.query.status === 'changed')).toBe(true);
	expect(reads.filter((r) => r.path.endsWith('/checks')).map((r) => r.query)).toEqual([
		{ limit: '100', offset: '0' },
		{ limit: '100', offset: '0' },
	]);
});

describe('issue 34: every check told, each once, in order', () => {
	test('30 checks of 50 pages since the last poll: every one told, oldest first, over two polls (at most 1,000 pages a poll), nothing twice', async () => {
		const m = await monitor();
		const pages = Array.from({ length: 50 }, (_, i) => ({ url: `https://shop.example.com/p${i + 1}`, status: 'changed' }));
		api.setMonitorPlan(m.id, { pages, checkDurationMs: 20 });
		const t = pollTrigger(monitorParam(m.id));
		expect(await t.poll()).toBeNull();
		for (let i = 0; i < 30; i++) await runCheck(m.id);
		const ids = checkIds(m.id);
		const polls = [];
		for (let items = await t.poll(); items !== null && polls.length < 10; items = await t.poll()) polls.push(items);
		// Each check: its 50 pages, then its completion; checks 1 to 30 in order.
		const perCheck = (n) => Array(51).fill(n);
		const told = polls.map((items) => items.map((i) => ids.indexOf(i.checkId) + 1));
		expect(told.flat()).toEqual(Array.from({ length: 30 }, (_, i) => perCheck(i + 1)).flat());
		expect(told.map((numbers) => new Set(numbers).size)).toEqual([20, 10]);
		const items = polls.flat();
		expect(new Set(items.map((i) => `${i.checkId} ${i.event} ${i.url}`)).size).toBe(30 * 51);
		expect(new Set(items.map((i) => i.dedupeKey)).size).toBe(30 * 51);
	});

	test('a check whose webhook the service delivered to another receiver (notificationStatus: delivered) is told all the same', async () => {
		const other = http.createServer((req, res) => req.resume().on('end', () => res.end('{"ok":true}')));
		await new Promise((resolve) => other.listen(0, '127.0.0.1', resolve));
		try {
			const m = await monitor({ webhook: { url: `http://127.0.0.1:${other.address().port}/chat-hook` } });
			const t = pollTrigger({ ...monitorParam(m.id), events: ['monitor.check.completed'] });
			expect(await t.poll()).toBeNull();
			await runCheck(m.id);
			await runCheck(m.id);
			const listed = await (await fetch(`${api.url}/v2/monitor/${m.id}/checks`, { headers: { authorization: `Bearer ${CANARY_KEY}` } })).json();
			expect(listed.data.map((c) => c.notificationStatus.webhook.success)).toEqual([true, true]);
			const items = await t.poll();
			expect(items.map((i) => i.checkId)).toEqual(checkIds(m.id));
		} finally {
			await new Promise((resolve) => other.close(resolve));
		}
	});

	test('a check still running at activation is told when it finishes; the checks finished before activation are history', async () => {
		const m = await monitor();
		await runCheck(m.id); // history
		api.setMonitorPlan(m.id, { checkDurationMs: 3000 });
		api.tickMonitor(m.id); // running at activation
		api.tickMonitor(m.id); // skipped_overlap: finished before activation, newer than the running one
		const t = pollTrigger({ ...monitorParam(m.id), events: ['monitor.check.completed'] });
		expect(await t.poll()).toBeNull();
		await api.settled(CHECK_MS * 5);
		const [, running] = checkIds(m.id);
		const items = await t.poll();
		expect(items.map((i) => [i.checkId, i.status])).toEqual([[running, 'completed']]);
		expect(await t.poll()).toBeNull();
	});

	test.each(['postgres', 'iso'])('times written as %s text: the mark is a time, and each check comes once', async (format) => {
		api.setMonitorTimes(format);
		const m = await monitor();
		await runCheck(m.id);
		const t = pollTrigger({ ...monitorParam(m.id), events: ['monitor.check.completed'] });
		expect(await t.poll()).toBeNull();
		expect(t.staticData().toldChecks[m.id].mark.at).toBe(api.monitor(m.id).checks[0].createdAt);
		await runCheck(m.id);
		expect((await t.poll()).map((i) => i.checkId)).toEqual([checkIds(m.id)[1]]);
		expect(await t.poll()).toBeNull();
	});
});

test('a monitor with no finished check when activated: its first check is told; a failed read is retried at the next poll, nothing lost', async () => {
	const m = await monitor();
	const t = pollTrigger(monitorParam(m.id));
	expect(await t.poll()).toBeNull();
	await runCheck(m.id);
	api.fault({ method: 'GET', path: `/v2/monitor/${m.id}/checks`, status: 500, times: 2 });
	await expect(t.poll()).rejects.toThrow();
	const items = await t.poll();
	expect(items.map((i) => [i.checkId, i.event])).toEqual([
		[checkIds(m.id)[0], 'monitor.page'],
		[checkIds(m.id)[0], 'monitor.page'],
		[checkIds(m.id)[0], 'monitor.check.completed'],
	]);
});

test('Fetch Test Event without a finished check: says what the trigger does and when the first event comes (the next check time)', async () => {
	const m = await monitor();
	const t = pollTrigger(monitorParam(m.id));
	const error = await t.poll('manual').catch((e) => e);
	expect(error).toBeInstanceOf(workflowLib.NodeOperationError);
	expect(error.message).toBe('The monitor has no finished check yet');
	expect(error.description).toMatch(/at each poll time/);
	// Issue 36: a time a person reads, the operation as the node names it, n8n 2.x's "published".
	const at = new Date(api.monitor(m.id).nextRunAt).toISOString();
	expect(error.description).toMatch(new RegExp(`its next check is (in about \\d+ (minutes|hours|days)|within a minute) \\(${at.slice(0, 10)} ${at.slice(11, 16)} UTC\\)`));
	expect(error.description).toContain('Monitor → Run Check Now');
	expect(error.description).toContain('Once the workflow is published (active)');
	expect(error.description).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
});

test('Fetch Test Event with checks: the latest finished check, as a poll gives it; nothing is remembered', async () => {
	const m = await monitor();
	await runCheck(m.id);
	await runCheck(m.id);
	const t = pollTrigger(monitorParam(m.id));
	const items = await t.poll('manual');
	const latest = checkIds(m.id)[1];
	expect(items.map((i) => [i.checkId, i.event])).toEqual([
		[latest, 'monitor.page'],
		[latest, 'monitor.page'],
		[latest, 'monitor.check.completed'],
	]);
	expect(t.staticData()).toEqual({});
});

test('clear errors: an empty Monitor, no event chosen', async () => {
	await expect(pollTrigger({ monitor: { __rl: true, mode: 'id', value: '' } }).poll()).rejects.toThrow(/Monitor/);
	const m = await monitor();
	await expect(pollTrigger({ ...monitorParam(m.id), events: [] }).poll()).rejects.toThrow('Choose at least one event');
});
