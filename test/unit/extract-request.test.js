'use strict';
// Unit checks of Extract (nodes/WebData/resources/extract): the rules of POST /v2/extract checked
// before sending, and the body built from the node's parameters. Build first.
const { buildExtractBody, extractSchemaProblem, MAX_URLS } = require('../../dist/nodes/WebData/resources/extract/request');
const { extract } = require('../../dist/nodes/WebData/resources/extract');

const node = { name: 'Web Data', type: 'n8n-nodes-webdata.webData', typeVersion: 1, position: [0, 0], parameters: {} };
const params = (p = {}) => ({ urls: '', prompt: '', outputShape: 'free', options: {}, scrapeOptions: {}, ...p });
const build = (p) => buildExtractBody(node, params(p), 0);
const error = (p) => {
	try {
		build(p);
	} catch (e) {
		return e;
	}
	throw new Error('expected a validation error');
};

describe('body', () => {
	test('sends only what the user set: URLs (with a /* glob), prompt', () => {
		expect(build({ urls: 'https://example.com/*, https://docs.example.com\nhttps://example.org/pricing', prompt: '  Find the mission  ' })).toEqual({
			urls: ['https://example.com/*', 'https://docs.example.com', 'https://example.org/pricing'],
			prompt: 'Find the mission',
		});
	});

	test('a list of URLs from an expression; a prompt alone is enough (the service finds the pages)', () => {
		expect(build({ urls: ['https://a.example.com', 'https://b.example.com/*'] })).toEqual({ urls: ['https://a.example.com', 'https://b.example.com/*'] });
		expect(build({ prompt: 'The founders of Example Inc.', options: { enableWebSearch: true } })).toEqual({ prompt: 'The founders of Example Inc.', enableWebSearch: true });
	});

	test('the options, a JSON Schema, and the shared Scrape Options without formats', () => {
		const schema = { type: 'object', properties: { company: { type: 'string' }, sso: { type: 'boolean' } }, required: ['company'] };
		const body = build({
			urls: 'https://example.com',
			outputShape: 'schema',
			jsonSchema: JSON.stringify(schema),
			options: { enableWebSearch: false, ignoreSitemap: true, includeSubdomains: false, showSources: true, ignoreInvalidURLs: false, allowExternalLinks: true, systemPrompt: ' Be brief ' },
			scrapeOptions: { onlyMainContent: true, timeout: 30000, locationCountry: 'de' },
		});
		expect(body).toEqual({
			urls: ['https://example.com'],
			schema,
			enableWebSearch: false,
			ignoreSitemap: true,
			includeSubdomains: false,
			showSources: true,
			ignoreInvalidURLs: false,
			allowExternalLinks: true,
			systemPrompt: 'Be brief',
			scrapeOptions: { onlyMainContent: true, timeout: 30000, location: { country: 'DE' } },
		});
	});

	test('a JSON example becomes a schema', () => {
		expect(build({ urls: 'https://example.com', outputShape: 'example', jsonExample: '{"company":"Acme","plans":[{"price":20}]}' }).schema).toEqual({
			type: 'object',
			properties: {
				company: { type: 'string' },
				plans: { type: 'array', items: { type: 'object', properties: { price: { type: 'number' } }, required: ['price'] } },
			},
			required: ['company', 'plans'],
		});
	});
});

describe('rules (each error names the field)', () => {
	test.each([
		['no URLs and no prompt', { urls: '', prompt: '' }, /^URLs "" is not valid: give at least one URL, or a Prompt/],
		['a URL without a scheme', { urls: 'example.com', prompt: 'x' }, /^URLs "example.com" is not valid: each URL must be absolute/],
		['an ftp URL', { urls: 'ftp://example.com' }, /^URLs "ftp:\/\/example.com" is not valid/],
		['11 URLs', { urls: Array.from({ length: MAX_URLS + 1 }, (_, n) => `https://e${n}.example.com`).join(',') }, /^URLs .* there are 11; at most 10 URLs/],
		['a prompt over 10000 characters', { prompt: 'x'.repeat(10001) }, /^Prompt .* at most 10000/],
		['a system prompt over 10000 characters', { prompt: 'x', options: { systemPrompt: 'y'.repeat(10001) } }, /^System Prompt .* at most 10000/],
		['a schema that is not JSON', { prompt: 'x', outputShape: 'schema', jsonSchema: '{not json' }, /^Schema .* not valid JSON/],
		['a schema that is not an object', { prompt: 'x', outputShape: 'schema', jsonSchema: '[1]' }, /^Schema .* must be a JSON object/],
		['a schema with "format"', { prompt: 'x', outputShape: 'schema', jsonSchema: '{"type":"object","properties":{"email":{"type":"string","format":"email"}}}' }, /^Schema .*#\/properties\/email\/format "email" is not accepted/],
		['a free-form dictionary object', { prompt: 'x', outputShape: 'schema', jsonSchema: '{"type":"object","properties":{"meta":{"type":"object","additionalProperties":true}}}' }, /^Schema .*#\/properties\/meta is an object with "additionalProperties": true and no "properties"/],
		['an unknown type', { prompt: 'x', outputShape: 'schema', jsonSchema: '{"type":"text"}' }, /^Schema .*is not a JSON Schema type/],
		['an example that is not an object', { prompt: 'x', outputShape: 'example', jsonExample: '"Acme"' }, /^JSON Example .* must be a JSON object/],
		['an unknown output shape', { prompt: 'x', outputShape: 'table' }, /^Output Shape "table"/],
		['a non-boolean option', { prompt: 'x', options: { showSources: 'yes' } }, /^Show Sources "yes" is not valid: true or false/],
		['a scrape option out of range', { prompt: 'x', scrapeOptions: { timeout: 10 } }, /^Scrape Options → Timeout \(Milliseconds\) 10/],
	])('%s', (_name, p, pattern) => {
		const e = error(p);
		expect(e.message).toMatch(pattern);
		expect(e.description).toMatch(/Nothing was sent to the service/);
	});

	// issue 37: the accepted side of each limit, and a schema's list items are checked too.
	test('10 URLs and a prompt and system prompt of 10000 characters each are sent', () => {
		const urls = Array.from({ length: MAX_URLS }, (_, n) => `https://e${n}.example.com`);
		const body = build({ urls: urls.join(','), prompt: 'x'.repeat(10000), options: { systemPrompt: 'y'.repeat(10000) } });
		expect(body.urls).toEqual(urls);
		expect(body.prompt).toHaveLength(10000);
		expect(body.systemPrompt).toHaveLength(10000);
	});

	test('a list whose items have an unknown type is refused at its path', () => {
		const e = error({ prompt: 'x', outputShape: 'schema', jsonSchema: '{"type":"object","properties":{"tags":{"type":"array","items":{"type":"text"}}}}' });
		expect(e.message).toMatch(/^Schema .*#\/properties\/tags\/items\/type "text" is not a JSON Schema type/);
	});

	test('a schema with "format" as a PROPERTY NAME, or format words inside enum/required, is fine', () => {
		expect(extractSchemaProblem({ type: 'object', properties: { format: { type: 'string', enum: ['format'] } }, required: ['format'] })).toBeUndefined();
		expect(extractSchemaProblem({ type: 'object', properties: { tags: { type: 'object', patternProperties: { '.*': { type: 'string' } }, additionalProperties: true } } })).toBeUndefined();
		expect(extractSchemaProblem({ type: 'array', items: { type: 'string', format: 'uri' } })).toMatch(/#\/items\/format "uri"/);
	});
});

describe('description', () => {
	test('operations and their defaults; On Timeout of Run and Wait has no cancel (the service cannot cancel an extract job)', () => {
		expect(extract.operationProperty.options.map((o) => o.value)).toEqual(['getStatus', 'runAndWait', 'start']);
		expect(extract.operationProperty.default).toBe('runAndWait');
		const onTimeout = extract.operations.runAndWait.properties.find((p) => p.name === 'onTimeout');
		expect(onTimeout.options.map((o) => o.value)).toEqual(['fail', 'returnStatus']);
		expect(onTimeout.default).toBe('returnStatus');
		const names = extract.operations.start.properties.map((p) => p.name);
		expect(names).toEqual(['urls', 'prompt', 'outputShape', 'jsonSchema', 'jsonExample', 'options', 'scrapeOptions']);
		expect(names).not.toContain('formats');
	});
});
