const http = require('http');
const net = require('net');
require('../helpers/workflow-runner'); // sets up n8n-core's environment (the credential test's real HTTP client)
const core = require('n8n-core');
const { WebDataApi } = require('../../dist/credentials/WebDataApi.credentials');
const { WebData } = require('../../dist/nodes/WebData/WebData.node');
const { WebDataTrigger } = require('../../dist/nodes/WebDataTrigger/WebDataTrigger.node');
const { webDataApiTest, TEST_PATH } = require('../../dist/nodes/WebData/methods/checkCredential');
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

	test('bearer auth through authenticate', () => {
		expect(credential.authenticate).toEqual({
			type: 'generic',
			properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey}}' } },
		});
	});
});

describe('Base URL rules (checked by Test and before every request)', () => {
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

describe('Test (the nodes\' credentialTest webDataApiTest)', () => {
	test('both nodes name it with testedBy; the credential has no request test that n8n would prefer', () => {
		// n8n 2.41 (CredentialsTester.getCredentialTestFunction) uses a credential's own `test` first.
		expect(credential.test).toBeUndefined();
		for (const node of [new WebData(), new WebDataTrigger()]) {
			expect(node.description.credentials).toEqual([{ name: 'webDataApi', required: true, testedBy: 'webDataApiTest' }]);
			expect(node.methods.credentialTest.webDataApiTest).toBe(webDataApiTest);
		}
	});

	/** Runs the Test as n8n does: in n8n-core's CredentialTestContext (its real HTTP client). */
	const runTest = (data) => webDataApiTest.call(new core.CredentialTestContext(undefined), { id: 'c1', name: 'Web Data account', type: 'webDataApi', data });

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

	let api;
	beforeAll(async () => {
		api = await startFakeApi({ apiKey: CANARY_KEY });
	});
	afterAll(async () => {
		await api.close();
	});

	test('a good key: OK, with one free request (GET /v2/team/credit-usage)', async () => {
		const before = api.requests({ method: 'GET', path: TEST_PATH }).length;
		expect(await runTest({ apiKey: CANARY_KEY, baseUrl: `${api.url}/v2/` })).toEqual({ status: 'OK', message: expect.stringMatching(/accepted the API key/) });
		expect(api.requests({ method: 'GET', path: TEST_PATH }).length - before).toBe(1);
	});

	test('key refused (401): says so and what to do', async () => {
		const result = await runTest({ apiKey: 'fc-wrong', baseUrl: api.url });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/refused the API key \(401\)/);
		expect(result.message).toMatch(/Copy the key again from the dashboard/);
		expect(result.message).not.toMatch('fc-wrong');
	});

	test('no credits (402): says so and what to do', async () => {
		const s = await server(402, { success: false, error: 'Payment required to access this resource.' });
		try {
			const result = await runTest({ apiKey: CANARY_KEY, baseUrl: s.url });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/no credits left \(402\)/);
			expect(result.message).toMatch(/Add credits/);
		} finally {
			await s.close();
		}
	});

	test('unreachable host (closed port): connection refused, check host and port', async () => {
		const probe = net.createServer();
		await new Promise((r) => probe.listen(0, '127.0.0.1', r));
		const { port } = probe.address();
		await new Promise((r) => probe.close(r));
		const result = await runTest({ apiKey: CANARY_KEY, baseUrl: `http://127.0.0.1:${port}` });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(`Nothing answers at http://127.0.0.1:${port} (connection refused)`);
		expect(result.message).toMatch(/Check the host and port in Base URL/);
	});

	test('unknown host: host not found, check the spelling', async () => {
		const result = await runTest({ apiKey: CANARY_KEY, baseUrl: 'https://no-such-host.invalid' });
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/The host no-such-host\.invalid was not found/);
	}, 30000);

	test('wrong scheme (https to a plain-http service): says to try http://', async () => {
		const s = await server(200, { success: true });
		try {
			const result = await runTest({ apiKey: CANARY_KEY, baseUrl: s.url.replace('http://', 'https://') });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/TLS \(https\) connection .* failed/);
			expect(result.message).toMatch(/Try http:\/\//);
		} finally {
			await s.close();
		}
	});

	test('a web page instead of the API (404 / HTML): check Base URL', async () => {
		const s = await server(404, '<html><body>Not found</body></html>', 'text/html');
		try {
			const result = await runTest({ apiKey: CANARY_KEY, baseUrl: s.url });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/answered 404 to GET \/v2\/team\/credit-usage: no Web Data API v2 there/);
		} finally {
			await s.close();
		}
		const page = await server(200, '<html>dashboard</html>', 'text/html');
		try {
			expect((await runTest({ apiKey: CANARY_KEY, baseUrl: page.url })).message).toMatch(/not as the Web Data API/);
		} finally {
			await page.close();
		}
	});

	test.each([['api.example'], ['https://api.firecrawl.dev/v1'], ['ftp://api.example']])(
		'an invalid Base URL %j: refused with the fix, nothing sent',
		async (baseUrl) => {
			const context = { helpers: { request: jest.fn() } };
			const result = await webDataApiTest.call(context, { id: 'c1', name: 'x', type: 'webDataApi', data: { apiKey: CANARY_KEY, baseUrl } });
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/Base URL/);
			expect(result.message).toMatch(/https:\/\//);
			expect(context.helpers.request).not.toHaveBeenCalled();
		},
	);
});
