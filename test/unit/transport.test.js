const { apiRequest, normalizeBaseUrl, resolveUrl } = require('../../dist/nodes/WebData/transport');
const retry = require('../../dist/nodes/WebData/transport/retry');
const { CANARY_KEY, record } = require('../helpers/canary');
const { fakeContext, recordingDeps } = require('../helpers/fake-context');

// Every row of the error tables of spec 7.1 and 7.2: status, body, and whether 7.3 retries it.
const CATALOGUE = [
	[400, { success: false, error: 'Bad Request', details: [{ path: ['url'], message: 'Required' }] }, false],
	[400, { success: false, error: 'Invalid URL' }, false],
	[400, { success: false, code: 'THIRD_PARTY_DATA_UNSUPPORTED_URL', error: 'unsupported url' }, false],
	[400, { success: false, code: 'THIRD_PARTY_DATA_UNSUPPORTED_OPTION', error: 'actions not supported' }, false],
	[401, { success: false, error: 'Unauthorized: Invalid token' }, false],
	[402, { success: false, error: 'Payment Required: Insufficient credits' }, false],
	[403, { success: false, error: 'Forbidden' }, false],
	[403, { success: false, code: 'SCRAPE_PROMPT_INJECTION_DETECTED', error: 'Prompt injection detected' }, false],
	[403, { success: false, code: 'THIRD_PARTY_DATA_NOT_ENABLED', error: 'not enabled' }, false],
	[403, { success: false, code: 'THIRD_PARTY_DATA_ENRICHMENT_NOT_ENABLED', error: 'see settings' }, false],
	[403, { success: false, code: 'UNSUPPORTED_SITE', error: 'We apologize for the inconvenience but we do not support this site' }, false],
	[403, { success: false, code: 'THIRD_PARTY_DATA_TERMS_REQUIRED', error: 'terms', requiresAction: { url: 'https://example.com/terms' } }, false],
	[404, { success: false, error: 'Not Found' }, false],
	[404, { success: false, code: 'THIRD_PARTY_DATA_NOT_FOUND', error: 'no record' }, false],
	[408, { success: false, error: 'Request Timeout' }, true],
	[409, { success: false, error: 'Conflict' }, false],
	[413, { success: false, error: 'Payload Too Large' }, false],
	[422, { success: false, error: 'Unprocessable Entity' }, false],
	[429, { success: false, error: 'Rate limit exceeded' }, true],
	[429, { success: false, error: 'Concurrency limit reached' }, true],
	[500, { success: false, error: 'Internal Server Error' }, true],
	[502, { success: false, error: 'Bad Gateway' }, true],
	[503, { success: false, error: 'Service Unavailable' }, true],
	[504, { success: false, error: 'Gateway Timeout' }, true],
	// 7.2 agent errors (trace and snapshot bodies may lack `success`)
	[400, { success: false, error: 'Invalid job ID format. Job ID must be a valid UUID.' }, false],
	[400, { error: 'Invalid snapshot ID' }, false],
	[400, { error: 'Trace is only available for Spark 2 extracts' }, false],
	[400, { error: 'Snapshots are only available for Spark 2 extracts' }, false],
	[400, { success: false, error: 'Your team has zero data retention enabled. This is not supported on extract.' }, false],
	[404, { success: false, error: 'Agent job not found' }, false],
	[404, { error: 'Snapshot not found' }, false],
	[409, { success: false, error: 'Agent already finished' }, false],
	[409, { success: false, error: 'Agent is already cancelled' }, false],
	[500, { success: false, error: 'Failed to passthrough agent request.' }, true],
];

// Waits of 7.3 with the jitter source fixed at 0.5: 2^n s + 0.5 s after failed attempt n.
const BACKOFF = [2500, 4500, 8500, 16500];

describe('retry schedule of spec 7.3 for every catalogued error', () => {
	test.each(CATALOGUE.map((row) => [row[0], row[1].code ?? row[1].error, ...row]))(
		'%s %s',
		async (_s, _label, status, body, retryable) => {
			const { ctx, calls } = fakeContext({ responses: [{ status, body }] });
			const { deps, waits } = recordingDeps();
			const error = await apiRequest(ctx, { method: 'GET', path: '/agent/x' }, deps).catch((e) => e);
			record(error);
			expect(error.name).toBe('NodeApiError');
			expect(calls).toHaveLength(retryable ? 5 : 1);
			expect(waits).toEqual(retryable ? BACKOFF : []);
			expect(error.context.httpStatus).toBe(status);
			expect(error.context.retryable).toBe(retryable);
			expect(error.context.apiCode).toBe(body.code ?? null);
			expect(error.message).toBe(body.error);
			expect(error.httpCode).toBe(String(status));
			if (body.requiresAction) expect(error.context.requiresActionUrl).toBe(body.requiresAction.url);
			if (body.details) {
				expect(error.context.details).toEqual(body.details);
				expect(error.description).toContain('url: Required');
			}
		},
	);

	test('POST requests are retried on retryable statuses too', async () => {
		const { ctx, calls } = fakeContext({
			responses: [{ status: 500, body: { success: false, error: 'Failed to passthrough agent request.' } }, { status: 200, body: { success: true, id: 'a' } }],
		});
		const { deps, waits } = recordingDeps();
		const body = await apiRequest(ctx, { method: 'POST', path: '/agent', body: { prompt: 'p' } }, deps);
		expect(body).toEqual({ success: true, id: 'a' });
		expect(calls).toHaveLength(2);
		expect(waits).toEqual([2500]);
	});

	test('Retry-After: 7 makes the next wait exactly 7 s', async () => {
		const { ctx, calls } = fakeContext({
			responses: [
				{ status: 429, body: { error: 'Rate limit exceeded' }, headers: { 'retry-after': '7' } },
				{ status: 200, body: { success: true } },
			],
		});
		const { deps, waits } = recordingDeps();
		await apiRequest(ctx, { method: 'GET', path: '/agent/x' }, deps);
		expect(waits).toEqual([7000]);
		expect(calls).toHaveLength(2);
	});

	test('issue 45: a 503 with Retry-After: 20 waits 20 s, not the 2 s backoff; a 502 with one backs off', async () => {
		const { ctx, calls } = fakeContext({
			responses: [
				{ status: 503, body: { error: 'Service Unavailable' }, headers: { 'retry-after': '20' } },
				{ status: 502, body: { error: 'Bad Gateway' }, headers: { 'retry-after': '20' } },
				{ status: 200, body: { success: true } },
			],
		});
		const { deps, waits } = recordingDeps();
		await apiRequest(ctx, { method: 'GET', path: '/agent/x' }, deps);
		expect(waits).toEqual([20000, 4500]);
		expect(calls).toHaveLength(3);
	});

	test('Retry-After as an HTTP date is honoured', async () => {
		const { ctx } = fakeContext({
			responses: [
				{ status: 429, body: { error: 'Rate limit exceeded' }, headers: { 'Retry-After': 'Sat, 21 Nov 2026 12:00:12 GMT' } },
				{ status: 200, body: { success: true } },
			],
		});
		const { deps, waits } = recordingDeps();
		await apiRequest(ctx, { method: 'GET', path: '/agent/x' }, deps);
		expect(waits).toEqual([12000]);
	});

	test('Retry-After is honoured on every 429 and backoff is used where it is absent', async () => {
		const { ctx, calls } = fakeContext({
			responses: [
				{ status: 429, body: { error: 'Rate limit exceeded' }, headers: { 'retry-after': '3' } },
				{ status: 503, body: { error: 'Service Unavailable' } },
				{ status: 429, body: { error: 'Rate limit exceeded' } },
				{ status: 429, body: { error: 'Rate limit exceeded' }, headers: { 'retry-after': '1' } },
				{ status: 429, body: { error: 'Rate limit exceeded' }, headers: { 'retry-after': '1' } },
			],
		});
		const { deps, waits } = recordingDeps();
		const error = await apiRequest(ctx, { method: 'GET', path: '/x' }, deps).catch((e) => e);
		expect(calls).toHaveLength(5);
		expect(waits).toEqual([3000, 4500, 8500, 1000]);
		expect(error.context.attempts).toBe(5);
		expect(error.description).toContain('after 5 attempts');
	});

	test('a Retry-After beyond 5 minutes is not waited for; the error says how long to wait', async () => {
		const { ctx, calls } = fakeContext({
			responses: [{ status: 429, body: { error: 'Rate limit exceeded' }, headers: { 'retry-after': '3600' } }],
		});
		const { deps, waits } = recordingDeps();
		const error = await apiRequest(ctx, { method: 'GET', path: '/x' }, deps).catch((e) => e);
		expect(calls).toHaveLength(1);
		expect(waits).toEqual([]);
		expect(error.description).toContain('3600 s');
	});

	test('backoff is capped at 30 s and jitter stays below 1 s', () => {
		expect(retry.backoffDelay(1, () => 0)).toBe(2000);
		expect(retry.backoffDelay(4, () => 0.999999)).toBe(16999);
		expect(retry.backoffDelay(5, () => 0)).toBe(30000);
		expect(retry.backoffDelay(9, () => 0.999999)).toBe(30999);
	});

	test('jitter comes from the random source', async () => {
		const values = [0.1, 0.9, 0.3, 0.0];
		const { ctx } = fakeContext({ responses: [{ status: 502, body: { error: 'Bad Gateway' } }] });
		const { deps, waits } = recordingDeps({ random: () => values.shift() });
		await apiRequest(ctx, { method: 'GET', path: '/x' }, deps).catch(() => undefined);
		expect(waits).toEqual([2100, 4900, 8300, 16000]);
	});

	test('only 408, 429, 500, 502, 503, 504 are retryable statuses', () => {
		const retryable = [];
		for (let s = 100; s < 600; s++) if (retry.isRetryableStatus(s)) retryable.push(s);
		expect(retryable).toEqual([408, 429, 500, 502, 503, 504]);
	});
});

describe('connection failures and odd answers', () => {
	const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

	test('a dropped connection is retried for GET', async () => {
		const { ctx, calls } = fakeContext({ responses: [reset, { status: 200, body: { success: true, status: 'completed' } }] });
		const { deps, waits } = recordingDeps();
		const body = await apiRequest(ctx, { method: 'GET', path: '/agent/x' }, deps);
		expect(body.status).toBe('completed');
		expect(calls).toHaveLength(2);
		expect(waits).toEqual([2500]);
	});

	test('a dropped connection is not retried for POST (it could start a second job)', async () => {
		const { ctx, calls } = fakeContext({ responses: [reset] });
		const { deps } = recordingDeps();
		const error = await apiRequest(ctx, { method: 'POST', path: '/agent', body: { prompt: 'x' } }, deps).catch((e) => e);
		record(error);
		expect(calls).toHaveLength(1);
		expect(error.message).toContain('Could not reach the Web Data service');
		expect(error.message).toContain('ECONNRESET');
		expect(error.description).toContain('Base URL');
	});

	test('a 2xx body that is not JSON fails clearly', async () => {
		const { ctx } = fakeContext({ responses: [{ status: 200, body: '{"success":tru' }] });
		const { deps } = recordingDeps();
		const error = await apiRequest(ctx, { method: 'POST', path: '/agent', body: {} }, deps).catch((e) => e);
		expect(error.message).toContain('not valid JSON');
	});

	test('an error body that is not JSON keeps its readable text, without markup', async () => {
		const { ctx } = fakeContext({ responses: [{ status: 404, body: '<html><b>nope</b></html>' }] });
		const { deps } = recordingDeps();
		const error = await apiRequest(ctx, { method: 'GET', path: '/x' }, deps).catch((e) => e);
		expect(error.message).not.toContain('<');
		expect(error.description).toContain('"nope"');
		expect(error.context.httpStatus).toBe(404);
	});

	test('a cancelled execution stops waiting at once', async () => {
		const controller = new AbortController();
		const { ctx, calls } = fakeContext({ responses: [{ status: 503, body: { error: 'Service Unavailable' } }], signal: controller.signal });
		const { deps } = recordingDeps({
			sleep: async (_ms, signal) => {
				controller.abort();
				if (signal?.aborted) throw new Error('aborted');
			},
		});
		const error = await apiRequest(ctx, { method: 'GET', path: '/x' }, deps).catch((e) => e);
		expect(error.name).toBe('AbortError');
		expect(calls).toHaveLength(1);
	});
});

describe('hints a person can act on', () => {
	const cases = [
		[401, {}, 'Check the API key in the Web Data API credential'],
		[402, {}, 'out of credits'],
		[429, {}, 'Lower the Concurrency'],
		[403, { code: 'THIRD_PARTY_DATA_NOT_ENABLED' }, 'administrator must enable it'],
		[403, { code: 'THIRD_PARTY_DATA_TERMS_REQUIRED', requiresAction: { url: 'https://x.test/terms' } }, 'https://x.test/terms'],
		[403, { code: 'SCRAPE_PROMPT_INJECTION_DETECTED' }, '4 credits'],
		[413, {}, '50 MB'],
		[400, { code: 'PARSE_UNSUPPORTED_OPTIONS' }, 'not supported for parsing files'],
	];
	test.each(cases)('%s %j', async (status, extra, text) => {
		const { ctx } = fakeContext({ responses: [{ status, body: { success: false, error: 'x', ...extra } }] });
		const { deps } = recordingDeps({ maxAttempts: 1 });
		const error = await apiRequest(ctx, { method: 'GET', path: '/x' }, deps).catch((e) => e);
		expect(error.description).toContain(text);
	});

	test('an operation hint keyed by error text wins over the status hint', async () => {
		const { ctx } = fakeContext({ responses: [{ status: 409, body: { success: false, error: 'Agent already finished' } }] });
		const { deps } = recordingDeps();
		const error = await apiRequest(ctx, { method: 'DELETE', path: '/agent/x', hints: { 'text:already finished': 'It finished.' , '409': 'generic' } }, deps).catch((e) => e);
		expect(error.description.startsWith('It finished.')).toBe(true);
	});
});

describe('the API key stays secret', () => {
	test('a server that echoes the key does not leak it into the error', async () => {
		const { ctx } = fakeContext({
			responses: [{ status: 401, body: { success: false, error: `Unauthorized: Invalid token ${CANARY_KEY}`, details: [{ message: CANARY_KEY }] } }],
		});
		const { deps } = recordingDeps();
		const error = await apiRequest(ctx, { method: 'GET', path: '/x' }, deps).catch((e) => e);
		record(error);
		expect(JSON.stringify({ ...error, message: error.message, description: error.description })).not.toContain(CANARY_KEY);
		expect(error.message).toContain('[redacted]');
	});

	test('a transport error carrying the request headers is not passed on', async () => {
		const leaky = Object.assign(new Error('connect ECONNREFUSED'), {
			code: 'ECONNREFUSED',
			config: { headers: { Authorization: `Bearer ${CANARY_KEY}` } },
		});
		const { ctx } = fakeContext({ responses: [leaky] });
		const { deps } = recordingDeps({ maxAttempts: 1 });
		const error = await apiRequest(ctx, { method: 'GET', path: '/x' }, deps).catch((e) => e);
		record(error);
		expect(error.cause).toBeUndefined();
	});
});

describe('base URL', () => {
	test.each([
		['https://api.firecrawl.dev', 'https://api.firecrawl.dev'],
		['https://api.firecrawl.dev/', 'https://api.firecrawl.dev'],
		['https://api.firecrawl.dev/v2', 'https://api.firecrawl.dev'],
		['https://api.firecrawl.dev/v2/', 'https://api.firecrawl.dev'],
		['  http://127.0.0.1:3002//  ', 'http://127.0.0.1:3002'],
		['', 'https://api.firecrawl.dev'],
	])('%j → %s', (raw, expected) => {
		expect(normalizeBaseUrl(raw)).toBe(expected);
	});

	test('paths join under /v2 without doubling', () => {
		expect(resolveUrl('https://h.test', '/agent/1')).toBe('https://h.test/v2/agent/1');
		expect(resolveUrl(normalizeBaseUrl('https://h.test/v2/'), '/agent/1')).toBe('https://h.test/v2/agent/1');
	});

	test('absolute links are followed only on the service origin', () => {
		expect(resolveUrl('https://h.test', 'https://h.test/v2/agent?before=1')).toBe('https://h.test/v2/agent?before=1');
		expect(() => resolveUrl('https://h.test', 'https://evil.test/v2/x')).toThrow(/not the service/);
	});

	test('the request goes to the normalized URL with the credential type', async () => {
		const { ctx, calls } = fakeContext({ baseUrl: 'http://127.0.0.1:9/v2/', responses: [{ status: 200, body: { success: true } }] });
		await apiRequest(ctx, { method: 'GET', path: '/agent/abc', qs: { a: 1 } }, recordingDeps().deps);
		expect(calls[0].type).toBe('webDataApi');
		expect(calls[0].url).toBe('http://127.0.0.1:9/v2/agent/abc');
		expect(calls[0].qs).toEqual({ a: 1 });
		expect(calls[0].headers).toBeUndefined();
	});
});

// Issue 14: a self-hosted server (the open-source one as of 2025-08) has no parse, agent, monitor,
// interact or team-activity endpoints; Express answers those with its HTML 404 page. Proxies answer
// with their own pages. Neither is the API's JSON error (spec 2.10).
describe('answers that are not the API\'s JSON error (self-hosted servers, proxies)', () => {
	const { pathHasId, pageText } = require('../../dist/nodes/WebData/transport/errors');
	// What Express (the server's framework) sends for a route it does not have.
	const expressPage = (method, path) =>
		`<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot ${method} ${path}</pre>\n</body>\n</html>\n`;
	const NGINX_502 =
		'<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n';
	const ID_HINT = 'No agent run has this ID';
	const opHints = { '404': `${ID_HINT} for your team.` };
	/** Every text of the error a person or a workflow sees. */
	const shown = (error) => JSON.stringify({ ...error, message: error.message, description: error.description });

	test('an HTML 404 "Cannot POST /v2/parse" says the server has no such endpoint and what to do', async () => {
		const { ctx, calls } = fakeContext({
			baseUrl: 'http://127.0.0.1:3002',
			responses: [{ status: 404, body: expressPage('POST', '/v2/parse'), headers: { 'content-type': 'text/html; charset=utf-8' } }],
		});
		const { deps, waits } = recordingDeps();
		const error = await apiRequest(ctx, { method: 'POST', path: '/parse', body: {}, hints: opHints }, deps).catch((e) => e);
		record(error);
		expect(error.name).toBe('NodeApiError');
		expect(error.message).toBe('The server at http://127.0.0.1:3002 has no endpoint POST /v2/parse (HTTP 404)');
		expect(error.description).toContain('Self-hosted servers');
		expect(error.description).toContain('hosted service (Base URL https://api.firecrawl.dev');
		expect(error.description).toContain('a newer self-hosted server');
		expect(error.description).toContain('"Cannot POST /v2/parse"');
		expect(error.description).toContain('(HTTP 404, POST /parse)');
		expect(shown(error)).not.toMatch(/<[a-z!/]/i);
		expect(shown(error)).not.toContain('DOCTYPE');
		expect(shown(error)).not.toContain('Nothing exists with this id');
		expect(shown(error)).not.toContain(ID_HINT);
		expect(error.context).toMatchObject({ httpStatus: 404, retryable: false, apiCode: null });
		expect(error.context.missingEndpoint).toBe(true); // what the trigger tells from "monitor gone"
		expect(calls).toHaveLength(1);
		expect(waits).toEqual([]);
	});

	test.each([
		['an id in the path', 'GET', '/agent/6f1c2a4e-7b7e-4f55-9a51-2f3c8d1e0a11'],
		['an absolute next link', 'GET', 'http://127.0.0.1:9/v2/crawl/6f1c2a4e-7b7e-4f55-9a51-2f3c8d1e0a11?skip=10'],
		['no id', 'POST', '/agent'],
	])('an HTML 404 with %s never gives an id hint', async (_label, method, path) => {
		const { ctx } = fakeContext({ responses: [{ status: 404, body: expressPage(method, '/v2/x') }] });
		const { deps } = recordingDeps();
		const error = await apiRequest(ctx, { method, path, hints: opHints }, deps).catch((e) => e);
		expect(error.message).toMatch(/has no endpoint (GET|POST) \/v2\/(agent|crawl)/);
		expect(error.message).not.toContain('?skip');
		expect(shown(error)).not.toContain('Nothing exists with this id');
		expect(shown(error)).not.toContain(ID_HINT);
		expect(shown(error)).not.toMatch(/<[a-z!/]/i);
	});

	test("the API's JSON 404 keeps the id hints where the path holds an id", async () => {
		const body = { success: false, error: 'Agent job not found' };
		const withOp = fakeContext({ responses: [{ status: 404, body }] });
		const e1 = await apiRequest(withOp.ctx, { method: 'GET', path: '/agent/abc', hints: opHints }, recordingDeps().deps).catch((e) => e);
		expect(e1.message).toBe('Agent job not found');
		expect(e1.description.startsWith(ID_HINT)).toBe(true);
		expect(e1.context.missingEndpoint).toBeUndefined(); // the API itself answered: the id is unknown
		const generic = fakeContext({ responses: [{ status: 404, body }] });
		const e2 = await apiRequest(generic.ctx, { method: 'GET', path: '/monitor/m1/checks' }, recordingDeps().deps).catch((e) => e);
		expect(e2.description).toContain('Nothing exists with this id');
	});

	test("the API's JSON 404 on a path without an id says the endpoint is missing, not the id", async () => {
		for (const [method, path] of [['POST', '/agent'], ['GET', '/team/activity'], ['POST', '/monitor']]) {
			const { ctx } = fakeContext({ responses: [{ status: 404, body: { success: false, error: 'Not Found' } }] });
			const error = await apiRequest(ctx, { method, path, hints: opHints }, recordingDeps().deps).catch((e) => e);
			expect(error.message).toBe('Not Found');
			expect(error.description).toContain('has no such endpoint');
			expect(shown(error)).not.toContain('Nothing exists with this id');
			expect(shown(error)).not.toContain(ID_HINT);
		}
	});

	test('a JSON 404 of another shape (a gateway\'s) is a missing endpoint too', async () => {
		const { ctx } = fakeContext({ responses: [{ status: 404, body: { message: 'no Route matched with those values' } }] });
		const error = await apiRequest(ctx, { method: 'GET', path: '/crawl/abc', hints: opHints }, recordingDeps().deps).catch((e) => e);
		expect(error.message).toMatch(/has no endpoint GET \/v2\/crawl\/abc/);
		expect(error.description).toContain('no Route matched with those values');
		expect(shown(error)).not.toContain(ID_HINT);
		expect(error.context.missingEndpoint).toBe(true);
	});

	test("a proxy's HTML 502 page is retried like any 502, then named for what it is, without markup", async () => {
		const { ctx, calls } = fakeContext({ responses: [{ status: 502, body: NGINX_502, headers: { 'content-type': 'text/html' } }] });
		const { deps, waits } = recordingDeps();
		const error = await apiRequest(ctx, { method: 'POST', path: '/scrape', body: { url: 'https://example.com' } }, deps).catch((e) => e);
		record(error);
		expect(calls).toHaveLength(5);
		expect(waits).toEqual(BACKOFF);
		expect(error.message).toBe("The server answered HTTP 502 with an HTML page instead of the service's JSON");
		expect(error.description).toContain('temporary gateway problem');
		expect(error.description).toContain('a proxy or gateway');
		expect(error.description).toContain('"502 Bad Gateway nginx/1.25.3"');
		expect(error.context).toMatchObject({ httpStatus: 502, retryable: true, attempts: 5 });
		expect(shown(error)).not.toMatch(/<[a-z!/]/i);
	});

	test('plain text and an empty body are named too', async () => {
		const text = fakeContext({ responses: [{ status: 503, body: 'upstream connect error or disconnect/reset before headers' }] });
		const e1 = await apiRequest(text.ctx, { method: 'GET', path: '/crawl/abc' }, recordingDeps({ maxAttempts: 1 }).deps).catch((e) => e);
		expect(e1.message).toBe("The server answered HTTP 503 with plain text instead of the service's JSON");
		expect(e1.description).toContain('"upstream connect error or disconnect/reset before headers"');
		const empty = fakeContext({ responses: [{ status: 500, body: '' }] });
		const e2 = await apiRequest(empty.ctx, { method: 'GET', path: '/crawl/abc' }, recordingDeps({ maxAttempts: 1 }).deps).catch((e) => e);
		expect(e2.message).toBe("The server answered HTTP 500 with an empty body instead of the service's JSON");
		expect(e2.description).not.toContain('reads:');
	});

	test('the API key in a foreign page is redacted as everywhere else', async () => {
		const { ctx } = fakeContext({ responses: [{ status: 401, body: `<html><body>bad token ${CANARY_KEY}</body></html>` }] });
		const error = await apiRequest(ctx, { method: 'GET', path: '/crawl/abc' }, recordingDeps().deps).catch((e) => e);
		record(error);
		expect(shown(error)).not.toContain(CANARY_KEY);
		expect(error.description).toContain('[redacted]');
	});

	test.each([
		['/parse', false],
		['/agent', false],
		['/crawl/active', false],
		['/crawl/params-preview', false],
		['/team/credit-usage/historical', false],
		['/batch/scrape', false],
		['/agent/6f1c2a4e-7b7e-4f55-9a51-2f3c8d1e0a11', true],
		['/agent/j1/snapshots/s1', true],
		['/monitor/m1/checks', true],
		['/scrape/j1/interact', true],
		['/interact/s1', true],
		['https://api.example.test/v2/crawl/j1?skip=10', true],
		['https://api.example.test/v2/crawl?x=1', false],
	])('pathHasId(%s) is %s', (path, expected) => {
		expect(pathHasId(path)).toBe(expected);
	});

	// issue 37: every literal word of the API's paths (the public OpenAPI's, plus the agent's trace and
	// snapshots and /crawl/ongoing) is no id (nodes/FACTS.md "Server request rules").
	test.each([
		'active', 'activity', 'agent', 'ask', 'batch', 'checks', 'crawl', 'credit-usage', 'developer',
		'docs-search', 'errors', 'execute', 'extract', 'feedback', 'historical', 'interact', 'map', 'monitor',
		'ongoing', 'papers', 'params-preview', 'parse', 'queue-status', 'research', 'run', 'scrape', 'search',
		'similar', 'snapshots', 'support', 'team', 'threat-protection', 'token-usage', 'trace',
	])('"%s" is a word of the API\'s paths, not an id', (word) => {
		expect(pathHasId(`/${word}`)).toBe(false);
	});

	test('/crawl/ongoing holds no id', () => {
		expect(pathHasId('/crawl/ongoing')).toBe(false);
	});

	test("JSON whose error is not text is not the API's error (issue 37)", async () => {
		const { ctx } = fakeContext({ responses: [{ status: 400, body: { error: { message: 'bad request' } } }] });
		const error = await apiRequest(ctx, { method: 'POST', path: '/scrape', body: {} }, recordingDeps().deps).catch((e) => e);
		expect(error.message).toMatch(/^The server answered HTTP 400 with JSON that is not the service's error/);
		expect(error.context.serviceAnswer).toBe(false);
	});

	test('pageText drops markup, scripts and styles, and keeps the text short', () => {
		expect(pageText('<html><head><title>T</title><style>p{}</style></head><body><script>alert(1)</script><p>Hi &amp; bye</p></body></html>')).toBe('Hi & bye');
		expect(pageText('<p>&lt;script&gt;</p>')).toBe('&lt;script&gt;');
		expect(pageText('<p>a <unclosed')).toBe('a');
		const long = pageText(`<p>${'word '.repeat(100)}</p>`);
		expect(long.length).toBeLessThanOrEqual(160);
		expect(long.endsWith('…')).toBe(true);
	});
});
