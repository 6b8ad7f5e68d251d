'use strict';
/**
 * Issue 44.2: browser sessions inside the credit budget, in n8n's engine against the strict fake API.
 * A session holds what its Time to Live may cost (2 credits a browser minute) until it is stopped; a
 * TTL that does not fit is lowered to what is left and the item says so; stopping settles what the
 * service billed; running code in a browser this execution does not hold counts its minutes and is
 * refused once the budget is spent. Build first.
 */
const { useFakeApi } = require('../helpers/resource-suite');
const { runWorkflow } = require('../helpers/workflow-runner');
const { CANARY_KEY, record } = require('../helpers/canary');

jest.setTimeout(30000);

const api = useFakeApi({ timeScale: 10 });
const withBudget = (creditBudget) => ({ webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url, webhookSecret: '', creditBudget } });
const cred = { webDataApi: { id: 'c1', name: 'Web Data account' } };
const wd = (name, parameters, x, extra = {}) => ({ id: name, name, type: 'n8n-nodes-webdata.webData', typeVersion: 1, position: [x, 0], parameters, credentials: cred, ...extra });

function chain(nodes) {
	const all = [{ id: 'n0', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} }, ...nodes];
	const connections = {};
	for (let k = 0; k + 1 < all.length; k++) connections[all[k].name] = { main: [[{ node: all[k + 1].name, type: 'main', index: 0 }]] };
	return { nodes: all, connections, settings: { executionOrder: 'v1' } };
}

async function run(wf, budget) {
	const result = await runWorkflow(wf, { credentials: withBudget(budget) });
	record(result.error);
	return result;
}

test('a session holds its TTL\'s cost: a TTL of 3600 s under a budget of 50 is lowered to 1500 s; a scrape beside it is refused; after Stop it fits', async () => {
	const result = await run(
		chain([
			wd('Open browser', { resource: 'interact', operation: 'start', options: { ttl: 3600 } }, 200),
			wd('Scrape while open', { resource: 'scrape', url: 'https://example.com', formats: ['markdown'] }, 400, { onError: 'continueRegularOutput' }),
			wd('Close browser', { resource: 'interact', operation: 'stop', target: 'session', sessionId: { __rl: true, mode: 'id', value: "={{ $('Open browser').item.json.id }}" } }, 600),
			wd('Scrape after', { resource: 'scrape', url: 'https://example.com', formats: ['markdown'] }, 800),
		]),
		50,
	);
	expect(result.status).toBe('success');
	const [start] = api.requests({ method: 'POST', path: '/v2/interact' });
	expect(start.body).toEqual({ ttl: 1500 });
	const [opened] = result.items('Open browser');
	expect(opened.json.credits).toMatchObject({ ttlLowered: { from: 3600, to: 1500 } });
	const [refused] = result.items('Scrape while open');
	expect(refused.json.error).toMatch(/^Credit budget reached: This scrape would cost at least 1 credit, and 0 of this execution's 50 are left/);
	const [closed] = result.items('Close browser');
	expect(closed.json).toMatchObject({ stopped: true, creditsBilled: expect.any(Number) });
	const billed = closed.json.creditsBilled;
	const [after] = result.items('Scrape after');
	expect(after.json.credits).toMatchObject({ budget: 50, left: 50 - billed - 1 });
	expect(api.requests({ method: 'POST', path: '/v2/scrape' })).toHaveLength(1);
});

test('a session whose first minute does not fit is refused before it is opened', async () => {
	const result = await run(chain([wd('Open browser', { resource: 'interact', operation: 'start' }, 200)]), 1);
	expect(result.status).toBe('error');
	expect(result.error.message).toMatch(/^Credit budget reached: A browser session of up to 300 s \(Time to Live; 2 credits a minute\) would cost at least 10 credits, and 1 of this execution's 1 are left/);
	expect(api.log).toEqual([]);
});

test('code in a browser this execution does not hold counts its minutes, and is refused once the budget is spent', async () => {
	const opened = await fetch(`${api.url}/v2/interact`, { method: 'POST', headers: { Authorization: `Bearer ${CANARY_KEY}`, 'Content-Type': 'application/json' }, body: '{}' }).then((r) => r.json());
	const execute = (name, x) => wd(name, { resource: 'interact', operation: 'execute', target: 'session', sessionId: { __rl: true, mode: 'id', value: opened.id }, code: 'console.log(1)', language: 'node' }, x, { onError: 'continueRegularOutput' });
	const result = await run(chain([execute('Run once', 200), execute('Run again', 400), execute('Run a third time', 600)]), 5);
	expect(result.status).toBe('success');
	expect(result.items('Run once')[0].json.credits).toMatchObject({ used: 2, left: 3 });
	expect(result.items('Run again')[0].json.credits).toMatchObject({ used: 2, left: 1 });
	expect(result.items('Run a third time')[0].json.error).toMatch(/^Credit budget reached: Running this in the browser \(up to 30 s, by the browser minute\) would cost at least 2 credits, and 1 of this execution's 5 are left/);
	expect(api.requests({ method: 'POST', path: '/execute' })).toHaveLength(2);
});
