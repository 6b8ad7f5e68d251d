const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { startFakeApi } = require('../fake-api/server');
const { runWorkflow } = require('../helpers/workflow-runner');
const { webDataWorkflow, WEB_DATA } = require('../helpers/workflows');
const { CANARY_KEY, record } = require('../helpers/canary');

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const fixture = (name) => path.join(FIXTURES, name);
const sha256 = (file) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

let api;
beforeAll(async () => {
	api = await startFakeApi({ apiKey: CANARY_KEY });
});
afterAll(async () => api.close());
beforeEach(() => api.reset());

const parse = (extra = {}) => ({ resource: 'parse', operation: 'parseFile', ...extra });
const file = (name, over = {}) => ({ json: { name }, binary: { data: { path: fixture(name), ...over } } });

async function run(parameters, items = [file('report.pdf')], node = {}, options = {}) {
	const result = await runWorkflow(webDataWorkflow(parameters, items, node), {
		credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url } },
		...options,
	});
	record(result.error);
	if (result.status === 'success') record(result.items(WEB_DATA));
	return result;
}

const parseRequests = () => api.requests({ method: 'POST', path: '/v2/parse' });

describe('the upload as the service receives it', () => {
	test('defaults: one multipart part "file" with name, type and exact bytes; no options part', async () => {
		const result = await run(parse());
		expect(result.status).toBe('success');
		const [req] = parseRequests();
		expect(req.headers.authorization).toBe(`Bearer ${CANARY_KEY}`);
		expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
		expect(Number(req.headers['content-length'])).toBeGreaterThan(fs.statSync(fixture('report.pdf')).size);
		expect(req.body.parts).toHaveLength(1);
		const [part] = req.body.parts;
		expect(part).toMatchObject({ name: 'file', filename: 'report.pdf', contentType: 'application/pdf' });
		expect(part.size).toBe(fs.statSync(fixture('report.pdf')).size);
		expect(part.sha256).toBe(sha256(fixture('report.pdf')));
		expect(req.status).toBe(200);
	});

	test('options travel as a JSON string part with content type application/json', async () => {
		await run(parse({ formats: ['markdown', 'links'], pdfOptions: { mode: 'fast', maxPages: 2 }, options: { timeout: 60000 }, advancedOptions: { auditUsername: 'ana' } }));
		const [req] = parseRequests();
		expect(req.body.parts.map((p) => p.name)).toEqual(['file', 'options']);
		const options = req.body.parts[1];
		expect(options.filename ?? undefined).toBeUndefined();
		expect(options.contentType).toBe('application/json');
		expect(JSON.parse(options.text)).toEqual({
			formats: [{ type: 'markdown' }, { type: 'links' }],
			parsers: [{ type: 'pdf', mode: 'fast', maxPages: 2 }],
			timeout: 60000,
			auditMetadata: { username: 'ana' },
		});
	});

	// Issue 30: n8n's own check says only "expects binary 'data'"; the node names the field and what to do.
	test('an item without a file: the error names Input Binary Field, says what the item holds, and where a file comes from', async () => {
		const none = await run(parse(), [{ json: { note: 'no file here' } }]);
		expect(none.status).toBe('error');
		expect(none.error.message).toBe('Input Binary Field "data" is not valid: item 1 has no file in the binary field "data" (it has no file at all)');
		expect(none.error.description).toMatch(/Read\/Write Files from Disk, HTTP Request .*put such a node before it/);
		const elsewhere = await run(parse(), [{ json: { name: 'report.pdf' }, binary: { attachment: { path: fixture('report.pdf') } } }]);
		expect(elsewhere.status).toBe('error');
		expect(elsewhere.error.message).toMatch(/item 1 has no file in the binary field "data" \(its binary fields: attachment\)/);
		expect(elsewhere.error.description).toMatch(/Set "Input Binary Field" to the field that holds the file \(attachment\)/);
		expect(api.log).toHaveLength(0);
	});

	test('a file without an extension is named from its MIME type', async () => {
		const result = await run(parse(), [file('report.pdf', { fileName: 'scan-0042', mimeType: 'application/pdf' })]);
		expect(result.status).toBe('success');
		expect(parseRequests()[0].body.parts[0].filename).toBe('scan-0042.pdf');
		expect(result.json(WEB_DATA)[0].fileName).toBe('scan-0042');
	});

	test.each(['memo.docx', 'book.epub', 'prices.csv', 'page.html', 'notes.rtf'])('%s is parsed', async (name) => {
		const result = await run(parse(), [file(name)]);
		expect(result.status).toBe('success');
		expect(result.json(WEB_DATA)[0].markdown.length).toBeGreaterThan(0);
		expect(parseRequests()[0].body.parts[0].filename).toBe(name);
	});

	test('filesystem binary mode streams the same bytes', async () => {
		const result = await run(parse(), [file('report.pdf')], {}, { binaryMode: 'filesystem' });
		expect(result.status).toBe('success');
		expect(parseRequests()[0].body.parts[0].sha256).toBe(sha256(fixture('report.pdf')));
	});

	test('a retry re-opens the file: both attempts carry the whole file', async () => {
		api.fault({ method: 'POST', path: '/v2/parse', statuses: [503] });
		const result = await run(parse(), [file('report.pdf')], {}, { binaryMode: 'filesystem' });
		expect(result.status).toBe('success');
		const reqs = parseRequests();
		expect(reqs.map((r) => r.status)).toEqual([503, 200]);
		for (const r of reqs) expect(r.body.parts[0].sha256).toBe(sha256(fixture('report.pdf')));
	}, 20000);
});

describe('output', () => {
	test('each requested format has its key in the item', async () => {
		const result = await run(
			parse({ formats: ['markdown', 'summary', 'html', 'rawHtml', 'links', 'images', 'json'], jsonPrompt: 'the title', jsonSchema: '{"type":"object","properties":{"title":{"type":"string"}}}' }),
			[file('page.html')],
		);
		const [item] = result.json(WEB_DATA);
		for (const key of ['markdown', 'summary', 'html', 'rawHtml', 'links', 'images', 'json']) expect(item).toHaveProperty(key);
		expect(item.fileName).toBe('page.html');
		expect(item.metadata).toBeDefined();
	});

	test('page markers separate pages exactly as spec 2.3 writes them', async () => {
		const result = await run(parse({ pdfOptions: { pageMarkers: true } }));
		const { markdown } = result.json(WEB_DATA)[0];
		expect(markdown).toContain('\n\n---\n\n<!-- page 2 -->\n\n');
		expect(markdown).toContain('\n\n---\n\n<!-- page 3 -->\n\n');
		expect(markdown).not.toContain('<!-- page 1 -->');
	});

	test('truncated is set when totalPages > numPages, and absent otherwise', async () => {
		const cut = await run(parse({ pdfOptions: { maxPages: 2 } }));
		expect(cut.json(WEB_DATA)[0]).toMatchObject({ truncated: true, metadata: { numPages: 2, totalPages: 3 } });
		api.reset();
		const whole = await run(parse());
		expect(whole.json(WEB_DATA)[0].truncated).toBeUndefined();
	});

	test('one item per page', async () => {
		const result = await run(parse({ output: 'pages' }), [file('report.pdf'), file('report.pdf', { fileName: 'copy.pdf' })]);
		const items = result.items(WEB_DATA);
		expect(items).toHaveLength(6);
		expect(items.map((i) => i.json.pageNumber)).toEqual([1, 2, 3, 1, 2, 3]);
		expect(items.map((i) => i.pairedItem)).toEqual([0, 0, 0, 1, 1, 1].map((item) => ({ item })));
		expect(items[4].json).toMatchObject({ fileName: 'copy.pdf', metadata: { numPages: 3 } });
		expect(items[0].json.markdown).toContain('Quarterly revenue grew 12 percent.');
		expect(JSON.parse(parseRequests()[0].body.parts[1].text)).toEqual({ parsers: [{ type: 'pdf', pages: true }] });
	});

	test('one item per layout block, unknown block types and extra keys passed through', async () => {
		const result = await run(parse({ output: 'blocks' }));
		const blocks = result.json(WEB_DATA);
		expect(blocks.length).toBeGreaterThan(3);
		expect(blocks[0]).toMatchObject({ id: 'p1.b0', type: 'title', pageNumber: 1, pageStatus: 'ok', fileName: 'report.pdf' });
		const chart = blocks.find((b) => b.type === 'chart');
		expect(chart).toBeDefined();
		expect(chart.chartType).toBe('bar');
		expect(blocks.map((b) => b.pageNumber)).toEqual([...blocks.map((b) => b.pageNumber)].sort());
	});

	test('the Markdown goes into a .md binary and the input file is kept', async () => {
		const result = await run(parse({ options: { markdownToBinary: true, keepInputBinary: true } }));
		const [item] = result.items(WEB_DATA);
		expect(Object.keys(item.binary).sort()).toEqual(['data', 'markdown']);
		expect(item.binary.markdown).toMatchObject({ fileName: 'report.md', mimeType: 'text/markdown' });
		expect(Buffer.from(item.binary.markdown.data, 'base64').toString('utf8')).toBe(item.json.markdown);
	});

	test('a warning from the service stays on the item', async () => {
		const result = await run(parse(), [file('warning.html')]);
		expect(typeof result.json(WEB_DATA)[0].warning).toBe('string');
	});
});

describe('validation before upload: nothing is sent', () => {
	test.each([
		['an unsupported kind of file', parse(), [file('unsupported.zip')], /Input Binary Field "data" "unsupported.zip" is not valid: the file must be one of .html/],
		['a missing binary field', parse({ binaryPropertyName: 'attachment' }), [file('report.pdf')], /attachment/],
		['max pages out of range', parse({ pdfOptions: { maxPages: 20000 } }), [file('report.pdf')], /Max Pages 20000/],
		['a timeout over 300000', parse({ options: { timeout: 400000 } }), [file('report.pdf')], /Timeout \(Milliseconds\) 400000/],
		['a schema that is not an object', parse({ formats: ['json'], jsonSchema: '[]' }), [file('report.pdf')], /JSON Schema/],
		// integration: a known value or one starting with "_" (server utils/integration.ts 10ac4b1d).
		['a free-text integration', parse({ advancedOptions: { integration: 'my-int' } }), [file('report.pdf')], /^Advanced Options → Integration Label "my-int" is not valid: the service accepts only .*n8n.*starting with "_"/],
	])('%s', async (_name, parameters, items, pattern) => {
		const result = await run(parameters, items);
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(pattern);
		expect(api.log).toHaveLength(0);
	});

	test('the integration values the service accepts are sent (and accepted by the fake)', async () => {
		for (const integration of ['n8n', '_my-team']) {
			const result = await run(parse({ advancedOptions: { integration } }));
			expect(result.status).toBe('success');
		}
		expect(parseRequests().map((r) => [JSON.parse(r.body.parts[1].text).integration, r.status])).toEqual([
			['n8n', 200],
			['_my-team', 200],
		]);
	});

	test('a file over 50 MB is refused from its metadata', async () => {
		const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webdata-big-'));
		const big = path.join(dir, 'big.pdf');
		fs.closeSync(fs.openSync(big, 'w'));
		fs.truncateSync(big, 50 * 1024 * 1024 + 1);
		try {
			const result = await run(parse(), [{ json: {}, binary: { data: { path: big } } }], {}, { binaryMode: 'filesystem' });
			expect(result.status).toBe('error');
			expect(result.error.message).toMatch(/big.pdf.*50.0 MB; the service takes at most 50 MB/);
			expect(api.log).toHaveLength(0);
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	}, 30000);
});

describe('errors of spec 4.1', () => {
	test('prompt injection: says so, names the 4 credits, and Continue On Fail goes on', async () => {
		const result = await run(
			parse({ options: { checkPromptInjection: true } }),
			[file('injection.pdf'), file('report.pdf')],
			{ onError: 'continueRegularOutput' },
		);
		const items = result.items(WEB_DATA);
		expect(items).toHaveLength(2);
		expect(items[0].json).toMatchObject({ httpStatus: 403, code: 'SCRAPE_PROMPT_INJECTION_DETECTED', retryable: false });
		expect(items[0].json.description).toMatch(/prompt-injection attempt.*4 credits/);
		expect(items[0].pairedItem).toEqual({ item: 0 });
		expect(items[1].json.markdown).toBeDefined();
		expect(items[1].pairedItem).toEqual({ item: 1 });
	});

	test.each([
		[400, /rejected the upload/],
		[402, /out of credits/],
		[413, /at most 50 MB/],
	])('%s is not retried and explains itself', async (status, hint) => {
		api.fault({ method: 'POST', path: '/v2/parse', statuses: [status] });
		const result = await run(parse());
		expect(result.status).toBe('error');
		expect(result.error.description).toMatch(hint);
		expect(parseRequests()).toHaveLength(1);
	});

	test('500 is retried with backoff until the service recovers', async () => {
		// Keep the test quick: the schedule itself is covered by the transport's unit tests.
		api.fault({ method: 'POST', path: '/v2/parse', statuses: [500, 500], body: { success: false, code: 'UNKNOWN_ERROR', error: 'boom id=1' } });
		const result = await run(parse());
		expect(result.status).toBe('success');
		expect(parseRequests().map((r) => r.status)).toEqual([500, 500, 200]);
	}, 20000);
});

describe('many files', () => {
	test('20 files at concurrency 5, every third request answered 429 with Retry-After: 1: all succeed, in order', async () => {
		// notTwiceInARow: a file's retry after a 429 is never the one that gets the next 429. Without it the
		// every-third count is global, so which file lands on a third slot depends on the interleaving, and
		// one file got 429 on all 5 attempts (the transport's limit, spec 7.3) in about 1 run of 12, idle
		// or loaded: measured, a retry after a 429 got 429 again at the fault's plain rate (33 of 106, 31 %;
		// first tries 75 of 240, 31 %), so the pace does not steer retries onto third slots. Giving up after
		// 5 attempts is the product's rule; this test proves retries, the hold and the order.
		api.fault({ method: 'POST', path: '/v2/parse', every: 3, statuses: [429], retryAfter: '1', times: 1000, notTwiceInARow: true });
		const items = Array.from({ length: 20 }, (_, i) => file('report.pdf', { fileName: `file-${String(i).padStart(2, '0')}.pdf` }));
		const started = Date.now();
		const result = await run(parse({ options: { concurrency: 5 } }), items);
		expect({ status: result.status, error: result.error?.message }).toEqual({ status: 'success', error: undefined });
		const out = result.items(WEB_DATA);
		expect(out.map((i) => i.json.fileName)).toEqual(items.map((i) => i.binary.data.fileName));
		expect(out.map((i) => i.pairedItem.item)).toEqual([...Array(20).keys()]);
		const reqs = parseRequests();
		expect(reqs.filter((r) => r.status === 429).length).toBeGreaterThan(0);
		expect(reqs.filter((r) => r.status === 200)).toHaveLength(20);
		expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
	}, 60000);
});

// Options and Advanced Options hold different settings under the API's
// names: together they make one request, and a bad value is named where the panel shows it.
describe('the option collections', () => {
	const sent = {
		timeout: 60000,
		onlyMainContent: false,
		removeBase64Images: false,
		blockAds: false,
		proxy: 'auto',
		skipTlsVerification: false,
		headers: { Cookie: 'session=1' },
		integration: '_my-team',
		origin: 'e2e',
		auditMetadata: { username: 'ana' },
	};
	const optionsSent = () => parseRequests().map((r) => JSON.parse(r.body.parts[1].text));

	test('Options and Advanced Options are sent as one set of options', async () => {
		const result = await run(
			parse({
				options: { timeout: 60000, removeBase64Images: false },
				advancedOptions: {
					onlyMainContent: false,
					blockAds: false,
					proxy: 'auto',
					skipTlsVerification: false,
					headers: { header: [{ name: 'Cookie', value: 'session=1' }] },
					integration: '_my-team',
					origin: 'e2e',
					auditUsername: 'ana',
				},
			}),
		);
		expect(result.status).toBe('success');
		expect(optionsSent()).toEqual([sent]);
	});

	test('Advanced Options alone are read', async () => {
		await run(parse({ advancedOptions: { proxy: 'auto', includeTags: 'main' } }));
		expect(JSON.parse(parseRequests()[0].body.parts[1].text)).toEqual({ proxy: 'auto', includeTags: ['main'] });
	});

	test.each([
		[{ advancedOptions: { auditUsername: 'a'.repeat(1025) } }, /^Advanced Options → User Name for Audit Logs "a+…?" is not valid: at most 1024 characters/],
		[{ advancedOptions: { integration: 'my-int' } }, /^Advanced Options → Integration Label "my-int" is not valid/],
		[{ advancedOptions: { headers: { header: [{ name: ' ', value: 'x' }] } } }, /^Advanced Options → Headers for Linked Web Pages → Name " " is not valid/],
		[{ advancedOptions: { proxy: 'stealth' } }, /^Advanced Options → Proxy for Linked Web Pages "stealth" is not valid/],
		[{ options: { timeout: 400000 } }, /^Options → Timeout \(Milliseconds\) 400000 is not valid/],
		// The json format's schema: the check Scrape makes before sending (server validateSchemaForOpenAI:
		// the real server answers 400 "Schema contains invalid structure for OpenAI…" after the upload).
		[{ formats: ['json'], jsonSchema: '{"type":"object","additionalProperties":true}' }, /^JSON Schema .* is not valid: the schema itself is an object with "additionalProperties": true and no "properties"/],
		[{ formats: ['markdown', 'json'], jsonSchema: '{"type":"object","properties":{"tags":{"type":"object","additionalProperties":true}}}' }, /^JSON Schema .* is not valid: properties → tags is an object/],
	])('a bad value is named where the panel shows it, and nothing is sent (%j)', async (parameters, pattern) => {
		const result = await run(parse(parameters));
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(pattern);
		expect(api.log).toHaveLength(0);
	});
});
