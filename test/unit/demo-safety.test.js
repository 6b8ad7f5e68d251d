'use strict';
// `npm run demo` against a real account (issue 11.5): it must not spend credits or change the account
// without --spend, and what it creates with --spend must be gone when it ends. The "real service"
// here is the strict fake API at a base URL the demo did not start itself (WEBDATA_BASE_URL), so the
// demo treats it exactly like the real one; everything it did is read back from the fake's log.
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');

const { startFakeApi } = require('../fake-api/server');
const { CANARY_KEY } = require('../helpers/canary');
const { startGuard, createdBy } = require('../demo/guard');
const { classify, purpose, describeRun, READ_ONLY } = require('../demo/examples');
const { spendDecision, parseArgs } = require('../demo/demo');

jest.setTimeout(60000);

const ROOT = path.resolve(__dirname, '..', '..');
const DEMO = path.join(ROOT, 'test', 'demo', 'demo.js');
const example = (name) => JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', `${name}.json`), 'utf8'));

let api;
beforeAll(async () => {
	api = await startFakeApi({ apiKey: CANARY_KEY });
});
afterAll(async () => {
	await api.close();
});
beforeEach(() => {
	api.reset();
});

/** Runs `node test/demo/demo.js args` with the fake as "the real service"; stdin is not a terminal. */
function runDemo(args) {
	return new Promise((resolve, reject) => {
		const env = { ...process.env, WEBDATA_API_KEY: CANARY_KEY, WEBDATA_BASE_URL: api.url, N8N_LOG_LEVEL: 'silent' };
		const child = spawn(process.execPath, [DEMO, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
		let out = '';
		child.stdout.on('data', (d) => (out += d));
		child.stderr.on('data', (d) => (out += d));
		const timer = setTimeout(() => child.kill('SIGKILL'), 50000);
		child.on('error', reject);
		child.on('exit', (code) => {
			clearTimeout(timer);
			// the key must never be printed; replace it before anything could show this text
			const leaked = out.includes(CANARY_KEY);
			resolve({ code, leaked, out: out.split(CANARY_KEY).join('<KEY>') });
		});
	});
}

const trail = () => api.log.map((r) => `${r.method} ${r.path}`);

describe('which examples may run without --spend', () => {
	test('against the real service, spending needs --spend or a "y" typed in a terminal; the fake needs neither', () => {
		expect(spendDecision({ realService: true, spendFlag: false, interactive: false })).toBe('read-only');
		expect(spendDecision({ realService: true, spendFlag: false, interactive: true })).toBe('ask');
		expect(spendDecision({ realService: true, spendFlag: true, interactive: false })).toBe('all');
		expect(spendDecision({ realService: false, spendFlag: false, interactive: false })).toBe('all');
		expect(parseArgs(['--spend', '--only', 'monitor,agent'])).toEqual({ spend: true, only: ['monitor', 'agent'] });
		expect(() => parseArgs(['--spnd'])).toThrow(/unknown argument --spnd/);
	});

	test('only reading operations count as read-only; an example with any other operation spends', () => {
		expect(classify(example('account-credit-usage')).kind).toBe('read');
		expect(classify(example('agent-get-status')).kind).toBe('read');
		for (const name of ['monitor-create', 'monitor-run-and-read-changes', 'agent-run-and-wait', 'parse-pdf-to-markdown', 'crawl-site-and-wait', 'interact-with-page', 'extract-structured-data']) {
			expect([name, classify(example(name)).kind]).toEqual([name, 'spend']);
		}
		expect(classify(example('trigger-on-page-change')).kind).toBe('trigger');
		// the polling trigger runs only on n8n's poll schedule (issue 29.3)
		expect(classify(example('trigger-on-page-change-polling')).kind).toBe('trigger');
		// a start that reports to a Web Data Trigger needs that trigger active in an n8n (issue 18.2)
		expect(classify(example('crawl-to-trigger-start')).kind).toBe('trigger');
		const node = (resource, operation) => ({ type: 'n8n-nodes-webdata.webData', name: operation, parameters: { resource, operation } });
		expect(classify({ nodes: [node('agent', 'getMany'), node('agent', 'cancel')] })).toMatchObject({ kind: 'spend', spends: ['agent.cancel'] });
		expect(classify({ nodes: [node('monitor', 'someFutureOperation')] }).kind).toBe('spend');
		for (const op of READ_ONLY) expect(op).toMatch(/^\w+\.get\w*$/);
	});

	test('every example says what it is for in one line; none needs an id written into it', () => {
		for (const file of fs.readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.json'))) {
			const workflow = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', file), 'utf8'));
			const line = purpose(workflow, path.basename(file, '.json'));
			expect([file, line.length > 30 && line.length < 260 && !line.includes('\n')]).toEqual([file, true]);
			// ids the user would have to replace: a literal UUID in a resource locator
			for (const n of workflow.nodes.filter((x) => x.type === 'n8n-nodes-webdata.webData')) {
				for (const [key, value] of Object.entries(n.parameters)) {
					if (value && typeof value === 'object' && value.__rl) expect([file, key, value.value]).toEqual([file, key, expect.stringMatching(/^=/)]);
				}
			}
		}
	});
});

describe('the guard between the demo and the service', () => {
	test('read-only: a POST is answered 403 by the guard and never reaches the service; GETs pass', async () => {
		const guard = await startGuard({ upstream: api.url, apiKey: CANARY_KEY, allowWrites: false });
		try {
			const post = await fetch(`${guard.url}/v2/monitor`, {
				method: 'POST',
				headers: { authorization: `Bearer ${CANARY_KEY}`, 'content-type': 'application/json' },
				body: JSON.stringify({ name: 'x', schedule: { text: 'daily' }, targets: [{ type: 'scrape', urls: ['https://example.com/'] }] }),
			});
			expect(post.status).toBe(403);
			expect((await post.json()).error).toMatch(/--spend/);
			const get = await fetch(`${guard.url}/v2/team/credit-usage`, { headers: { authorization: `Bearer ${CANARY_KEY}` } });
			expect(get.status).toBe(200);
			expect(trail()).toEqual(['GET /v2/team/credit-usage']);
			expect(guard.blocked).toEqual([{ method: 'POST', path: '/v2/monitor' }]);
		} finally {
			await guard.close();
		}
	});

	test('cleanup deletes the created monitor, cancels a still-running agent run, leaves finished and removed things alone', async () => {
		const guard = await startGuard({ upstream: api.url, apiKey: CANARY_KEY, allowWrites: true });
		const post = async (route, body) => {
			const r = await fetch(`${guard.url}${route}`, { method: 'POST', headers: { authorization: `Bearer ${CANARY_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
			expect(r.status).toBe(200);
			return await r.json();
		};
		try {
			const monitorBody = { name: 'Left behind', schedule: { text: 'daily' }, targets: [{ type: 'scrape', urls: ['https://example.com/'] }] };
			const kept = (await post('/v2/monitor', monitorBody)).data;
			const removedByWorkflow = (await post('/v2/monitor', { ...monitorBody, name: 'Removed by the workflow' })).data;
			const del = await fetch(`${guard.url}/v2/monitor/${removedByWorkflow.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${CANARY_KEY}` } });
			expect(del.status).toBe(200);
			const running = await post('/v2/agent', { prompt: 'A long run FAKE_DURATION_MS=600000' });
			const finished = await post('/v2/agent', { prompt: 'A short run FAKE_DURATION_MS=1' });
			await new Promise((r) => setTimeout(r, 50));
			expect(guard.created.map((c) => c.kind)).toEqual(['monitor', 'monitor', 'agent run', 'agent run']);

			const report = await guard.cleanup();
			expect(report).toEqual([
				{ ok: true, text: 'deleted the monitor “Left behind”', path: `/v2/monitor/${kept.id}` },
				{ ok: true, text: 'cancelled an agent run (it was processing)', path: `/v2/agent/${running.id}` },
			]);
			const deletes = trail().filter((t) => t.startsWith('DELETE'));
			expect(deletes).toEqual([`DELETE /v2/monitor/${removedByWorkflow.id}`, `DELETE /v2/monitor/${kept.id}`, `DELETE /v2/agent/${running.id}`]);
			expect(trail()).toContain(`GET /v2/agent/${finished.id}`); // looked at, not cancelled
			expect(api.agentJob(running.id).status).not.toBe('processing');
			expect(() => api.monitor(kept.id)).toThrow();
			// a second cleanup has nothing left to do
			expect(await guard.cleanup()).toEqual([]);
		} finally {
			await guard.close();
		}
	});

	test('what counts as created, and how it is undone', () => {
		expect(createdBy('POST', '/v2/monitor', { success: true, data: { id: 'm1', name: 'N' } })).toMatchObject({ path: '/v2/monitor/m1', undo: 'delete' });
		expect(createdBy('POST', '/v2/agent', { success: true, id: 'a1' })).toMatchObject({ path: '/v2/agent/a1', undo: 'cancel' });
		expect(createdBy('POST', '/v2/crawl', { success: true, id: 'c1' })).toMatchObject({ path: '/v2/crawl/c1', undo: 'cancel' });
		expect(createdBy('POST', '/v2/batch/scrape', { success: true, id: 'b1' })).toMatchObject({ path: '/v2/batch/scrape/b1', undo: 'cancel' });
		expect(createdBy('POST', '/v2/interact', { success: true, id: 's1' })).toMatchObject({ path: '/v2/interact/s1', undo: 'delete' });
		expect(createdBy('POST', '/v2/scrape/j1/interact', { success: true })).toMatchObject({ path: '/v2/scrape/j1/interact', undo: 'delete' });
		expect(createdBy('POST', '/v2/scrape', { success: true, data: {} })).toBeUndefined();
		expect(createdBy('GET', '/v2/monitor', { success: true, data: [{ id: 'm1' }] })).toBeUndefined();
	});
});

describe('npm run demo with a key (the fake standing in for the real service)', () => {
	test('without --spend and without a terminal: only read-only examples run, nothing but GETs reach the service', async () => {
		const r = await runDemo([]);
		expect(r.leaked).toBe(false);
		expect(r.code).toBe(0);
		expect(api.log.length).toBeGreaterThan(0);
		expect(api.log.filter((x) => x.method !== 'GET').map((x) => `${x.method} ${x.path}`)).toEqual([]);
		expect(r.out).toMatch(/example\(s\) spend credits or change your account:\n {2}agent-run-and-wait: agent\.runAndWait/);
		expect(r.out).toMatch(/They are skipped: only read-only examples run\. Add --spend/);
		expect(r.out).toMatch(/What it is for: Reads how many credits your team has left/);
		expect(r.out).toMatch(/▶ watch competitor pricing pages for changes .*\n.*What it is for: .*\n {2}Skipped: spends credits or changes your account \(monitor\.create\)/);
		// an example that needs an existing run says so when the account has none
		expect(r.out).toMatch(/Latest agent run found none \(no agent runs on this account yet\), so Get agent run did not run\./);
		expect(r.out).toMatch(/\n2 of 2 example workflows ran successfully \(15 that spend credits skipped: add --spend to run them; 4 trigger workflow\(s\) skipped\)\.\n$/);
	});

	test('with --spend: the monitor it created is deleted, the agent run still going is cancelled, browser sessions are closed', async () => {
		api.setAgentDefaults({ durationMs: 600000 }); // runs outlast the example's 3 s Wait
		const r = await runDemo(['--spend', '--only', 'monitor-create,agent-start-then-poll-later,interact-with-page']);
		expect(r.leaked).toBe(false);
		expect(r.out).toMatch(/They will run \(--spend\)\./);
		expect(r.code).toBe(0);
		expect(trail().filter((t) => t === 'POST /v2/monitor')).toHaveLength(1);
		const deletes = trail().filter((t) => t.startsWith('DELETE'));
		expect(deletes).toEqual(expect.arrayContaining([expect.stringMatching(/^DELETE \/v2\/monitor\/[0-9a-f-]{36}$/), expect.stringMatching(/^DELETE \/v2\/agent\/[0-9a-f-]{36}$/)]));
		// the service holds no monitor afterwards
		const list = await fetch(`${api.url}/v2/monitor`, { headers: { authorization: `Bearer ${CANARY_KEY}` } }).then((x) => x.json());
		expect(list.data).toEqual([]);
		// the agent run is no longer running
		const agentId = /^DELETE \/v2\/agent\/(.+)$/.exec(deletes.find((d) => d.startsWith('DELETE /v2/agent/')))[1];
		expect(api.agentJob(agentId).status).not.toBe('processing');
		// the example stops its browser sessions itself: no second stop
		expect(deletes.filter((d) => /interact/.test(d))).toHaveLength(2);
		expect(r.out).toMatch(/Cleaned up: deleted the monitor “Competitor pricing”\./);
		expect(r.out).toMatch(/Cleaned up: cancelled an agent run \(it was processing\)\./);
		// results, not ids
		expect(r.out).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
	});
});

describe('what the demo shows of a run', () => {
	test('the monitor example shows the judgment and the diff of the changed page, not ids', () => {
		const workflow = example('monitor-run-and-read-changes');
		const page = {
			url: 'https://example.com/pricing',
			status: 'changed',
			meaningful: true,
			why: 'The Pro plan went from $10 to $12',
			diff: '-Price: $10\n+Price: $12',
			checkId: '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6b',
			monitorId: '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a',
		};
		const runData = {
			'Newest monitor': [{ data: { main: [[{ json: { id: page.monitorId, name: 'Competitor pricing' } }]] } }],
			'Run check now': [{ data: { main: [[{ json: page }]] } }],
			'Keep what matters': [{ data: { main: [[{ json: page }]] } }],
		};
		const text = describeRun(workflow, runData).join('\n');
		expect(text).toBe(
			[
				'Keep what matters: 1 item(s)',
				'  • url: https://example.com/pricing  status: changed  meaningful: true  why: The Pro plan went from $10 to $12',
				'    diff:',
				'      -Price: $10',
				'      +Price: $12',
			].join('\n'),
		);
	});

	test('an account without monitors: the example says so instead of failing on an id', () => {
		const runData = { 'Newest monitor': [{ data: { main: [[]] } }] };
		expect(describeRun(example('monitor-run-and-read-changes'), runData)).toEqual([
			'Newest monitor found none (no monitors on this account yet), so Run check now did not run.',
		]);
	});
});
