'use strict';
/**
 * Issue 35: a credit budget per execution, in n8n's engine against the strict fake API (which bills
 * by the open-source server's rules, nodes/FACTS.md "Credits"). Every test asserts on what the fake
 * received (a refused request is never sent) and on what the items and the execution's custom data
 * hold. Build first.
 */
const { runWorkflow, nodeTypes } = require('../helpers/workflow-runner');
const { registerToolVariant } = require('../helpers/tool-variant');
const { CANARY_KEY, record } = require('../helpers/canary');
const { NODE, useFakeApi, resourceRunner } = require('../helpers/resource-suite');

jest.setTimeout(30000);

const api = useFakeApi({ timeScale: 10 });
const withBudget = (creditBudget) => ({ webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url, webhookSecret: '', creditBudget } });

/** Runs `resource` with `parameters` under a credential budget; `node` is merged into the node. */
async function runBudget(resource, parameters, { budget, items = [{}], node = {} } = {}) {
	const { workflow } = resourceRunner(resource, api);
	const result = await runWorkflow(workflow(parameters, { items, node }), { credentials: withBudget(budget) });
	record(result.error);
	return result;
}

const TOOL_TYPE = registerToolVariant();

/** A node that fills the execution's custom data with `count` keys of its own (n8n keeps 10). */
const FILLER = 'test.customDataFiller';
if (!nodeTypes.has(FILLER)) {
	nodeTypes.register(FILLER, {
		description: { displayName: 'Filler', name: 'customDataFiller', group: ['transform'], version: 1, description: '', defaults: { name: 'Filler' }, inputs: ['main'], outputs: ['main'], properties: [{ displayName: 'Count', name: 'count', type: 'number', default: 10 }] },
		async execute() {
			const store = this.getWorkflowDataProxy(0).$execution.customData;
			const count = this.getNodeParameter('count', 0);
			for (let k = 0; k < count; k++) store.set(`user_key_${k}`, 'x');
			return [this.getInputData()];
		},
	});
}

/** Start → (Filler) → one Web Data node of `type`; the model's arguments are the input item. */
function oneNode(type, parameters, { args = {}, filler } = {}) {
	const nodes = [
		{ id: 'n1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
		{ id: 'n2', name: 'Arguments', type: 'test.items', typeVersion: 1, position: [200, 0], parameters: { items: JSON.stringify([{ json: args }]) } },
		{ id: 'n4', name: NODE, type, typeVersion: 1, position: [600, 0], parameters, credentials: { webDataApi: { id: 'c1', name: 'Web Data account' } } },
	];
	const connections = { Start: { main: [[{ node: 'Arguments', type: 'main', index: 0 }]] } };
	if (filler !== undefined) {
		nodes.push({ id: 'n3', name: 'Filler', type: FILLER, typeVersion: 1, position: [400, 0], parameters: { count: filler } });
		connections.Arguments = { main: [[{ node: 'Filler', type: 'main', index: 0 }]] };
		connections.Filler = { main: [[{ node: NODE, type: 'main', index: 0 }]] };
	} else {
		connections.Arguments = { main: [[{ node: NODE, type: 'main', index: 0 }]] };
	}
	return { nodes, connections, settings: { executionOrder: 'v1' } };
}

const customData = (result) => result.run.data.resultData.metadata ?? {};
const ledger = (result) => JSON.parse(customData(result).webdata_budget ?? '{}');

describe('refused before spending', () => {
	test('scrapes until the budget is spent; the next is refused naming the budget, what was spent and by which node, and is never sent', async () => {
		const urls = ['https://example.com/a', 'https://example.com/b', 'https://example.com/c', 'https://example.com/d'];
		const result = await runBudget('scrape', { url: '={{ $json.url }}', formats: ['markdown'], options: { concurrency: 1 } }, { budget: 3, items: urls.map((url) => ({ url })) });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/^Credit budget reached: This scrape would cost at least 1 credit, and 0 of this execution's 3 are left/);
		expect(result.error.description).toContain('Nothing was sent');
		expect(result.error.description).toContain(`3 credits (${NODE}: 3)`);
		expect(result.error.description).toContain("the credential's Credit Budget per Execution");
		expect(api.requests({ method: 'POST', path: '/v2/scrape' })).toHaveLength(3);
		expect(customData(result).webdata_credits).toBe('3');
	});

	test('Continue On Fail: the refused item is an error item, the others keep their pages and say what they cost', async () => {
		const urls = ['https://example.com/a', 'https://example.com/b', 'https://example.com/c'];
		const result = await runBudget('scrape', { url: '={{ $json.url }}', formats: ['markdown'] }, { budget: 2, items: urls.map((url) => ({ url })), node: { onError: 'continueRegularOutput' } });
		expect(result.status).toBe('success');
		const out = result.json(NODE);
		expect(out).toHaveLength(3);
		const pages = out.filter((j) => j.markdown !== undefined);
		const refused = out.filter((j) => j.error !== undefined);
		expect(pages).toHaveLength(2);
		expect(refused).toHaveLength(1);
		expect(refused[0].error).toMatch(/^Credit budget reached/);
		for (const page of pages) expect(page.credits).toMatchObject({ used: 1, budget: 2 });
		expect(result.items(NODE).map((it) => it.pairedItem.item).sort()).toEqual([0, 1, 2]);
		expect(api.requests({ method: 'POST', path: '/v2/scrape' })).toHaveLength(2);
	});

	test("the node's option lowers the credential's budget and never raises it", async () => {
		const urls = ['https://example.com/a', 'https://example.com/b', 'https://example.com/c'];
		const items = urls.map((url) => ({ url }));
		const lower = await runBudget('scrape', { url: '={{ $json.url }}', formats: ['markdown'], options: { creditBudget: 1 } }, { budget: 100, items, node: { onError: 'continueRegularOutput' } });
		const refused = lower.json(NODE).filter((j) => j.error);
		expect(refused).toHaveLength(2);
		for (const r of refused) expect(r.description).toContain("The budget (1) is this node's option Credit Budget per Execution");
		api.reset();
		const higher = await runBudget('scrape', { url: '={{ $json.url }}', formats: ['markdown'], options: { creditBudget: 500 } }, { budget: 2, items, node: { onError: 'continueRegularOutput' } });
		expect(higher.json(NODE).filter((j) => j.error)).toHaveLength(1);
		expect(api.requests({ method: 'POST', path: '/v2/scrape' })).toHaveLength(2);
	});

	test('items run side by side never take the same credits: what is on its way is held, and the refusal says so', async () => {
		const urls = ['https://example.com/a', 'https://example.com/b', 'https://example.com/c', 'https://example.com/d', 'https://example.com/e'];
		const result = await runBudget('scrape', { url: '={{ $json.url }}', formats: ['markdown'], options: { concurrency: 5 } }, { budget: 3, items: urls.map((url) => ({ url })), node: { onError: 'continueRegularOutput' } });
		const out = result.json(NODE);
		expect(out.filter((j) => j.markdown !== undefined)).toHaveLength(3);
		expect(out.filter((j) => j.error !== undefined).map((j) => j.description)).toEqual([expect.stringContaining('held by requests'), expect.stringContaining('held by requests')]);
		expect(api.requests({ method: 'POST', path: '/v2/scrape' })).toHaveLength(3);
		expect(customData(result).webdata_credits).toBe('3');
	});

	test('a search whose results cannot fit is refused with its bound, naming Limit; nothing is sent', async () => {
		const result = await runBudget('search', { query: 'cats', maxResults: 10, scrapeResults: true, formats: ['markdown'] }, { budget: 5 });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/This search \(up to 10 results, each scraped\) would cost at least 12 credits, and 0? ?5 of this execution's 5 are left|would cost at least 12 credits/);
		expect(result.error.description).toContain('lower Limit');
		expect(api.requests({ method: 'POST', path: '/v2/search' })).toHaveLength(0);
	});

	test('a batch scrape that cannot fit is refused with nothing sent', async () => {
		const urls = ['https://example.com/a', 'https://example.com/b', 'https://example.com/c'];
		const result = await runBudget('batchScrape', { operation: 'runAndWait', url: '={{ $json.url }}', formats: ['markdown'], maxWait: 20 }, { budget: 2, items: urls.map((url) => ({ url })) });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/^Credit budget reached: This batch scrape \(3 URLs, at least 1 credit each\) would cost at least 3 credits, and 2 of this execution's 2 are left/);
		expect(api.requests({ method: 'POST', path: '/v2/batch/scrape' })).toHaveLength(0);
		expect(api.requests({}).filter((r) => r.path.startsWith('/v2/'))).toHaveLength(0);
	});
});

describe('jobs bounded', () => {
	test("a crawl's Page Limit is lowered to what is left; the pages say so and the job's credits are counted when it ends", async () => {
		const result = await runBudget('crawl', { operation: 'runAndWait', url: 'https://example.com', pageLimit: 50, maxWait: 20 }, { budget: 4 });
		expect(result.status).toBe('success');
		const [start] = api.requests({ method: 'POST', path: '/v2/crawl' });
		expect(start.body.limit).toBe(4);
		const pages = result.json(NODE);
		expect(pages).toHaveLength(4);
		expect(pages[0].credits).toMatchObject({ used: 4, budget: 4, left: 0, pageLimitLowered: { from: 50, to: 4, creditsPerPage: 1 } });
		expect(customData(result).webdata_credits).toBe('4');
		expect(ledger(result).c.c1).toEqual({ s: 4, r: 0 });
	});

	test('a running crawl that spends past the budget is cancelled; its pages so far come out, saying so', async () => {
		// The auto proxy escalates to stealth on this host: 5 credits a page where 1 was reserved.
		const result = await runBudget(
			'crawl',
			{ operation: 'runAndWait', url: 'https://fake-antibot.example/fake-duration-40000', pageLimit: 20, scrapeOptions: { proxy: 'auto' }, maxWait: 20 },
			{ budget: 12 },
		);
		expect(result.status).toBe('success');
		const [start] = api.requests({ method: 'POST', path: '/v2/crawl' });
		expect(start.body.limit).toBe(12);
		const id = api.requests({ method: 'GET' }).find((r) => r.path.startsWith('/v2/crawl/')).path.split('/')[3];
		expect(api.requests({ method: 'DELETE', path: `/v2/crawl/${id}` })).toHaveLength(1);
		const pages = result.json(NODE);
		// It stops when it would pass what is left before the next read: how many pages that is depends on the machine's speed.
		expect(pages.length).toBeGreaterThanOrEqual(1);
		expect(pages.length).toBeLessThan(12);
		expect(pages[0].credits.cancelledAtBudget).toBe(true);
		expect(pages[0].credits.message).toMatch(/cancelled at the credit budget/);
		const spent = Number(customData(result).webdata_credits);
		expect(spent).toBe(pages.length * 5);
		// Goal of the issue: never more than the budget plus one request's reported cost (one page).
		expect(spent).toBeLessThanOrEqual(12 + 5 * 2);
	});

	test("an agent run's Max Credits is lowered to what is left", async () => {
		const result = await runBudget('agent', { operation: 'runAndWait', prompt: 'Find the company', maxWait: 30 }, { budget: 40 });
		expect(result.status).toBe('success');
		const [start] = api.requests({ method: 'POST', path: '/v2/agent' });
		expect(start.body.maxCredits).toBe(40);
		const [item] = result.json(NODE);
		expect(item.credits).toMatchObject({ maxCreditsLowered: { from: 2500, to: 40 } });
		expect(Number(customData(result).webdata_credits)).toBe(item.creditsUsed);
	});
});

describe('the sum is the execution\'s', () => {
	test('two nodes share one budget; the refusal names what each spent', async () => {
		const wf = {
			nodes: [
				{ id: 'n1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				{ id: 'n2', name: 'Scrape Page', type: 'n8n-nodes-webdata.webData', typeVersion: 1, position: [200, 0], parameters: { resource: 'scrape', url: 'https://example.com', formats: ['markdown', 'json'], jsonPrompt: 'the title' }, credentials: { webDataApi: { id: 'c1', name: 'Web Data account' } } },
				{ id: 'n3', name: 'Search Web', type: 'n8n-nodes-webdata.webData', typeVersion: 1, position: [400, 0], parameters: { resource: 'search', query: 'cats', maxResults: 5 }, credentials: { webDataApi: { id: 'c1', name: 'Web Data account' } } },
				{ id: 'n4', name: 'Scrape Again', type: 'n8n-nodes-webdata.webData', typeVersion: 1, position: [600, 0], parameters: { resource: 'scrape', url: 'https://example.com/x', formats: ['markdown'] }, credentials: { webDataApi: { id: 'c1', name: 'Web Data account' } } },
			],
			connections: {
				Start: { main: [[{ node: 'Scrape Page', type: 'main', index: 0 }]] },
				'Scrape Page': { main: [[{ node: 'Search Web', type: 'main', index: 0 }]] },
				'Search Web': { main: [[{ node: 'Scrape Again', type: 'main', index: 0 }]] },
			},
			settings: { executionOrder: 'v1' },
		};
		const result = await runWorkflow(wf, { credentials: withBudget(7) });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/^Credit budget reached: This scrape would cost at least 1 credit, and 0 of this execution's 7 are left/);
		expect(result.error.description).toContain('7 credits (Scrape Page: 5, Search Web: 2)');
		expect(result.json('Search Web')[0].credits).toMatchObject({ used: 2, execution: 7, budget: 7, left: 0 });
		expect(api.requests({ method: 'POST', path: '/v2/scrape' })).toHaveLength(1);
	});

	test('without a budget nothing is refused, the total is still readable from the custom data, and version 2 items say what they cost', async () => {
		const result = await runBudget('scrape', { url: 'https://example.com', formats: ['markdown', 'json'], jsonPrompt: 'x' }, { budget: 0, node: { typeVersion: 2 } });
		expect(result.status).toBe('success');
		expect(result.json(NODE)[0].credits).toEqual({ used: 5, execution: 5 });
		expect(customData(result)).toEqual({ webdata_credits: '5' });
	});

	test('a saved version-1 node without a budget keeps its items as they were (no credits field); the total is still counted', async () => {
		const result = await runBudget('scrape', { url: 'https://example.com', formats: ['markdown'] }, { budget: 0 });
		expect(result.status).toBe('success');
		expect(result.json(NODE)[0].credits).toBeUndefined();
		expect(customData(result)).toEqual({ webdata_credits: '1' });
	});
});

describe('a request whose answer never came (issue 44.3)', () => {
	test('a cut connection after sending counts what the request would cost, and the item says so; the service\'s own error counts nothing', async () => {
		api.fault({ method: 'POST', path: '/v2/scrape', drop: true, times: 1 });
		const cut = await runBudget('scrape', { url: 'https://example.com', formats: ['markdown', 'json'], jsonPrompt: 'the title' }, { budget: 10, node: { onError: 'continueRegularOutput' } });
		const [item] = cut.json(NODE);
		expect(item.error).toBeDefined();
		expect(item.credits).toMatchObject({ used: 5, budget: 10, left: 5 });
		expect(item.credits.unconfirmed).toMatch(/^No answer from the service confirmed this request .* the budget counts its 5 credits\.$/);
		expect(ledger(cut).c.c1).toEqual({ s: 5, r: 0 });

		api.reset();
		api.fault({ method: 'POST', path: '/v2/scrape', status: 400, times: 1 });
		const refused = await runBudget('scrape', { url: 'https://example.com', formats: ['markdown', 'json'], jsonPrompt: 'the title' }, { budget: 10, node: { onError: 'continueRegularOutput' } });
		const [answered] = refused.json(NODE);
		expect(answered.httpStatus).toBe(400);
		expect(answered.credits).toMatchObject({ used: 0, left: 10 });
		expect(answered.credits.unconfirmed).toBeUndefined();
	});
});

describe('a retried execution (issue 44.4)', () => {
	test('n8n\'s Retry copies the custom data: what was spent stays spent, the first run\'s job hold is let go, so the crawl starts again', async () => {
		const crawl = { operation: 'start', url: 'https://example.com', pageLimit: 40 };
		const { workflow } = resourceRunner('crawl', api);
		const first = await runWorkflow(workflow(crawl), { credentials: withBudget(50), executionId: 'first-run' });
		expect(first.status).toBe('success');
		expect(ledger(first).c.c1.j).toBeDefined(); // the crawl holds its 40 (Start: not read again in this execution)
		const retried = await runWorkflow(workflow(crawl), { credentials: withBudget(50), executionId: 'retry-of-first-run', customData: customData(first) });
		record(retried.error);
		expect(retried.status).toBe('success');
		expect(api.requests({ method: 'POST', path: '/v2/crawl' })).toHaveLength(2);
		expect(ledger(retried)).toMatchObject({ c: { c1: { s: 0, r: 0, j: expect.any(Object) } }, x: 'retry-of-first-run' });
		expect(Object.values(ledger(retried).c.c1.j)).toEqual([40]);
	});
});

describe('as a tool', () => {
	test('a call that cannot fit answers the model that the budget is spent, as its result: the run goes on, nothing is sent', async () => {
		const result = await runWorkflow(oneNode(TOOL_TYPE, { resource: 'search', operation: 'search' }, { args: { query: 'cats', limit: 30 } }), { credentials: withBudget(4) });
		expect(result.status).toBe('success');
		const [answer] = result.json(NODE);
		expect(answer).toMatchObject({ creditBudgetReached: true, budget: 4, spent: 0, left: 4 });
		// 4 are left: a smaller call fits, and the model is told so (issue 44.7), not to stop.
		expect(answer.message).toMatch(/^Credit budget reached: This search \(up to 30 results\) would cost at least 6 credits, and 4 of this execution's 4 are left\. Nothing was sent\. A call that costs at most 4 credits still fits/);
		expect(answer.message).not.toMatch(/do not call them again/);
		expect(api.requests({ method: 'POST', path: '/v2/search' })).toHaveLength(0);
	});

	test('what a call cost is said once in its answer, not on each of its results (issue 44.7)', async () => {
		const result = await runWorkflow(oneNode(TOOL_TYPE, { resource: 'search', operation: 'search' }, { args: { query: 'cats', limit: 5 } }), { credentials: withBudget(10) });
		expect(result.status).toBe('success');
		const [answer] = result.json(NODE);
		expect(answer.credits).toMatchObject({ used: 2, budget: 10, left: 8 });
		const text = JSON.stringify(answer);
		expect(text.split('"credits"')).toHaveLength(2);
	});

	test('a call that fits is sent and counted', async () => {
		const result = await runWorkflow(oneNode(TOOL_TYPE, { resource: 'search', operation: 'search' }, { args: { query: 'cats', limit: 5 } }), { credentials: withBudget(4) });
		expect(result.status).toBe('success');
		expect(api.requests({ method: 'POST', path: '/v2/search' })).toHaveLength(1);
		expect(customData(result).webdata_credits).toBe('2');
	});
});

describe("n8n's custom data limit (10 keys per execution)", () => {
	test('with no room for the ledger the budget cannot be kept: refused before sending, saying why and what to do', async () => {
		const result = await runWorkflow(oneNode('n8n-nodes-webdata.webData', { resource: 'scrape', url: 'https://example.com', formats: ['markdown'] }, { filler: 10 }), { credentials: withBudget(5) });
		expect(result.status).toBe('error');
		expect(result.error.message).toBe("The credit budget cannot be kept: the execution's custom data has no room for it");
		expect(result.error.description).toContain('at most 10 custom data keys');
		expect(api.requests({ method: 'POST', path: '/v2/scrape' })).toHaveLength(0);
	});

	test('nine keys of the user leave room for the ledger (and the total, when it fits)', async () => {
		const result = await runWorkflow(oneNode('n8n-nodes-webdata.webData', { resource: 'scrape', url: 'https://example.com', formats: ['markdown'] }, { filler: 9 }), { credentials: withBudget(5) });
		expect(result.status).toBe('success');
		expect(ledger(result).c.c1).toEqual({ s: 1, r: 0 });
		expect(result.json(NODE)[0].credits).toEqual({ used: 1, execution: 1, budget: 5, left: 4 });
	});
});

describe('Monitor → Create says what its schedule and targets mean per day', () => {
	test('checks, page visits and credits per day by the service\'s monitor estimate (judged pages count twice)', async () => {
		const targets = [
			{ type: 'scrape', urls: ['https://acme.example/a', 'https://acme.example/b'] },
			{ type: 'crawl', url: 'https://acme.example/blog', crawlOptions: { limit: 5 }, scrapeOptions: { formats: ['markdown', { type: 'json', prompt: 'the posts' }] } },
			{ type: 'search', queries: ['acme funding', 'acme hires'], maxResults: 15 },
		];
		const result = await runBudget('monitor', { operation: 'create', name: 'Acme', goal: 'Funding news', scheduleMode: 'cron', cron: '0 */6 * * *', timezone: 'UTC', targetsSource: 'json', targetsJson: JSON.stringify(targets) }, { budget: 0 });
		expect(result.status).toBe('success');
		const [monitor] = result.json(NODE);
		// 4 checks a day; per check 2 + 5 pages, 30 results; credits: (2×1 + 5×5)×2 judged + 2 queries × 2×2 + 30 judged = 54 + 8 + 30 = 92.
		expect(monitor.dailyEstimate).toMatchObject({ checksPerDay: 4, pagesPerCheck: 7, searchResultsPerCheck: 30, pageVisitsPerDay: 28, creditsPerDay: 368 });
		expect(monitor.dailyEstimate.note).toMatch(/^At most 368 credits a day by the service's monitor estimate \(4 checks a day; each check up to 7 pages and 30 search results, judged against the goal\)/);
	});

	test('Options → Max Credits per Day below the estimate: refused before anything is sent, naming the field and the estimate; Continue On Fail gives an error item; at the estimate the monitor is created', async () => {
		const base = { operation: 'create', name: 'Acme', scheduleMode: 'text', scheduleText: 'every 5 minutes', timezone: 'UTC', targetsSource: 'json', targetsJson: JSON.stringify([{ type: 'scrape', urls: ['https://acme.example/a', 'https://acme.example/b'] }]) };
		const before = api.requests({ method: 'POST', path: '/v2/monitor' }).length;
		const refused = await runBudget('monitor', { ...base, options: { maxCreditsPerDay: 500 } }, { budget: 0 });
		expect(refused.status).toBe('error');
		expect(refused.error.message).toBe('This monitor may cost up to 576 credits a day, over Max Credits per Day (500)');
		expect(refused.error.description).toMatch(/^At most 576 credits a day .*288 checks a day.* It was not created and nothing was sent\./);
		const carried = await runBudget('monitor', { ...base, options: { maxCreditsPerDay: 500 } }, { budget: 0, node: { onError: 'continueRegularOutput' } });
		expect(carried.json(NODE)).toEqual([expect.objectContaining({ error: 'This monitor may cost up to 576 credits a day, over Max Credits per Day (500)' })]);
		expect(api.requests({ method: 'POST', path: '/v2/monitor' })).toHaveLength(before);
		// A ceiling an expression turned into no number is refused naming the field, not read as "no limit".
		for (const bad of ['={{ "lots" }}', -5]) {
			const refusedBad = await runBudget('monitor', { ...base, options: { maxCreditsPerDay: bad } }, { budget: 0 });
			expect(refusedBad.error.message).toMatch(/^Max Credits per Day .* is not valid: give a number of credits, 0 or more \(0: no limit\)$/);
		}
		expect(api.requests({ method: 'POST', path: '/v2/monitor' })).toHaveLength(before);
		const made = await runBudget('monitor', { ...base, options: { maxCreditsPerDay: 576 } }, { budget: 0 });
		expect(made.json(NODE)[0].dailyEstimate.creditsPerDay).toBe(576);
		expect(api.requests({ method: 'POST', path: '/v2/monitor' })).toHaveLength(before + 1);
		expect(api.requests({ method: 'POST', path: '/v2/monitor' }).at(-1).body.maxCreditsPerDay).toBeUndefined();
	});

	test('weekdays at 9: five checks in seven days', async () => {
		const result = await runBudget('monitor', { operation: 'create', name: 'Acme', scheduleMode: 'cron', cron: '0 9 * * 1-5', timezone: 'UTC', targetsSource: 'json', targetsJson: JSON.stringify([{ type: 'scrape', urls: ['https://acme.example/a'] }]) }, { budget: 0 });
		const [monitor] = result.json(NODE);
		expect(monitor.dailyEstimate.checksPerDay).toBeCloseTo(5 / 7, 1);
		expect(monitor.dailyEstimate.creditsPerDay).toBe(1);
	});
});

describe('Monitor → Update says what the changed monitor means per day', () => {
	const targetsJson = JSON.stringify([{ type: 'scrape', urls: ['https://acme.example/a', 'https://acme.example/b'] }]);
	const monitorRef = (id) => ({ __rl: true, mode: 'id', value: id });
	const sent = (id) => api.requests({ path: `/v2/monitor/${id}` }).map((r) => r.method);

	test('Options → Max Credits per Day: a change that would cost more a day is refused after one read, the monitor unchanged; Continue On Fail gives an error item; within it the change is sent and its estimate output; a pause always passes', async () => {
		const made = await runBudget('monitor', { operation: 'create', name: 'Acme', scheduleMode: 'text', scheduleText: 'every 30 minutes', timezone: 'UTC', targetsSource: 'json', targetsJson }, { budget: 0 });
		const { id } = made.json(NODE)[0];
		const faster = { operation: 'update', monitorId: monitorRef(id), updateFields: { scheduleText: 'every 5 minutes', timezone: 'UTC' } };

		const refused = await runBudget('monitor', { ...faster, options: { maxCreditsPerDay: 500 } }, { budget: 0 });
		expect(refused.status).toBe('error');
		expect(refused.error.message).toBe('This monitor may cost up to 576 credits a day, over Max Credits per Day (500)');
		expect(refused.error.description).toMatch(/288 checks a day.* It was not changed: nothing was sent but one read of the monitor\./);
		const carried = await runBudget('monitor', { ...faster, options: { maxCreditsPerDay: 500 } }, { budget: 0, node: { onError: 'continueRegularOutput' } });
		expect(carried.json(NODE)).toEqual([expect.objectContaining({ error: 'This monitor may cost up to 576 credits a day, over Max Credits per Day (500)' })]);
		// The targets kept from the monitor count: a new schedule alone is judged with them.
		expect(sent(id)).toEqual(['GET', 'GET']);
		for (const bad of ['={{ "lots" }}', -1]) {
			const refusedBad = await runBudget('monitor', { ...faster, options: { maxCreditsPerDay: bad } }, { budget: 0 });
			expect(refusedBad.error.message).toMatch(/^Max Credits per Day .* is not valid/);
		}
		expect(sent(id)).toEqual(['GET', 'GET']);

		const changed = await runBudget('monitor', { ...faster, options: { maxCreditsPerDay: 576 } }, { budget: 0 });
		expect(sent(id)).toEqual(['GET', 'GET', 'GET', 'PATCH']);
		expect(api.requests({ method: 'PATCH', path: `/v2/monitor/${id}` })[0].body.maxCreditsPerDay).toBeUndefined();
		expect(changed.json(NODE)[0].dailyEstimate).toMatchObject({ checksPerDay: 288, pagesPerCheck: 2, creditsPerDay: 576 });

		// Pausing costs nothing: never refused, and no daily estimate on a paused monitor.
		const paused = await runBudget('monitor', { operation: 'update', monitorId: monitorRef(id), updateFields: { status: 'paused' }, options: { maxCreditsPerDay: 1 } }, { budget: 0 });
		expect(paused.status).toBe('success');
		expect(paused.json(NODE)[0]).toMatchObject({ status: 'paused' });
		expect(paused.json(NODE)[0].dailyEstimate).toBeUndefined();
		// Resuming it is judged like any change.
		const resumed = await runBudget('monitor', { operation: 'update', monitorId: monitorRef(id), updateFields: { status: 'active' }, options: { maxCreditsPerDay: 100 } }, { budget: 0 });
		expect(resumed.error.message).toBe('This monitor may cost up to 576 credits a day, over Max Credits per Day (100)');
	});

	test('without the option: no read first, and the output says what the monitor now means per day', async () => {
		const made = await runBudget('monitor', { operation: 'create', name: 'Acme', scheduleMode: 'text', scheduleText: 'every 30 minutes', timezone: 'UTC', targetsSource: 'json', targetsJson }, { budget: 0 });
		const { id } = made.json(NODE)[0];
		const renamed = await runBudget('monitor', { operation: 'update', monitorId: monitorRef(id), updateFields: { name: 'Acme pricing' } }, { budget: 0 });
		expect(sent(id)).toEqual(['PATCH']);
		expect(renamed.json(NODE)[0].dailyEstimate).toMatchObject({ checksPerDay: 48, pagesPerCheck: 2, creditsPerDay: 96 });
	});
});

describe('Monitor → Run Check Now under a budget', () => {
	async function seed() {
		const res = await fetch(`${api.url}/__fake/monitor`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ goal: 'Tell me when a price changes', baseline: true, targets: [{ type: 'scrape', urls: ['https://example.com/pricing', 'https://example.com/plans'] }] }),
		});
		return res.json();
	}
	const rl = (value) => ({ __rl: true, mode: 'id', value });

	test('a check that cannot fit by the service\'s monitor estimate (2 pages, judged: 4) is not started', async () => {
		const m = await seed();
		const result = await runBudget('monitor', { operation: 'runCheck', monitorId: rl(m.id), waitForCheck: true, maxWait: 30 }, { budget: 3 });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/^Credit budget reached: This monitor check \(up to 4 credits by the service's monitor estimate\) would cost at least 4 credits, and 3 of this execution's 3 are left/);
		expect(api.requests({ method: 'POST', path: `/v2/monitor/${m.id}/run` })).toHaveLength(0);
	});

	test('a check that fits runs; what it cost (actualCredits) is counted when it ends', async () => {
		const m = await seed();
		const result = await runBudget('monitor', { operation: 'runCheck', monitorId: rl(m.id), waitForCheck: true, maxWait: 30 }, { budget: 10 });
		expect(result.status).toBe('success');
		const [check] = result.json(NODE);
		expect(check.status).toBe('completed');
		expect(check.credits).toMatchObject({ used: check.actualCredits, budget: 10, left: 10 - check.actualCredits });
		expect(customData(result).webdata_credits).toBe(String(check.actualCredits));
	});
});

describe('with the settings users switch on', () => {
	test('Retry On Fail: a refused request is refused on every try and never sent', async () => {
		const result = await runBudget('search', { query: 'cats', maxResults: 30 }, { budget: 3, node: { retryOnFail: true, maxTries: 3, waitBetweenTries: 10 } });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(/^Credit budget reached/);
		expect(api.requests({ method: 'POST', path: '/v2/search' })).toHaveLength(0);
	});

	test('Retry On Fail after a spend: the retry counts what the first try spent (the sum is the execution\'s)', async () => {
		// The first try scrapes one URL (1 credit) and fails on the second item's refusal; each retry finds 1 credit spent.
		const urls = ['https://example.com/a', 'https://example.com/b'];
		const result = await runBudget('scrape', { url: '={{ $json.url }}', formats: ['markdown'], options: { concurrency: 1 } }, { budget: 1, items: urls.map((url) => ({ url })), node: { retryOnFail: true, maxTries: 2, waitBetweenTries: 10 } });
		expect(result.status).toBe('error');
		expect(api.requests({ method: 'POST', path: '/v2/scrape' })).toHaveLength(1);
		expect(customData(result).webdata_credits).toBe('1');
	});

	test('Always Output Data with Continue On Fail: a refusal is an error item, not an empty success', async () => {
		const result = await runBudget('search', { query: 'cats', maxResults: 30 }, { budget: 3, node: { onError: 'continueRegularOutput', alwaysOutputData: true } });
		expect(result.status).toBe('success');
		const out = result.json(NODE);
		expect(out).toHaveLength(1);
		expect(out[0].error).toMatch(/^Credit budget reached/);
	});
});
