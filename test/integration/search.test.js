// Search → Search against the strict fake: the body it receives (scrapeOptions nested), one item per result.
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

const search = (extra = {}) => ({ resource: 'search', operation: 'search', query: 'open source vector database', ...extra });

async function run(parameters, items = [{ json: {} }], node = {}) {
	const result = await runWorkflow(webDataWorkflow(parameters, items, node), {
		credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url } },
	});
	record(result.error);
	if (result.status === 'success') record(result.items(WEB_DATA));
	return result;
}

const searchRequests = () => api.requests({ method: 'POST', path: '/v2/search' });

describe('the request as the service receives it', () => {
	test('defaults: {query, limit: 5} only', async () => {
		const result = await run(search());
		expect(result.status).toBe('success');
		const [req] = searchRequests();
		expect(req.body).toEqual({ query: 'open source vector database', limit: 5 });
		expect(req.status).toBe(200);
		expect(result.json(WEB_DATA)).toHaveLength(5);
	});

	test('sources, categories and the options go where the API expects them', async () => {
		const result = await run(
			search({
				maxResults: 2,
				sources: ['web', 'news', 'images'],
				categories: ['github', 'pdf'],
				options: {
					tbs: 'cdr:1, cd_min:1/1/2026,cd_max:3/31/2026',
					location: 'Berlin,Germany',
					country: 'de',
					timeout: 20000,
					includeDomains: 'Example.com, example.org',
					ignoreInvalidURLs: true,
					safe: true,
				},
			}),
		);
		expect(result.status).toBe('success');
		const [req] = searchRequests();
		expect(req.status).toBe(200);
		expect(req.body).toEqual({
			query: 'open source vector database',
			limit: 2,
			sources: [{ type: 'web' }, { type: 'news' }, { type: 'images' }],
			categories: [{ type: 'github' }, { type: 'pdf' }],
			tbs: 'cdr:1,cd_min:1/1/2026,cd_max:3/31/2026',
			location: 'Berlin,Germany',
			country: 'DE',
			timeout: 20000,
			includeDomains: ['example.com', 'example.org'],
			ignoreInvalidURLs: true,
			safe: true,
		});
		const items = result.json(WEB_DATA);
		expect(items.map((i) => i.source)).toEqual(['web', 'web', 'news', 'news', 'images', 'images']);
		expect(items[0]).toMatchObject({ source: 'web', position: 1, category: 'github' });
		expect(items[2]).toMatchObject({ source: 'news', date: expect.any(String), snippet: expect.any(String) });
		expect(items[4]).toMatchObject({ source: 'images', imageUrl: expect.stringMatching(/^https:/) });
	});

	test('time range preset goes as tbs', async () => {
		await run(search({ options: { timeRange: 'qdr:d' } }));
		expect(searchRequests()[0].body.tbs).toBe('qdr:d');
	});

	test('Scrape Results: the shared scrape options are NESTED under scrapeOptions, and each result carries its page', async () => {
		const result = await run(
			search({
				maxResults: 3,
				scrapeResults: true,
				formats: ['markdown', 'json', 'summary'],
				jsonPrompt: 'the product name',
				scrapeOptions: { onlyMainContent: false, timeout: 15000, locationCountry: 'FR', proxy: 'basic' },
			}),
		);
		expect(result.status).toBe('success');
		const [req] = searchRequests();
		expect(req.status).toBe(200);
		expect(req.body).toEqual({
			query: 'open source vector database',
			limit: 3,
			scrapeOptions: {
				formats: ['markdown', { type: 'json', prompt: 'the product name' }, 'summary'],
				onlyMainContent: false,
				timeout: 15000,
				location: { country: 'FR' },
				proxy: 'basic',
			},
		});
		const items = result.json(WEB_DATA);
		expect(items).toHaveLength(3);
		expect(items[0]).toMatchObject({ source: 'web', url: expect.any(String), markdown: expect.stringContaining('# '), json: expect.any(Object), summary: expect.any(String) });
		expect(items[0].metadata.sourceURL).toBe(items[0].url);
	});

	test('with Scrape Results off, filled-in scrape fields are NOT sent', async () => {
		await run(search({ scrapeResults: false, formats: ['html'], scrapeOptions: { timeout: 15000 } }));
		expect(searchRequests()[0].body.scrapeOptions).toBeUndefined();
	});

	test('the strict fake rejects scrape options at the top level of a search (proves the nesting matters)', async () => {
		const res = await fetch(`${api.url}/v2/search`, {
			method: 'POST',
			headers: { authorization: `Bearer ${CANARY_KEY}`, 'content-type': 'application/json' },
			body: JSON.stringify({ query: 'x', formats: ['markdown'] }),
		});
		expect(res.status).toBe(400);
		expect((await res.json()).details[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['formats'] });
	});

	test('each input item runs its own search; items are paired', async () => {
		const result = await run(search({ query: '={{ $json.q }}', maxResults: 1 }), [{ json: { q: 'alpha' } }, { json: { q: 'beta' } }]);
		expect(searchRequests().map((r) => r.body.query)).toEqual(['alpha', 'beta']);
		const items = result.items(WEB_DATA);
		expect(items.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(items[1].json.title).toMatch(/^beta/);
	});

	test('no results: no items', async () => {
		const result = await run(search({ query: 'fake-empty' }));
		expect(result.status).toBe('success');
		expect(result.json(WEB_DATA)).toHaveLength(0);
	});
});

describe('compact output (for AI agents)', () => {
	test('title, url, description and source only', async () => {
		const result = await run(search({ output: 'compact', maxResults: 2, sources: ['web', 'news'] }));
		const items = result.json(WEB_DATA);
		expect(Object.keys(items[0]).sort()).toEqual(['description', 'source', 'title', 'url']);
		expect(items[2]).toMatchObject({ source: 'news', description: expect.stringMatching(/^News 1/), date: expect.any(String) });
	});

	test('with scraped results: plus the Markdown, never the metadata', async () => {
		const result = await run(search({ output: 'compact', maxResults: 1, scrapeResults: true, formats: ['markdown', 'html'] }));
		const [item] = result.json(WEB_DATA);
		expect(Object.keys(item).sort()).toEqual(['description', 'markdown', 'source', 'title', 'url']);
	});
});

describe('checked before sending: an error naming the field, and zero requests', () => {
	test.each([
		['an empty query', search({ query: '={{ "" }}' }), /Query "" is not valid/],
		['a query over 500 characters', search({ query: 'x'.repeat(501) }), /Query .* at most 500 characters \(it has 501\)/],
		['limit 0', search({ maxResults: 0 }), /Limit 0 is not valid/],
		['limit 101', search({ maxResults: 101 }), /Limit 101 is not valid/],
		['no source', search({ sources: [] }), /Sources \[\] is not valid: choose at least one source/],
		['a bad tbs', search({ options: { tbs: 'last week' } }), /Options → Custom Time Filter "last week" is not valid/],
		['a bad country', search({ options: { country: 'Germany' } }), /Country "Germany" is not valid/],
		['a timeout of 999', search({ options: { timeout: 999 } }), /Timeout \(Milliseconds\) 999 is not valid/],
		['a URL as a domain', search({ options: { includeDomains: 'https://example.com/x' } }), /Include Domains "https:\/\/example.com\/x" is not valid: host names only/],
		['include and exclude together', search({ options: { includeDomains: 'a.com', excludeDomains: 'b.com' } }), /use either Include Domains or Exclude Domains/],
		['scrape options checked too', search({ scrapeResults: true, scrapeOptions: { timeout: 500000 } }), /Scrape Options → Timeout \(Milliseconds\) 500000 is not valid/],
		['json without prompt when scraping', search({ scrapeResults: true, formats: ['json'] }), /JSON Prompt "" is not valid/],
		// issue 14: rules of the server's search schema (fields/serverRules.ts)
		['change tracking on scraped results', search({ scrapeResults: true, formats: ['markdown', 'changeTracking'] }), /Formats "changeTracking" is not valid: scraped search results can only have .*remove Change Tracking/],
		['wait over half the timeout when scraping', search({ scrapeResults: true, scrapeOptions: { timeout: 10000, waitFor: 6000 } }), /Wait For \(Milliseconds\) 6000 is not valid: at most half of the timeout/],
		['a country code that does not exist', search({ options: { country: 'XX' } }), /Country "XX" is not valid: a two-letter ISO 3166-1/],
		['a one-letter top-level domain', search({ options: { excludeDomains: 'example.c' } }), /Exclude Domains "example.c" is not valid: host names only/],
		['a host name without a dot (issue 37)', search({ options: { includeDomains: 'intranet' } }), /^Options → Include Domains "intranet" is not valid: host names only/],
	])('%s', async (_name, parameters, pattern) => {
		const result = await run(parameters);
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(pattern);
		expect(api.log).toHaveLength(0);
	});
});

describe('errors', () => {
	test('a 503 is retried with backoff; then the results arrive', async () => {
		api.fault({ method: 'POST', path: '/v2/search', statuses: [503] });
		const result = await run(search({ maxResults: 1 }));
		expect(result.status).toBe('success');
		expect(searchRequests().map((r) => r.status)).toEqual([503, 200]);
	}, 20000);

	test('Continue On Fail: a 402 becomes an error item paired with its input', async () => {
		api.setTeam({ remainingCredits: 0 });
		const result = await run(search(), [{ json: {} }], { onError: 'continueRegularOutput' });
		const [item] = result.items(WEB_DATA);
		expect(item.json).toMatchObject({ httpStatus: 402, retryable: false });
		expect(item.pairedItem).toEqual({ item: 0 });
	});
});
