// Map → Map URL against the strict fake: the body it receives, one item per link or one with all.
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

const map = (extra = {}) => ({ resource: 'map', operation: 'mapUrl', url: 'https://example.com', ...extra });

async function run(parameters, items = [{ json: {} }], node = {}) {
	const result = await runWorkflow(webDataWorkflow(parameters, items, node), {
		credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url } },
	});
	record(result.error);
	if (result.status === 'success') record(result.items(WEB_DATA));
	return result;
}

const mapRequests = () => api.requests({ method: 'POST', path: '/v2/map' });

test('defaults: {url} only; one item per link with url, title and description', async () => {
	const result = await run(map());
	expect(result.status).toBe('success');
	const [req] = mapRequests();
	expect(req.body).toEqual({ url: 'https://example.com' });
	expect(req.headers.authorization).toBe(`Bearer ${CANARY_KEY}`);
	const items = result.items(WEB_DATA);
	expect(items.length).toBeGreaterThan(5);
	expect(items[0].json).toEqual({ url: 'https://example.com/', title: 'example.com', description: expect.any(String) });
	expect(items.every((i) => i.pairedItem.item === 0)).toBe(true);
});

test('every option goes where the API expects it; location is an object', async () => {
	const result = await run(
		map({
			options: {
				search: 'blog',
				sitemap: 'only',
				includeSubdomains: false,
				ignoreQueryParameters: false,
				ignoreCache: true,
				limit: 3,
				timeout: 20000,
				locationCountry: 'jp',
			},
		}),
	);
	expect(result.status).toBe('success');
	const [req] = mapRequests();
	expect(req.status).toBe(200);
	expect(req.body).toEqual({
		url: 'https://example.com',
		search: 'blog',
		sitemap: 'only',
		includeSubdomains: false,
		ignoreQueryParameters: false,
		ignoreCache: true,
		limit: 3,
		timeout: 20000,
		location: { country: 'JP' },
	});
	const items = result.json(WEB_DATA);
	expect(items).toHaveLength(3);
	expect(items[0].url).toContain('blog');
});

test('one item with all links', async () => {
	const result = await run(map({ output: 'single', options: { limit: 4 } }));
	const items = result.json(WEB_DATA);
	expect(items).toHaveLength(1);
	expect(items[0]).toMatchObject({ url: 'https://example.com', count: 4 });
	expect(items[0].links).toHaveLength(4);
	expect(items[0].links[0]).toHaveProperty('url');
});

test('the strict fake rejects a location that is not an object, and a country at the top level', async () => {
	const post = (body) =>
		fetch(`${api.url}/v2/map`, {
			method: 'POST',
			headers: { authorization: `Bearer ${CANARY_KEY}`, 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
	const asString = await post({ url: 'https://example.com', location: 'JP' });
	expect(asString.status).toBe(400);
	expect((await asString.json()).details[0]).toMatchObject({ code: 'invalid_type', path: ['location'] });
	const topLevel = await post({ url: 'https://example.com', country: 'JP' });
	expect(topLevel.status).toBe(400);
	expect((await topLevel.json()).details[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['country'] });
});

describe('checked before sending: an error naming the field, and zero requests', () => {
	test.each([
		['a URL without scheme', map({ url: 'example.com' }), /URL "example.com" is not valid: it must be an absolute http or https URL/],
		['a mailto URL', map({ url: 'mailto:a@b.c' }), /URL "mailto:a@b.c" is not valid/],
		['limit 0', map({ options: { limit: 0 } }), /Limit 0 is not valid/],
		['limit over 100000', map({ options: { limit: 100001 } }), /Limit 100001 is not valid/],
		['a bad sitemap mode', map({ options: { sitemap: 'never' } }), /Sitemap "never" is not valid/],
		['a bad country', map({ options: { locationCountry: 'Japan' } }), /Location Country "Japan" is not valid/],
		['a country code that does not exist (issue 14)', map({ options: { locationCountry: 'xx' } }), /Location Country "xx" is not valid: a two-letter ISO 3166-1/],
	])('%s', async (_name, parameters, pattern) => {
		const result = await run(parameters);
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(pattern);
		expect(api.log).toHaveLength(0);
	});
});

test('a fault answered 429 with Retry-After is waited for, then the links arrive', async () => {
	api.fault({ method: 'POST', path: '/v2/map', statuses: [429], retryAfter: '1' });
	const result = await run(map({ options: { limit: 2 } }));
	expect(result.status).toBe('success');
	expect(mapRequests().map((r) => r.status)).toEqual([429, 200]);
	expect(result.json(WEB_DATA)).toHaveLength(2);
}, 20000);
