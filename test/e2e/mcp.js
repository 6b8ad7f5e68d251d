#!/usr/bin/env node
'use strict';
/*
 * The Web Data Tool behind n8n's MCP Server Trigger, in the real `n8n start` (2.41.1; E2E_N8N=n8n1
 * for 1.123), called by an MCP client over n8n's streamable HTTP transport:
 *
 *   npm run test:e2e:mcp      (builds first; needs test/e2e/install.sh's n8n in .cache/)
 *
 * Set-up: npm pack → community package in a fresh user folder; the trigger phase's harness
 * (./lib/trigger-phase.js Phase): the fake API, `n8n start` on free loopback ports, owner, API key,
 * the Web Data credential. examples/mcp/web-data-mcp-server.json is imported (its Web Data tools on
 * the suite's credential) and activated; then this script is the MCP client at the production URL
 * /mcp/<path>: JSON-RPC over HTTP (initialize → notifications/initialized → tools/list →
 * tools/call, with the Mcp-Session-Id header; an answer comes as JSON or as a text/event-stream).
 * The proofs assert on what the client read and on what the fake received.
 *
 * Output: "ok"/"not ok" lines, "# time" lines, last line "N passed, N failed"; exit 1 on any
 * failure. MCP_KEEP_TMP=1 keeps the logs. Serialize with the other suites:
 *   flock /tmp/webdata-e2e.lock npm run test:e2e:mcp
 */
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const { hostProfile } = require('./lib/hosts');
const { runPhaseSuite, runScript } = require('./lib/instance');
const { FENCE_START, FENCE_END } = require('./lib/output');
const { secs, oneLine, reporter } = require('./lib/report');
const { Phase } = require('./lib/trigger-phase');

const ROOT = path.resolve(__dirname, '..', '..');
const HOST = hostProfile(process.env.E2E_N8N);
const EXAMPLE = path.join(ROOT, 'examples', 'mcp', 'web-data-mcp-server.json');
const TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.mcpTrigger';
const TOOL_TYPE = 'n8n-nodes-webdata.webDataTool';

const report = reporter({ strip: /^trigger: / });

/** n8n names a tool after its node: anything but letters, digits, _ and - becomes "_". */
const toolName = (node) => node.replace(/[^a-zA-Z0-9_-]/g, '_');

/**
 * A minimal MCP client over streamable HTTP: one POST per JSON-RPC message; the answer is read from
 * a JSON body or from the `data:` lines of an event stream. Every answer's text is kept (`seen`).
 */
class McpClient {
	constructor(url, seen) {
		this.url = url;
		this.seen = seen;
		this.nextId = 1;
		this.sessionId = undefined;
	}

	async post(message) {
		const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
		if (this.sessionId) headers['mcp-session-id'] = this.sessionId;
		const res = await fetch(this.url, { method: 'POST', headers, body: JSON.stringify(message) });
		const text = await res.text();
		this.seen.push({ source: `MCP answer to ${message.method} (HTTP ${res.status})`, text: `${JSON.stringify([...res.headers])}\n${text}` });
		const session = res.headers.get('mcp-session-id');
		if (session) this.sessionId = session;
		let messages = [];
		if ((res.headers.get('content-type') || '').includes('text/event-stream')) {
			messages = text
				.split(/\r?\n/)
				.filter((l) => l.startsWith('data:'))
				.map((l) => JSON.parse(l.slice(5).trim()));
		} else if (text.trim()) {
			try {
				messages = [JSON.parse(text)].flat();
			} catch {
				messages = [];
			}
		}
		return { status: res.status, text, messages };
	}

	/** A request: resolves the JSON-RPC response with the same id (result or error), and the HTTP status. */
	async request(method, params) {
		const id = this.nextId++;
		const r = await this.post({ jsonrpc: '2.0', id, method, params });
		const response = r.messages.find((m) => m.id === id);
		if (!response) throw new Error(`${method}: no JSON-RPC response (HTTP ${r.status}): ${oneLine(r.text)}`);
		return { ...response, httpStatus: r.status };
	}

	async notify(method, params) {
		return await this.post({ jsonrpc: '2.0', method, ...(params ? { params } : {}) });
	}

	async connect() {
		const init = await this.request('initialize', { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'webdata-e2e', version: '1.0.0' } });
		if (init.error) throw new Error(`initialize: ${JSON.stringify(init.error)}`);
		if (!this.sessionId) throw new Error('initialize: no Mcp-Session-Id header');
		const ack = await this.notify('notifications/initialized');
		if (ack.status >= 400) throw new Error(`notifications/initialized answered ${ack.status}`);
		return init.result;
	}

	async close() {
		if (!this.sessionId) return;
		await fetch(this.url, { method: 'DELETE', headers: { 'mcp-session-id': this.sessionId } }).catch(() => undefined);
	}
}

class McpSuite extends Phase {
	async requests(method, pathPrefix) {
		return (await this.fake.log()).filter((r) => r.method === method && r.path.startsWith(pathPrefix));
	}

	/** The example, its tools on the suite's credential; created and activated. Resolves {example, id, url}. */
	async importExample() {
		const example = JSON.parse(fs.readFileSync(EXAMPLE, 'utf8'));
		const trigger = example.nodes.find((n) => n.type === TRIGGER_TYPE);
		assert.ok(trigger, 'the example has an MCP Server Trigger');
		const { id, name } = this.credentials.tokenOnly;
		for (const node of example.nodes) if (node.credentials?.webDataApi) node.credentials.webDataApi = { id, name };
		const created = await this.api('POST', '/workflows', { name: example.name, nodes: example.nodes, connections: example.connections, settings: example.settings ?? { executionOrder: 'v1' } });
		await this.api('POST', `/workflows/${created.id}/activate`);
		const url = `${this.base}/mcp/${trigger.parameters.path}`;
		await this.until(async () => {
			const probe = new McpClient(url, []);
			try {
				await probe.connect();
				await probe.close();
				return true;
			} catch {
				return undefined;
			}
		}, `the MCP endpoint ${url} to be served`);
		return { example, id: created.id, url };
	}

	async run() {
		const seen = [];
		this.mcpSeen = seen;
		const { example, url } = await this.importExample();
		const tools = example.nodes.filter((n) => n.type === TOOL_TYPE);
		const byResource = (resource) => tools.find((n) => n.parameters.resource === resource);
		const scrapeTool = toolName(byResource('scrape').name);
		const searchTool = toolName(byResource('search').name);
		const budgets = [...new Set(tools.map((n) => n.parameters.options?.creditBudget))];
		const client = new McpClient(url, seen);
		await client.connect();
		const text = (r) => (r.result?.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');

		await this.step(`mcp: tools/list at ${url.replace(this.base, '')} shows each connected Web Data tool with a description and an input schema of its $fromAI keys, each described`, async () => {
			const r = await client.request('tools/list', {});
			assert.ok(!r.error, `tools/list error ${JSON.stringify(r.error)}`);
			const listed = Object.fromEntries(r.result.tools.map((t) => [t.name, t]));
			const expected = { scrape: ['url'], search: ['query'], map: ['url'] };
			for (const node of tools) {
				const t = listed[toolName(node.name)];
				assert.ok(t, `${toolName(node.name)} listed (listed: ${Object.keys(listed).join(', ')})`);
				assert.ok(typeof t.description === 'string' && t.description.length > 40, `${t.name} has a description: ${t.description}`);
				assert.equal(t.inputSchema?.type, 'object', `${t.name} inputSchema ${JSON.stringify(t.inputSchema)}`);
				const props = t.inputSchema.properties ?? {};
				for (const key of expected[node.parameters.resource] ?? []) assert.ok(props[key], `${t.name} takes ${key} (${Object.keys(props).join(', ')})`);
				for (const [key, p] of Object.entries(props)) assert.ok(typeof p.description === 'string' && p.description.length > 10, `${t.name}.${key} is described: ${JSON.stringify(p)}`);
			}
			assert.equal(r.result.tools.length, tools.length, `only the connected tools (${Object.keys(listed).join(', ')})`);
			const s = listed[scrapeTool];
			assert.match(s.description, /^Read ONE web page whose URL you already know/);
			assert.match(s.inputSchema.properties.url.description, /An absolute https URL of the one page to read/);
			assert.match(listed[searchTool].inputSchema.properties.query.description, /at most 500 characters/);
			fs.writeFileSync(path.join(this.tmp, 'tools-list.json'), JSON.stringify(r.result, null, 2));
			return `${Object.keys(listed).join(', ')}; ${s.name}: "${s.description.slice(0, 80)}…", properties ${Object.keys(s.inputSchema.properties).join(', ')}`;
		});

		await this.step('mcp: tools/call Scrape → the page as Markdown, fenced and within the Tool Result Budget; the service received exactly that one scrape', async () => {
			await this.fake.reset();
			const page = 'https://example.com/docs';
			const r = await client.request('tools/call', { name: scrapeTool, arguments: { url: page, offset: 0 } });
			assert.ok(!r.error, `a JSON-RPC error ${JSON.stringify(r.error)}`);
			assert.ok(!r.result.isError, `isError: ${oneLine(text(r))}`);
			const got = text(r);
			assert.ok(got.includes(FENCE_START) && got.includes(FENCE_END), `the page text is fenced: ${oneLine(got).slice(0, 300)}`);
			assert.match(got, /# /, 'Markdown');
			assert.ok(got.length <= 16000 + 2000, `${got.length} characters`);
			// The execution the trigger starts for the call must not send it again.
			await new Promise((r) => setTimeout(r, 1500));
			const sent = await this.requests('POST', '/v2/scrape');
			assert.deepEqual(sent.map((x) => x.body?.url), [page], `the fake received ${sent.length} scrape(s)`);
			return `${got.length} characters: ${oneLine(got).slice(0, 160)}…`;
		});

		await this.step('mcp: tools/call Scrape of a page the service refuses (403 UNSUPPORTED_SITE) → a tool result the client can read, not a JSON-RPC error', async () => {
			await this.fake.reset();
			const r = await client.request('tools/call', { name: scrapeTool, arguments: { url: 'https://example.com/fake-unsupported', offset: 0 } });
			assert.ok(!r.error, `a JSON-RPC protocol error: ${JSON.stringify(r.error)}`);
			const got = text(r);
			assert.ok(r.result, 'a result');
			assert.match(got, /not supported|unsupported|403/i, `the error text: ${oneLine(got)}`);
			this.errorSeen = `isError ${r.result.isError === true}: ${oneLine(got).slice(0, 400)}`;
			return this.errorSeen;
		});

		await this.step(`mcp: the credit budget (Credit Budget per Execution ${budgets.join(', ')}) — a Search of 100 results (20 credits) is answered creditBudgetReached as the tool result and nothing is sent; each tools/call is its own execution, so the next call that fits is sent`, async () => {
			await this.fake.reset();
			assert.equal(budgets.length, 1, 'one budget on every tool');
			const budget = budgets[0];
			assert.ok(budget > 0 && budget < 20, `the example's budget ${budget} is below a search of 100 results`);
			const big = await client.request('tools/call', { name: searchTool, arguments: { query: 'open source vector databases', limit: 100, offset: 0, page: 0 } });
			assert.ok(!big.error, `a JSON-RPC error ${JSON.stringify(big.error)}`);
			const told = text(big);
			assert.match(told, /"creditBudgetReached":true/, `the tool result: ${oneLine(told).slice(0, 300)}`);
			assert.match(told, new RegExp(`Credit budget reached: This search \\(up to 100 results\\) would cost at least 20 credits, and ${budget} of this execution's ${budget} are left\\. Nothing was sent\\.`));
			assert.equal((await this.requests('POST', '/v2/search')).length, 0, 'no search was sent');
			// Within the budget: sent. Two of them: the budget is per call (execution), not per session.
			for (let k = 0; k < 2; k++) {
				const r = await client.request('tools/call', { name: searchTool, arguments: { query: `open source vector databases ${k}`, limit: 50, offset: 0, page: 0 } });
				assert.ok(!r.error && !/creditBudgetReached/.test(text(r)), `call ${k + 1} of 50 results (10 credits): ${oneLine(text(r)).slice(0, 300)}`);
			}
			const sent = await this.requests('POST', '/v2/search');
			assert.deepEqual(sent.map((x) => x.body?.limit), [50, 50], 'two searches of 50 sent');
			this.budgetSeen = oneLine(told).slice(0, 500);
			return `the client read: ${this.budgetSeen}`;
		});

		await client.close();
	}
}

function main() {
	return runPhaseSuite({
		report,
		root: ROOT,
		host: HOST,
		prefix: 'webdata-mcp-',
		encryptionKey: 'webdata-e2e-encryption-key-0004',
		keepTmpEnv: 'MCP_KEEP_TMP',
		Suite: McpSuite,
		setupLabel: (startMs) => `mcp: set-up on ${HOST.name} (package, fake API, n8n start ready in ${secs(startMs)}, owner, API key, credential)`,
		setupFailedLabel: 'mcp: set-up',
		run: (suite) => suite.run(),
		checkLeaks: (apiKey, suite) => {
			const answers = suite?.mcpSeen ?? [];
			const leaked = answers.filter((c) => String(c.text).includes(apiKey)).map((c) => c.source);
			report.record(`mcp: the API key never appears in any MCP answer (${answers.length} read)`, answers.length > 0 && leaked.length === 0, answers.length ? `found in ${leaked.join(', ')}` : 'no MCP answer was read');
		},
		leakLabel: 'mcp: the API key never appears in n8n output',
	});
}

if (require.main === module) runScript(main);
