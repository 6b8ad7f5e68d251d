const { buildParseOptions, assertParseOptions, httpTimeoutFor } = require('../../dist/nodes/WebData/resources/parse/options');
const { NODE } = require('../helpers/fake-context');

const base = (over = {}) => ({
	formats: ['markdown'],
	output: 'file',
	pdfOptions: {},
	redaction: 'off',
	options: {},
	...over,
});

const build = (over) => buildParseOptions(NODE, base(over), 0);
const errorOf = (fn) => {
	try {
		fn();
	} catch (e) {
		return e;
	}
	throw new Error('expected an error');
};

describe('ParseOptions are built from what the user set', () => {
	test('defaults send nothing (the service applies the spec defaults)', () => {
		expect(build()).toEqual({});
	});

	test('each format becomes a {type} object; json carries prompt and schema', () => {
		const out = build({
			formats: ['markdown', 'summary', 'html', 'rawHtml', 'links', 'images', 'json'],
			jsonPrompt: 'Get the total',
			jsonSchema: '{"type":"object","properties":{"total":{"type":"number"}}}',
		});
		expect(out.formats).toEqual([
			{ type: 'markdown' },
			{ type: 'summary' },
			{ type: 'html' },
			{ type: 'rawHtml' },
			{ type: 'links' },
			{ type: 'images' },
			{ type: 'json', prompt: 'Get the total', schema: { type: 'object', properties: { total: { type: 'number' } } } },
		]);
	});

	test('PDF options become one pdf parser item', () => {
		expect(build({ pdfOptions: { mode: 'ocr', maxPages: 10, pages: true, blocks: false, pageMarkers: true } }).parsers).toEqual([
			{ type: 'pdf', mode: 'ocr', maxPages: 10, pages: true, blocks: false, pageMarkers: true },
		]);
	});

	test('per-page and per-block output ask for pages and blocks', () => {
		expect(build({ output: 'pages' }).parsers).toEqual([{ type: 'pdf', pages: true }]);
		expect(build({ output: 'blocks' }).parsers).toEqual([{ type: 'pdf', blocks: true }]);
	});

	test('redaction: off, defaults (true), tuned (object)', () => {
		expect(build({ redaction: 'off' }).redactPII).toBeUndefined();
		expect(build({ redaction: 'defaults' }).redactPII).toBe(true);
		expect(build({ redaction: 'tuned', redactMode: 'fast', redactReplaceStyle: 'mask', redactEntities: ['EMAIL', 'PHONE'] }).redactPII).toEqual({
			mode: 'fast',
			replaceStyle: 'mask',
			entities: ['EMAIL', 'PHONE'],
		});
	});

	test('every other option maps to its API key', () => {
		const out = build({
			options: {
				checkPromptInjection: true,
				zeroDataRetention: true,
				auditUsername: 'ana',
				onlyMainContent: false,
				includeTags: 'article, main',
				excludeTags: 'nav,,footer ',
				blockAds: false,
				removeBase64Images: false,
				skipTlsVerification: false,
				headers: { header: [{ name: 'X-A', value: '1' }] },
				timeout: 60000,
				proxy: 'auto',
				integration: 'n8n',
				origin: 'n8n',
				concurrency: 5,
				markdownToBinary: true,
				keepInputBinary: true,
			},
		});
		expect(out).toEqual({
			checkPromptInjection: true,
			zeroDataRetention: true,
			auditMetadata: { username: 'ana' },
			onlyMainContent: false,
			includeTags: ['article', 'main'],
			excludeTags: ['nav', 'footer'],
			blockAds: false,
			removeBase64Images: false,
			skipTlsVerification: false,
			headers: { 'X-A': '1' },
			timeout: 60000,
			proxy: 'auto',
			integration: 'n8n',
			origin: 'n8n',
		});
	});

	test('the client timeout is longer than the parse timeout', () => {
		expect(httpTimeoutFor({})).toBeGreaterThan(30000);
		expect(httpTimeoutFor({ timeout: 300000 })).toBeGreaterThan(300000);
	});
});

describe('every rule is checked, naming the field, the value and the rule', () => {
	test.each([
		['maxPages 0', { pdfOptions: { maxPages: 0 } }, /Max Pages 0 is not valid: a whole number from 1 to 10000/],
		['maxPages 10001', { pdfOptions: { maxPages: 10001 } }, /Max Pages 10001 .* 1 to 10000/],
		['maxPages 2.5', { pdfOptions: { maxPages: 2.5 } }, /Max Pages 2.5/],
		['pdf mode', { pdfOptions: { mode: 'turbo' } }, /Mode "turbo" .* fast, auto, ocr/],
		['timeout 300001', { options: { timeout: 300001 } }, /Timeout \(Milliseconds\) 300001 .* 300000/],
		['timeout 999', { options: { timeout: 999 } }, /Timeout \(Milliseconds\) 999/],
		['audit username 1025', { options: { auditUsername: 'a'.repeat(1025) } }, /Audit Username .* at most 1024 characters \(it has 1025\)/],
		['schema not JSON', { formats: ['json'], jsonSchema: '{nope' }, /JSON Schema "\{nope" is not valid: it is not valid JSON/],
		['schema an array', { formats: ['json'], jsonSchema: '[1,2]' }, /JSON Schema .* must be a JSON object/],
		['schema a string', { formats: ['json'], jsonSchema: '"x"' }, /JSON Schema .* must be a JSON object/],
		['no format', { formats: [] }, /Formats .* at least one/],
		['unknown format', { formats: ['screenshot'] }, /Formats "screenshot" .* allowed formats/],
		['proxy', { options: { proxy: 'stealth' } }, /Proxy "stealth" .* only "basic" and "auto"/],
		['proxy enhanced (issue 37)', { options: { proxy: 'enhanced' } }, /Proxy "enhanced" .* only "basic" and "auto"/],
		['header without name', { options: { headers: { header: [{ name: ' ', value: 'x' }] } } }, /Headers → Name/],
		// integration: a known value or one starting with "_" (server utils/integration.ts 10ac4b1d).
		['free-text integration', { options: { integration: 'my-int' } }, /^Options → Integration "my-int" is not valid: the service accepts only dify, zapier, .*n8n.*, or your own value starting with "_"/],
		['integration in another case', { options: { integration: 'N8N' } }, /^Options → Integration "N8N" is not valid: the service accepts only/],
		['redaction method', { redaction: 'tuned', redactMode: 'slow' }, /Redaction Method "slow"/],
		['replace style', { redaction: 'tuned', redactReplaceStyle: 'blur' }, /Replace With "blur"/],
	])('%s', (_name, over, pattern) => {
		const error = errorOf(() => build(over));
		expect(error.name).toBe('NodeOperationError');
		expect(error.message).toMatch(pattern);
		expect(error.description).toContain('Nothing was sent');
	});

	test.each(['n8n', 'zapier', 'prometheus', '_my-team'])('the integration %s is sent', (integration) => {
		expect(build({ options: { integration } }).integration).toBe(integration);
	});

	test('the last gate refuses a free-text integration too', () => {
		expect(() => assertParseOptions(NODE, { integration: 'my-int' })).toThrow(/options.integration "my-int" is not valid/);
		expect(() => assertParseOptions(NODE, { integration: '_ok' })).not.toThrow();
	});

	test('audit username of exactly 1024 characters is fine', () => {
		expect(build({ options: { auditUsername: 'a'.repeat(1024) } }).auditMetadata.username).toHaveLength(1024);
	});

	test('a parser item with any other key is refused', () => {
		const error = errorOf(() => assertParseOptions(NODE, { parsers: [{ type: 'pdf', pageMarkdown: true }] }));
		expect(error.message).toMatch(/options.parsers .* only mode, maxPages, blocks, pages, pageMarkers/);
		expect(() => assertParseOptions(NODE, { parsers: [{ type: 'image' }] })).toThrow(/parser item/);
	});

	test('an unknown option key or a json key on another format is refused', () => {
		expect(() => assertParseOptions(NODE, { actions: [] })).toThrow(/options.actions .* not a parse option/);
		expect(() => assertParseOptions(NODE, { formats: [{ type: 'markdown', schema: {} }] })).toThrow(/unexpected keys schema/);
		expect(() => assertParseOptions(NODE, { redactPII: { mode: 'fast', level: 2 } })).toThrow(/only mode, replaceStyle, entities/);
		expect(() => assertParseOptions(NODE, { auditMetadata: { username: 'a', team: 'b' } })).toThrow(/\{username\} and nothing else/);
	});
});
