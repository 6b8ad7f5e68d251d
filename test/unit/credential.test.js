const { WebDataApi } = require('../../dist/credentials/WebDataApi.credentials');
const { startFakeApi } = require('../fake-api/server');
const { CANARY_KEY } = require('../helpers/canary');

const credential = new WebDataApi();

/** Evaluates an n8n expression of the form ={{ … }} that only reads $credentials. */
function evaluate(expression, $credentials) {
	const body = /^=\{\{([\s\S]*)\}\}$/.exec(expression)[1];
	// eslint-disable-next-line no-new-func
	return new Function('$credentials', `return (${body});`)($credentials);
}

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

	test.each([
		['https://api.firecrawl.dev', 'https://api.firecrawl.dev'],
		['https://api.firecrawl.dev/', 'https://api.firecrawl.dev'],
		['https://api.firecrawl.dev/v2', 'https://api.firecrawl.dev'],
		['https://api.firecrawl.dev/v2/', 'https://api.firecrawl.dev'],
		[' http://127.0.0.1:3002// ', 'http://127.0.0.1:3002'],
	])('the test request goes to %j → %s/v2/team/credit-usage', (baseUrl, expected) => {
		expect(evaluate(credential.test.request.baseURL, { baseUrl })).toBe(expected);
		expect(credential.test.request.url).toBe('/v2/team/credit-usage');
		expect(credential.test.request.method).toBe('GET');
	});

	test('the test request is cheap and answers 200 with a good key, 401 with a bad one', async () => {
		const api = await startFakeApi({ apiKey: CANARY_KEY });
		try {
			const url = evaluate(credential.test.request.baseURL, { baseUrl: `${api.url}/v2/` }) + credential.test.request.url;
			const good = await fetch(url, { headers: { Authorization: `Bearer ${CANARY_KEY}` } });
			expect(good.status).toBe(200);
			const bad = await fetch(url, { headers: { Authorization: 'Bearer wrong' } });
			expect(bad.status).toBe(401);
			expect(await bad.json()).toEqual({ success: false, error: 'Unauthorized: Invalid token' });
		} finally {
			await api.close();
		}
	});
});
