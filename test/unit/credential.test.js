const http = require('http');
const net = require('net');
require('../helpers/workflow-runner'); // sets up n8n-core's environment (the credential test's real HTTP client)
const { WebDataApi } = require('../../dist/credentials/WebDataApi.credentials');
const { WebData } = require('../../dist/nodes/WebData/WebData.node');
const { WebDataTrigger } = require('../../dist/nodes/WebDataTrigger/WebDataTrigger.node');
const { TEST_PATH } = require('../../dist/credentials/WebDataApi.credentials');
const { testCredential } = require('../helpers/credential-tester');
const { checkBaseUrl } = require('../../dist/nodes/WebData/transport/baseUrl');
const { apiRequest } = require('../../dist/nodes/WebData/transport');
const { startFakeApi } = require('../fake-api/server');
const { CANARY_KEY } = require('../helpers/canary');
const { fakeContext } = require('../helpers/fake-context');

const credential = new WebDataApi();

describe('credential webDataApi', () => {
	test('type, name and fields', () => {
		expect(credential.name).toBe('webDataApi');
		expect(credential.displayName).toBe('Web Data API');
		const byName = Object.fromEntries(credential.properties.map((p) => [p.name, p]));
		expect(byName.apiKey.typeOptions.password).toBe(true);
		expect(byName.apiKey.required).toBe(true);
		expect(byName.baseUrl.default).toBe('https://api.firecrawl.dev');
		expect(byName.webhookSecret.typeOptions.password).toBe(true);
		expect(byName.webhookSecret.required).toBeFalsy();
	});

	test('both icons, light and dark, and both files ship beside the compiled credential', () => {
		expect(credential.icon).toEqual({ light: 'file:webdata.svg', dark: 'file:webdata.dark.svg' });
		const dir = require('path').join(__dirname, '../../dist/credentials');
		for (const file of ['webdata.svg', 'webdata.dark.svg']) expect(require('fs').existsSync(require('path').join(dir, file))).toBe(true);
	});

		test('bearer auth through authenticate', () => {
		expect(credential.authenticate).toEqual({
			type: 'generic',
			properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey}}' } },
		});
	});
});

describe('Base URL rules (checked before every request)', () => {
	test.each([
		['https://api.firecrawl.dev', 'https://api.firecrawl.dev'],
		['https://api.firecrawl.dev/', 'https://api.firecrawl.dev'],
		['https://api.firecrawl.dev/v2', 'https://api.firecrawl.dev'],
		['https://api.firecrawl.dev/v2/', 'https://api.firecrawl.dev'],
		[' http://127.0.0.1:3002// ', 'http://127.0.0.1:3002'],
		['http://localhost:3002', 'http://localhost:3002'],
		['https://proxy.example/webdata', 'https://proxy.example/webdata'], // a self-hosted service behind a path prefix
		['', 'https://api.firecrawl.dev'],
	])('accepted: %j → %s', (raw, url) => {
		expect(checkBaseUrl(raw)).toEqual({ ok: true, url });
	});

	test.each([
		['api.example', /no scheme/, /https:\/\/api\.example/],
		['localhost:3002', /no scheme/, /https:\/\/localhost:3002/],
		['ftp://api.example', /ftp:\/\//, /https:\/\/api\.firecrawl\.dev/],
		['https://', /not a valid address/, /for example/],
		['https://api.firecrawl.dev/v1', /API path/, /https:\/\/api\.firecrawl\.dev: the node adds \/v2/],
		['https://api.firecrawl.dev/v2/scrape', /API path/, /without the path/],
		['https://api.firecrawl.dev?key=1', /query or fragment/, /without "\?…"/],
		['https://user:pw@api.firecrawl.dev', /user name or password/, /API key field/],
	])('refused: %j', (raw, problem, fix) => {
		const check = checkBaseUrl(raw);
		expect(check.ok).toBe(false);
		expect(check.problem).toMatch(problem);
		expect(check.fix).toMatch(fix);
	});

	test('the field says what to enter', () => {
		const baseUrl = credential.properties.find((p) => p.name === 'baseUrl');
		expect(baseUrl.placeholder).toBe('https://api.firecrawl.dev');
		expect(baseUrl.hint).toMatch(/http:\/\/localhost:3002/);
		expect(baseUrl.description).toMatch(/http:\/\/ or https:\/\//);
	});

	test('an invalid Base URL fails a node request before anything is sent, naming the field and the fix', async () => {
		const { ctx, calls } = fakeContext({ baseUrl: 'api.example', responses: [{ status: 200, body: {} }] });
		const error = await apiRequest(ctx, { method: 'GET', path: '/team/credit-usage' }).catch((e) => e);
		expect(error.name).toBe('NodeOperationError');
		expect(error.message).toMatch('Base URL "api.example" has no scheme');
		expect(error.message).toMatch('https://api.example');
		expect(calls).toHaveLength(0);
	});
});

describe('Test (the credential\'s own declarative test: n8n makes the request, no deprecated helper)', () => {
	test('the credential holds the test; no node names a testedBy function (n8n would prefer the credential\'s anyway)', () => {
		expect(credential.test.request).toEqual({
			baseURL: expect.stringMatching(/^=\{\{ .*\$credentials\.baseUrl/),
			url: TEST_PATH,
			method: 'GET',
			headers: { Accept: 'application/json' },
			timeout: 10_000,
		});
		expect(TEST_PATH).toBe('/v2/team/credit-usage');
		for (const node of [new WebData(), new WebDataTrigger()]) {
			expect(node.description.credentials).toEqual([{ name: 'webDataApi', required: true }]);
			expect(node.methods.credentialTest).toBeUndefined();
		}
	});

	test('a plain message for every refusal the old Test explained (401, 402, 403, 404, 405, 429, 5xx), each responseCode', () => {
		const byCode = Object.fromEntries(credential.test.rules.map((r) => [r.properties.value, r]));
		for (const rule of credential.test.rules) expect(rule.type).toBe('responseCode');
		expect(Object.keys(byCode).map(Number)).toEqual([401, 402, 403, 404, 405, 429, 500, 502, 503, 504]);
		expect(byCode[401].properties.message).toMatch(/refused the API key \(401\).*Copy the key again from the dashboard/);
		expect(byCode[402].properties.message).toMatch(/no credits left \(402\).*Add credits/);
		// Reads that cost nothing (the account's usage, job status) still work without credits.
		expect(byCode[402].properties.message).toMatch(/the operations that spend credits fail\.$/);
		expect(byCode[404].properties.message).toMatch(/No Web Data API v2 at this Base URL.*Check Base URL/);
		expect(byCode[429].properties.message).toMatch(/rate limiting/);
	});

	let api;
	beforeAll(async () => {
		api = await startFakeApi({ apiKey: CANARY_KEY });
	});
	afterAll(async () => {
		await api.close();
	});

	/** A one-route HTTP server answering `status` with `body`; counts the requests. */
	async function server(status, body, type = 'application/json') {
		const hits = [];
		const srv = http.createServer((req, res) => {
			hits.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
			res.writeHead(status, { 'content-type': type });
			res.end(typeof body === 'string' ? body : JSON.stringify(body));
		});
		await new Promise((r) => srv.listen(0, '127.0.0.1', r));
		return { url: `http://127.0.0.1:${srv.address().port}`, hits, close: () => new Promise((r) => srv.close(r)) };
	}

	test.each([['/v2/'], ['/'], ['//'], ['/v2'], ['']])('a good key: OK, one free request, whatever the Base URL ends with (%j)', async (tail) => {
		const before = api.requests({ method: 'GET', path: TEST_PATH }).length;
		expect(await testCredential(credential, { apiKey: CANARY_KEY, baseUrl: ` ${api.url}${tail} ` })).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(api.requests({ method: 'GET', path: TEST_PATH }).length - before).toBe(1);
	});

	test('the key is sent as a bearer token (the credential\'s authenticate)', async () => {
		const s = await server(200, { success: true, data: {} });
		try {
			await testCredential(credential, { apiKey: 'fc-abc', baseUrl: s.url });
			expect(s.hits).toEqual(['GET /v2/team/credit-usage Bearer fc-abc']);
		} finally {
			await s.close();
		}
	});

	test('key refused (401): says so and what to do, without the key', async () => {
		const result = await testCredential(credential, { apiKey: 'fc-wrong', baseUrl: api.url });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/refused the API key \(401\)/);
		expect(result.message).toMatch(/Copy the key again from the dashboard/);
		expect(result.message).not.toMatch('fc-wrong');
	});

	test.each([
		[402, /no credits left \(402\)/],
		[404, /No Web Data API v2 at this Base URL/],
		[429, /rate limiting this key \(429\)/],
		[502, /failed \(502\)/],
	])('%i: the rule\'s plain message', async (status, message) => {
		const s = await server(status, status === 404 ? '<html>Not found</html>' : { success: false, error: 'x' }, status === 404 ? 'text/html' : 'application/json');
		try {
			const result = await testCredential(credential, { apiKey: CANARY_KEY, baseUrl: s.url });
			expect(result).toEqual({ status: 'Error', message: expect.stringMatching(message) });
		} finally {
			await s.close();
		}
	});

	test('unreachable host (closed port): n8n reports the error code (a credential cannot reword it)', async () => {
		const probe = net.createServer();
		await new Promise((r) => probe.listen(0, '127.0.0.1', r));
		const { port } = probe.address();
		await new Promise((r) => probe.close(r));
		expect(await testCredential(credential, { apiKey: CANARY_KEY, baseUrl: `http://127.0.0.1:${port}` })).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
	});
});
