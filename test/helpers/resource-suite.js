'use strict';
/**
 * The setup the integration tests of one Web Data resource share (crawl, batch scrape, extract):
 * the strict fake API for the file, and a workflow Manual Trigger → Items → Web Data that runs in
 * n8n's engine with the file's credentials.
 */
const { runWorkflow } = require('./workflow-runner');
const { startFakeApi } = require('../fake-api/server');
const { CANARY_KEY, record } = require('./canary');

const NODE = 'Web Data';

/**
 * The strict fake API for a test file (`options` as startFakeApi takes them, the canary key added):
 * started before the file's tests, reset before each, closed after. Returns a stand-in that
 * forwards to it once started.
 */
function useFakeApi(options = {}) {
	let api;
	beforeAll(async () => {
		api = await startFakeApi({ apiKey: CANARY_KEY, ...options });
	});
	afterAll(async () => {
		await api.close();
	});
	beforeEach(() => {
		api.reset();
	});
	return new Proxy({}, { get: (_target, key) => api[key] });
}

/**
 * `workflow(parameters, {items, node})`: Manual Trigger → Items (`items`, each a JSON object) → Web
 * Data (`resource` + `parameters`, `node` merged into the node); `run(parameters, options)` runs it
 * against `api` and records its error and output for the canary check.
 */
function resourceRunner(resource, api) {
	const credentials = () => ({ webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url, webhookSecret: '' } });

	function workflow(parameters, { items = [{}], node = {} } = {}) {
		return {
			nodes: [
				{ id: 'n1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				{ id: 'n2', name: 'Items', type: 'test.items', typeVersion: 1, position: [200, 0], parameters: { items: JSON.stringify(items.map((json) => ({ json }))) } },
				{
					id: 'n3',
					name: NODE,
					type: 'n8n-nodes-webdata.webData',
					typeVersion: 1,
					position: [400, 0],
					parameters: { resource, ...parameters },
					credentials: { webDataApi: { id: 'c1', name: 'Web Data account' } },
					...node,
				},
			],
			connections: { Start: { main: [[{ node: 'Items', type: 'main', index: 0 }]] }, Items: { main: [[{ node: NODE, type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		};
	}

	async function run(parameters, options) {
		const result = await runWorkflow(workflow(parameters, options), { credentials: credentials() });
		record(result.error);
		if (result.runData[NODE]) record(result.items(NODE));
		return result;
	}

	return { credentials, workflow, run };
}

/**
 * The status reads of a Run and Wait that polled (issue 18.4): every GET is a poll (`limit=1`, from the
 * start, at most one document) or a page read (`limit=100`), at least two polls, and one poll saw a
 * finished document. Returns both lists for the caller's own checks.
 */
function pollsAndPageReads(gets) {
	const polls = gets.filter((r) => r.query.limit === '1');
	const reads = gets.filter((r) => r.query.limit === '100');
	expect(polls.length + reads.length).toBe(gets.length);
	expect(polls.length).toBeGreaterThanOrEqual(2);
	expect(polls.every((r) => r.query.skip === undefined && r.documents <= 1)).toBe(true);
	expect(polls.some((r) => r.documents === 1)).toBe(true);
	return { polls, reads };
}

module.exports = { pollsAndPageReads, NODE, useFakeApi, resourceRunner };
