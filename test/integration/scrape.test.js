// Scrape → Scrape URL against the strict fake: what the service receives, what the items hold.
const { startFakeApi } = require('../fake-api/server');
const { SCREENSHOT_PNG } = require('../fake-api/scrapeOptions');
const { runWorkflow, readBinary } = require('../helpers/workflow-runner');
const { webDataWorkflow, WEB_DATA } = require('../helpers/workflows');
const { CANARY_KEY, record } = require('../helpers/canary');

let api;
beforeAll(async () => {
	api = await startFakeApi({ apiKey: CANARY_KEY });
});
afterAll(async () => api.close());
beforeEach(() => api.reset());

const scrape = (extra = {}) => ({ resource: 'scrape', operation: 'scrapeUrl', url: '={{ $json.url }}', ...extra });
const urls = (...list) => list.map((url) => ({ json: { url } }));

async function run(parameters, items = urls('https://example.com/pricing'), node = {}) {
	const result = await runWorkflow(webDataWorkflow(parameters, items, node), {
		credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url } },
	});
	record(result.error);
	if (result.status === 'success') record(result.items(WEB_DATA));
	return result;
}

const scrapeRequests = () => api.requests({ method: 'POST', path: '/v2/scrape' });

describe('the request as the service receives it', () => {
	test('defaults: {url, formats: ["markdown"]} and nothing else, with the bearer key', async () => {
		const result = await run(scrape());
		expect(result.status).toBe('success');
		const [req] = scrapeRequests();
		expect(req.headers.authorization).toBe(`Bearer ${CANARY_KEY}`);
		expect(req.body).toEqual({ url: 'https://example.com/pricing', formats: ['markdown'] });
		expect(req.status).toBe(200);
	});

	test('scrape options sit at the top level of the body; location, json, changeTracking and screenshot are objects where the API expects them', async () => {
		const schema = { type: 'object', properties: { plan: { type: 'string' }, price: { type: 'number' } } };
		const result = await run(
			scrape({
				formats: ['markdown', 'summary', 'html', 'rawHtml', 'links', 'images', 'screenshot', 'json', 'changeTracking'],
				jsonPrompt: 'Extract the plans',
				jsonSchema: JSON.stringify(schema),
				screenshotFullPage: true,
				screenshotQuality: 80,
				changeTrackingModes: ['git-diff', 'json'],
				changeTrackingPrompt: 'Track the prices',
				changeTrackingSchema: '{"type":"object","properties":{"price":{"type":"number"}}}',
				changeTrackingTag: 'daily',
				scrapeOptions: {
					onlyMainContent: false,
					includeTags: 'main, article',
					excludeTags: '#ads',
					waitFor: 1000,
					timeout: 30000,
					mobile: true,
					proxy: 'enhanced',
					locationCountry: 'de',
					locationLanguages: 'de-DE, en',
					maxAge: 0,
					blockAds: false,
					removeBase64Images: false,
					storeInCache: false,
					skipTlsVerification: false,
					pdfMode: 'ocr',
					pdfMaxPages: 5,
					actions: '[{"type":"click","selector":"#more"},{"type":"wait","milliseconds":500},{"type":"scrape"}]',
					headers: { header: [{ name: 'Cookie', value: 'a=1' }] },
				},
				options: { zeroDataRetention: true },
			}),
		);
		expect(result.status).toBe('success');
		const [req] = scrapeRequests();
		expect(req.status).toBe(200);
		expect(req.body).toEqual({
			url: 'https://example.com/pricing',
			formats: [
				'markdown',
				'summary',
				'html',
				'rawHtml',
				'links',
				'images',
				{ type: 'screenshot', fullPage: true, quality: 80 },
				{ type: 'json', prompt: 'Extract the plans', schema },
				{ type: 'changeTracking', modes: ['git-diff', 'json'], prompt: 'Track the prices', schema: { type: 'object', properties: { price: { type: 'number' } } }, tag: 'daily' },
			],
			onlyMainContent: false,
			mobile: true,
			blockAds: false,
			removeBase64Images: false,
			skipTlsVerification: false,
			storeInCache: false,
			includeTags: ['main', 'article'],
			excludeTags: ['#ads'],
			timeout: 30000,
			waitFor: 1000,
			maxAge: 0,
			proxy: 'enhanced',
			location: { country: 'DE', languages: ['de-DE', 'en'] },
			parsers: [{ type: 'pdf', mode: 'ocr', maxPages: 5 }],
			actions: [{ type: 'click', selector: '#more' }, { type: 'wait', milliseconds: 500 }, { type: 'scrape' }],
			headers: { Cookie: 'a=1' },
			zeroDataRetention: true,
		});
		const [item] = result.json(WEB_DATA);
		expect(item.json).toEqual({ plan: 'plan from https://example.com/pricing', price: 1 });
		expect(item.changeTracking).toMatchObject({ changeStatus: 'new' });
		expect(item.links.length).toBeGreaterThan(0);
		expect(typeof item.summary).toBe('string');
	});

	test('the strict fake rejects scrape options nested under "scrapeOptions" (proves the top-level placement matters)', async () => {
		const res = await fetch(`${api.url}/v2/scrape`, {
			method: 'POST',
			headers: { authorization: `Bearer ${CANARY_KEY}`, 'content-type': 'application/json' },
			body: JSON.stringify({ url: 'https://example.com', scrapeOptions: { formats: ['markdown'] } }),
		});
		expect(res.status).toBe(400);
		expect((await res.json()).error).toMatch(/Unrecognized key/);
	});

	test('one request and one item per input URL, in order, each paired with its input', async () => {
		const list = ['https://a.example/1', 'https://b.example/2', 'https://c.example/3', 'https://d.example/4'];
		const result = await run(scrape({ options: { concurrency: 2 } }), urls(...list));
		expect(result.status).toBe('success');
		expect(scrapeRequests().map((r) => r.body.url).sort()).toEqual(list);
		const items = result.items(WEB_DATA);
		expect(items.map((i) => i.json.url)).toEqual(list);
		expect(items.map((i) => i.pairedItem)).toEqual(list.map((_, n) => ({ item: n })));
		expect(items[2].json.markdown).toContain('https://c.example/3');
		expect(items[2].json.metadata).toMatchObject({ sourceURL: 'https://c.example/3', statusCode: 200 });
	});

	test('a PDF URL: metadata says application/pdf and its page count', async () => {
		const result = await run(scrape({ scrapeOptions: { pdfMaxPages: 2 } }), urls('https://example.com/files/report.pdf'));
		const [item] = result.json(WEB_DATA);
		expect(item.metadata).toMatchObject({ contentType: 'application/pdf', numPages: 2, totalPages: 3 });
		expect(scrapeRequests()[0].body.parsers).toEqual([{ type: 'pdf', maxPages: 2 }]);
	});

	test('a page that answers 404 is an item with its status and error, not a node failure', async () => {
		const result = await run(scrape({ output: 'compact' }), urls('https://example.com/fake-404'));
		expect(result.status).toBe('success');
		expect(result.json(WEB_DATA)[0]).toMatchObject({ url: 'https://example.com/fake-404', statusCode: 404, error: 'Not Found' });
	});
});

describe('output', () => {
	test('compact: url, title and markdown only (what an AI agent needs)', async () => {
		const result = await run(scrape({ output: 'compact', formats: ['markdown', 'html', 'links'] }));
		const [item] = result.json(WEB_DATA);
		expect(Object.keys(item).sort()).toEqual(['markdown', 'title', 'url']);
		expect(item.url).toBe('https://example.com/pricing');
		expect(item.markdown).toMatch(/^# /);
	});

	test('compact with summary only gives the summary', async () => {
		const result = await run(scrape({ output: 'compact', formats: ['summary'] }));
		const [item] = result.json(WEB_DATA);
		expect(Object.keys(item).sort()).toEqual(['summary', 'title', 'url']);
	});

	test('the screenshot is downloaded into a binary field without the API key', async () => {
		const result = await run(scrape({ formats: ['markdown', 'screenshot'], options: { downloadScreenshot: true, screenshotBinaryProperty: 'shot' } }));
		expect(result.status).toBe('success');
		const [item] = result.items(WEB_DATA);
		expect(item.json.screenshot).toMatch(/\/fake-screenshots\/.+\.png$/);
		expect(item.binary.shot).toMatchObject({ mimeType: 'image/png', fileExtension: 'png', fileName: 'example.com-pricing.png' });
		expect(Buffer.compare(await readBinary(item.binary.shot), SCREENSHOT_PNG)).toBe(0);
		const [download] = api.requests({ method: 'GET', path: '/fake-screenshots/' });
		expect(download.headers.authorization).toBeUndefined();
		expect(JSON.stringify(download.headers)).not.toContain(CANARY_KEY);
	});

	// Issue 15.6: a paid scrape was thrown away when its screenshot could not be downloaded.
	describe('a screenshot that cannot be downloaded', () => {
		/** A loopback port that nothing listens on: connections to it are refused. */
		async function closedPort() {
			const server = require('net').createServer();
			await new Promise((r) => server.listen(0, '127.0.0.1', r));
			const { port } = server.address();
			await new Promise((r) => server.close(r));
			return port;
		}
		const withShot = (options = {}) => scrape({ formats: ['markdown', 'screenshot'], options: { downloadScreenshot: true, ...options } });

		test('storage refuses the connection: the page comes out, screenshotError says what, where and what to do', async () => {
			const port = await closedPort();
			const result = await run(withShot(), urls(`https://example.com/fake-screenshot-port-${port}`));
			expect(result.status).toBe('success');
			const [item] = result.items(WEB_DATA);
			expect(item.json.markdown).toMatch(/^# /);
			expect(item.binary).toBeUndefined();
			expect(item.json.screenshotError).toEqual({
				message: 'the storage could not be reached (the connection was refused)',
				code: 'ECONNREFUSED',
				host: `127.0.0.1:${port}`,
				hint: expect.stringMatching(/expire 24 hours after the scrape: scrape the page again/),
			});
			expect(scrapeRequests()).toHaveLength(1);
		});

		test.each([404, 403])('the link answers %i: the page comes out with the HTTP status in screenshotError', async (status) => {
			api.fault({ method: 'GET', path: '/fake-screenshots/', status });
			const result = await run(withShot());
			expect(result.status).toBe('success');
			const [item] = result.items(WEB_DATA);
			expect(item.json.metadata.title).toBeTruthy();
			expect(item.json.markdown).toMatch(/^# /);
			expect(item.binary).toBeUndefined();
			expect(item.json.screenshotError).toMatchObject({
				message: `the storage answered HTTP ${status} (the link has expired or is not valid)`,
				httpStatus: status,
				host: new URL(api.url).host,
			});
			expect(api.requests({ method: 'GET', path: '/fake-screenshots/' })).toHaveLength(1);
		});

		test('"Fail the Item": an error that names the screenshot download and its host', async () => {
			const port = await closedPort();
			const result = await run(withShot({ onScreenshotFailure: 'fail' }), urls(`https://example.com/fake-screenshot-port-${port}`));
			expect(result.status).toBe('error');
			expect(result.error.message).toBe(`The screenshot download from 127.0.0.1:${port} failed: the storage could not be reached (the connection was refused)`);
			expect(result.error.description).toMatch(/The page was scraped \(and charged\); only its screenshot file could not be downloaded\. Screenshot links expire 24 hours/);
		});

		test('"Fail the Item" under Continue On Fail: the error item still carries the page', async () => {
			api.fault({ method: 'GET', path: '/fake-screenshots/', status: 404 });
			const result = await run(withShot({ onScreenshotFailure: 'fail' }), undefined, { onError: 'continueRegularOutput' });
			expect(result.status).toBe('success');
			const [item] = result.items(WEB_DATA);
			expect(item.json.error).toMatch(/^The screenshot download from .+ failed: the storage answered HTTP 404/);
			expect(item.json.markdown).toMatch(/^# /);
			expect(item.json.url).toBe('https://example.com/pricing');
			expect(item.json.screenshotError).toMatchObject({ httpStatus: 404 });
			expect(item.pairedItem).toEqual({ item: 0 });
		});

		test('a bad On Screenshot Download Failure value is refused before sending', async () => {
			const result = await run(withShot({ onScreenshotFailure: 'ignore' }));
			expect(result.status).toBe('error');
			expect(result.error.message).toMatch(/On Screenshot Download Failure/);
			expect(api.log).toHaveLength(0);
		});
	});

	test('without Download Screenshot the link stays a link and no download happens', async () => {
		const result = await run(scrape({ formats: ['screenshot'] }));
		expect(result.items(WEB_DATA)[0].binary).toBeUndefined();
		expect(api.requests('/fake-screenshots/')).toHaveLength(0);
		expect(scrapeRequests()[0].body.formats).toEqual(['screenshot']);
	});
});

describe('checked before sending: an error naming the field, and zero requests', () => {
	test.each([
		['a relative URL', scrape({ url: '/pricing' }), /URL "\/pricing" is not valid: it must be an absolute http or https URL/],
		['an ftp URL', scrape({ url: 'ftp://example.com/file' }), /URL "ftp:\/\/example.com\/file" is not valid/],
		['an empty URL from an expression', scrape({ url: '={{ "" }}' }), /URL "" is not valid/],
		['no format', scrape({ formats: [] }), /Formats \[\] is not valid: choose at least one format/],
		['JSON without prompt or schema', scrape({ formats: ['json'] }), /JSON Prompt "" is not valid: the JSON format needs a prompt, a schema, or both/],
		['a JSON Schema that is a list', scrape({ formats: ['json'], jsonSchema: '[1]' }), /JSON Schema "\[1\]" is not valid/],
		['a JSON Schema that is not JSON', scrape({ formats: ['json'], jsonSchema: '{type:' }), /JSON Schema "\{type:" is not valid: it is not valid JSON/],
		['change tracking without markdown', scrape({ formats: ['changeTracking'] }), /Formats .* Change Tracking compares Markdown/],
		['a timeout over 300000', scrape({ scrapeOptions: { timeout: 400000 } }), /Scrape Options → Timeout \(Milliseconds\) 400000 is not valid/],
		['a timeout under 1000', scrape({ scrapeOptions: { timeout: 10 } }), /Scrape Options → Timeout \(Milliseconds\) 10 is not valid/],
		// issue 14: rules of the server's request schemas (fields/serverRules.ts)
		['wait longer than half the timeout', scrape({ scrapeOptions: { timeout: 5000, waitFor: 2501 } }), /Wait For \(Milliseconds\) 2501 is not valid: at most half of the timeout \(5000 ms → 2500 ms\)/],
		['wait over 60000 ms', scrape({ scrapeOptions: { timeout: 300000, waitFor: 60001 } }), /Wait For \(Milliseconds\) 60001 is not valid: at most 60000 ms/],
		['wait actions over 60 s together', scrape({ scrapeOptions: { actions: '[{"type":"wait","milliseconds":40000},{"type":"wait","milliseconds":20001}]' } }), /Browser Actions "2 actions" is not valid: the wait actions add up to 60001 ms/],
		// types.ts @ 61e38dc8 (2025-08 self-hosted servers): with actions, waitFor + wait actions ≤ 60 s.
		['Wait For and wait actions over 60 s together', scrape({ scrapeOptions: { timeout: 120000, waitFor: 30000, actions: '[{"type":"wait","milliseconds":30001}]' } }), /Wait For \(Milliseconds\) 30000 is not valid: Wait For and the wait actions add up to 60001 ms/],
		['51 actions', scrape({ scrapeOptions: { actions: '[' + Array.from({ length: 51 }, () => '{"type":"scroll"}').join(',') + ']' } }), /Browser Actions "51 actions" is not valid: at most 50 actions/],
		// issue 37: the other rules of nodes/FACTS.md "Server request rules" for the scrape options
		['a JSON prompt over 10000 characters', scrape({ formats: ['json'], jsonPrompt: 'p'.repeat(10001) }), /^JSON Prompt "p+…" is not valid: at most 10000 characters \(it has 10001\)/],
		['a proxy the service does not have', scrape({ scrapeOptions: { proxy: 'premium' } }), /^Scrape Options → Proxy "premium" is not valid: one of auto, basic, enhanced, stealth/],
		['a wait that is not a whole number', scrape({ scrapeOptions: { waitFor: 1500.5 } }), /^Scrape Options → Wait For \(Milliseconds\) 1500.5 is not valid: a whole number/],
		['a free-form object schema', scrape({ formats: ['json'], jsonSchema: '{"type":"object","additionalProperties":true}' }), /JSON Schema .* is not valid: the schema itself is an object with "additionalProperties": true and no "properties"/],
		['a free-form object inside the schema', scrape({ formats: ['json'], jsonSchema: '{"type":"object","properties":{"tags":{"type":"object","additionalProperties":true}}}' }), /JSON Schema .* is not valid: properties → tags is an object/],
		['a free-form change tracking schema', scrape({ formats: ['markdown', 'changeTracking'], changeTrackingModes: ['json'], changeTrackingSchema: '{"type":"object","additionalProperties":true}' }), /Change Tracking Schema .* is not valid: the schema itself/],
		['a three-letter country', scrape({ scrapeOptions: { locationCountry: 'USA' } }), /Location Country "USA" is not valid: a two-letter ISO/],
		['a country code that does not exist', scrape({ scrapeOptions: { locationCountry: 'XX' } }), /Location Country "XX" is not valid: a two-letter ISO 3166-1 country code/],
		['PDF max pages over 10000', scrape({ scrapeOptions: { pdfMaxPages: 20000 } }), /PDF Max Pages 20000 is not valid/],
		['actions that are not a list', scrape({ scrapeOptions: { actions: '{"type":"click"}' } }), /Browser Actions .* is not valid: it must be a JSON list/],
		['an unknown action', scrape({ scrapeOptions: { actions: '[{"type":"hover"}]' } }), /action 1 "hover" is not valid: "type" must be one of/],
		['a click without selector', scrape({ scrapeOptions: { actions: '[{"type":"click"}]' } }), /action 1 .* a "click" action needs "selector"/],
		['a header without a name', scrape({ scrapeOptions: { headers: { header: [{ name: '', value: 'x' }] } } }), /Headers → Name "" is not valid/],
		['a screenshot quality of 101', scrape({ formats: ['screenshot'], screenshotQuality: 101 }), /Screenshot Quality 101 is not valid/],
		['download screenshot without the format', scrape({ options: { downloadScreenshot: true } }), /Download Screenshot true is not valid: choose the Screenshot format/],
		['concurrency 50', scrape({ options: { concurrency: 50 } }), /Concurrency 50 is not valid/],
	])('%s', async (_name, parameters, pattern) => {
		const result = await run(parameters);
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(pattern);
		expect(result.error.description).toMatch(/Nothing was sent/);
		expect(api.log).toHaveLength(0);
	});
});

describe('errors of spec 7.1', () => {
	test('403 unsupported site: says so in words; Continue On Fail gives an error item and the next URL goes on', async () => {
		const result = await run(scrape(), urls('https://fake-unsupported.example/', 'https://example.com/ok'), { onError: 'continueRegularOutput' });
		const items = result.items(WEB_DATA);
		expect(items).toHaveLength(2);
		expect(items[0].json).toMatchObject({ httpStatus: 403, code: 'UNSUPPORTED_SITE', retryable: false });
		expect(items[0].json.description).toMatch(/does not support this site/);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[1].json.markdown).toBeDefined();
		expect(scrapeRequests().filter((r) => r.body.url.includes('fake-unsupported'))).toHaveLength(1);
	});

	test('403 terms required: carries requiresActionUrl and tells an administrator to accept', async () => {
		const result = await run(scrape(), urls('https://fake-terms.example/'), { onError: 'continueRegularOutput' });
		const [item] = result.json(WEB_DATA);
		expect(item).toMatchObject({ httpStatus: 403, code: 'THIRD_PARTY_DATA_TERMS_REQUIRED', requiresActionUrl: 'https://dashboard.example/terms/provider' });
		expect(item.description).toMatch(/administrator/);
	});

	test('third-party unsupported option (400): names the options to remove, not retried', async () => {
		api.fault({
			method: 'POST',
			path: '/v2/scrape',
			statuses: [400],
			body: { success: false, code: 'THIRD_PARTY_DATA_UNSUPPORTED_OPTION', error: "The option 'actions' is not supported for this URL" },
		});
		const result = await run(scrape());
		expect(result.status).toBe('error');
		expect(result.error.description).toMatch(/remove Browser Actions, the Screenshot format, Zero Data Retention/);
		expect(scrapeRequests()).toHaveLength(1);
	});

	test('408 is retried with backoff, then the page arrives', async () => {
		api.fault({ method: 'POST', path: '/v2/scrape', statuses: [408], body: { success: false, code: 'SCRAPE_TIMEOUT', error: 'Request Timeout' } });
		const result = await run(scrape());
		expect(result.status).toBe('success');
		expect(scrapeRequests().map((r) => r.status)).toEqual([408, 200]);
	}, 20000);

	test('402 out of credits is not retried', async () => {
		api.setTeam({ remainingCredits: 0 });
		const result = await run(scrape());
		expect(result.status).toBe('error');
		expect(result.error.description).toMatch(/out of credits/);
		expect(scrapeRequests()).toHaveLength(1);
	});
});
