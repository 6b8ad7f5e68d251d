'use strict';
/**
 * A failing tool call on an n8n older than 2.27 (issue 22.4; n8n 1.123 is the oldest supported).
 * There, a tool node that throws fails the whole execution (Agent 3) or reaches the model as an
 * empty result (Agent 2.2), where n8n 2.25+ answers the model `[{"error": <message>}]` itself. So
 * on such an n8n the node answers that itself. The older n8n is emulated by its n8n-workflow, which
 * lacks the sign the node reads (helpers/hostEngine.ts); the engine is n8n-core's, as in
 * tool.test.js (the Test Items node stands in for the model's arguments). The real n8n 1.123 and
 * its agent: npm run test:e2e:n8n1. Build first.
 */
jest.mock('n8n-workflow', () => {
	const { policyToChannels, ...v1Like } = jest.requireActual('n8n-workflow');
	return v1Like;
});

const { runWorkflow } = require('../helpers/workflow-runner');
const { isN8n227OrLater } = require('../../dist/nodes/WebData/helpers/hostEngine');
const { CANARY_KEY, record } = require('../helpers/canary');
const { useFakeApi } = require('../helpers/resource-suite');
const { registerToolVariant } = require('../helpers/tool-variant');

jest.setTimeout(30000);

const TOOL_TYPE = registerToolVariant();

const api = useFakeApi({ timeScale: 10 });

const NODE = 'Web Data';
const SCRAPE = { resource: 'scrape', operation: 'scrapeUrl' };

async function asTool(parameters, args, nodeOver = {}) {
	const wf = {
		nodes: [
			{ id: 'n1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{ id: 'n2', name: 'Model Arguments', type: 'test.items', typeVersion: 1, position: [200, 0], parameters: { items: JSON.stringify([{ json: args }]) } },
			{ id: 'n3', name: NODE, type: TOOL_TYPE, typeVersion: 1, position: [400, 0], parameters, credentials: { webDataApi: { id: 'c1', name: 'Web Data account' } }, ...nodeOver },
		],
		connections: { Start: { main: [[{ node: 'Model Arguments', type: 'main', index: 0 }]] }, 'Model Arguments': { main: [[{ node: NODE, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
	const result = await runWorkflow(wf, { credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url, webhookSecret: '' } } });
	record(result.error);
	if (result.status === 'success') record(result.items(NODE));
	return result;
}

test('the emulated host is an n8n before 2.27 (and the real n8n-workflow of this repository is not)', () => {
	expect(isN8n227OrLater()).toBe(false);
	expect(isN8n227OrLater(jest.requireActual('n8n-workflow'))).toBe(true);
});

test('an API error: the tool answers the model [{"error": …}] with the same message n8n 2.x hands it, and the execution goes on', async () => {
	const details = [{ code: 'invalid_string', path: ['url'], message: 'Invalid URL' }];
	api.fault({ method: 'POST', path: '/v2/scrape', statuses: [400], body: { success: false, code: 'BAD_REQUEST', error: 'Bad Request', details } });
	const result = await asTool(SCRAPE, { url: 'https://example.com/a', offset: 0 });
	expect(result.status).toBe('success');
	expect(result.json(NODE)).toEqual([
		{
			error:
				'Scrape URL failed: Bad Request (HTTP 400, code BAD_REQUEST). Fields: url: Invalid URL. Retryable: no (the same call fails the same way). ' +
				'Next step: The service rejected the request as invalid. Check the fields named in the message.',
		},
	]);
	expect(api.requests({ method: 'POST', path: '/v2/scrape' })).toHaveLength(1);
});

test('a field the model filled wrongly: the model reads field, value and rule; nothing is sent', async () => {
	const result = await asTool(SCRAPE, { url: 'example', offset: 0 });
	expect(result.status).toBe('success');
	const [item] = result.json(NODE);
	expect(item.error).toMatch(/^Scrape URL failed: URL "example" is not valid: .+ Next step: Fix the "URL" field/);
	expect(api.requests()).toHaveLength(0);
});

test('a tool setting the model passes (offset) that fails its rule reaches the model too', async () => {
	const result = await asTool(SCRAPE, { url: 'https://example.com/a', offset: -5 });
	expect(result.status).toBe('success');
	expect(result.json(NODE)[0].error).toMatch(/offset|Offset/);
	expect(api.requests()).toHaveLength(0);
});

test('a tool node set to "Stop Workflow" on error still stops the execution, as on n8n 2.x', async () => {
	api.fault({ method: 'POST', path: '/v2/scrape', statuses: [400], body: { success: false, code: 'BAD_REQUEST', error: 'Bad Request' } });
	const result = await asTool(SCRAPE, { url: 'https://example.com/a', offset: 0 }, { onError: 'stopWorkflow' });
	expect(result.status).toBe('error');
	expect(result.error.message).toMatch(/^Scrape URL failed: Bad Request/);
});

test('the regular node (not a tool) keeps failing as before', async () => {
	api.fault({ method: 'POST', path: '/v2/scrape', statuses: [400], body: { success: false, code: 'BAD_REQUEST', error: 'Bad Request' } });
	const wf = {
		nodes: [
			{ id: 'n1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{ id: 'n3', name: NODE, type: 'n8n-nodes-webdata.webData', typeVersion: 1, position: [400, 0], parameters: { ...SCRAPE, url: 'https://example.com/a' }, credentials: { webDataApi: { id: 'c1', name: 'Web Data account' } } },
		],
		connections: { Start: { main: [[{ node: NODE, type: 'main', index: 0 }]] } },
	};
	const result = await runWorkflow(wf, { credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url, webhookSecret: '' } } });
	record(result.error);
	expect(result.status).toBe('error');
	expect(result.error.message).toBe('Bad Request');
});
