#!/usr/bin/env node
'use strict';
/*
 * The Web Data Tool inside n8n's own AI Agent, in the real `n8n start` (2.41.1):
 *
 *   npm run test:e2e:ai-agent      (builds first; needs test/e2e/install.sh's n8n in .cache/)
 *
 * Set-up: npm pack → community package in a fresh user folder; the trigger phase's harness
 * (./lib/trigger-phase.js Phase): the fake API (time scale 5), `n8n start` on free loopback ports,
 * owner, API key, the Web Data credential; a stub OpenAI-compatible model (./lib/stub-model.js)
 * and an "OpenAI" credential whose Base URL points at it. One workflow: Webhook → AI Agent (3.1)
 * with OpenAI Chat Model (1.3, Chat Completions API) and eight Web Data Tools (Scrape, Search,
 * Search and Scrape, Map, Crawl, Batch Scrape, Research Agent, Monitors), each proof calling the
 * webhook with its own scripted model turns. The stub records the tools it was offered and every
 * tool result it received: the proofs assert on what the MODEL saw, and on what the fake received.
 * Then examples/ai-agent/ai-agent-research-web.json runs with its Manual Trigger replaced by a Webhook,
 * and examples/ai-agent/ai-agent-credit-budget.json the same way, with a model that calls Search again
 * and again: the credit budget (issue 35) stops the spending, the model is told, the run succeeds.
 *
 * Output: "ok"/"not ok" lines, "# time" lines, last line "N passed, N failed"; exit 1 on any
 * failure. AI_AGENT_KEEP_TMP=1 keeps the logs. Serialize with the other suites:
 *   flock /tmp/webdata-e2e.lock npm run test:e2e:ai-agent
 */
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const { hostProfile } = require('./lib/hosts');
const { runPhaseSuite, runScript } = require('./lib/instance');
const { FENCE_START, FENCE_END } = require('./lib/output');
const { secs, oneLine, reporter } = require('./lib/report');
const { Phase } = require('./lib/trigger-phase');
const { startStubModel } = require('./lib/stub-model');

const ROOT = path.resolve(__dirname, '..', '..');
// Which n8n (E2E_N8N=n8n1: 1.123 on Node 22, whose AI Agent is version 3): ./lib/hosts.js.
// AI_AGENT_FILTER=<text>[|<text>…] runs only the proofs whose name contains one of them.
const HOST = hostProfile(process.env.E2E_N8N);
const FILTERS = (process.env.AI_AGENT_FILTER || '').split('|').filter(Boolean);
const EXAMPLE = path.join(ROOT, 'examples', 'ai-agent', 'ai-agent-research-web.json');
const BUDGET_EXAMPLE = path.join(ROOT, 'examples', 'ai-agent', 'ai-agent-credit-budget.json');
const APPROVAL_EXAMPLE = path.join(ROOT, 'examples', 'ai-agent', 'ai-agent-research-with-approval.json');
// n8n's human review of tool calls (2.5+): a node type ending in "HitlTool", made by n8n from each node
// with a "Send and Wait" operation; the Chat one needs a Chat Trigger (Hosted Chat, response nodes).
const CHAT_REVIEW_TYPE = '@n8n/n8n-nodes-langchain.chatHitlTool';
const AGENT_TYPE = '@n8n/n8n-nodes-langchain.agent';
const TOOL_TYPE = 'n8n-nodes-webdata.webDataTool';
const BUDGET = 16000;
const LONG_PAGE = 'https://example.com/docs/fake-long-31000';

const report = reporter({ strip: /^trigger: / });

/** The tools of the test workflow: node name → Web Data parameters. */
const TOOLS = {
	Scrape: { resource: 'scrape', operation: 'scrapeUrl' },
	Search: { resource: 'search', operation: 'search' },
	'Search and Scrape': { resource: 'search', operation: 'search', scrapeResults: true },
	Map: { resource: 'map', operation: 'mapUrl' },
	Crawl: { resource: 'crawl', operation: 'runAndWait' },
	'Batch Scrape': { resource: 'batchScrape', operation: 'runAndWait' },
	'Research Agent': { resource: 'agent', operation: 'runAndWait' },
	Monitors: { resource: 'monitor', operation: 'getMany' },
};
/** n8n names a tool after its node: anything but letters, digits, _ and - becomes "_". */
const toolName = (node) => node.replace(/[^a-zA-Z0-9_-]/g, '_');

/**
 * The test workflow: Webhook (POST, answers with the last node) → AI Agent (3.1) with the OpenAI Chat
 * Model (1.3, Chat Completions API) on the stub model (credential `openAi`) and one node per tool,
 * each `{name, type, parameters, credentials}`. Resolves {wf, hookPath}. Also test/bench/ai-tool.js's.
 */
function agentToolWorkflow({ name, hookPrefix, openAi, tools, agentOptions = {} }) {
	const hookPath = `${hookPrefix}-${crypto.randomBytes(6).toString('hex')}`;
	const nodes = [
		{ id: 'start', name: 'Start', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], webhookId: crypto.randomUUID(), parameters: { httpMethod: 'POST', path: hookPath, responseMode: 'lastNode', options: {} } },
		{ id: 'agent', name: 'AI Agent', type: '@n8n/n8n-nodes-langchain.agent', typeVersion: HOST.agentVersion, position: [300, 0], parameters: { promptType: 'define', text: '={{ $json.body.task }}', options: agentOptions } },
		{
			id: 'model',
			name: 'OpenAI Chat Model',
			type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
			typeVersion: 1.3,
			position: [200, 300],
			parameters: { model: { __rl: true, mode: 'id', value: 'stub-model' }, responsesApiEnabled: false, options: {} },
			credentials: { openAiApi: openAi },
		},
	];
	const connections = {
		Start: { main: [[{ node: 'AI Agent', type: 'main', index: 0 }]] },
		'OpenAI Chat Model': { ai_languageModel: [[{ node: 'AI Agent', type: 'ai_languageModel', index: 0 }]] },
	};
	tools.forEach((tool, k) => {
		nodes.push({ id: `tool${k}`, name: tool.name, type: tool.type, typeVersion: 1, position: [300 + 150 * k, 300], parameters: tool.parameters, credentials: tool.credentials });
		connections[tool.name] = { ai_tool: [[{ node: 'AI Agent', type: 'ai_tool', index: 0 }]] };
	});
	return { wf: { name, nodes, connections, settings: { executionOrder: 'v1' } }, hookPath };
}

class AiAgentSuite extends Phase {
	/** A proof, unless AI_AGENT_FILTER leaves it out. */
	async step(name, fn) {
		if (FILTERS.length > 0 && !FILTERS.some((f) => name.includes(f))) return true;
		return await super.step(name, fn);
	}

	async openAiCredential() {
		const c = await this.api('POST', '/credentials', { name: 'Stub model', type: 'openAiApi', data: { apiKey: 'sk-stub-model', url: this.model.url, header: false } });
		return { id: c.id, name: 'Stub model' };
	}

	/** Creates and activates a workflow; resolves {id, url} once its webhook answers. */
	async createWorkflow(wf, hookPath) {
		const created = await this.api('POST', '/workflows', { name: `${wf.name} (${hookPath})`, nodes: wf.nodes, connections: wf.connections, settings: wf.settings ?? { executionOrder: 'v1' } });
		await this.api('POST', `/workflows/${created.id}/activate`);
		const url = `${this.base}/webhook/${hookPath}`;
		this.model.script([{ content: 'Ready.' }]);
		await this.until(async () => (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"task":"probe"}' })).status !== 404, 'the workflow webhook to be served');
		const first = await this.until(async () => (await this.rawExecutions(created.id))[0], 'the probe execution');
		await this.untilStatus(first.id, ['error', 'success']);
		return { id: created.id, url };
	}

	/**
	 * Creates an example as the suite runs it: its Manual Trigger as a Webhook, its Web Data tools on
	 * `webData` (the suite's credential on the fake unless given), its model on the stub, its AI Agent
	 * at `agentVersion` or at most this n8n's newest (n8n 1.123 has 3; 3.1 only adds the Guardrails
	 * prompt source). Resolves {example, id, url}.
	 */
	async createExample(file, { webData = this.credentials.tokenOnly, agentVersion } = {}) {
		const example = JSON.parse(fs.readFileSync(file, 'utf8'));
		const hook = `ai-agent-example-${crypto.randomBytes(6).toString('hex')}`;
		const start = example.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
		assert.ok(start, 'the example starts with a Manual Trigger');
		Object.assign(start, { type: 'n8n-nodes-base.webhook', typeVersion: 2, webhookId: crypto.randomUUID(), parameters: { httpMethod: 'POST', path: hook, responseMode: 'lastNode', options: {} } });
		for (const node of example.nodes) {
			if (node.credentials?.webDataApi) node.credentials.webDataApi = { id: webData.id, name: webData.name };
			if (node.credentials?.openAiApi) node.credentials.openAiApi = this.openAi;
			if (node.type === AGENT_TYPE) node.typeVersion = agentVersion ?? Math.min(node.typeVersion, HOST.agentVersion);
		}
		return { example, ...(await this.createWorkflow(example, hook)) };
	}

	/** A Web Data credential on the fake with these extra fields (e.g. {creditBudget: 5}). */
	async webDataCredential(name, fields) {
		const c = await this.api('POST', '/credentials', { name, type: 'webDataApi', data: { apiKey: this.apiKey, baseUrl: this.fake.url, webhookSecret: '', ...HOST.credentialExtras, ...fields } });
		return { id: c.id, name };
	}

	/** Credits the fake charged since its last reset: what the service reports spent (it starts at 1000). */
	async chargedAtFake() {
		const res = await fetch(`${this.fake.url}/v2/team/credit-usage`, { headers: { authorization: `Bearer ${this.apiKey}` } });
		const { data } = await res.json();
		return data.planCredits - data.remainingCredits;
	}

	agentWorkflow() {
		const credentials = { webDataApi: { id: this.credentials.tokenOnly.id, name: this.credentials.tokenOnly.name } };
		const tools = Object.entries(TOOLS).map(([name, parameters]) => ({ name, type: 'n8n-nodes-webdata.webDataTool', parameters, credentials }));
		return agentToolWorkflow({ name: 'Web Data Tool e2e', hookPrefix: 'ai-agent', openAi: this.openAi, tools });
	}

	async rawExecutions(workflowId) {
		const list = await this.api('GET', `/executions?workflowId=${encodeURIComponent(workflowId)}&limit=250`);
		return (list.data || []).sort((a, b) => Number(a.id) - Number(b.id));
	}

	async untilStatus(id, statuses, timeoutMs = 60000) {
		return await this.until(async () => {
			const e = await this.api('GET', `/executions/${id}`);
			return statuses.includes(e.status) ? e : undefined;
		}, `execution ${id} to be ${statuses.join(' or ')}`, timeoutMs);
	}

	/** Plays one conversation: the model's turns, then the task through the webhook; resolves the execution with its data. */
	async converse(w, turns, task = 'Research the web for me.') {
		this.model.script(turns);
		const before = new Set((await this.rawExecutions(w.id)).map((e) => e.id));
		// The webhook answers when the execution ends ("last node"): running executions are not listed.
		const res = await fetch(w.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ task }) });
		await res.text();
		const e = await this.until(async () => (await this.rawExecutions(w.id)).find((x) => !before.has(x.id)), 'the new execution', 120000);
		await this.untilStatus(e.id, ['success', 'error', 'crashed'], 120000);
		const full = await this.api('GET', `/executions/${e.id}?includeData=true`);
		this.captured.push({ source: `execution ${e.id} (public API)`, text: JSON.stringify(full) });
		this.captured.push({ source: `stub model requests of execution ${e.id}`, text: JSON.stringify(this.model.requests) });
		fs.writeFileSync(path.join(this.tmp, `model-requests-${e.id}.json`), JSON.stringify(this.model.requests, null, 2));
		return full;
	}

	/** The tool results the model received, parsed where they are JSON. */
	received(name) {
		return this.model
			.toolResults()
			.filter((r) => !name || r.name === toolName(name))
			.map((r) => {
				let value;
				try {
					value = JSON.parse(r.content);
				} catch {
					value = r.content;
				}
				return { ...r, value };
			});
	}

	async requests(method, pathPrefix) {
		return (await this.fake.log()).filter((r) => r.method === method && r.path.startsWith(pathPrefix));
	}

	// ---- the proofs -----------------------------------------------------------------------------
	async run() {
		this.openAi = await this.openAiCredential();
		const { wf, hookPath } = this.agentWorkflow();
		const w = await this.createWorkflow(wf, hookPath);
		const call = (node, args) => ({ name: toolName(node), args });
		const lastResult = (body) => {
			const tool = (body.messages ?? []).filter((m) => m.role === 'tool').at(-1);
			return typeof tool?.content === 'string' ? tool.content : JSON.stringify(tool?.content ?? '');
		};

		await this.step('ai agent: the model is offered each Web Data tool with its own description and described parameters', async () => {
			await this.fake.reset();
			const e = await this.converse(w, [{ content: 'Nothing to do.' }]);
			assert.equal(e.status, 'success', `execution ${e.status}`);
			const tools = Object.fromEntries(this.model.tools().map((t) => [t.name, t]));
			for (const node of Object.keys(TOOLS)) assert.ok(tools[toolName(node)], `tool ${toolName(node)} offered (offered: ${Object.keys(tools).join(', ')})`);
			const scrape = tools.Scrape;
			assert.match(scrape.description, /^Read ONE web page whose URL you already know/);
			assert.match(scrape.description, /Costs one scrape/);
			assert.match(scrape.parameters.properties.url.description, /An absolute https URL of the one page to read/);
			assert.match(scrape.parameters.properties.offset.description, /When a result was cut, the offset its marker names/);
			assert.match(tools.Search.description, /^Search the web when you do not know which page has the answer/);
			assert.match(tools.Search.parameters.properties.query.description, /at most 500 characters/);
			assert.match(tools.Crawl.parameters.properties.jobId.description, /Leave empty to start a new job/);
			assert.match(tools.Map.description, /^List the URLs of ONE website/);
			assert.match(tools.Research_Agent.description, /most expensive tool/);
			return `${Object.keys(tools).length} tools; Scrape: "${scrape.description.slice(0, 60)}…"; url: "${scrape.parameters.properties.url.description}"`;
		});

		await this.step(`ai agent: Scrape of a 31 KB page → the model receives at most ${BUDGET} characters, fenced, with a marker; the offset it names continues the page`, async () => {
			await this.fake.reset();
			// The model follows each marker's offset until the end of the page (at most 5 calls).
			const follow = (body) => {
				const next = /offset=(\d+)\.\]/.exec(lastResult(body));
				return next ? { calls: [call('Scrape', { url: LONG_PAGE, offset: Number(next[1]) })] } : { content: 'Read it all.' };
			};
			const e = await this.converse(w, [{ calls: [call('Scrape', { url: LONG_PAGE, offset: 0 })] }, follow, follow, follow, follow]);
			assert.equal(e.status, 'success', `execution ${e.status}`);
			const got = this.received('Scrape');
			const pages = got.map((r) => (Array.isArray(r.value) ? r.value[0] : r.value));
			assert.ok(got.length >= 2 && got.length <= 4, `2 to 4 tool results for a 31 KB page (got ${got.length})`);
			for (const r of got) assert.ok(r.content.length <= BUDGET + 2, `a result of ${r.content.length} characters`);
			assert.equal(pages[0].url, LONG_PAGE);
			for (const p of pages) assert.ok(p.content.startsWith(FENCE_START) && p.content.includes(FENCE_END), 'each part fenced');
			const text = pages.map((p) => p.content.slice(FENCE_START.length + 1, p.content.indexOf(`\n${FENCE_END}`))).join('');
			assert.equal(text.length, pages[0].contentLength, `the parts join to the whole page (${text.length} of ${pages[0].contentLength})`);
			assert.match(pages.at(-1).content, /\[End of the content: characters \d+–\d+ of \d+\.\]$/, 'the last part says it is the end');
			const scrapes = await this.requests('POST', '/v2/scrape');
			assert.equal(scrapes.length, got.length, 'one scrape per call');
			assert.deepEqual(scrapes[0].body, { url: LONG_PAGE, formats: ['markdown'] });
			return `${got.length} calls of ${got.map((r) => r.content.length).join(', ')} characters read the ${pages[0].contentLength}-character page whole`;
		});

		await this.step('ai agent: Search without and with scraped results stays within the budget; page=N gives one result\'s page', async () => {
			await this.fake.reset();
			const e = await this.converse(w, [
				{ calls: [call('Search', { query: 'vector databases', limit: 5, offset: 0, page: 0 })] },
				{ calls: [call('Search and Scrape', { query: 'fake-long-31000 vector databases', limit: 5, offset: 0, page: 0 })] },
				{ calls: [call('Search and Scrape', { query: 'fake-long-31000 vector databases', limit: 5, offset: 0, page: 2 })] },
				{ content: 'Found them.' },
			]);
			assert.equal(e.status, 'success', `execution ${e.status}`);
			const [plain] = this.received('Search');
			const [list, page] = this.received('Search and Scrape');
			const one = (r) => (Array.isArray(r.value) ? r.value[0] : r.value);
			assert.equal(one(plain).count, 5);
			assert.ok(list.content.length <= BUDGET + 2, `scraped search result ${list.content.length} characters`);
			assert.equal(one(list).pages, 5);
			assert.ok(one(list).list.every((x) => x.snippet.startsWith(FENCE_START)));
			assert.equal(one(page).page, 2);
			assert.equal(one(page).url, one(list).list[1].url);
			assert.ok(page.content.length <= BUDGET + 2);
			return `plain ${plain.content.length}, with scraped pages ${list.content.length}, page 2 ${page.content.length} characters`;
		});

		await this.step('ai agent: Map lists links; Crawl returns a compact list with the job once, and jobId + page read a page without a second crawl', async () => {
			await this.fake.reset();
			const e = await this.converse(w, [
				{ calls: [call('Map', { url: 'https://example.com', offset: 0 })] },
				{ calls: [call('Crawl', { url: 'https://fake-long-31000.example.com/', limit: 5, offset: 0, page: 0, jobId: '' })] },
				{ calls: (body) => [call('Crawl', { url: 'https://fake-long-31000.example.com/', limit: 5, offset: 0, page: 3, jobId: /"jobId":"([0-9a-f-]{36})"/.exec(lastResult(body))?.[1] ?? 'missing' })] },
				{ content: 'Crawled.' },
			]);
			assert.equal(e.status, 'success', `execution ${e.status}`);
			const one = (r) => (Array.isArray(r.value) ? r.value[0] : r.value);
			const [map] = this.received('Map');
			assert.ok(one(map).count > 1, 'links');
			const [list, page] = this.received('Crawl');
			assert.ok(list.content.length <= BUDGET + 2, `crawl list ${list.content.length} characters`);
			assert.equal(one(list).pages, 5);
			assert.equal(list.content.split(`"${one(list).jobId}"`).length - 1, 1, 'the job id once');
			assert.equal(one(page).page, 3);
			assert.equal(one(page).jobId, one(list).jobId);
			assert.equal((await this.requests('POST', '/v2/crawl')).length, 1, 'one crawl started');
			return `map ${map.content.length}, crawl list ${list.content.length}, page 3 ${page.content.length} characters; 1 crawl started`;
		});

		await this.step('ai agent: Batch Scrape (several URLs in one call), Research Agent Run and Wait and Monitors (a read) answer the model within the budget', async () => {
			await this.fake.reset();
			await this.fake.call('POST', '/__fake/monitor', { name: 'Pricing pages' });
			const urls = ['https://example.com/fake-long-31000/a', 'https://example.org/b', 'https://example.net/c'];
			const e = await this.converse(w, [
				{ calls: [call('Batch Scrape', { urls: urls.join(', '), offset: 0, page: 0, jobId: '' })] },
				{ calls: [call('Research Agent', { prompt: 'Find three robotics start-ups', offset: 0 })] },
				{ calls: [call('Monitors', { offset: 0 })] },
				{ content: 'All read.' },
			]);
			assert.equal(e.status, 'success', `execution ${e.status}`);
			const one = (r) => (Array.isArray(r.value) ? r.value[0] : r.value);
			const [batch] = this.received('Batch Scrape');
			assert.equal(one(batch).pages, 3);
			const [batchReq] = await this.requests('POST', '/v2/batch/scrape');
			assert.deepEqual(batchReq.body.urls, urls);
			const [agent] = this.received('Research Agent');
			assert.equal(one(agent).result?.status, 'completed', oneLine(agent.content));
			const [monitors] = this.received('Monitors');
			assert.match(monitors.content, /Pricing pages/);
			for (const r of [batch, agent, monitors]) assert.ok(r.content.length <= BUDGET + 2);
			return `batch ${batch.content.length}, agent ${agent.content.length}, monitors ${monitors.content.length} characters`;
		});

		await this.step('ai agent: API errors 400 / 402 / 429 / 500 and a field error reach the model with cause, code, fields, retry facts and next step; retries stay within 15 s', async () => {
			await this.fake.reset();
			// In call order: a → 400 naming a field, b → 402, c → 500 on every attempt, d → 429 once then its page, e → refused before sending.
			await this.fake.fault({ method: 'POST', path: '/v2/scrape', statuses: [400], body: { success: false, code: 'BAD_REQUEST', error: 'Bad Request', details: [{ code: 'invalid_string', path: ['url'], message: 'must be an absolute https URL' }] } });
			// c makes 3 or 4 tries (see below); a fourth 500 that c does not take goes to d, which retries it
			// before its 429: the service's answers are the same sequence either way.
			await this.fake.fault({ method: 'POST', path: '/v2/scrape', statuses: [402, 500, 500, 500, 500, 429], retryAfter: 1 });
			const t = {};
			const at = (k) => (body) => {
				t[k] = Date.now();
				return { calls: [call('Scrape', { url: k === 'e' ? 'example dot com' : `https://example.com/${k}`, offset: 0 })] };
			};
			const e = await this.converse(w, [at('a'), at('b'), at('c'), (body) => ((t.cEnd = Date.now()), at('d')(body)), at('e'), { content: 'Some pages failed.' }]);
			assert.equal(e.status, 'success', `execution ${e.status}`);
			const got = this.received('Scrape').map((r) => r.content);
			assert.equal(got.length, 5, `five tool results (${got.length})`);
			const errors = got.map((c) => {
				try {
					const v = JSON.parse(c);
					return (Array.isArray(v) ? v[0] : v)?.error ?? '';
				} catch {
					return '';
				}
			});
			const lines = got.map((c) => oneLine(c).slice(0, 400));
			assert.match(errors[0], /^Scrape URL failed: Bad Request \(HTTP 400, code BAD_REQUEST\)\. Fields: url: must be an absolute https URL\. Retryable: no .*Next step: /, lines[0]);
			assert.match(errors[1], /^Scrape URL failed: .*credits.*\(HTTP 402\)\. Retryable: no .*Next step: .*credits/i, lines[1]);
			assert.match(errors[2], /^Scrape URL failed: Internal Server Error \(HTTP 500\)\. Retryable: yes; tried [34] times over \d+ s; retry after \d+ s.*Next step: /, lines[2]);
			assert.match(got[3], /"url":"https:\/\/example\.com\/d"/, `after a 429 the page comes: ${lines[3]}`);
			assert.match(errors[4], /^Scrape URL failed: URL "example dot com" is not valid: .*Next step: Fix the "URL" field/, lines[4]);
			const waitedMs = t.cEnd - t.c;
			// Backoff 2, 4, 8 s plus a jitter under 1 s each: a fourth try fits the 15 s budget when the jitters
			// were small, so 3 or 4 tries of the 500; the retries themselves stay inside 15 s (the margin
			// is for n8n's own work on a busy machine).
			assert.ok(waitedMs < 20000, `the model heard back about the 500 after ${secs(waitedMs)} (budget 15 s)`);
			const requests = await this.requests('POST', '/v2/scrape');
			const statuses = requests.map((r) => r.status);
			const cTries = Number(/tried (\d) times/.exec(errors[2])[1]);
			assert.ok(cTries === 3 || cTries === 4, `the 500 was tried ${cTries} times`);
			assert.deepEqual(statuses, [400, 402, 500, 500, 500, 500, 429, 200], `the service answered ${statuses.join(', ')}`);
			const tries500 = requests.filter((r) => r.status === 500);
			assert.ok(tries500[cTries - 1].at - tries500[0].at <= 15000, 'the last try of the 500 was sent within the 15 s budget');
			return `500 answered after ${secs(waitedMs)}; ${['400', '402', `500 ×${cTries}`, '429 then 200', 'field'].map((k, i) => `${k} → ${(errors[i] || lines[i]).slice(0, 300)}`).join(' | ')}`;
		});

		await this.step('ai agent: 5 Scrape calls in one model turn against a rate limit of 2 per second → 5 pages reach the model', async () => {
			await this.fake.reset();
			await this.fake.call('POST', '/__fake/rate-limit', { limit: 2, windowMs: 1000, path: '/v2/scrape' });
			const urls = [1, 2, 3, 4, 5].map((n) => `https://example.com/parallel-${n}`);
			const t0 = Date.now();
			const e = await this.converse(w, [{ calls: urls.map((url) => call('Scrape', { url, offset: 0 })) }, { content: 'Five pages.' }]);
			const ms = Date.now() - t0;
			await this.fake.call('POST', '/__fake/rate-limit', {});
			assert.equal(e.status, 'success', `execution ${e.status}`);
			const got = this.received('Scrape');
			assert.equal(got.length, 5, `5 tool results (got ${got.length}: ${got.map((r) => oneLine(r.content).slice(0, 100)).join(' | ')})`);
			const pages = got.map((r) => (Array.isArray(r.value) ? r.value[0] : r.value)).map((p) => p?.url);
			assert.deepEqual([...pages].sort(), [...urls].sort(), got.map((r) => oneLine(r.content).slice(0, 120)).join(' | '));
			const log = await this.requests('POST', '/v2/scrape');
			const limited = log.filter((r) => r.rateLimited || r.status === 429).length;
			const first = Math.min(...log.map((r) => r.at));
			const timeline = log.map((r) => `${r.status}@${r.at - first}${r.retryAfterMs ? `/ra${r.retryAfterMs}` : ''}`).join(' ');
			// Issue 16.4: the 5 calls are 5 node runs of one execution and share its pace. Once a 429
			// is answered no call sends inside its Retry-After window (50 ms grace: a request already
			// given its turn when the 429 left the service still has to arrive), and only the first
			// burst can be answered 429: after its window the execution goes on at the learned 2 per
			// second. With a pace per call (before), the calls that had waited and the retry of the
			// limited one went out together and one more 429 came after the first window
			// (200 200 429 | 200 200 429 200); shared: 200 200 429 | 200 200 | 200.
			const windows = log.filter((r) => r.status === 429 && r.answeredAt && r.retryAfterMs);
			const inside = log.filter((r) => windows.some((w) => r !== w && r.at > w.answeredAt + 50 && r.at < w.answeredAt + w.retryAfterMs));
			assert.deepEqual(inside.map((r) => r.at - first), [], `requests inside a Retry-After window: ${timeline}`);
			assert.ok(windows.length > 0, `the rate limit was reached, so the step means something: ${timeline}`);
			const firstWindowEnds = windows[0].answeredAt + windows[0].retryAfterMs;
			const later = log.filter((r) => r.status === 429 && r.at >= firstWindowEnds);
			assert.deepEqual(later.map((r) => r.at - first), [], `429s after the first Retry-After window (the pace is not shared): ${timeline}`);
			return `5 pages in ${secs(ms)}; ${log.length} requests, ${limited} answered 429, all in the first burst, none inside a Retry-After window; ${timeline}`;
		});

		await this.step('ai agent: examples/ai-agent/ai-agent-research-web.json runs (its Manual Trigger as a Webhook): Search, then Scrape of a result, then the answer', async () => {
			await this.fake.reset();
			const { example, ...ex } = await this.createExample(EXAMPLE);
			const tools = example.nodes.filter((n) => n.type === TOOL_TYPE).map((n) => n.name);
			const searchTool = tools.find((n) => /search/i.test(n));
			const scrapeTool = tools.find((n) => /scrape/i.test(n) && !/search/i.test(n));
			assert.ok(searchTool && scrapeTool, `the example has a search and a scrape tool (${tools.join(', ')})`);
			const e = await this.converse(
				ex,
				[
					{ calls: [{ name: toolName(searchTool), args: { query: 'open source vector databases', limit: 3, offset: 0, page: 0 } }] },
					{ calls: (body) => [{ name: toolName(scrapeTool), args: { url: /"url":"(https:[^"]+)"/.exec(lastResult(body))?.[1] ?? 'missing', offset: 0 } }] },
					{ content: 'Here is what I found.' },
				],
				'Which open source vector databases are popular?',
			);
			assert.equal(e.status, 'success', `execution ${e.status}`);
			const agentName = example.nodes.find((n) => n.type === AGENT_TYPE).name;
			const out = e.data.resultData.runData[agentName].at(-1).data.main[0][0].json;
			assert.equal(out.output, 'Here is what I found.');
			const [scrape] = await this.requests('POST', '/v2/scrape');
			const log = await this.fake.log();
			assert.match(scrape?.body?.url ?? '', /^https:\/\/example\.com\/web\//, `the scraped URL came from the search result (fake log: ${log.map((r) => `${r.method} ${r.path} ${r.status}`).join(', ')}; tool results: ${this.received().map((r) => oneLine(r.content).slice(0, 150)).join(' | ')})`);
			return `tools ${tools.join(', ')}; scraped ${scrape.body.url}`;
		});

		// Issue 35: a credit budget per execution. The example's tools carry the node option Credit
		// Budget per Execution; a search of up to 10 results costs 2 (the fake bills by the service's rules).
		const budgetTools = (example) => {
			const tools = example.nodes.filter((n) => n.type === TOOL_TYPE);
			const search = tools.find((n) => n.parameters.resource === 'search');
			const scrape = tools.find((n) => n.parameters.resource === 'scrape');
			assert.ok(search && scrape, `the example has a Search and a Scrape tool (${tools.map((n) => n.name).join(', ')})`);
			const budgets = [...new Set(tools.map((n) => n.parameters.options?.creditBudget))];
			assert.equal(budgets.length, 1, `one budget on every Web Data tool (${budgets.join(', ')})`);
			assert.ok(budgets[0] > 0, 'the example sets a budget');
			return { search: search.name, scrape: scrape.name, budget: budgets[0] };
		};
		const one = (r) => (Array.isArray(r.value) ? r.value[0] : r.value);
		const refused = (r) => one(r)?.creditBudgetReached === true;
		const searchCall = (tool, k) => ({ name: toolName(tool), args: { query: `open source vector databases ${k}`, limit: 5, offset: 0, page: 0 } });
		// What the node after the agent read ("Credits spent"), and the agent's answer.
		const afterAgent = (e, example) => {
			const agent = example.nodes.find((n) => n.type === AGENT_TYPE).name;
			const next = example.connections[agent].main[0][0].node;
			return { agent: e.data.resultData.runData[agent].at(-1).data.main[0][0].json, next, json: e.data.resultData.runData[next]?.at(-1)?.data?.main?.[0]?.[0]?.json };
		};
		// The run ended told: the agent's answer says so, the service charged the `fits` searches sent (2
		// credits each, within `budget`) and the node after the agent read that total. Resolves {charged, after}.
		const spentWithin = async (e, example, budget, fits) => {
			const charged = await this.chargedAtFake();
			const after = afterAgent(e, example);
			assert.equal(after.agent.output, 'The credit budget of this run was reached; here is what I found so far.');
			assert.equal(after.json?.creditsSpent, charged, `"${after.next}" read the execution's total ${after.json?.creditsSpent}; the service charged ${charged}`);
			assert.equal(charged, fits * 2, `the service charged ${charged}`);
			assert.ok(charged <= budget, `spent ${charged} of ${budget}`);
			return { charged, after };
		};
		const told = (body) => (body.messages ?? []).some((m) => m.role === 'tool' && /Credit budget reached/.test(typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
		const stopWhenTold = (body) => (told(body) ? 'The credit budget of this run was reached; here is what I found so far.' : 'Here is what I found.');

		await this.step('ai agent: credit budget — examples/ai-agent/ai-agent-credit-budget.json runs (its Manual Trigger as a Webhook): a model that calls Search 8 times, then Scrape, gets only what fits in the budget of 10; every call past it is answered "Credit budget reached", the run succeeds and the node after the agent reads what the service charged', async () => {
			await this.fake.reset();
			const { example, ...ex } = await this.createExample(BUDGET_EXAMPLE);
			const { search, scrape, budget } = budgetTools(example);
			// 8 searches, a scrape and the answer: within the AI Agent's default Max Iterations (10).
			const calls = 8;
			const fits = Math.floor(budget / 2);
			assert.ok(fits < calls, `the model calls Search more often (${calls}) than the budget lets through (${fits})`);
			const e = await this.converse(ex, [
				...Array.from({ length: calls }, (_, k) => ({ calls: [searchCall(search, k + 1)] })),
				{ calls: [{ name: toolName(scrape), args: { url: 'https://example.com/docs', offset: 0 } }] },
				{ content: stopWhenTold },
			]);
			assert.equal(e.status, 'success', `execution ${e.status}: ${oneLine(JSON.stringify(e.data?.resultData?.error ?? ''))}`);
			const sent = await this.requests('POST', '/v2/search');
			assert.deepEqual(sent.map((r) => r.status), Array(fits).fill(200), `the service received ${fits} searches (got ${sent.length})`);
			assert.equal((await this.requests('POST', '/v2/scrape')).length, 0, 'no scrape was sent');
			const got = this.received(search);
			assert.equal(got.length, calls, `${calls} Search results reached the model (got ${got.length})`);
			got.slice(0, fits).forEach((r, k) => assert.ok(!refused(r) && one(r)?.count === 5, `call ${k + 1} answered with results: ${oneLine(r.content).slice(0, 200)}`));
			for (const [k, r] of got.slice(fits).entries()) {
				assert.ok(r.content.includes('Credit budget reached'), `call ${fits + k + 1} told the model: ${oneLine(r.content).slice(0, 300)}`);
				assert.ok(refused(r), `call ${fits + k + 1} is the creditBudgetReached result: ${oneLine(r.content).slice(0, 300)}`);
				assert.match(one(r).message, new RegExp(`^Credit budget reached: This search \\(up to 5 results\\) would cost at least 2 credits, and 0 of this execution's ${budget} are left\\. Nothing was sent\\. .*do not call them again`));
				assert.deepEqual({ budget: one(r).budget, spent: one(r).spent, left: one(r).left }, { budget, spent: fits * 2, left: 0 });
			}
			const [scraped] = this.received(scrape);
			assert.ok(scraped && refused(scraped), `the Scrape call shares the budget and is told too: ${oneLine(scraped?.content ?? 'no result').slice(0, 300)}`);
			assert.match(one(scraped).message, new RegExp(`^Credit budget reached: This scrape would cost at least 1 credit, and 0 of this execution's ${budget} are left`));
			const { charged, after } = await spentWithin(e, example, budget, fits);
			const first = got.find(refused);
			return `${sent.length} of ${calls} searches sent, ${calls - fits} Search calls and the Scrape call told; "${after.next}": creditsSpent ${after.json.creditsSpent} = charged ${charged} ≤ ${budget}; the model read: ${oneLine(first.content).slice(0, 500)}`;
		});

		// One model turn of `calls` Search calls, each answered after 300 ms so that the sent searches are
		// still running while the next calls reserve. n8n's AI Agent 3 hands the calls back as one
		// assistant message each: the answer follows whichever turn the conversation is at.
		const oneTurn = async (ex, example, budget, calls = 10) => {
			const { search } = budgetTools(example);
			const fits = Math.floor(budget / 2);
			await this.fake.reset();
			await this.fake.fault({ method: 'POST', path: '/v2/search', delayMs: 300, times: calls });
			const e = await this.converse(ex, [{ calls: Array.from({ length: calls }, (_, k) => searchCall(search, k + 1)) }, ...Array(calls).fill({ content: stopWhenTold })]);
			assert.equal(e.status, 'success', `execution ${e.status}: ${oneLine(JSON.stringify(e.data?.resultData?.error ?? ''))}`);
			const sent = await this.requests('POST', '/v2/search');
			assert.deepEqual(sent.map((r) => r.status), Array(fits).fill(200), `the service received ${fits} searches (got ${sent.length})`);
			const got = this.received(search);
			assert.equal(got.length, calls, `${calls} Search results reached the model (got ${got.length})`);
			const toldCalls = got.filter(refused);
			assert.equal(toldCalls.length, calls - fits, `${calls - fits} calls told (${got.map((r) => (refused(r) ? 'told' : 'results')).join(', ')})`);
			for (const r of toldCalls) {
				assert.ok(r.content.includes('Credit budget reached'), oneLine(r.content).slice(0, 300));
				// In flight or answered, the sent searches' credits are taken: what is left is the same.
				assert.match(one(r).message, new RegExp(`^Credit budget reached: This search \\(up to 5 results\\) would cost at least 2 credits, and ${budget - fits * 2} of this execution's ${budget} are left\\. Nothing was sent\\.`));
			}
			const { charged, after } = await spentWithin(e, example, budget, fits);
			const sideBySide = sent.length > 1 && sent[1].at < sent[0].answeredAt;
			const timeline = sent.map((r) => `${r.at - sent[0].at}–${r.answeredAt - sent[0].at} ms`).join(', ');
			return { sideBySide, note: `${sent.length} of ${calls} searches sent (${sideBySide ? 'side by side' : 'one after the other'}: ${timeline}), ${toldCalls.length} told; creditsSpent ${after.json.creditsSpent} = charged ${charged} ≤ ${budget}` };
		};

		await this.step("ai agent: credit budget — 10 Search calls in ONE model turn (each search answered after 300 ms) with the credential's Credit Budget per Execution of 5, below the example's option of 10: only 2 searches are sent, the 8 other calls are told, nothing is overspent", async () => {
			const credential = await this.webDataCredential('Web Data (credit budget 5)', { creditBudget: 5 });
			const { example, ...ex } = await this.createExample(BUDGET_EXAMPLE, { webData: credential });
			const { budget: option } = budgetTools(example);
			return (await oneTurn(ex, example, Math.min(5, option))).note;
		});

		await this.step('ai agent: credit budget — the example with the AI Agent 2.2, whose LangChain executor runs one turn\'s 10 Search calls side by side (each answered after 300 ms): only what fits in the budget of 10 is sent, the other calls are told, nothing is overspent', async () => {
			const { example, ...ex } = await this.createExample(BUDGET_EXAMPLE, { agentVersion: 2.2 });
			const { budget } = budgetTools(example);
			const { sideBySide, note } = await oneTurn(ex, example, budget);
			assert.ok(sideBySide, `the searches ran side by side, so the step means something: ${note}`);
			return note;
		});

		if (HOST.major >= 2) await this.humanReview();
	}

	/**
	 * Issue 36: the Web Data tools behind n8n's review in chat (examples/ai-agent/ai-agent-research-with-approval.json:
	 * Chat Trigger → AI Agent, Search the web and Read a page → the Chat review tool → AI Agent). Headless:
	 * the chat message is POSTed to the Chat Trigger's webhook; the review's message with its buttons (signed
	 * links to the waiting webhook) is read from the waiting execution, and a person's click is a GET of one link.
	 */
	async humanReview() {
		const steps = [
			'human review: examples/ai-agent/ai-agent-research-with-approval.json — the model calls Read a page; the execution waits for the review and the service has received nothing',
			'human review: approved → exactly one scrape with the model\'s URL is sent, and the model receives the page (fenced Markdown), not the approval',
			'human review: declined → nothing is sent and the model is told the call was declined',
			'human review: an approved Search that does not fit the credit budget (credential budget 1) → nothing is sent and the model receives the creditBudgetReached result through the review',
		];
		if (FILTERS.length > 0 && !steps.some((name) => FILTERS.some((f) => name.includes(f)))) return;
		const example = JSON.parse(fs.readFileSync(APPROVAL_EXAMPLE, 'utf8'));
		const review = example.nodes.find((n) => n.type === CHAT_REVIEW_TYPE);
		const trigger = example.nodes.find((n) => n.type === '@n8n/n8n-nodes-langchain.chatTrigger');
		const agent = example.nodes.find((n) => n.type === AGENT_TYPE);
		const tools = example.nodes.filter((n) => n.type === TOOL_TYPE);
		const search = tools.find((n) => n.parameters.resource === 'search');
		const scrape = tools.find((n) => n.parameters.resource === 'scrape');
		const answerNode = example.connections[agent.name].main[0][0].node;
		const create = async (webData) => {
			const wf = JSON.parse(JSON.stringify(example));
			const chat = wf.nodes.find((n) => n.name === trigger.name);
			chat.webhookId = crypto.randomUUID();
			for (const node of wf.nodes) {
				if (node.credentials?.webDataApi) node.credentials.webDataApi = { id: webData.id, name: webData.name };
				if (node.credentials?.openAiApi) node.credentials.openAiApi = this.openAi;
			}
			const created = await this.api('POST', '/workflows', { name: `${wf.name} (${chat.webhookId})`, nodes: wf.nodes, connections: wf.connections, settings: wf.settings });
			await this.api('POST', `/workflows/${created.id}/activate`);
			const url = `${this.base}/webhook/${chat.webhookId}/chat`;
			await this.until(async () => (await fetch(url)).status === 200, 'the hosted chat to be served');
			return { id: created.id, url };
		};
		const full = async (id) => await this.api('GET', `/executions/${id}?includeData=true`);
		// Sends a chat message; resolves the execution once it waits for the review.
		const chat = async (w, turns, chatInput) => {
			this.model.script(turns);
			const res = await fetch(w.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ action: 'sendMessage', sessionId: crypto.randomUUID(), chatInput }) });
			const started = await res.json();
			assert.ok(started.executionId, `the chat started an execution: ${oneLine(JSON.stringify(started))}`);
			return await this.until(async () => {
				const e = await full(started.executionId);
				if (['error', 'crashed', 'success'].includes(e.status)) throw new Error(`execution ${e.id} ended (${e.status}) instead of waiting for the review: ${oneLine(JSON.stringify(e.data?.resultData?.error ?? ''))}`);
				return e.status === 'waiting' && e.data?.resultData?.runData?.[review.name] ? e : undefined;
			}, 'the execution to wait for the review', 60000);
		};
		const reviewMessage = (e) => e.data.resultData.runData[review.name].at(-1).data.ai_tool[0][0].sendMessage;
		// A person's click: GET of the button's link; resolves the execution once it waits at the answer (or ends).
		const click = async (e, approved) => {
			const buttons = reviewMessage(e).buttons ?? [];
			const button = buttons.find((b) => new URL(b.link).searchParams.get('approved') === String(approved));
			assert.ok(button, `the review offers a ${approved ? 'approve' : 'decline'} button (${buttons.map((b) => b.text).join(', ')})`);
			// As a person's browser: n8n answers a link checker or chat preview bot with nothing and records no click.
			const res = await fetch(button.link, { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36' } });
			const page = await res.text();
			assert.equal(res.status, 200, `the ${button.text} link answered ${res.status}`);
			assert.ok(page.length > 0, `the ${button.text} link answered with a page (an empty answer records nothing)`);
			return await this.until(async () => {
				const x = await full(e.id);
				if (['error', 'crashed', 'success'].includes(x.status)) return x;
				return x.status === 'waiting' && x.data?.resultData?.runData?.[answerNode] ? x : undefined;
			}, `execution ${e.id} to reach "${answerNode}"`, 60000);
		};
		const lastToolMessage = (body) => (body.messages ?? []).filter((m) => m.role === 'tool').at(-1);
		const echo = (body) => `Tool said: ${String(lastToolMessage(body)?.content ?? 'nothing').slice(0, 200)}`;
		const answerOf = (e) => ({ agent: e.data.resultData.runData[agent.name]?.at(-1)?.data?.main?.[0]?.[0]?.json?.output, chat: e.data.resultData.runData[answerNode]?.at(-1)?.data?.main?.[0]?.[0]?.sendMessage });
		const fakeLog = async () => (await this.fake.log()).filter((r) => r.path.startsWith('/v2/') && !r.path.startsWith('/v2/team'));
		const ranTool = (e) => tools.filter((t) => e.data.resultData.runData[t.name]).map((t) => t.name);

		const w = await create(this.credentials.tokenOnly);
		const pageUrl = 'https://example.com/docs';
		let waiting;
		await this.step(steps[0], async () => {
			await this.fake.reset();
			waiting = await chat(w, [{ calls: [{ name: toolName(scrape.name), args: { toolParameters: { url: pageUrl, offset: 0 }, hitlParameters: {} } }] }, { content: echo }], 'What does the docs page say?');
			const offered = this.model.tools().map((t) => t.name);
			assert.ok(offered.includes(toolName(scrape.name)) && offered.includes(toolName(search.name)), `the model is offered the reviewed tools (${offered.join(', ')})`);
			await new Promise((r) => setTimeout(r, 1000));
			const log = await fakeLog();
			assert.deepEqual(log.map((r) => `${r.method} ${r.path}`), [], 'the service received nothing before the review');
			assert.deepEqual(ranTool(waiting), [], 'no Web Data tool ran before the review');
			const message = reviewMessage(waiting);
			assert.match(message.text, new RegExp(`${toolName(scrape.name)}[\\s\\S]*${pageUrl.replace(/\./g, '\\.')}`), `the review message names the tool and the URL: ${oneLine(message.text)}`);
			return `execution ${waiting.id} waiting; review message: "${oneLine(message.text)}"; buttons ${message.buttons.map((b) => b.text).join(', ')}; service requests: 0`;
		});

		await this.step(steps[1], async () => {
			assert.ok(waiting, 'the previous step left an execution waiting');
			const e = await click(waiting, true);
			assert.ok(e.status === 'waiting' || e.status === 'success', `execution ${e.status}: ${oneLine(JSON.stringify(e.data?.resultData?.error ?? ''))}`);
			const log = await fakeLog();
			assert.deepEqual(log.map((r) => `${r.method} ${r.path}`), ['POST /v2/scrape'], 'exactly one request to the service');
			assert.equal(log[0].body.url, pageUrl, 'the model\'s URL was sent');
			const got = this.received(scrape.name);
			assert.equal(got.length, 1, `one Read a page result reached the model (got ${got.length})`);
			assert.ok(got[0].content.includes(FENCE_START) && got[0].content.includes(FENCE_END), `the model received the page, fenced: ${oneLine(got[0].content).slice(0, 300)}`);
			assert.doesNotMatch(got[0].content, /"approved"/, 'the model did not receive the approval instead of the result');
			const out = answerOf(e);
			assert.equal(out.agent, echo(this.model.requests.at(-1)), 'the agent answered after reading the result');
			assert.equal(out.chat, out.agent, `"${answerNode}" sends the agent's answer to the chat`);
			return `one POST /v2/scrape {url: ${log[0].body.url}}; the model read: ${oneLine(got[0].content).slice(0, 240)}`;
		});

		await this.step(steps[2], async () => {
			await this.fake.reset();
			const before = await chat(w, [{ calls: [{ name: toolName(search.name), args: { toolParameters: { query: 'open source vector databases', limit: 5, offset: 0, page: 0 }, hitlParameters: {} } }] }, { content: echo }], 'Find vector databases.');
			const e = await click(before, false);
			assert.ok(e.status === 'waiting' || e.status === 'success', `execution ${e.status}: ${oneLine(JSON.stringify(e.data?.resultData?.error ?? ''))}`);
			await new Promise((r) => setTimeout(r, 500));
			assert.deepEqual((await fakeLog()).map((r) => `${r.method} ${r.path}`), [], 'nothing was sent to the service');
			assert.deepEqual(ranTool(e), [], 'no Web Data tool ran');
			const got = this.received(search.name);
			assert.equal(got.length, 1, `one answer for the call reached the model (got ${got.length})`);
			assert.match(got[0].content, /rejected the tool call/i, `the model was told: ${oneLine(got[0].content)}`);
			return `nothing sent; the model read: ${oneLine(got[0].content)}`;
		});

		await this.step(steps[3], async () => {
			await this.fake.reset();
			const credential = await this.webDataCredential('Web Data (credit budget 1, review)', { creditBudget: 1 });
			const wb = await create(credential);
			const before = await chat(wb, [{ calls: [{ name: toolName(search.name), args: { toolParameters: { query: 'open source vector databases', limit: 5, offset: 0, page: 0 }, hitlParameters: {} } }] }, { content: echo }], 'Find vector databases.');
			assert.deepEqual((await fakeLog()).map((r) => `${r.method} ${r.path}`), [], 'nothing was sent before the review');
			const e = await click(before, true);
			assert.ok(e.status === 'waiting' || e.status === 'success', `execution ${e.status}: ${oneLine(JSON.stringify(e.data?.resultData?.error ?? ''))}`);
			assert.deepEqual((await fakeLog()).map((r) => `${r.method} ${r.path}`), [], 'nothing was sent to the service');
			const got = this.received(search.name);
			assert.equal(got.length, 1, `one answer for the call reached the model (got ${got.length})`);
			const value = Array.isArray(got[0].value) ? got[0].value[0] : got[0].value;
			assert.equal(value?.creditBudgetReached, true, `the model received the creditBudgetReached result: ${oneLine(got[0].content).slice(0, 300)}`);
			assert.match(value.message, /^Credit budget reached: This search \(up to 5 results\) would cost at least 2 credits, and 1 of this execution's 1 are left\. Nothing was sent\./);
			assert.doesNotMatch(got[0].content, /"approved"/);
			return `nothing sent; the model read: ${oneLine(got[0].content).slice(0, 400)}`;
		});
	}
}

function main() {
	let model;
	return runPhaseSuite({
		report,
		root: ROOT,
		host: HOST,
		prefix: 'webdata-ai-agent-',
		encryptionKey: 'webdata-e2e-encryption-key-0003',
		keepTmpEnv: 'AI_AGENT_KEEP_TMP',
		Suite: AiAgentSuite,
		before: async () => {
			model = await startStubModel();
		},
		configure: (suite) => {
			suite.model = model;
		},
		setupLabel: (startMs) => `ai agent: set-up (package, fake API, stub model, n8n start ready in ${secs(startMs)}, owner, API key, credentials)`,
		setupFailedLabel: 'ai agent: set-up',
		run: (suite) => suite.run(),
		after: async () => {
			if (model) await model.close();
		},
		leakLabel: 'ai agent: the API key never appears in n8n output, executions or what the model received',
	});
}

module.exports = { AiAgentSuite, agentToolWorkflow, toolName };

if (require.main === module) runScript(main);
