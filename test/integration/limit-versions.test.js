// Limit of Search and Crawl per node version, as the service receives it (issue 22): version 3 has
// n8n's usual Limit (default 50, "Max number of results to return"); a saved version 1 or 2 node
// that kept the old default (n8n stores no default values) still asks for 5 results or 10 pages.
const { NodeHelpers } = require('n8n-workflow');
const { startFakeApi } = require('../fake-api/server');
const { runWorkflow } = require('../helpers/workflow-runner');
const { webDataWorkflow } = require('../helpers/workflows');
const { CANARY_KEY, record } = require('../helpers/canary');
const { WebData } = require('../../dist/nodes/WebData/WebData.node');

const webData = new WebData().description;

let api;
beforeAll(async () => {
	api = await startFakeApi({ apiKey: CANARY_KEY });
});
afterAll(async () => api.close());
beforeEach(() => api.reset());

async function run(parameters, typeVersion) {
	const result = await runWorkflow(webDataWorkflow(parameters, [{ json: {} }], { typeVersion }), {
		credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url } },
	});
	record(result.error);
	expect(result.status).toBe('success');
	return result;
}

const SEARCH = { resource: 'search', operation: 'search', query: 'open source vector database' };
const CRAWL_START = { resource: 'crawl', operation: 'start', url: 'https://example.com/docs' };

test.each([
	[1, 5],
	[2, 5],
	[3, 50],
])('Search, version %i, Limit left at its default: the service is asked for %i results', async (version, limit) => {
	await run(SEARCH, version);
	const [req] = api.requests({ method: 'POST', path: '/v2/search' });
	expect(req.body).toEqual({ query: SEARCH.query, limit });
});

test.each([
	[1, 10],
	[2, 10],
	[3, 50],
])('Crawl Start, version %i, Page Limit left at its default: the crawl may take %i pages', async (version, limit) => {
	await run(CRAWL_START, version);
	const [req] = api.requests({ method: 'POST', path: '/v2/crawl' });
	expect(req.body.limit).toBe(limit);
});

test('a limit set by hand is sent as set in every version (50 in version 1, 5 in version 3)', async () => {
	await run({ ...SEARCH, limit: 50 }, 1);
	await run({ ...SEARCH, limit: 5 }, 3);
	expect(api.requests({ method: 'POST', path: '/v2/search' }).map((r) => r.body.limit)).toEqual([50, 5]);
});

test('what n8n saves: version 3 leaves out 50 and keeps 5; version 1 leaves out 5 and keeps 50', () => {
	const save = (parameters, typeVersion) => {
		const node = { name: 'N', type: 'n8n-nodes-webdata.webData', typeVersion, parameters: {}, position: [0, 0] };
		return NodeHelpers.getNodeParameters(webData.properties, parameters, false, false, node, webData);
	};
	expect(save({ ...SEARCH, limit: 50 }, 3).limit).toBeUndefined();
	expect(save({ ...SEARCH, limit: 5 }, 3).limit).toBe(5);
	expect(save({ ...SEARCH, limit: 5 }, 1).limit).toBeUndefined();
	expect(save({ ...SEARCH, limit: 50 }, 1).limit).toBe(50);
});

test('version 3\'s Limit fields are the ones n8n\'s lint rules read: default 50, "Max number of results to return", with a cost hint', () => {
	const limits = webData.properties.filter((p) => p.name === 'limit' && p.displayOptions?.show?.['@version']?.[0]?._cnd?.gte === 3);
	const byResource = Object.fromEntries(limits.filter((p) => !p.displayOptions.show['@tool']?.[0]).map((p) => [`${p.displayOptions.show.resource[0]}.${p.displayOptions.show.operation.join('|')}`, p]));
	expect(Object.keys(byResource).sort()).toEqual(['crawl.runAndWait', 'crawl.start', 'search.search'].sort());
	for (const p of Object.values(byResource)) {
		expect(p.type).toBe('number');
		expect(p.default).toBe(50);
		expect(p.description).toBe('Max number of results to return');
		expect(p.hint).toMatch(/credits/);
	}
});
