// The shared Scrape option block: what the node builds, and that the strict fake accepts exactly that.
const { buildScrapeOptions, scrapeOptionProperties, SCRAPE_COLLECTION_OPTIONS } = require('../../dist/nodes/WebData/fields/scrapeOptions');
const { documentJson, fileBaseName } = require('../../dist/nodes/WebData/fields/document');
const { toNodeApiError } = require('../../dist/nodes/WebData/transport/errors');
const { SCRAPE_HINTS } = require('../../dist/nodes/WebData/fields/scrapeOptions');
const { checkScrapeOptions, fakeDocument } = require('../fake-api/scrapeOptions');
const { NODE } = require('../helpers/fake-context');

const build = (over = {}) => buildScrapeOptions(NODE, { formats: ['markdown'], ...over }, 0);
const errorOf = (fn) => {
	try {
		fn();
	} catch (e) {
		return e;
	}
	throw new Error('expected an error');
};

describe('what the node builds', () => {
	test('defaults: formats only', () => {
		expect(build()).toEqual({ formats: ['markdown'] });
	});

	test('plain formats are strings; json, screenshot with options and changeTracking with options are objects', () => {
		const out = build({
			formats: ['markdown', 'json', 'screenshot', 'changeTracking'],
			jsonSchema: { type: 'object' },
			screenshotFullPage: true,
			changeTrackingModes: ['json'],
			changeTrackingPrompt: 'prices',
			changeTrackingTag: '',
		});
		expect(out.formats).toEqual([
			'markdown',
			{ type: 'json', schema: { type: 'object' } },
			{ type: 'screenshot', fullPage: true },
			{ type: 'changeTracking', modes: ['json'], prompt: 'prices' },
		]);
	});

	test('screenshot and changeTracking without options stay plain strings', () => {
		expect(build({ formats: ['markdown', 'screenshot', 'changeTracking'], screenshotFullPage: false, screenshotQuality: 0, changeTrackingModes: [] }).formats).toEqual([
			'markdown',
			'screenshot',
			'changeTracking',
		]);
	});

	test('waitFor 0 is not sent (it is the service default); maxAge 0 is (it means "always fresh")', () => {
		expect(build({ scrapeOptions: { waitFor: 0, maxAge: 0 } })).toEqual({ formats: ['markdown'], maxAge: 0 });
	});

	test('location: only the parts set', () => {
		expect(build({ scrapeOptions: { locationLanguages: 'fr-FR' } }).location).toEqual({ languages: ['fr-FR'] });
		expect(build({ scrapeOptions: { locationCountry: ' gb ' } }).location).toEqual({ country: 'GB' });
	});

	// issue 14: types.ts @81015eb — waitFor ≤ 60000; ≤ timeout / 2 only when a timeout is sent.
	test('waitFor: at most 60000, and at most half of a timeout that is set', () => {
		expect(build({ scrapeOptions: { waitFor: 60000 } }).waitFor).toBe(60000);
		expect(errorOf(() => build({ scrapeOptions: { waitFor: 60001 } })).message).toMatch(/Wait For \(Milliseconds\) 60001 is not valid: at most 60000 ms/);
		expect(build({ scrapeOptions: { timeout: 10000, waitFor: 5000 } }).waitFor).toBe(5000);
		expect(errorOf(() => build({ scrapeOptions: { timeout: 10000, waitFor: 5001 } })).message).toMatch(/at most half of the timeout \(10000 ms → 5000 ms\)/);
	});

	test('a wait action needs milliseconds or a selector, not both', () => {
		expect(errorOf(() => build({ scrapeOptions: { actions: '[{"type":"wait"}]' } })).message).toMatch(/either "milliseconds" or "selector"/);
		expect(errorOf(() => build({ scrapeOptions: { actions: '[{"type":"wait","milliseconds":5,"selector":"#a"}]' } })).message).toMatch(/either/);
		expect(errorOf(() => build({ scrapeOptions: { actions: '[{"type":"wait","milliseconds":0}]' } })).message).toMatch(/1 or more/);
	});

	test('an unknown format is refused by name', () => {
		expect(errorOf(() => build({ formats: ['markdown', 'pdf'] })).message).toMatch(/Formats "pdf" is not valid/);
	});
});

describe('the strict fake accepts exactly what the node builds (one contract, two sides)', () => {
	test.each([
		['defaults', {}],
		['every format with options', {
			formats: ['markdown', 'summary', 'html', 'rawHtml', 'links', 'images', 'screenshot', 'json', 'changeTracking'],
			jsonPrompt: 'p',
			jsonSchema: '{"type":"object"}',
			screenshotFullPage: true,
			screenshotQuality: 50,
			changeTrackingModes: ['git-diff', 'json'],
			changeTrackingPrompt: 'x',
			changeTrackingSchema: '{"type":"object"}',
			changeTrackingTag: 't',
		}],
		['every scrape option', {
			scrapeOptions: {
				onlyMainContent: false, mobile: true, blockAds: false, removeBase64Images: false, skipTlsVerification: false, storeInCache: false,
				includeTags: 'a,b', excludeTags: 'c', timeout: 10000, waitFor: 100, maxAge: 5, proxy: 'auto',
				locationCountry: 'US', locationLanguages: 'en-US', pdfMode: 'fast', pdfMaxPages: 3,
				actions: '[{"type":"write","text":"hi"},{"type":"press","key":"Enter"},{"type":"scroll","direction":"down"},{"type":"executeJavascript","script":"1"},{"type":"pdf"},{"type":"screenshot"},{"type":"wait","selector":"#x"}]',
				headers: { header: [{ name: 'User-Agent', value: 'n8n' }] },
			},
		}],
	])('%s', (_name, input) => {
		expect(checkScrapeOptions(build(input), [])).toEqual([]);
	});

	test('the fake is strict: unknown keys, bad enums and misplaced objects are issues', () => {
		expect(checkScrapeOptions({ formats: ['markdown'], zeroDataRetention: true }, ['scrapeOptions'])[0]).toMatchObject({
			code: 'unrecognized_keys',
			path: ['scrapeOptions'],
			keys: ['zeroDataRetention'],
		});
		expect(checkScrapeOptions({ formats: ['pdf'] })[0]).toMatchObject({ code: 'invalid_enum_value', path: ['formats', 0] });
		expect(checkScrapeOptions({ formats: [{ type: 'json', prompt: 'x', mode: 'y' }] })[0]).toMatchObject({ code: 'unrecognized_keys', keys: ['mode'] });
		expect(checkScrapeOptions({ location: 'US' })[0]).toMatchObject({ code: 'invalid_type', path: ['location'] });
		expect(checkScrapeOptions({ location: { country: 'usa' } })[0]).toMatchObject({ path: ['location', 'country'] });
		expect(checkScrapeOptions({ timeout: 999 })[0]).toMatchObject({ code: 'too_small', path: ['timeout'] });
		expect(checkScrapeOptions({ formats: ['changeTracking'] })[0]).toMatchObject({ code: 'custom', path: ['formats'] });
		expect(checkScrapeOptions({ actions: [{ type: 'click' }] })[0]).toMatchObject({ path: ['actions', 0, 'selector'] });
	});
});

describe('fakeDocument', () => {
	test('a key per requested format, and the metadata the node relies on', () => {
		const doc = fakeDocument('https://example.com/a', { formats: ['markdown', 'html', 'links', 'images', 'summary', { type: 'json', prompt: 'x' }, 'screenshot', 'changeTracking'] }, { origin: 'http://127.0.0.1:1' });
		expect(Object.keys(doc).sort()).toEqual(['changeTracking', 'html', 'images', 'json', 'links', 'markdown', 'metadata', 'screenshot', 'summary']);
		expect(doc.screenshot).toMatch(/^http:\/\/127\.0\.0\.1:1\/fake-screenshots\/.+\.png$/);
		expect(doc.metadata).toMatchObject({ sourceURL: 'https://example.com/a', url: 'https://example.com/a', statusCode: 200, scrapeId: expect.any(String), creditsUsed: expect.any(Number) });
	});

	test('fake-404 and PDFs', () => {
		expect(fakeDocument('https://x.example/fake-404', {}).metadata).toMatchObject({ statusCode: 404, error: 'Not Found' });
		expect(fakeDocument('https://x.example/a.pdf', {}).metadata).toMatchObject({ contentType: 'application/pdf', numPages: 3 });
	});
});

describe('output shaping', () => {
	const doc = { markdown: '# T', html: '<h1>T</h1>', metadata: { title: 'T', sourceURL: 'https://e.com/', statusCode: 200 } };
	test('full keeps everything, url first', () => {
		expect(Object.keys(documentJson(doc, 'full', 'https://e.com/'))).toEqual(['url', 'markdown', 'html', 'metadata']);
	});
	test('compact: url, title, markdown', () => {
		expect(documentJson(doc, 'compact')).toEqual({ url: 'https://e.com/', title: 'T', markdown: '# T' });
	});
	test('file names from URLs', () => {
		expect(fileBaseName('https://e.com/a/b?c=1')).toBe('e.com-a-b');
		expect(fileBaseName(undefined)).toBe('page');
	});
});

describe('the UI block', () => {
	test('show conditions are added to every field, own conditions kept', () => {
		const props = scrapeOptionProperties({ scrapeResults: [true] });
		for (const p of props) expect(p.displayOptions.show.scrapeResults).toEqual([true]);
		expect(props.find((p) => p.name === 'jsonPrompt').displayOptions.show.formats).toEqual(['json']);
		const collection = props.find((p) => p.name === 'scrapeOptions');
		expect(collection.options.map((o) => o.name).sort()).toEqual([...SCRAPE_COLLECTION_OPTIONS].sort());
	});
});

describe('hints for the scrape errors of spec 7.1', () => {
	const hint = (status, body) => toNodeApiError(NODE, { method: 'POST', path: '/scrape', status, body, attempts: 1, hints: SCRAPE_HINTS }, 'k').description;
	test('408 points at the timeout options', () => {
		expect(hint(408, { success: false, error: 'Request Timeout' })).toMatch(/Raise Scrape Options → Timeout/);
	});
	test('403 unsupported site, by code or by text only', () => {
		expect(hint(403, { success: false, code: 'UNSUPPORTED_SITE', error: 'x' })).toMatch(/does not support this site/);
		expect(hint(403, { success: false, error: 'We apologize for the inconvenience but we do not support this site.' })).toMatch(/does not support this site/);
	});
	test('plain 403 keeps the permission hint', () => {
		expect(hint(403, { success: false, error: 'Forbidden' })).toMatch(/permission/);
	});
});

describe('screenshot download', () => {
	const { downloadScreenshot } = require('../../dist/nodes/WebData/fields/document');
	const ctx = (httpRequest) => ({
		getNode: () => NODE,
		// The hosted service (the private-address rule: screenshot-host.test.js).
		getCredentials: async () => ({ apiKey: 'k', baseUrl: '' }),
		helpers: {
			httpRequest,
			prepareBinaryData: async (buffer, fileName, mimeType) => ({ buffer, fileName, mimeType }),
		},
	});

	test('a data: URI (self-hosted services) is decoded without any request', async () => {
		const http = jest.fn();
		const png = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
		const out = await downloadScreenshot(ctx(http), `data:image/png;base64,${png.toString('base64')}`, 'shot', 0);
		expect(http).not.toHaveBeenCalled();
		expect(out).toEqual({ buffer: png, fileName: 'shot.png', mimeType: 'image/png' });
	});

	test('a link is fetched with the plain HTTP helper (no credential), as bytes; the type comes from the answer', async () => {
		const http = jest.fn(async () => ({ body: Buffer.from('jpegbytes'), headers: { 'content-type': 'image/jpeg; q=1' } }));
		const out = await downloadScreenshot(ctx(http), 'https://storage.example/s/1?sig=abc', 'shot', 0);
		expect(http).toHaveBeenCalledTimes(1);
		const [options] = http.mock.calls[0];
		expect(options).toMatchObject({ method: 'GET', url: 'https://storage.example/s/1?sig=abc', encoding: 'arraybuffer' });
		expect(options.headers).toBeUndefined();
		expect(out.fileName).toBe('shot.jpg');
		expect(out.mimeType).toBe('image/jpeg');
	});

	test('a link that is not http(s) is refused', async () => {
		await expect(downloadScreenshot(ctx(jest.fn()), 'file:///etc/passwd', 'shot', 0)).rejects.toThrow(/must be http or https/);
	});
});

// issue 14: the server's request-schema rules (nodes/WebData/fields/serverRules.ts), the package side.
describe('rules of the server, in the package', () => {
	const rules = require('../../dist/nodes/WebData/fields/serverRules');
	test('proxy: auto, basic, enhanced or stealth (baseScrapeOptions.proxy); any other value is refused naming Proxy', () => {
		for (const proxy of ['auto', 'basic', 'enhanced', 'stealth']) expect(build({ scrapeOptions: { proxy } }).proxy).toBe(proxy);
		for (const proxy of ['premium', 'turbo', 'Basic', '']) {
			expect(errorOf(() => build({ scrapeOptions: { proxy } })).message).toMatch(/Proxy ".*" is not valid: one of auto, basic, enhanced, stealth/);
		}
		expect(errorOf(() => build({ scrapeOptions: { proxy: 'premium' } })).message).toBe('Scrape Options → Proxy "premium" is not valid: one of auto, basic, enhanced, stealth');
	});
	test('structured-output schemas: free-form objects refused anywhere, $ref and patternProperties fine', () => {
		expect(rules.structuredSchemaProblem({ type: 'object', additionalProperties: true })).toMatch(/^the schema itself is an object/);
		expect(rules.structuredSchemaProblem({ type: 'object', properties: { a: { anyOf: [{ type: 'object', additionalProperties: true }] } } })).toMatch(/^properties → a → anyOf → 0 is an object/);
		expect(rules.structuredSchemaProblem({ type: 'object', additionalProperties: true, properties: {} })).toBeUndefined();
		expect(rules.structuredSchemaProblem({ type: 'object', additionalProperties: true, patternProperties: { x: {} } })).toBeUndefined();
		expect(rules.structuredSchemaProblem({ $ref: '#/$defs/a', type: 'object', additionalProperties: true })).toBeUndefined();
		expect(rules.structuredSchemaProblem({ type: 'object', additionalProperties: false })).toBeUndefined();
	});
	test('path patterns: look-around and backreferences refused, escapes and classes and (?i) fine', () => {
		for (const p of ['a(?=b)', 'a(?!b)', '(?<=a)b', '(?<!a)b']) expect(rules.pathPatternProblem(p)).toMatch(/look-ahead and look-behind/);
		for (const p of ['(a)\\1', '(?<n>a)\\k<n>']) expect(rules.pathPatternProblem(p)).toMatch(/backreferences/);
		for (const p of ['\\(?=x', '[(?=]', '[\\1]', '(?i)blog/.*', '(?:a|b)', 'docs/[a-z]+/\\d{4}']) expect(rules.pathPatternProblem(p)).toBeUndefined();
		expect(rules.pathPatternProblem('blog/(')).toMatch(/not a valid regular expression/);
	});
	test('path pattern caps: per field, then both together (characters too)', () => {
		const n = (k, prefix = 'p') => Array.from({ length: k }, (_, i) => `${prefix}${i}`);
		expect(rules.pathPatternsIssue(n(1000), [])).toBeUndefined();
		expect(rules.pathPatternsIssue([], n(1001))).toMatchObject({ field: 'excludePaths', value: '1001 patterns' });
		expect(rules.pathPatternsIssue(n(500), n(501))).toEqual({ value: '1001 patterns', rule: expect.stringMatching(/together take at most 1000 patterns/) });
		expect(rules.pathPatternsIssue(Array(51).fill('a'.repeat(2000)), [])).toMatchObject({ value: '102000 characters' });
		// The boundary of the request-wide budget: 100,000 characters pass, one more does not.
		expect(rules.pathPatternsIssue(Array(25).fill('a'.repeat(2000)), Array(25).fill('b'.repeat(2000)))).toBeUndefined();
		expect(rules.pathPatternsIssue(Array(25).fill('a'.repeat(2000)), [...Array(25).fill('b'.repeat(2000)), 'c'])).toEqual({
			value: '100001 characters',
			rule: expect.stringMatching(/together take at most 100000 characters of patterns/),
		});
	});
	// issue 37: the order of collectPathPatternIssues (the budget's edge is in the test above).
	test('path patterns: the caps are checked before each pattern', () => {
		const fifty = Array(50).fill('a'.repeat(2000));
		expect(rules.pathPatternsIssue(fifty, [])).toBeUndefined();
		const n = (k) => Array.from({ length: k }, (_, i) => `p${i}`);
		expect(rules.pathPatternsIssue(['blog/(?=2025)', ...n(1000)], [])).toMatchObject({ field: 'includePaths', value: '1001 patterns' });
		expect(rules.pathPatternsIssue(['(a)\\1'], n(1000))).toMatchObject({ value: '1001 patterns', rule: expect.stringMatching(/together/) });
		expect(rules.pathPatternsIssue(['(a)\\1', ...fifty], ['b'])).toMatchObject({ value: '100006 characters' });
	});
	test('countries: the ISO table (and XK), any case', () => {
		for (const c of ['US', 'de', 'Jp', 'XK', 'SS']) expect(rules.isCountryCode(c)).toBe(true);
		for (const c of ['XX', 'UK', 'EU', 'ZZ']) expect(rules.isCountryCode(c)).toBe(false);
	});
	test('countries: exactly the 249 ISO 3166-1 codes and XK among all two-letter codes', () => {
		const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
		const codes = [...letters].flatMap((a) => [...letters].map((b) => a + b));
		expect(codes.filter((c) => rules.isCountryCode(c))).toHaveLength(250);
		for (const c of ['AX', 'BQ', 'CW', 'SX', 'ZW']) expect(rules.isCountryCode(c)).toBe(true);
	});
	test('crawl delay: above 0 and at most 60', () => {
		expect(rules.crawlDelayProblem(0.5)).toBeUndefined();
		expect(rules.crawlDelayProblem(60)).toBeUndefined();
		for (const d of [0, -1, 60.5, '5', NaN]) expect(rules.crawlDelayProblem(d)).toMatch(/above 0 and at most 60/);
	});
	test('actions: a wait on a selector counts one second; the wait actions alone at most 60 s', () => {
		expect(rules.actionsWaitMs([{ type: 'wait', milliseconds: 2000 }, { type: 'wait', selector: '#a' }, { type: 'click', selector: '#b' }])).toBe(3000);
		expect(errorOf(() => build({ scrapeOptions: { actions: '[{"type":"wait","milliseconds":60000},{"type":"wait","selector":"#a"}]' } })).message).toMatch(/add up to 61000 ms/);
	});
	// issue 37: the accepted side of each wait and action limit.
	test('actions: 50 actions and wait actions of exactly 60 s pass', () => {
		const fifty = JSON.stringify(Array.from({ length: 50 }, () => ({ type: 'scroll' })));
		expect(build({ scrapeOptions: { actions: fifty } }).actions).toHaveLength(50);
		expect(build({ scrapeOptions: { actions: '[{"type":"wait","milliseconds":59000},{"type":"wait","selector":"#a"}]' } }).actions).toHaveLength(2);
	});
	test('waitFor: a whole number of milliseconds, 0 or more', () => {
		expect(build({ scrapeOptions: { waitFor: 0 } }).waitFor).toBeUndefined();
		expect(build({ scrapeOptions: { waitFor: 1 } }).waitFor).toBe(1);
		expect(errorOf(() => build({ scrapeOptions: { waitFor: 1500.5 } })).message).toMatch(/^Scrape Options → Wait For \(Milliseconds\) 1500.5 is not valid: a whole number of milliseconds, 0 or more/);
		expect(errorOf(() => build({ scrapeOptions: { waitFor: -1 } })).message).toMatch(/^Scrape Options → Wait For \(Milliseconds\) -1 is not valid/);
	});
	test('JSON format prompt: at most 10000 characters', () => {
		expect(build({ formats: ['json'], jsonPrompt: 'p'.repeat(10000) }).formats).toEqual([{ type: 'json', prompt: 'p'.repeat(10000) }]);
		expect(errorOf(() => build({ formats: ['json'], jsonPrompt: 'p'.repeat(10001) })).message).toMatch(/^JSON Prompt "p+…" is not valid: at most 10000 characters \(it has 10001\)/);
	});
	// issue 14: types.ts @ 61e38dc8 (2025-08, self-hosted servers): with actions, waitFor + wait actions ≤ 60 s.
	test('with actions, Wait For and the wait actions together at most 60 s (the 2025-08 server); nothing is sent past it', () => {
		expect(build({ scrapeOptions: { waitFor: 30000, actions: '[{"type":"wait","milliseconds":29000},{"type":"wait","selector":"#a"}]' } })).toMatchObject({ waitFor: 30000 });
		expect(build({ scrapeOptions: { waitFor: 60000 } })).toMatchObject({ waitFor: 60000 }); // no actions: only waitFor's own cap
		const error = errorOf(() => build({ scrapeOptions: { waitFor: 30000, actions: '[{"type":"wait","milliseconds":30000},{"type":"wait","selector":"#a"}]' } }));
		expect(error.message).toMatch(/^Scrape Options → Wait For \(Milliseconds\) 30000 is not valid: Wait For and the wait actions add up to 61000 ms; together they may wait at most 60000 ms/);
		expect(rules.totalWaitProblem(0, [])).toBeUndefined();
		expect(checkScrapeOptions({ waitFor: 30000, actions: [{ type: 'wait', milliseconds: 30001 }] })).toEqual([
			expect.objectContaining({ message: 'Total wait time (waitFor + wait actions) cannot exceed 60 seconds' }),
		]);
		expect(checkScrapeOptions({ waitFor: 30000, actions: [{ type: 'wait', milliseconds: 30000 }] })).toEqual([]);
	});
	test('what passes here, the fake takes: waitFor 60000 alone, stealth, a lower-case country, a schema with patternProperties', () => {
		const options = build({
			formats: ['json'],
			jsonSchema: '{"type":"object","properties":{"tags":{"type":"object","additionalProperties":true,"patternProperties":{".*":{"type":"string"}}}}}',
			scrapeOptions: { waitFor: 60000, proxy: 'stealth', locationCountry: 'de' },
		});
		expect(options).toMatchObject({ waitFor: 60000, proxy: 'stealth', location: { country: 'DE' } });
		expect(checkScrapeOptions(options)).toEqual([]);
	});
	test('search: the UI has no Change Tracking; a saved search holding it gets an error naming what to do', () => {
		const props = scrapeOptionProperties({ scrapeResults: [true] }, rules.SEARCH_FORMATS);
		expect(props.find((p) => p.name === 'formats').options.map((o) => o.value)).not.toContain('changeTracking');
		expect(props.map((p) => p.name).filter((n) => n.startsWith('changeTracking'))).toEqual([]);
		expect(props.map((p) => p.name)).toEqual(expect.arrayContaining(['formats', 'jsonPrompt', 'jsonSchema', 'screenshotFullPage', 'screenshotQuality', 'scrapeOptions']));
		expect(scrapeOptionProperties().find((p) => p.name === 'formats').options.map((o) => o.value)).toContain('changeTracking');
		const error = errorOf(() => buildScrapeOptions(NODE, { formats: ['markdown', 'changeTracking'] }, 0, rules.SEARCH_FORMATS));
		expect(error.message).toMatch(/Formats "changeTracking" is not valid: .*remove Change Tracking \(to track a page's changes, use Scrape or a Monitor\)/);
	});
});
