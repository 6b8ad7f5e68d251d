'use strict';
/**
 * Issue 14 point 2: answers that are not the API's JSON error, through n8n's engine and its HTTP
 * stack. A tiny local server stands for what sits at a self-hosted Base URL: the open-source server
 * as of 2025-08 has no parse, agent, monitor, interact or team-activity endpoints and answers them
 * with Express's HTML 404 page ("Cannot POST /v2/parse"); a proxy in front of a server answers with
 * its own HTML 502 page. No HTML may reach an error message, and id hints appear only where the
 * path holds an id.
 * Build first: `npm run build`.
 */
const http = require('http');
const path = require('path');
const { runWorkflow } = require('../helpers/workflow-runner');
const { webDataWorkflow, WEB_DATA } = require('../helpers/workflows');
const { CANARY_KEY, record } = require('../helpers/canary');

// Express 4's default 404 page (finalhandler), as the self-hosted server sends it.
const expressPage = (method, url) =>
	`<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot ${method} ${url}</pre>\n</body>\n</html>\n`;
const NGINX_502 =
	'<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n';

let server;
let baseUrl;
const log = [];

beforeAll(async () => {
	server = http.createServer((req, res) => {
		req.resume();
		req.on('end', () => {
			log.push(`${req.method} ${req.url}`);
			const [status, page, type] =
				req.method === 'POST' && req.url === '/v2/scrape'
					? [502, NGINX_502, 'text/html']
					: [404, expressPage(req.method, req.url.split('?')[0]), 'text/html; charset=utf-8'];
			res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(page), 'X-Content-Type-Options': 'nosniff' });
			res.end(page);
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	baseUrl = `http://127.0.0.1:${server.address().port}`;
});
afterAll(async () => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
	log.length = 0;
});

async function run(parameters, items = [{ json: {} }], node = {}) {
	const result = await runWorkflow(webDataWorkflow(parameters, items, node), {
		credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl } },
	});
	record(result.error);
	return result;
}

/** Every text of an error that a person or a workflow sees. */
const shown = (error) => JSON.stringify({ ...error, message: error.message, description: error.description });
const JOB_ID = '6f1c2a4e-7b7e-4f55-9a51-2f3c8d1e0a11';
const PDF = { json: { name: 'report.pdf' }, binary: { data: { path: path.join(__dirname, '..', 'fixtures', 'report.pdf') } } };

describe('a server without the endpoint (HTML 404)', () => {
	test.each([
		['Parse → Parse File', { resource: 'parse', operation: 'parseFile' }, [PDF], 'POST /v2/parse'],
		['Agent → Start', { resource: 'agent', operation: 'start', prompt: 'Find the pricing' }, undefined, 'POST /v2/agent'],
		['Agent → Get (an id in the path)', { resource: 'agent', operation: 'get', jobId: { __rl: true, mode: 'id', value: JOB_ID } }, undefined, `GET /v2/agent/${JOB_ID}`],
		['Account → Get Activity', { resource: 'account', operation: 'getActivity', limit: 3 }, undefined, 'GET /v2/team/activity'],
	])('%s: the message says the server has no such endpoint, with what to do', async (_label, parameters, items, request) => {
		const result = await run(parameters, items);
		expect(result.status).toBe('error');
		const error = result.error;
		expect(error.message).toBe(`The server at ${baseUrl} has no endpoint ${request} (HTTP 404)`);
		expect(error.description).toContain('hosted service (Base URL https://api.firecrawl.dev');
		expect(error.description).toContain('a newer self-hosted server');
		expect(error.description).toContain(`"Cannot ${request}"`);
		expect(shown(error)).not.toMatch(/<[a-z!/]/i);
		expect(shown(error)).not.toContain('Nothing exists with this id');
		expect(shown(error)).not.toMatch(/has this ID/);
		expect(error.context).toMatchObject({ httpStatus: 404, retryable: false });
		// One request: a 404 is not retried.
		expect(log).toEqual([expect.stringMatching(new RegExp(`^${request.replace('/', '\\/')}(\\?|$)`))]);
	});

	test('with Continue On Fail the error item carries the same clean texts', async () => {
		const result = await run({ resource: 'agent', operation: 'start', prompt: 'p' }, undefined, { onError: 'continueRegularOutput' });
		expect(result.status).toBe('success');
		const [item] = result.json(WEB_DATA);
		expect(JSON.stringify(item)).not.toMatch(/<[a-z!/]/i);
		expect(JSON.stringify(item)).toContain('has no endpoint POST /v2/agent');
		expect(item.httpStatus).toBe(404);
	});
});

describe("a proxy's HTML 502 page", () => {
	test('is retried like any 502 (spec 7.3), then the message names it, with no HTML', async () => {
		const result = await run({ resource: 'scrape', operation: 'scrapeUrl', url: 'https://example.com/' });
		expect(result.status).toBe('error');
		expect(log).toEqual(Array(5).fill('POST /v2/scrape'));
		const error = result.error;
		expect(error.message).toBe("The server answered HTTP 502 with an HTML page instead of the service's JSON");
		expect(error.description).toContain('a proxy or gateway');
		expect(error.description).toContain('"502 Bad Gateway nginx/1.25.3"');
		expect(error.context).toMatchObject({ httpStatus: 502, retryable: true, attempts: 5 });
		expect(shown(error)).not.toMatch(/<[a-z!/]/i);
	}, 90000);
});
