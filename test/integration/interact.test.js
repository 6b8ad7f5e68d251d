'use strict';
// Interact resource against the strict fake: every operation's request (path, body, query) and
// items; nested `profile`; code vs prompt; sessions and scraped pages; stopped sessions.
// Build first: `npm run build`.
const { startFakeApi } = require('../fake-api/server');
const { runWorkflow } = require('../helpers/workflow-runner');
const { webDataWorkflow, WEB_DATA } = require('../helpers/workflows');
const { CANARY_KEY, record } = require('../helpers/canary');

jest.setTimeout(30000);

let api;
beforeAll(async () => {
	api = await startFakeApi({ apiKey: CANARY_KEY });
});
afterAll(async () => api.close());
beforeEach(() => api.reset());

async function run(parameters, items = [{ json: {} }], node = {}) {
	const result = await runWorkflow(webDataWorkflow({ resource: 'interact', ...parameters }, items, node), {
		credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url } },
	});
	record(result.error);
	if (result.status === 'success') record(result.items(WEB_DATA));
	return result;
}

const rl = (value) => ({ __rl: true, mode: 'id', value });
const UNKNOWN = '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a';
const trail = () => api.log.map((r) => `${r.method} ${r.path} ${r.status}`);

/** A session made directly on the fake (not through the node). */
async function newSession(body = {}) {
	const res = await fetch(`${api.url}/v2/interact`, {
		method: 'POST',
		headers: { Authorization: `Bearer ${CANARY_KEY}`, 'Content-Type': 'application/json' },
		body: JSON.stringify(body),
	});
	expect(res.status).toBe(200);
	const json = await res.json();
	api.log.length = 0;
	return json.id;
}

describe('Start Session', () => {
	test('no option set: no field is sent; the item is the session without "success"', async () => {
		const result = await run({ operation: 'start' });
		expect(result.status).toBe('success');
		const [req] = api.requests({ method: 'POST', path: '/v2/interact' });
		// n8n's HTTP helper sends an empty object as an empty body; the service reads it as {}.
		expect(req.body).toBeNull();
		expect(req.status).toBe(200);
		const [item] = result.items(WEB_DATA);
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(Object.keys(item.json).sort()).toEqual(['cdpUrl', 'expiresAt', 'id', 'interactiveLiveViewUrl', 'liveViewUrl']);
		expect(item.json.id).toMatch(/^[0-9a-f-]{36}$/);
	});

	test('every option goes where the API expects it: profile is a nested object', async () => {
		const result = await run({
			operation: 'start',
			options: { ttl: 600, activityTtl: 120, streamWebView: false, profileName: 'shop-login', saveProfileChanges: false },
		});
		expect(result.status).toBe('success');
		const [req] = api.log;
		expect(req.status).toBe(200);
		expect(req.body).toEqual({ ttl: 600, activityTtl: 120, streamWebView: false, profile: { name: 'shop-login', saveChanges: false } });
	});

	test('a profile name alone sends profile: {name}', async () => {
		await run({ operation: 'start', options: { profileName: 'p1' } });
		expect(api.log[0].body).toEqual({ profile: { name: 'p1' } });
	});

	test('a second saving session on the same profile: 409 with a hint to load it read-only', async () => {
		await run({ operation: 'start', options: { profileName: 'p1' } });
		const result = await run({ operation: 'start', options: { profileName: 'p1' } });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/409|already saving/);
		expect(result.error.description).toMatch(/Save Changes to Profile/);
	});

	test.each([
		[{ ttl: 29 }, 'Time to Live (Seconds)'],
		[{ ttl: 3601 }, 'Time to Live (Seconds)'],
		[{ ttl: 60.5 }, 'Time to Live (Seconds)'],
		[{ activityTtl: 9 }, 'Idle Timeout (Seconds)'],
		[{ profileName: '' }, 'Profile Name'],
		[{ profileName: 'x'.repeat(129) }, 'Profile Name'],
		[{ saveProfileChanges: true }, 'Save Changes to Profile'],
	])('%j is refused before sending, naming %s', async (options, field) => {
		const result = await run({ operation: 'start', options });
		expect(result.status).toBe('error');
		expect(result.error.message).toContain(field);
		expect(api.log).toHaveLength(0);
	});
});

describe('Execute in a session', () => {
	test('sends {code, language} to /v2/interact/{id}/execute; the item has sessionId and the run result', async () => {
		const id = await newSession();
		const code = "await page.goto('https://example.com');\nconsole.log('Example Domain');";
		const result = await run({ operation: 'execute', sessionId: rl(id), code });
		expect(result.status).toBe('success');
		expect(trail()).toEqual([`POST /v2/interact/${id}/execute 200`]);
		expect(api.log[0].body).toEqual({ code, language: 'node' });
		expect(result.json(WEB_DATA)).toEqual([
			{ sessionId: id, success: true, stdout: 'Example Domain\n', result: 'Example Domain\n', stderr: '', exitCode: 0, killed: false, error: null },
		]);
	});

	test('language and the timeout option are sent as chosen (timeout is seconds)', async () => {
		const id = await newSession();
		const result = await run({ operation: 'execute', sessionId: rl(id), language: 'bash', code: 'echo hello', options: { timeout: 120 } });
		expect(result.status).toBe('success');
		expect(api.log[0].body).toEqual({ code: 'echo hello', language: 'bash', timeout: 120 });
		expect(result.json(WEB_DATA)[0].stdout).toBe('hello\n');
	});

	test('a failing script is an item with success false, exitCode and stderr (not a node error)', async () => {
		const id = await newSession();
		const result = await run({ operation: 'execute', sessionId: rl(id), language: 'python', code: 'raise Exception("FAKE_EXIT_1")' });
		expect(result.status).toBe('success');
		expect(result.json(WEB_DATA)[0]).toMatchObject({ success: false, exitCode: 1, error: expect.stringContaining('FAKE_EXIT_1') });
	});

	test('a prompt or an Execute With left over from a scraped page is not sent for a session', async () => {
		const id = await newSession();
		await run({ operation: 'execute', target: 'session', sessionId: rl(id), executeWith: 'prompt', prompt: 'click', code: 'console.log("x")' });
		expect(api.log[0].body).toEqual({ code: 'console.log("x")', language: 'node' });
	});

	test('a stopped session: 410 with a hint to start a new one', async () => {
		const id = await newSession();
		await fetch(`${api.url}/v2/interact/${id}`, { method: 'DELETE', headers: { Authorization: `Bearer ${CANARY_KEY}` } });
		api.log.length = 0;
		const result = await run({ operation: 'execute', sessionId: rl(id), code: 'console.log(1)' });
		expect(result.status).toBe('error');
		expect(trail()).toEqual([`POST /v2/interact/${id}/execute 410`]);
		expect(result.error.description).toMatch(/already ended/);
	});

	test('an unknown session: 404, and with Continue On Fail an error item per input item', async () => {
		const result = await run({ operation: 'execute', sessionId: rl(UNKNOWN), code: 'console.log(1)' }, [{ json: {} }, { json: {} }], {
			onError: 'continueRegularOutput',
		});
		expect(result.status).toBe('success');
		const items = result.items(WEB_DATA);
		expect(items.map((i) => [i.json.httpStatus, i.pairedItem.item])).toEqual([
			[404, 0],
			[404, 1],
		]);
		expect(items[0].json.description).toMatch(/Get Many Sessions/);
	});
});

describe('Execute on a scraped page', () => {
	test('code: POST /v2/scrape/{id}/interact {code, language}; the item has scrapeId and live view links', async () => {
		const job = api.seedScrapeJob({ url: 'https://example.com/shop' });
		const result = await run({ operation: 'execute', target: 'scrapeJob', scrapeJobId: rl(job.id), code: "console.log('ok')" });
		expect(result.status).toBe('success');
		expect(trail()).toEqual([`POST /v2/scrape/${job.id}/interact 200`]);
		expect(api.log[0].body).toEqual({ code: "console.log('ok')", language: 'node' });
		const [item] = result.json(WEB_DATA);
		expect(item).toMatchObject({ scrapeId: job.id, success: true, stdout: 'ok\n', output: null });
		expect(item.liveViewUrl).toContain(job.id);
	});

	test('prompt: {prompt, timeout} only (no code, no language); the answer is in output', async () => {
		const job = api.seedScrapeJob({});
		const result = await run({
			operation: 'execute',
			target: 'scrapeJob',
			scrapeJobId: rl(job.id),
			executeWith: 'prompt',
			prompt: 'Open the Pricing tab and read the Pro price',
			code: 'left over',
			language: 'python',
			options: { timeout: 90 },
		});
		expect(result.status).toBe('success');
		expect(api.log[0].body).toEqual({ prompt: 'Open the Pricing tab and read the Pro price', timeout: 90 });
		expect(result.json(WEB_DATA)[0].output).toBe('Done: Open the Pricing tab and read the Pro price');
	});

	test('a page scraped with POST /v2/scrape can be used by its metadata.scrapeId', async () => {
		const res = await fetch(`${api.url}/v2/scrape`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${CANARY_KEY}`, 'Content-Type': 'application/json' },
			body: JSON.stringify({ url: 'https://example.com/pricing' }),
		});
		const scrapeId = (await res.json()).data.metadata.scrapeId;
		const result = await run({ operation: 'execute', target: 'scrapeJob', scrapeJobId: rl(scrapeId), executeWith: 'prompt', prompt: 'Read the price' });
		expect(result.status).toBe('success');
		expect(result.json(WEB_DATA)[0]).toMatchObject({ scrapeId, output: 'Done: Read the price' });
	});

	test('an unknown scrape: 404 with a hint to use metadata.scrapeId', async () => {
		const result = await run({ operation: 'execute', target: 'scrapeJob', scrapeJobId: rl(UNKNOWN), code: 'x' });
		expect(result.status).toBe('error');
		expect(trail()).toEqual([`POST /v2/scrape/${UNKNOWN}/interact 404`]);
		expect(result.error.description).toMatch(/metadata\.scrapeId/);
	});

	test('after Stop, the scraped page answers 410', async () => {
		const job = api.seedScrapeJob({});
		await run({ operation: 'execute', target: 'scrapeJob', scrapeJobId: rl(job.id), code: 'x' });
		await run({ operation: 'stop', target: 'scrapeJob', scrapeJobId: rl(job.id) });
		const result = await run({ operation: 'execute', target: 'scrapeJob', scrapeJobId: rl(job.id), code: 'x' });
		expect(trail()).toEqual([
			`POST /v2/scrape/${job.id}/interact 200`,
			`DELETE /v2/scrape/${job.id}/interact 200`,
			`POST /v2/scrape/${job.id}/interact 410`,
		]);
		expect(result.error.description).toMatch(/Scrape the page again/);
	});
});

describe('Execute is checked before sending', () => {
	const session = { operation: 'execute', sessionId: rl(UNKNOWN) };
	const page = { operation: 'execute', target: 'scrapeJob', scrapeJobId: rl(UNKNOWN) };
	test.each([
		[{ operation: 'execute', sessionId: rl('not-a-uuid'), code: 'x' }, 'Session ID'],
		[{ ...page, scrapeJobId: rl('123'), code: 'x' }, 'Scrape ID'],
		[{ ...session, code: '   ' }, 'Code'],
		[{ ...session, code: 'x'.repeat(100001) }, 'Code'],
		[{ ...session, code: 'x', language: 'ruby' }, 'Language'],
		[{ ...session, code: 'x', options: { timeout: 0 } }, 'Timeout (Seconds)'],
		[{ ...session, code: 'x', options: { timeout: 301 } }, 'Timeout (Seconds)'],
		[{ ...page, executeWith: 'prompt', prompt: '' }, 'Prompt'],
		[{ ...page, executeWith: 'prompt', prompt: 'p'.repeat(10001) }, 'Prompt'],
		[{ ...page, executeWith: 'shell', code: 'x' }, 'Execute With'],
	])('%#: refused, naming %s, zero requests', async (parameters, field) => {
		const result = await run(parameters);
		expect(result.status).toBe('error');
		expect(result.error.message).toContain(field);
		// Ours say so; n8n's own parameter checks (locator pattern, required field) run even earlier.
		if (!/node has issues/.test(result.error.message)) expect(result.error.description).toMatch(/Nothing was sent/);
		expect(api.log).toHaveLength(0);
	});
});

describe('Stop Session', () => {
	test('a session: DELETE /v2/interact/{id}; the item has stopped, duration and credits', async () => {
		const id = await newSession();
		const result = await run({ operation: 'stop', sessionId: rl(id) });
		expect(result.status).toBe('success');
		expect(trail()).toEqual([`DELETE /v2/interact/${id} 200`]);
		expect(api.log[0].body).toBeNull();
		expect(result.json(WEB_DATA)).toEqual([{ sessionId: id, stopped: true, sessionDurationMs: expect.any(Number), creditsBilled: 2 }]);
	});

	test('a session stopped twice: 410 is an error, or "stopped": false with Ignore if Already Stopped', async () => {
		const id = await newSession();
		await run({ operation: 'stop', sessionId: rl(id) });
		const strict = await run({ operation: 'stop', sessionId: rl(id) });
		expect(strict.status).toBe('error');
		const lenient = await run({ operation: 'stop', sessionId: rl(id), ignoreStopped: true });
		expect(lenient.status).toBe('success');
		expect(lenient.json(WEB_DATA)).toEqual([{ sessionId: id, stopped: false, message: expect.any(String) }]);
		expect(trail()).toEqual([`DELETE /v2/interact/${id} 200`, `DELETE /v2/interact/${id} 410`, `DELETE /v2/interact/${id} 410`]);
	});

	test('Ignore if Already Stopped does not hide an unknown session (404)', async () => {
		const result = await run({ operation: 'stop', sessionId: rl(UNKNOWN), ignoreStopped: true });
		expect(result.status).toBe('error');
		expect(trail()).toEqual([`DELETE /v2/interact/${UNKNOWN} 404`]);
	});

	test('a scraped page never opened: 404 "Browser session not found", ignorable', async () => {
		const job = api.seedScrapeJob({});
		const result = await run({ operation: 'stop', target: 'scrapeJob', scrapeJobId: rl(job.id), ignoreStopped: true });
		expect(result.status).toBe('success');
		expect(result.json(WEB_DATA)).toEqual([{ scrapeId: job.id, stopped: false, message: expect.any(String) }]);
		expect(trail()).toEqual([`DELETE /v2/scrape/${job.id}/interact 404`]);
	});

	test('an invalid ID is refused before sending', async () => {
		const result = await run({ operation: 'stop', sessionId: rl('abc') });
		expect(result.status).toBe('error');
		expect(result.error.message).toContain('Session ID');
		expect(api.log).toHaveLength(0);
	});
});

describe('Get Many Sessions', () => {
	test('All sends no query; one item per session, newest first', async () => {
		const a = await newSession();
		const b = await newSession();
		await fetch(`${api.url}/v2/interact/${a}`, { method: 'DELETE', headers: { Authorization: `Bearer ${CANARY_KEY}` } });
		api.log.length = 0;
		const result = await run({ operation: 'getMany', returnAll: true });
		expect(result.status).toBe('success');
		expect(api.log.map((r) => [r.path, r.query])).toEqual([['/v2/interact', {}]]);
		expect(result.json(WEB_DATA).map((s) => [s.id, s.status])).toEqual([
			[b, 'active'],
			[a, 'destroyed'],
		]);
	});

	test('a status filter goes in the query; the limit cuts the list', async () => {
		await newSession();
		await newSession();
		await newSession();
		const result = await run({ operation: 'getMany', status: 'active', limit: 2 });
		expect(api.log.map((r) => r.query)).toEqual([{ status: 'active' }]);
		expect(result.json(WEB_DATA)).toHaveLength(2);
	});

	test.each([
		[{ status: 'running' }, 'Status'],
		[{ limit: 0 }, 'Limit'],
	])('%j is refused before sending', async (parameters, field) => {
		const result = await run({ operation: 'getMany', ...parameters });
		expect(result.status).toBe('error');
		expect(result.error.message).toContain(field);
		expect(api.log).toHaveLength(0);
	});
});

describe('the fake is strict', () => {
	const post = (path, body) =>
		fetch(`${api.url}${path}`, {
			method: 'POST',
			headers: { Authorization: `Bearer ${CANARY_KEY}`, 'Content-Type': 'application/json' },
			body: JSON.stringify(body),
		}).then(async (r) => [r.status, await r.json()]);

	test('unknown keys, flat profile fields, out-of-range values and code+prompt answer 400', async () => {
		expect((await post('/v2/interact', { profileName: 'x' }))[0]).toBe(400);
		expect((await post('/v2/interact', { profile: { saveChanges: true } }))[0]).toBe(400);
		expect((await post('/v2/interact', { ttl: 10 }))[0]).toBe(400);
		const id = await newSession();
		expect((await post(`/v2/interact/${id}/execute`, { code: 'x', timeout: 301 }))[0]).toBe(400);
		expect((await post(`/v2/interact/${id}/execute`, { prompt: 'x' }))[0]).toBe(400);
		expect((await post(`/v2/interact/${id}/execute`, { code: 'x', language: 'ruby' }))[0]).toBe(400);
		const job = api.seedScrapeJob({});
		expect((await post(`/v2/scrape/${job.id}/interact`, { code: 'x', prompt: 'y' }))[0]).toBe(400);
		expect((await post(`/v2/scrape/${job.id}/interact`, {}))[0]).toBe(400);
		expect((await post('/v2/scrape/not-a-uuid/interact', { code: 'x' }))[0]).toBe(400);
	});
});
