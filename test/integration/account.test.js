'use strict';
// Account resource against the strict fake: the request each operation sends (path, query), and
// the items it puts out (one per call; the history one per period).
// Build first: `npm run build`.
const { startFakeApi } = require('../fake-api/server');
const { runWorkflow } = require('../helpers/workflow-runner');
const { webDataWorkflow, WEB_DATA } = require('../helpers/workflows');
const { CANARY_KEY, record } = require('../helpers/canary');

let api;
beforeAll(async () => {
	api = await startFakeApi({ apiKey: CANARY_KEY });
});
afterAll(async () => api.close());
beforeEach(() => api.reset());

async function run(parameters, items = [{ json: {} }], node = {}) {
	const result = await runWorkflow(webDataWorkflow({ resource: 'account', ...parameters }, items, node), {
		credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url } },
	});
	record(result.error);
	if (result.status === 'success') record(result.items(WEB_DATA));
	return result;
}

const trail = () => api.log.map((r) => `${r.method} ${r.path} ${JSON.stringify(r.query)} ${r.status}`);

describe('Get Credit Usage', () => {
	test('is the default operation: GET /v2/team/credit-usage, no query, the data object as the item', async () => {
		api.setTeam({ remainingCredits: 420, planCredits: 3000, billingPeriodStart: '2026-11-01T00:00:00Z', billingPeriodEnd: '2026-11-30T23:59:59Z' });
		const result = await run({});
		expect(result.status).toBe('success');
		expect(trail()).toEqual(['GET /v2/team/credit-usage {} 200']);
		expect(api.log[0].headers.authorization).toBe(`Bearer ${CANARY_KEY}`);
		expect(api.log[0].body).toBeNull();
		const items = result.items(WEB_DATA);
		expect(items).toEqual([
			{
				json: { remainingCredits: 420, planCredits: 3000, billingPeriodStart: '2026-11-01T00:00:00Z', billingPeriodEnd: '2026-11-30T23:59:59Z' },
				pairedItem: { item: 0 },
			},
		]);
	});

	test('one call and one item per input item, each paired', async () => {
		const result = await run({ operation: 'getCreditUsage' }, [{ json: { a: 1 } }, { json: { a: 2 } }]);
		expect(api.requests('/v2/team/credit-usage')).toHaveLength(2);
		expect(result.items(WEB_DATA).map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	test('a failure becomes an error item with Continue On Fail, with the status', async () => {
		api.fault({ path: '/v2/team/credit-usage', statuses: [404], body: { success: false, error: 'Could not find credit usage information' } });
		const result = await run({ operation: 'getCreditUsage' }, [{ json: {} }], { onError: 'continueRegularOutput' });
		expect(result.status).toBe('success');
		const [item] = result.json(WEB_DATA);
		expect(item.httpStatus).toBe(404);
		expect(item.description).toMatch(/no credit usage record/);
	});
});

describe('Get Credit Usage History', () => {
	test('without Split by API Key: no query at all, one item per billing period with apiKey null', async () => {
		const result = await run({ operation: 'getCreditUsageHistory' });
		expect(result.status).toBe('success');
		expect(trail()).toEqual(['GET /v2/team/credit-usage/historical {} 200']);
		const items = result.json(WEB_DATA);
		expect(items).toHaveLength(3);
		expect(items[0]).toEqual({ startDate: '2026-09-01T00:00:00.000Z', endDate: '2026-09-30T23:59:59.999Z', apiKey: null, totalCredits: 110 });
		expect(items.map((p) => p.totalCredits)).toEqual([110, 220, 330]);
	});

	test('Split by API Key sends byApiKey=true; one item per period and key', async () => {
		const result = await run({ operation: 'getCreditUsageHistory', byApiKey: true });
		expect(trail()).toEqual(['GET /v2/team/credit-usage/historical {"byApiKey":"true"} 200']);
		const items = result.json(WEB_DATA);
		expect(items).toHaveLength(6);
		expect(items.map((p) => p.apiKey)).toEqual(['Default', 'n8n', 'Default', 'n8n', 'Default', 'n8n']);
		expect(result.items(WEB_DATA).every((i) => i.pairedItem.item === 0)).toBe(true);
	});

	test('no period: no item', async () => {
		api.setTeam({ creditHistory: [] });
		const result = await run({ operation: 'getCreditUsageHistory' });
		expect(result.status).toBe('success');
		expect(result.runData[WEB_DATA][0].data.main[0]).toEqual([]);
	});
});

describe('Token usage', () => {
	test('Get Token Usage: GET /v2/team/token-usage, the data object', async () => {
		api.setTeam({ remainingTokens: 1234, planTokens: 5000 });
		const result = await run({ operation: 'getTokenUsage' });
		expect(trail()).toEqual(['GET /v2/team/token-usage {} 200']);
		expect(result.json(WEB_DATA)).toEqual([{ remainingTokens: 1234, planTokens: 5000, billingPeriodStart: null, billingPeriodEnd: null }]);
	});

	test('Get Token Usage History: totalTokens per period, byApiKey only when chosen', async () => {
		const plain = await run({ operation: 'getTokenUsageHistory' });
		expect(plain.json(WEB_DATA).map((p) => p.totalTokens)).toEqual([110, 220, 330]);
		const split = await run({ operation: 'getTokenUsageHistory', byApiKey: true });
		expect(split.json(WEB_DATA)).toHaveLength(6);
		expect(trail()).toEqual([
			'GET /v2/team/token-usage/historical {} 200',
			'GET /v2/team/token-usage/historical {"byApiKey":"true"} 200',
		]);
	});
});

describe('Get Queue Status', () => {
	test('GET /v2/team/queue-status: the counters without the envelope flag', async () => {
		api.setTeam({ queue: { jobsInQueue: 7, activeJobsInQueue: 5, waitingJobsInQueue: 2, maxConcurrency: 5 } });
		const result = await run({ operation: 'getQueueStatus' });
		expect(trail()).toEqual(['GET /v2/team/queue-status {} 200']);
		expect(result.json(WEB_DATA)).toEqual([
			{ jobsInQueue: 7, activeJobsInQueue: 5, waitingJobsInQueue: 2, maxConcurrency: 5, mostRecentSuccess: '2026-11-21T12:00:00.000Z' },
		]);
	});
});

describe('Get Recent Activity', () => {
	const job = (n, endpoint = 'scrape') => ({ id: `0190b7c4-6d2a-7c1e-9a51-${String(n).padStart(12, '0')}`, endpoint, api_version: 'v2', created_at: '2026-11-21T12:00:00.000Z', target: `https://example.com/${n}` });

	test('limit goes to the service; one item per job, as the service returned it', async () => {
		const result = await run({ operation: 'getActivity', limit: 3 });
		expect(result.status).toBe('success');
		expect(api.log.map((r) => r.query)).toEqual([{ limit: '3' }]);
		const items = result.json(WEB_DATA);
		expect(items).toHaveLength(3);
		expect(Object.keys(items[0]).sort()).toEqual(['api_version', 'created_at', 'endpoint', 'id', 'target']);
	});

	test('Return All follows the cursor, 100 per page, until has_more is false', async () => {
		api.setTeam({ activity: Array.from({ length: 230 }, (_, n) => job(n)) });
		const result = await run({ operation: 'getActivity', returnAll: true });
		expect(result.status).toBe('success');
		expect(api.log.map((r) => r.query)).toEqual([
			{ limit: '100' },
			{ limit: '100', cursor: 'fake-cursor-100' },
			{ limit: '100', cursor: 'fake-cursor-200' },
		]);
		const ids = result.json(WEB_DATA).map((j) => j.id);
		expect(ids).toHaveLength(230);
		expect(new Set(ids).size).toBe(230);
	});

	test('a limit above one page asks only for what is left; the endpoint filter is sent', async () => {
		api.setTeam({ activity: [...Array.from({ length: 150 }, (_, n) => job(n, 'crawl')), job(999, 'scrape')] });
		const result = await run({ operation: 'getActivity', endpoint: 'crawl', limit: 120 });
		expect(api.log.map((r) => r.query)).toEqual([
			{ limit: '100', endpoint: 'crawl' },
			{ limit: '20', endpoint: 'crawl', cursor: 'fake-cursor-100' },
		]);
		const items = result.json(WEB_DATA);
		expect(items).toHaveLength(120);
		expect(items.every((j) => j.endpoint === 'crawl')).toBe(true);
	});

	test('a cursor handed out twice stops the paging', async () => {
		api.fault({ path: '/v2/team/activity', times: 5, status: 200, body: { success: true, data: [job(1)], cursor: 'same', has_more: true } });
		const result = await run({ operation: 'getActivity', returnAll: true });
		expect(result.status).toBe('success');
		expect(api.log).toHaveLength(2);
		expect(result.json(WEB_DATA)).toHaveLength(2);
	});

	test.each([
		[{ endpoint: 'crawls' }, 'Endpoint'],
		[{ limit: 0 }, 'Limit'],
	])('%j is refused before sending', async (parameters, field) => {
		const result = await run({ operation: 'getActivity', ...parameters });
		expect(result.status).toBe('error');
		expect(result.error.message).toContain(field);
		expect(api.log).toHaveLength(0);
	});
});

describe('the fake is strict about queries', () => {
	test('an unknown query parameter or a byApiKey that is not true/false answers 400', async () => {
		const get = (q) => fetch(`${api.url}/v2/team/credit-usage${q}`, { headers: { Authorization: `Bearer ${CANARY_KEY}` } }).then((r) => r.status);
		expect(await get('?byApiKey=true')).toBe(400);
		const hist = (q) => fetch(`${api.url}/v2/team/credit-usage/historical${q}`, { headers: { Authorization: `Bearer ${CANARY_KEY}` } }).then((r) => r.status);
		expect(await hist('?byApiKey=yes')).toBe(400);
		expect(await hist('?byApiKey=false')).toBe(200);
		expect(await get('')).toBe(200);
	});
});
