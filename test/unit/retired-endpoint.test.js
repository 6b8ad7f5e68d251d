'use strict';
// Issue 43.4: any 410 is an error that names the endpoint and says it was retired, whatever the body
// (the service's JSON error, a proxy's page, nothing). Build first.
const { toNodeApiError } = require('../../dist/nodes/WebData/transport/errors');
const { EXTRACT_HINTS } = require('../../dist/nodes/WebData/resources/extract/request');

const node = { name: 'Web Data', type: 'n8n-nodes-webdata.webData', typeVersion: 1, position: [0, 0], parameters: {} };
const error = (failure) => toNodeApiError(node, { attempts: 1, ...failure }, 'secret-key', 0);

describe('a 410 Gone', () => {
	test.each([
		['the service\'s JSON error', { body: { success: false, error: 'Gone' } }],
		['an HTML page', { body: undefined, rawText: '<html><body>410 Gone</body></html>' }],
		['an empty body', {}],
	])('on /extract with %s: the endpoint, the date and the replacements, not retryable', (_what, extra) => {
		const e = error({ method: 'POST', path: '/extract', status: 410, hints: EXTRACT_HINTS, ...extra });
		expect(e.message).toBe('The service retired the endpoint POST /v2/extract on Thursday 2026-12-10, 15:00 UTC (HTTP 410 Gone)');
		expect(e.description).toMatch(/^Use Scrape with the JSON format \(a prompt and a JSON Schema\) for one known page, Batch Scrape .* Agent/);
		expect(e.description).toContain('(HTTP 410, POST /extract)');
		expect(e.description).not.toMatch(/unexpected error/i);
		expect(e.context.retryable).toBe(false);
		expect(e.context.serverText).toBe('The endpoint POST /v2/extract was retired on Thursday 2026-12-10, 15:00 UTC');
	});

	test('the status read of an extract job and a full URL path are recognised as /extract', () => {
		const id = '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a';
		expect(error({ method: 'GET', path: `/extract/${id}`, status: 410 }).message).toBe(`The service retired the endpoint GET /v2/extract/${id} on Thursday 2026-12-10, 15:00 UTC (HTTP 410 Gone)`);
		expect(error({ method: 'GET', path: `https://api.example.com/v2/extract/${id}`, status: 410 }).message).toMatch(/^The service retired the endpoint GET \/v2\/extract\//);
	});

	test('a 410 the service words itself elsewhere (an ended interact session) keeps its own message and hint', () => {
		const e = error({ method: 'POST', path: '/interact/abc/execute', status: 410, body: { success: false, error: 'Session destroyed' }, hints: { 410: 'The session already ended.' } });
		expect(e.message).toBe('Session destroyed');
		expect(e.description).toMatch(/^The session already ended\./);
	});

	test('another endpoint answering 410 without the service\'s JSON: named as retired, with what to do; /extractor is not /extract', () => {
		const e = error({ method: 'POST', path: '/extractor', status: 410, rawText: '<html>Gone</html>' });
		expect(e.message).toBe('The service retired the endpoint POST /v2/extractor (HTTP 410 Gone)');
		expect(e.description).toMatch(/^The service no longer offers this endpoint; retrying does not help\. Update n8n-nodes-webdata/);
	});
});
