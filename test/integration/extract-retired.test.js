'use strict';
/**
 * Issue 43.4: the hosted service answers /extract 410 Gone from 2026-12-10 15:00 UTC. An Extract
 * node set to Options → Endpoint "/extract" (a choice for self-hosted servers) against the fake in
 * that mode: the error names the endpoint, the date and what to use instead, never "unexpected
 * error"; as a tool the model reads the same. Saved workflows on the live endpoints:
 * extract-routes.test.js. Build first.
 */
const { NODE, useFakeApi, resourceRunner } = require('../helpers/resource-suite');
const { runWorkflow } = require('../helpers/workflow-runner');
const { CANARY_KEY, record } = require('../helpers/canary');
const { registerToolVariant } = require('../helpers/tool-variant');

jest.setTimeout(30000);

const api = useFakeApi({ timeScale: 10, extract: 'retired' });
const { run } = resourceRunner('extract', api);
const TOOL_TYPE = registerToolVariant();
const SCHEMA = { type: 'object', properties: { company: { type: 'string' } }, required: ['company'] };

describe('Extract on the old endpoint against a service that retired it', () => {
	test('Run and Wait: one request, answered 410; the error names the endpoint, the date and the replacements, and is not retried', async () => {
		const result = await run({ operation: 'runAndWait', urls: 'https://example.com', prompt: 'The company name', outputShape: 'schema', jsonSchema: JSON.stringify(SCHEMA), options: { endpoint: 'extract' }, maxWait: 30 });
		expect(result.status).toBe('error');
		expect(result.error.message).toBe('The service retired the endpoint POST /v2/extract on Thursday 2026-12-10, 15:00 UTC (HTTP 410 Gone)');
		expect(result.error.message).not.toMatch(/unexpected/i);
		expect(result.error.description).toMatch(/^Use Scrape with the JSON format .* Batch Scrape .* Agent/);
		expect(result.error.description).not.toMatch(/unexpected error/i);
		const sent = api.requests('/v2/extract');
		expect(sent.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['POST /v2/extract 410']);
	});

	test('Start under Continue On Fail: an error item that says the same, with httpStatus 410', async () => {
		const result = await run({ operation: 'start', urls: 'https://example.com', prompt: 'The company name', options: { endpoint: 'extract' } }, { node: { onError: 'continueRegularOutput' } });
		expect(result.status).toBe('success');
		const [item] = result.items(NODE);
		expect(item.json.error).toMatch(/retired the endpoint POST \/v2\/extract on Thursday 2026-12-10/);
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	test('the fake answers the v1 routes 410 too, and routes /extract again when set to "routed"', async () => {
		const post = (path) => fetch(`${api.url}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${CANARY_KEY}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ urls: ['https://example.com'] }) });
		expect((await post('/v1/extract')).status).toBe(410);
		api.setExtract('routed');
		expect((await post('/v2/extract')).status).toBe(200);
		api.reset();
		expect((await post('/v2/extract')).status).toBe(410);
	});

	test('as a tool (version 2: the model fills URLs and prompt) the model reads the endpoint, the date, "Retryable: no" and what to use instead', async () => {
		const wf = {
			nodes: [
				{ id: 'n1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
				{ id: 'n2', name: 'Model Arguments', type: 'test.items', typeVersion: 1, position: [200, 0], parameters: { items: JSON.stringify([{ json: { urls: 'https://example.com', prompt: 'The company name' } }]) } },
				{ id: 'n3', name: NODE, type: TOOL_TYPE, typeVersion: 2, position: [400, 0], parameters: { resource: 'extract', operation: 'runAndWait', options: { endpoint: 'extract' } }, credentials: { webDataApi: { id: 'c1', name: 'Web Data account' } } },
			],
			connections: { Start: { main: [[{ node: 'Model Arguments', type: 'main', index: 0 }]] }, 'Model Arguments': { main: [[{ node: NODE, type: 'main', index: 0 }]] } },
			settings: { executionOrder: 'v1' },
		};
		const result = await runWorkflow(wf, { credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url, webhookSecret: '' } } });
		record(result.error);
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(
			/^Extract structured data and wait failed: The endpoint POST \/v2\/extract was retired on Thursday 2026-12-10, 15:00 UTC \(HTTP 410\)\. Retryable: no \(the same call fails the same way\)\. Next step: Use Scrape with the JSON format/,
		);
	});
});
