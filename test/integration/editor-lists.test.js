'use strict';
// "From List" pickers in the editor (listSearch through n8n-core's real LoadOptionsContext and HTTP
// helpers): one attempt with a short timeout, and an error that says why, instead of ~30 s of
// retries before "Could not load list". Executions keep retrying (test/unit/transport.test.js).
const http = require('http');
const net = require('net');
const { nodeTypes } = require('../helpers/workflow-runner'); // sets up n8n-core's environment first
const { TestCredentialsHelper, loadOptionsContext } = require('../helpers/n8n-contexts');
const { startFakeApi } = require('../fake-api/server');
const { CANARY_KEY } = require('../helpers/canary');
const { EDITOR_LIST_TIMEOUT_MS } = require('../../dist/nodes/WebData/transport');

const TYPE = 'n8n-nodes-webdata.webData';

/** A load-options context for a Web Data node (Agent → Get) with the given credential values. */
function listContext(credential) {
	const node = {
		id: 'n1',
		name: 'Web Data',
		type: TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: { resource: 'agent', operation: 'get' },
		credentials: { webDataApi: { id: 'c1', name: 'Web Data account' } },
	};
	return loadOptionsContext(node, new TestCredentialsHelper(credential));
}

const searchAgentRuns = () => nodeTypes.getByNameAndVersion(TYPE, 1).methods.listSearch.searchAgentRuns;

/** Runs the list; resolves the thrown error and how long it took. */
async function failingList(credential) {
	const t0 = Date.now();
	try {
		await searchAgentRuns().call(listContext(credential));
	} catch (error) {
		return { error, ms: Date.now() - t0 };
	}
	throw new Error('the list loaded, but it should have failed');
}

async function closedPort() {
	const server = net.createServer();
	await new Promise((r) => server.listen(0, '127.0.0.1', r));
	const { port } = server.address();
	await new Promise((r) => server.close(r));
	return port;
}

let api;
beforeAll(async () => {
	api = await startFakeApi({ apiKey: CANARY_KEY });
});
afterAll(async () => {
	await api.close();
});

test('the list loads through the same path (the fake answers)', async () => {
	const page = await searchAgentRuns().call(listContext({ apiKey: CANARY_KEY, baseUrl: api.url }));
	expect(Array.isArray(page.results)).toBe(true);
});

test('service unreachable (closed port): one attempt, an answer within seconds that says so', async () => {
	const port = await closedPort();
	const { error, ms } = await failingList({ apiKey: CANARY_KEY, baseUrl: `http://127.0.0.1:${port}` });
	// Before: 5 attempts with 2 + 4 + 8 + 16 s of backoff (about 32 s) before the editor heard anything.
	expect(ms).toBeLessThan(EDITOR_LIST_TIMEOUT_MS);
	expect(error.message).toMatch(/^The Web Data service cannot be reached/);
	expect(error.message).toMatch(/connection refused/);
	expect(error.httpCode).toBeNull(); // the editor would show it first: "ECONNREFUSED - …"
	expect(error.description).toMatch(`Address: http://127.0.0.1:${port}. Check the Base URL`);
	expect(error.context.attempts).toBe(1);
}, 60000);

test('a service that never answers: the list gives up after the editor timeout and says so', async () => {
	const sockets = new Set();
	const silent = http.createServer(() => {}); // accepts, never answers
	silent.on('connection', (s) => sockets.add(s));
	await new Promise((r) => silent.listen(0, '127.0.0.1', r));
	try {
		const { error, ms } = await failingList({ apiKey: CANARY_KEY, baseUrl: `http://127.0.0.1:${silent.address().port}` });
		expect(ms).toBeGreaterThanOrEqual(EDITOR_LIST_TIMEOUT_MS - 100);
		expect(ms).toBeLessThan(EDITOR_LIST_TIMEOUT_MS + 10000); // wide margin: 2 shared cores
		expect(error.message).toMatch(new RegExp(`no answer within ${EDITOR_LIST_TIMEOUT_MS / 1000} s`));
		expect(error.context.attempts).toBe(1);
	} finally {
		for (const s of sockets) s.destroy();
		await new Promise((r) => silent.close(r));
	}
}, 60000);

test('key refused (401): one request, the HTTP code and what to do', async () => {
	const before = api.requests({ method: 'GET', path: '/v2/agent' }).length;
	const { error, ms } = await failingList({ apiKey: 'fc-not-the-key', baseUrl: api.url });
	expect(ms).toBeLessThan(EDITOR_LIST_TIMEOUT_MS);
	expect(error.httpCode).toBe('401');
	expect(error.description).toMatch(/did not accept the API key/);
	expect(api.requests({ method: 'GET', path: '/v2/agent' }).length - before).toBe(1);
}, 60000);

test('a retryable answer (503) is not retried for a list: the editor hears it at once', async () => {
	const sockets = new Set();
	let hits = 0;
	const busy = http.createServer((req, res) => {
		hits++;
		res.writeHead(503, { 'content-type': 'application/json' });
		res.end(JSON.stringify({ success: false, error: 'Service Unavailable' }));
	});
	busy.on('connection', (s) => sockets.add(s));
	await new Promise((r) => busy.listen(0, '127.0.0.1', r));
	try {
		const { error, ms } = await failingList({ apiKey: CANARY_KEY, baseUrl: `http://127.0.0.1:${busy.address().port}` });
		expect(hits).toBe(1);
		expect(ms).toBeLessThan(EDITOR_LIST_TIMEOUT_MS);
		expect(error.httpCode).toBe('503');
	} finally {
		for (const s of sockets) s.destroy();
		await new Promise((r) => busy.close(r));
	}
}, 60000);
