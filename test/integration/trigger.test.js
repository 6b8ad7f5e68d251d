'use strict';
/**
 * Web Data Trigger in n8n-core's own contexts: HookContext runs checkExists / create / delete the
 * way n8n's WebhookService does on activation, deactivation and "Listen for test event";
 * WebhookContext runs webhook() for each HTTP request that reaches a small receiver standing in for
 * n8n's /webhook and /webhook-test endpoints (it reads the raw body and parses JSON like n8n, keeps
 * static data like n8n's database, and records the executions a real n8n would start).
 * The strict fake API (test/fake-api) creates monitors, runs checks and sends real, signed
 * deliveries to that receiver. Build first: `npm run build`.
 */
const crypto = require('crypto');
const http = require('http');
const fs = require('fs');
const path = require('path');
const { nodeTypes, runWorkflow } = require('../helpers/workflow-runner'); // sets up n8n-core's environment first
const core = require('n8n-core');
const workflowLib = require('n8n-workflow');
const { startFakeApi } = require('../fake-api/server');
const { CANARY_KEY, record } = require('../helpers/canary');
const { WebDataApi } = require('../../dist/credentials/WebDataApi.credentials');
const { TestCredentialsHelper, loadOptionsContext, instanceData } = require('../helpers/n8n-contexts');
const { publicAlias } = require('../helpers/public-host');

// n8n-core's own logger (what ctx.logger gives a node), to read the trigger's warnings.
const coreRequire = require('module').createRequire(require.resolve('n8n-core'));
const { Container } = coreRequire('@n8n/di');
const { Logger } = coreRequire('@n8n/backend-common');

jest.setTimeout(30000);

const TYPE = 'n8n-nodes-webdata.webDataTrigger';
const TOKEN_HEADER = 'x-webdata-trigger-token';
const SIGNING_SECRET = 'whsec-integration-signing-secret';
const CHECK_MS = 1500; // the fake's default check duration, divided by timeScale below

let api;
beforeAll(async () => {
	api = await startFakeApi({ apiKey: CANARY_KEY, webhookSigningSecret: SIGNING_SECRET, timeScale: 10 });
});
afterAll(async () => {
	await api.close();
});
const open = [];
beforeEach(() => api.reset());
afterEach(async () => {
	while (open.length) await open.pop().close();
});

// ---- n8n stand-ins -------------------------------------------------------------------------
const credentialType = new WebDataApi();
/** The node's credential from the test's values (n8n's defaults under them); `reads` counts the reads. */
const credentialsHelperFor = (data) =>
	new TestCredentialsHelper(data, { defaults: { apiKey: '', baseUrl: 'https://api.firecrawl.dev', webhookSecret: '' }, properties: credentialType.properties });

function nodeType() {
	return nodeTypes.getByNameAndVersion(TYPE, 1);
}

/**
 * One trigger node in one workflow, plus the receiver at which n8n would serve its webhooks.
 *   parameters   the node's parameters
 *   credential   {webhookSecret?, baseUrl?} merged over {apiKey: CANARY_KEY, baseUrl: fake}; null = none
 *   n8nBase      the address n8n gives in its webhook URLs (WEBHOOK_URL); default: the receiver's
 */
async function trigger(parameters, { credential = {}, webhookId = crypto.randomUUID(), workflowId = `wf-${crypto.randomUUID().slice(0, 8)}`, settings = {}, n8nBase } = {}) {
	const node = {
		id: 'trigger-node-1',
		name: 'Web Data Trigger',
		type: TYPE,
		typeVersion: 1,
		position: [0, 0],
		webhookId,
		parameters,
		credentials: { webDataApi: { id: 'cred-1', name: 'Web Data account' } },
	};
	const store = { production: '{}', test: '{}' }; // static data as n8n keeps it (DB / test registration cache)
	const executions = []; // {mode, items}
	const responses = []; // {status, body}
	const listening = { test: false };
	const server = http.createServer((req, res) => {
		receive(req, res).catch((error) => {
			res.statusCode = 500;
			res.end(String(error && error.stack));
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const base = `http://127.0.0.1:${server.address().port}`;
	const credentialData = credential === null ? null : { apiKey: CANARY_KEY, baseUrl: api.url, ...credential };
	const credentialsHelper = credentialsHelperFor(credentialData);

	function additionalData(extra = {}) {
		return instanceData(n8nBase ? n8nBase(server.address().port) : base, credentialsHelper, extra);
	}

	function workflowFor(which) {
		return new workflowLib.Workflow({
			id: workflowId,
			name: 'Trigger test',
			nodes: [structuredClone(node)],
			connections: {},
			nodeTypes,
			staticData: JSON.parse(store[which]),
			settings: { executionOrder: 'v1', ...settings },
			active: which === 'production',
		});
	}
	const save = (which, workflow) => {
		if (workflow.staticData.__dataChanged) store[which] = JSON.stringify(workflow.staticData);
	};

	/** Runs one webhookMethods function like n8n's WebhookService.runWebhookMethod. */
	async function hook(method, { test = false, mode, activation } = {}) {
		const which = test ? 'test' : 'production';
		const workflow = workflowFor(which);
		const wfNode = workflow.getNode(node.name);
		const data = additionalData();
		const webhookData = {
			httpMethod: 'POST',
			node: node.name,
			path: `${webhookId}/webhook`,
			webhookDescription: nodeType().description.webhooks[0],
			workflowId,
			workflowExecuteAdditionalData: data,
			isTest: test,
		};
		const context = new core.HookContext(
			workflow,
			wfNode,
			data,
			mode ?? (test ? 'manual' : method === 'delete' ? 'internal' : 'trigger'),
			activation ?? (test ? 'manual' : method === 'delete' ? 'update' : 'activate'),
			webhookData,
		);
		try {
			return await nodeType().webhookMethods.default[method].call(context);
		} finally {
			save(which, workflow);
		}
	}

	/** n8n's createWebhookIfNotExists: create() only when checkExists() is false. */
	async function activate(opts = {}) {
		const exists = await hook('checkExists', opts);
		if (!exists) await hook('create', opts);
		if (opts.test) listening.test = true;
		return { existed: exists };
	}
	async function deactivate(opts = {}) {
		const result = await hook('delete', opts);
		if (opts.test) {
			listening.test = false;
			store.test = '{}';
		}
		return result;
	}

	/** What n8n does for POST /webhook/<id>/webhook: read and parse the body, run webhook(), start an execution. */
	async function receive(req, res) {
		const test = req.url.startsWith('/webhook-test/');
		const which = test ? 'test' : 'production';
		const requestUrl = new URL(req.url, base);
		const query = Object.fromEntries([...requestUrl.searchParams.keys()].map((k) => [k, requestUrl.searchParams.getAll(k).length > 1 ? requestUrl.searchParams.getAll(k) : requestUrl.searchParams.get(k)]));
		if (requestUrl.pathname !== `/${test ? 'webhook-test' : 'webhook'}/${webhookId}/webhook` || req.method !== 'POST' || (test && !listening.test)) {
			res.statusCode = 404;
			return res.end('{"message":"webhook not registered"}');
		}
		const chunks = [];
		for await (const c of req) chunks.push(c);
		const rawBody = Buffer.concat(chunks);
		const contentType = String(req.headers['content-type'] || '').split(';')[0].trim();
		let body = {};
		if (rawBody.length && contentType === 'application/json') {
			try {
				body = JSON.parse(rawBody.toString('utf8'));
			} catch {
				res.statusCode = 422; // n8n's body parser refuses malformed JSON before any node runs
				return res.end('{"message":"Failed to parse request body"}');
			}
		} else if (rawBody.length && contentType === 'text/plain') body = rawBody.toString('utf8');

		const response = {
			status(code) {
				res.statusCode = code;
				return response;
			},
			json(value) {
				res.setHeader('content-type', 'application/json');
				res.end(JSON.stringify(value));
				responses.push({ status: res.statusCode, body: value });
				return response;
			},
		};
		const workflow = workflowFor(which);
		const wfNode = workflow.getNode(node.name);
		const data = additionalData({
			httpRequest: { headers: req.headers, body, rawBody, params: {}, query, method: 'POST', contentType },
			httpResponse: response,
		});
		const webhookData = { httpMethod: 'POST', node: node.name, path: `${webhookId}/webhook`, webhookDescription: nodeType().description.webhooks[0], workflowId, isTest: test };
		const context = new core.WebhookContext(workflow, wfNode, data, test ? 'manual' : 'webhook', webhookData, [], null);
		const result = await nodeType().webhook.call(context);
		// n8n (2.41 live-webhooks; 1.x the same) saves the static data a webhook call changed after
		// answering, but when the call starts an execution, the execution's Workflow wraps the same
		// object and resets its "changed" flag first: such changes are not saved (issue 29: the
		// trigger keeps its ledger in memory too, and after a restart reads the service's record).
		if (!result.workflowData) save(which, workflow);
		record(result);
		if (result.noWebhookResponse) {
			if (!res.writableEnded) res.end();
			return;
		}
		let answer;
		if (result.workflowData) {
			executions.push({ mode: which, items: result.workflowData[0].map((i) => i.json) });
			// n8n 2.41 webhook-helpers, responseMode "onReceived": the description's responseData
			// (default 'firstEntryJson', sent as that literal string), 'noData' → no body, an empty
			// value → the node's webhookResponse, else {message: 'Workflow was started'}.
			const description = nodeType().description.webhooks[0];
			const responseData = description.responseData === undefined ? 'firstEntryJson' : description.responseData;
			if (responseData === 'noData') answer = undefined;
			else if (responseData) answer = responseData;
			else answer = result.webhookResponse ?? { message: 'Workflow was started' };
		} else answer = result.webhookResponse ?? { message: 'Webhook call received' };
		if (typeof answer === 'string') res.end(answer); // n8n sends a string body as it is
		else {
			res.setHeader('content-type', 'application/json');
			res.end(answer === undefined ? '' : JSON.stringify(answer));
		}
		responses.push({ status: 200, body: answer });
	}

	const harness = {
		node,
		base,
		credentialsHelper,
		/** Changes the credential as a user would in n8n (the next read sees it). */
		setCredential: (patch) => Object.assign(credentialData, patch),
		productionUrl: `${base}/webhook/${webhookId}/webhook`,
		testUrl: `${base}/webhook-test/${webhookId}/webhook`,
		executions,
		responses,
		staticData: (which = 'production') => JSON.parse(store[which])[`node:${node.name}`] ?? {},
		setStaticData: (value, which = 'production') => {
			store[which] = JSON.stringify({ [`node:${node.name}`]: value });
		},
		hook,
		activate,
		deactivate,
		/** POSTs raw bytes to the production (or test) URL; resolves {status, body}. */
		async post(raw, headers = {}, { test = false, search = '' } = {}) {
			const res = await fetch((test ? harness.testUrl : harness.productionUrl) + search, {
				method: 'POST',
				headers: { 'content-type': 'application/json', ...headers },
				body: raw,
			});
			const text = await res.text();
			let json;
			try {
				json = JSON.parse(text);
			} catch {
				json = text;
			}
			return { status: res.status, body: json };
		},
		close: () => new Promise((resolve) => server.close(resolve)),
	};
	open.push(harness);
	return harness;
}

const createParams = (extra = {}) => ({
	connection: 'create',
	events: ['monitor.page', 'monitor.check.completed'],
	monitorName: 'Competitor pricing',
	urls: 'https://shop.example.com/pricing, https://shop.example.com/plans',
	scheduleType: 'text',
	scheduleText: 'every 30 minutes',
	timezone: 'Europe/Berlin',
	goal: 'Tell me when a price changes',
	...extra,
});

const sign = (raw, secret = SIGNING_SECRET) => `sha256=${crypto.createHmac('sha256', secret).update(raw).digest('hex')}`;
const sentToMonitor = () => api.requests({ path: '/v2/monitor' }).map((r) => `${r.method} ${r.path}`);

/** Runs one check of the monitor and waits until every delivery was answered. */
async function runCheck(monitorId) {
	api.tickMonitor(monitorId);
	await api.settled(CHECK_MS * 5);
	return api.deliveries;
}

async function listMonitors() {
	const res = await fetch(`${api.url}/v2/monitor`, { headers: { authorization: `Bearer ${CANARY_KEY}` } });
	return (await res.json()).data;
}

async function createMonitorDirectly(body) {
	const res = await fetch(`${api.url}/v2/monitor`, {
		method: 'POST',
		headers: { authorization: `Bearer ${CANARY_KEY}`, 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	const json = await res.json();
	if (!json.success) throw new Error(JSON.stringify(json));
	return json.data;
}

// ---------------------------------------------------------------------------------------------
describe('Create a Monitor for This Workflow', () => {
	test('an empty Time Zone creates the monitor in the workflow\'s time zone, not UTC', async () => {
		const t = await trigger(createParams({ timezone: '' }), { settings: { timezone: 'America/Sao_Paulo' } });
		await t.activate();
		const [post] = api.requests({ method: 'POST', path: '/v2/monitor' });
		expect(post.body.schedule).toEqual({ text: 'every 30 minutes', timezone: 'America/Sao_Paulo' });
		await t.deactivate();
	});

	test('Time Zone left at its default creates the monitor in the workflow\'s time zone', async () => {
		const params = createParams();
		delete params.timezone; // not set: the node's default applies
		const t = await trigger(params, { settings: { timezone: 'America/Sao_Paulo' } });
		await t.activate();
		const [post] = api.requests({ method: 'POST', path: '/v2/monitor' });
		expect(post.body.schedule).toEqual({ text: 'every 30 minutes', timezone: 'America/Sao_Paulo' });
		await t.deactivate();
	});

	test('activation creates the monitor with the production URL, a secret token header and the events; checkExists then finds it', async () => {
		const t = await trigger(createParams({ events: ['monitor.page'] }));
		expect(await t.activate()).toEqual({ existed: false });

		const [post] = api.requests({ method: 'POST', path: '/v2/monitor' });
		expect(post.status).toBe(200);
		expect(post.headers.authorization).toBe(`Bearer ${CANARY_KEY}`);
		const { webhook, ...rest } = post.body;
		expect(rest).toEqual({
			name: 'Competitor pricing',
			schedule: { text: 'every 30 minutes', timezone: 'Europe/Berlin' },
			targets: [{ type: 'scrape', urls: ['https://shop.example.com/pricing', 'https://shop.example.com/plans'] }],
			goal: 'Tell me when a price changes',
		});
		expect(webhook.url).toBe(t.productionUrl);
		expect(webhook.events).toEqual(['monitor.page']);
		expect(Object.keys(webhook.headers)).toEqual(['X-WebData-Trigger-Token']);
		const token = webhook.headers['X-WebData-Trigger-Token'];
		expect(token).toMatch(/^[0-9a-f]{64}$/);

		const reg = t.staticData();
		const monitorId = api.monitor(reg.monitorId).id;
		// Issue 35.5: what the schedule and URLs mean a day, kept to be told with each check's end.
		const dailyEstimate = { checksPerDay: 48, pagesPerCheck: 2, searchResultsPerCheck: 0, pageVisitsPerDay: 96, creditsPerDay: 192, note: expect.stringMatching(/^At most 192 credits a day .*48 checks a day; each check up to 2 pages, judged against the goal/) };
		expect(reg).toEqual({ connection: 'create', monitorId, secretToken: token, webhookUrl: t.productionUrl, previousWebhook: null, listeningSince: expect.any(String), dailyEstimate });

		// n8n restarts (activation "init"): the registration is found, nothing new is created.
		api.log.length = 0;
		expect(await t.activate({ activation: 'init' })).toEqual({ existed: true });
		expect(sentToMonitor()).toEqual([`GET /v2/monitor/${monitorId}`]);
	});

	test('Options → Max Credits per Day (issue 35.5): a schedule and URLs that may cost more a day are refused before anything is sent, the error saying the estimate; within it the monitor is created', async () => {
		const over = await trigger(createParams({ scheduleText: 'every 5 minutes', options: { maxCreditsPerDay: 1000 } }));
		await expect(over.activate()).rejects.toMatchObject({
			message: 'This monitor may cost up to 1152 credits a day, over Max Credits per Day (1000)',
			description: expect.stringMatching(/^At most 1152 credits a day .*288 checks a day.* It was not created and nothing was sent\. Check less often \(Schedule\), watch fewer pages \(2 a check now\), drop the Goal/),
		});
		expect(sentToMonitor()).toEqual([]);
		const within = await trigger(createParams({ scheduleText: 'every 5 minutes', options: { maxCreditsPerDay: 1152 } }));
		await within.activate();
		expect(api.requests({ method: 'POST', path: '/v2/monitor' })).toHaveLength(1);
		await within.deactivate();
	});

	test('a check delivers monitor.page and monitor.check.completed, signed; each starts one execution holding the page or the summary', async () => {
		const t = await trigger(createParams(), { credential: { webhookSecret: SIGNING_SECRET } });
		await t.activate();
		const { monitorId } = t.staticData();

		const first = await runCheck(monitorId);
		expect(first.map((d) => d.type)).toEqual(['monitor.page', 'monitor.page', 'monitor.check.completed']);
		expect(first.every((d) => d.responseStatus === 200)).toBe(true);
		expect(first.every((d) => /^sha256=[0-9a-f]{64}$/.test(d.headers['X-Firecrawl-Signature']))).toBe(true);
		expect(t.executions).toHaveLength(3);
		expect(t.executions.map((e) => e.items.length)).toEqual([1, 1, 1]);
		const pages = t.executions.slice(0, 2).map((e) => e.items[0]);
		expect(pages.map((p) => [p.event, p.url, p.status])).toEqual([
			['monitor.page', 'https://shop.example.com/pricing', 'new'],
			['monitor.page', 'https://shop.example.com/plans', 'new'],
		]);
		expect(pages[0]).toMatchObject({ monitorId, checkId: first[0].body.id, webhookId: first[0].webhookId, success: true, error: null, metadata: {} });
		const done = t.executions[2].items[0];
		expect(done).toMatchObject({ event: 'monitor.check.completed', monitorId, status: 'completed', success: true, summary: { totalPages: 2, new: 2 } });
		// Issue 35.5: the check's end says what the monitor's schedule means a day; the pages do not repeat it.
		expect(done.dailyEstimate).toMatchObject({ checksPerDay: 48, pagesPerCheck: 2, pageVisitsPerDay: 96, creditsPerDay: 192 });
		expect(pages.every((p) => p.dailyEstimate === undefined)).toBe(true);

		// The second check: the first URL changed (with a diff and a judgment, since there is a goal).
		api.deliveries.length = 0;
		await runCheck(monitorId);
		const changed = t.executions[3].items[0];
		expect(changed).toMatchObject({ url: 'https://shop.example.com/pricing', status: 'changed', isMeaningful: true });
		expect(changed.diff.text).toContain('+Price: $12');
		expect(changed.judgment.meaningful).toBe(true);
		expect(t.executions).toHaveLength(6);
	});

	test('forged deliveries get 401 and start nothing: no token, a wrong token, an old token, a wrong or missing signature', async () => {
		const t = await trigger(createParams(), { credential: { webhookSecret: SIGNING_SECRET } });
		await t.activate();
		const { monitorId, secretToken } = t.staticData();
		const [real] = await runCheck(monitorId);
		const before = t.executions.length;
		// A page not told yet, of a next check (issue 29: a page already told, or of a check told to its end, starts nothing).
		const nextCheckId = crypto.randomUUID();
		const raw = JSON.stringify({ ...real.body, id: nextCheckId, webhookId: crypto.randomUUID(), data: [{ ...real.body.data[0], checkId: nextCheckId }] });

		const attempts = {
			'no headers': {},
			'signature only': { 'x-firecrawl-signature': sign(raw) },
			'wrong token': { [TOKEN_HEADER]: crypto.randomBytes(32).toString('hex'), 'x-firecrawl-signature': sign(raw) },
			'token with a suffix': { [TOKEN_HEADER]: `${secretToken}0`, 'x-firecrawl-signature': sign(raw) },
			'token, no signature': { [TOKEN_HEADER]: secretToken },
			'token, signature with another secret': { [TOKEN_HEADER]: secretToken, 'x-firecrawl-signature': sign(raw, 'guess') },
			'token, signature of another body': { [TOKEN_HEADER]: secretToken, 'x-firecrawl-signature': real.headers['X-Firecrawl-Signature'] },
		};
		for (const [name, headers] of Object.entries(attempts)) {
			const answer = await t.post(raw, headers);
			expect([name, answer.status]).toEqual([name, 401]);
			expect(answer.body).toEqual({ success: false, error: 'Unauthorized' });
		}
		expect(t.executions).toHaveLength(before);

		// The same bytes with the right token and signature are accepted: the refusals were about auth.
		const ok = await t.post(raw, { [TOKEN_HEADER]: secretToken, 'x-firecrawl-signature': sign(raw) });
		expect(ok.status).toBe(200);
		expect(t.executions).toHaveLength(before + 1);

		// After a new activation, the old token no longer works.
		await t.deactivate();
		await t.activate();
		expect((await t.post(JSON.stringify({ ...real.body, webhookId: crypto.randomUUID() }), { [TOKEN_HEADER]: secretToken })).status).toBe(401);
	});

	test('bad bodies get 400 (after authentication) and start nothing; n8n itself refuses malformed JSON', async () => {
		const t = await trigger(createParams(), { credential: { webhookSecret: SIGNING_SECRET } });
		await t.activate();
		const { secretToken } = t.staticData();
		const auth = (raw) => ({ [TOKEN_HEADER]: secretToken, 'x-firecrawl-signature': sign(raw) });
		const cases = [
			['not JSON (text/plain)', 'this is not json', 'text/plain', 400, /not valid JSON/],
			['a JSON list', '[{"type":"monitor.page"}]', 'application/json', 400, /JSON object/],
			['no type', '{"webhookId":"x","data":[]}', 'application/json', 400, /"type"/],
			['no data', '{"type":"monitor.page","webhookId":"x"}', 'application/json', 400, /"data"/],
			['an empty body', '', 'application/json', 400, /JSON object/],
		];
		for (const [name, raw, contentType, status, reason] of cases) {
			const answer = await t.post(raw, { ...auth(raw), 'content-type': contentType });
			expect([name, answer.status]).toEqual([name, status]);
			expect(answer.body.error).toMatch(reason);
		}
		// Malformed JSON declared as application/json never reaches the node in n8n (422).
		const malformed = '{"type": "monitor.page", "data": [';
		expect((await t.post(malformed, auth(malformed))).status).toBe(422);
		// Without the token, a bad body is a 401, not a 400: nothing is disclosed before authentication.
		expect((await t.post('{"nope":1}', {})).status).toBe(401);
		expect(t.executions).toHaveLength(0);
	});

	test('a retried delivery (same webhookId, identical bytes) is answered 200 and starts nothing', async () => {
		const t = await trigger(createParams(), { credential: { webhookSecret: SIGNING_SECRET } });
		await t.activate();
		const deliveries = await runCheck(t.staticData().monitorId);
		expect(t.executions).toHaveLength(3);

		const retry = await api.redeliver(deliveries[0].webhookId);
		expect(retry.attempt).toBe(2);
		expect(retry.responseStatus).toBe(200);
		await api.redeliver(deliveries[2].webhookId);
		expect(t.executions).toHaveLength(3);
		expect(t.responses.slice(-2).map((r) => r.body)).toEqual([
			{ received: true, duplicate: true },
			{ received: true, duplicate: true },
		]);
		// A new delivery of the same check (fresh webhookIds) starts nothing either (issue 29.2: each
		// page of each check is told once; the trigger remembers the checks it told).
		const again = await api.deliverMonitor(t.staticData().monitorId);
		expect(again.map((d) => d.responseStatus)).toEqual([200, 200, 200]);
		expect(t.executions).toHaveLength(3);
		expect(t.responses.slice(-3).map((r) => r.body)).toEqual([
			{ received: true, ignored: 'already told' },
			{ received: true, ignored: 'already told' },
			{ received: true, ignored: 'already told' },
		]);
	});

	test('accepted deliveries answer {"received": true} (not n8n\'s literal "firstEntryJson"); the signing secret is read once per activation, not per delivery', async () => {
		const description = nodeType().description.webhooks[0];
		expect(description.responseMode).toBe('onReceived');
		expect(description.responseData).toBe(''); // undefined would make n8n answer the literal "firstEntryJson"
		const t = await trigger(createParams(), { credential: { webhookSecret: SIGNING_SECRET } });
		await t.activate();
		const monitorId = t.staticData().monitorId;
		const readsAfterActivation = t.credentialsHelper.reads;
		const requestsAfterActivation = api.log.length;
		const deliveries = await runCheck(monitorId);
		expect(deliveries.map((d) => d.responseStatus)).toEqual([200, 200, 200]);
		expect(t.executions).toHaveLength(3);
		expect(t.responses.map((r) => [r.status, r.body])).toEqual([
			[200, { received: true }],
			[200, { received: true }],
			[200, { received: true }],
		]);
		const raw = await fetch(t.productionUrl, { method: 'POST', headers: deliveries[0].headers, body: deliveries[0].rawBody });
		expect(await raw.text()).toBe('{"received":true,"duplicate":true}'); // the de-dup still answers, starts nothing
		expect(t.executions).toHaveLength(3);
		// One read for the signing secret (was one per delivery), plus one per request to the service
		// (the new check's catch-up lists the monitor's checks once).
		const serviceRequests = api.log.slice(requestsAfterActivation).filter((r) => r.path.startsWith('/v2/'));
		expect(serviceRequests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v2/monitor/${monitorId}/checks`]);
		// (each request reads the credential once and hands it to n8n's authentication: issue 37)
		expect(t.credentialsHelper.reads - readsAfterActivation).toBe(1 + serviceRequests.length);

		// A new activation reads the credential again.
		await t.deactivate();
		await t.activate();
		const reads = t.credentialsHelper.reads;
		expect((await runCheck(t.staticData().monitorId)).slice(3).map((d) => d.responseStatus)).toEqual([200, 200, 200]);
		expect(t.credentialsHelper.reads - reads).toBe(1 + 1); // the secret, and the new check's one list of checks
	});

	test('a signing secret changed in the credential is used at once; forged deliveries cannot make every request a credential read', async () => {
		const t = await trigger(createParams(), { credential: { webhookSecret: SIGNING_SECRET } });
		await t.activate();
		const token = t.staticData().secretToken;
		const body = () => JSON.stringify({ success: true, type: 'monitor.page', id: 'c', webhookId: crypto.randomUUID(), data: [{ url: 'https://x.example.com', status: 'changed' }], metadata: {} });
		const signed = (raw, secret) => ({ 'X-WebData-Trigger-Token': token, 'X-Firecrawl-Signature': sign(raw, secret) });
		let raw = body();
		expect((await t.post(raw, signed(raw, SIGNING_SECRET))).status).toBe(200); // reads and caches the secret
		const cached = t.credentialsHelper.reads;

		t.setCredential({ webhookSecret: 'whsec-rotated' }); // the team rotated its secret; the service signs with the new one
		raw = body();
		const afterRotation = await t.post(raw, signed(raw, 'whsec-rotated'));
		expect(afterRotation).toEqual({ status: 200, body: { received: true } });
		expect(t.credentialsHelper.reads - cached).toBe(1); // one fresh read, after the cached secret failed

		const before = t.credentialsHelper.reads;
		for (let i = 0; i < 5; i++) {
			raw = body();
			expect((await t.post(raw, signed(raw, SIGNING_SECRET))).status).toBe(401); // the old secret no longer passes
		}
		raw = body();
		expect((await t.post(raw, { 'X-WebData-Trigger-Token': 'f'.repeat(64), 'X-Firecrawl-Signature': sign(raw, 'whsec-rotated') })).status).toBe(401);
		expect(t.credentialsHelper.reads - before).toBe(0); // re-reads are limited to one per second per node
		expect(t.executions).toHaveLength(2);
	});

	test('deactivation deletes the created monitor and forgets the registration; deliveries are then refused', async () => {
		const t = await trigger(createParams());
		await t.activate();
		const { monitorId, secretToken } = t.staticData();
		expect(await t.deactivate()).toBe(true);
		expect(api.requests({ method: 'DELETE' }).map((r) => [r.path, r.status])).toEqual([[`/v2/monitor/${monitorId}`, 200]]);
		expect(() => api.monitor(monitorId)).toThrow(/not found/i);
		expect(t.staticData()).toEqual({});
		const raw = JSON.stringify({ type: 'monitor.page', webhookId: 'late', data: [{}] });
		expect((await t.post(raw, { [TOKEN_HEADER]: secretToken })).status).toBe(401);
		// Deactivating again (nothing registered) is harmless.
		expect(await t.deactivate()).toBe(true);
		expect(api.requests({ method: 'DELETE' })).toHaveLength(1);
	});

	test('a monitor already deleted at the service does not block deactivation', async () => {
		const t = await trigger(createParams());
		await t.activate();
		const { monitorId } = t.staticData();
		await fetch(`${api.url}/v2/monitor/${monitorId}`, { method: 'DELETE', headers: { authorization: `Bearer ${CANARY_KEY}` } });
		expect(await t.deactivate()).toBe(true);
		expect(t.staticData()).toEqual({});
	});

	test('when the service fails at deactivation, the registration is kept so the next activation reuses the monitor', async () => {
		const t = await trigger(createParams());
		await t.activate();
		const { monitorId } = t.staticData();
		api.fault({ method: 'DELETE', path: '/v2/monitor', statuses: [400] });
		expect(await t.deactivate()).toBe(false);
		expect(t.staticData().monitorId).toBe(monitorId);
		api.log.length = 0;
		expect(await t.activate()).toEqual({ existed: true });
		expect(api.requests({ method: 'POST', path: '/v2/monitor' })).toHaveLength(0);
	});

	test('a server without monitor endpoints (an HTML 404, not the API\'s JSON "not found") is not "monitor gone": activation says so, nothing is dropped', async () => {
		const t = await trigger(createParams());
		await t.activate();
		const reg = t.staticData();
		// The Base URL now leads to a server without monitor endpoints (a self-hosted one): below this
		// prefix the fake has no routes and answers Express's HTML 404 page, as that server does.
		t.setCredential({ baseUrl: `${api.url}/self-hosted` });
		const failure = await t.activate().then(() => undefined, (e) => e);
		expect(failure?.message).toMatch(/has no monitor endpoints/);
		expect(failure.description).toMatch(/https:\/\/api\.firecrawl\.dev.*"Job Events".*registration stays stored/);
		expect(failure.description).toContain(`GET /v2/monitor/${reg.monitorId} (HTTP 404)`);
		expect(failure.description).not.toMatch(/<pre>|DOCTYPE/);
		expect(t.staticData()).toEqual(reg);
		// Deactivation cannot delete the monitor there either: it reports failure and keeps the registration.
		expect(await t.deactivate()).toBe(false);
		expect(t.staticData()).toEqual(reg);
		expect(api.monitor(reg.monitorId).webhook.url).toBe(t.productionUrl);
		// Back at the service, the same registration is found; no second monitor was made.
		t.setCredential({ baseUrl: api.url });
		expect(await t.activate()).toEqual({ existed: true });
		expect(api.requests({ method: 'POST', path: '/v2/monitor' })).toHaveLength(1);
		// A new trigger aimed at such a server: the same message, nothing stored.
		const fresh = await trigger(createParams(), { credential: { baseUrl: `${api.url}/self-hosted` } });
		await expect(fresh.activate()).rejects.toThrow(/has no monitor endpoints/);
		expect(fresh.staticData()).toEqual({});
	});

	test('re-registration when the secret is missing: the same monitor gets a new token', async () => {
		const t = await trigger(createParams());
		await t.activate();
		const { monitorId, secretToken } = t.staticData();
		const { secretToken: _lost, ...rest } = t.staticData();
		t.setStaticData(rest);

		// Until re-registered, every delivery is refused (there is nothing to compare with).
		expect((await t.post('{"type":"monitor.page","data":[]}', { [TOKEN_HEADER]: secretToken })).status).toBe(401);

		api.log.length = 0;
		expect(await t.activate()).toEqual({ existed: false });
		expect(sentToMonitor()).toEqual([`PATCH /v2/monitor/${monitorId}`]);
		const reg = t.staticData();
		expect(reg.monitorId).toBe(monitorId);
		expect(reg.secretToken).toMatch(/^[0-9a-f]{64}$/);
		expect(reg.secretToken).not.toBe(secretToken);
		expect(api.monitor(monitorId).webhook.headers['X-WebData-Trigger-Token']).toBe(reg.secretToken);
		expect(await listMonitors()).toHaveLength(1);
		await runCheck(monitorId);
		expect(t.executions).toHaveLength(3);
	});

	test('re-registration when the monitor is gone, or its webhook was changed elsewhere', async () => {
		const t = await trigger(createParams());
		await t.activate();
		const first = t.staticData().monitorId;

		// Someone points the webhook elsewhere: checkExists notices, create() takes the monitor back.
		await fetch(`${api.url}/v2/monitor/${first}`, {
			method: 'PATCH',
			headers: { authorization: `Bearer ${CANARY_KEY}`, 'content-type': 'application/json' },
			body: JSON.stringify({ webhook: { url: 'https://elsewhere.example.com/hook' } }),
		});
		expect(await t.activate()).toEqual({ existed: false });
		expect(t.staticData().monitorId).toBe(first);
		expect(api.monitor(first).webhook.url).toBe(t.productionUrl);

		// The monitor is deleted at the service: a new one is created.
		await fetch(`${api.url}/v2/monitor/${first}`, { method: 'DELETE', headers: { authorization: `Bearer ${CANARY_KEY}` } });
		expect(await t.activate()).toEqual({ existed: false });
		const second = t.staticData().monitorId;
		expect(second).not.toBe(first);
		expect(api.monitor(second).webhook.url).toBe(t.productionUrl);
	});

	test('changing the events re-registers (checkExists compares them)', async () => {
		const t = await trigger(createParams());
		await t.activate();
		t.node.parameters.events = ['monitor.check.completed'];
		expect(await t.activate()).toEqual({ existed: false });
		expect(api.monitor(t.staticData().monitorId).webhook.events).toEqual(['monitor.check.completed']);
	});

	test('Listen for test event: a temporary "[n8n test]" monitor for the test URL, a check run at once (when asked), deleted afterwards', async () => {
		const t = await trigger(createParams({ runCheckWhenListening: true }));
		await t.activate({ test: true });
		const reg = t.staticData('test');
		expect(t.staticData('production')).toEqual({}); // test and production registrations are separate
		const created = api.requests({ method: 'POST', path: '/v2/monitor' });
		expect(created[0].body.name).toBe('[n8n test] Competitor pricing');
		expect(created[0].body.webhook.url).toBe(t.testUrl);
		expect(api.requests({ method: 'POST' }).map((r) => r.path)).toEqual(['/v2/monitor', `/v2/monitor/${reg.monitorId}/run`]);

		await api.settled(CHECK_MS * 5);
		expect(t.executions.length).toBe(3);
		expect(t.executions.every((e) => e.mode === 'test')).toBe(true);
		await t.deactivate({ test: true });
		expect(api.requests({ method: 'DELETE' }).map((r) => r.path)).toEqual([`/v2/monitor/${reg.monitorId}`]);
	});

	test('Listen for test event without "Run a Check Now" only registers', async () => {
		const t = await trigger(createParams({ runCheckWhenListening: false }));
		await t.activate({ test: true });
		expect(api.requests({ method: 'POST' }).map((r) => r.path)).toEqual(['/v2/monitor']);
	});

	// Trying the trigger spends no credits unless the panel's switch says so.
	test('Listen for test event only registers by default (no check, no credits); on, it runs one', async () => {
		const posts = () => api.requests({ method: 'POST' }).map((r) => r.path.replace(/[0-9a-f-]{36}/, ':id'));
		const plain = await trigger(createParams());
		await plain.activate({ test: true });
		expect(posts()).toEqual(['/v2/monitor']);
		await plain.deactivate({ test: true });
		api.log.length = 0;
		const asked = await trigger(createParams({ runCheckWhenListening: true }));
		await asked.activate({ test: true });
		expect(posts()).toEqual(['/v2/monitor', '/v2/monitor/:id/run']);
		await asked.deactivate({ test: true });
		await api.settled(CHECK_MS * 5);
	});

	test('fields are checked before anything is sent', async () => {
		const t = await trigger(createParams({ urls: 'shop.example.com/pricing' }));
		await expect(t.activate()).rejects.toThrow(/URLs "shop\.example\.com\/pricing" is not valid/);
		const u = await trigger(createParams({ events: [] }));
		await expect(u.activate()).rejects.toThrow(/at least one event/);
		expect(api.log).toHaveLength(0);
	});

	// The service's newest schedule rules (firecrawl/firecrawl services/monitoring/cron.ts a05b9f288f4d).
	test.each([
		['cron with weekday names', { scheduleType: 'cron', cron: '0 9 * * MON-FRI' }, /^Cron Expression "0 9 \* \* MON-FRI" is not valid: .*numbers only.*write "1-5"/],
		['"every 45 minutes"', { scheduleText: 'every 45 minutes' }, /^Schedule "every 45 minutes" is not valid: the minute interval must divide 60 evenly/],
		['"every weekday at 9am"', { scheduleText: 'every weekday at 9am' }, /^Schedule "every weekday at 9am" is not valid: the service understands only: .*"every N minutes"/],
		['a UTC offset as time zone', { timezone: '+01:00' }, /^Time Zone "\+01:00" is not valid: a UTC offset is not a time zone name/],
	])('a schedule the service refuses (%s) fails the activation before anything is sent', async (_label, params, message) => {
		const t = await trigger(createParams(params));
		await expect(t.activate()).rejects.toThrow(message);
		expect(api.log).toHaveLength(0);
	});

	test('a public service cannot reach a localhost n8n: activation says so and sends nothing', async () => {
		const t = await trigger(createParams(), { credential: { baseUrl: 'https://api.firecrawl.dev' } });
		const error = await t.activate().catch((e) => e);
		expect(error.message).toMatch(/api\.firecrawl\.dev cannot reach http:\/\/127\.0\.0\.1/);
		expect(error.description).toMatch(/WEBHOOK_URL/);
		expect(api.log).toHaveLength(0);
	});
});

// ---------------------------------------------------------------------------------------------
describe('Attach to an Existing Monitor', () => {
	const PREVIOUS = {
		url: 'https://hooks.example.com/monitor-events',
		headers: { 'X-Team-Token': 'team-value' },
		metadata: { team: 'growth' },
		events: ['monitor.check.completed'],
	};
	const attachParams = (monitorId, extra = {}) => ({
		connection: 'attach',
		events: ['monitor.page', 'monitor.check.completed'],
		monitor: { __rl: true, mode: 'list', value: monitorId },
		...extra,
	});

	test('activation points the webhook here (keeping its metadata); deactivation restores the previous webhook', async () => {
		const monitor = await createMonitorDirectly({ name: 'Existing', schedule: { text: 'hourly' }, targets: [{ type: 'scrape', urls: ['https://news.example.com/'] }], webhook: PREVIOUS });
		const t = await trigger(attachParams(monitor.id));
		api.log.length = 0;
		await t.activate();

		const patch = api.requests({ method: 'PATCH' });
		expect(patch).toHaveLength(1);
		const token = t.staticData().secretToken;
		expect(patch[0].body).toEqual({ webhook: { url: t.productionUrl, headers: { 'X-WebData-Trigger-Token': token }, events: ['monitor.page', 'monitor.check.completed'], metadata: { team: 'growth' } } });
		expect(t.staticData()).toEqual({ connection: 'attach', monitorId: monitor.id, secretToken: token, webhookUrl: t.productionUrl, previousWebhook: PREVIOUS, listeningSince: expect.any(String) });

		await runCheck(monitor.id);
		expect(t.executions.map((e) => e.items[0].event)).toEqual(['monitor.page', 'monitor.check.completed']);
		expect(t.executions[0].items[0].metadata).toEqual({ team: 'growth' });

		expect(await t.activate({ activation: 'init' })).toEqual({ existed: true });
		await t.deactivate();
		expect(api.monitor(monitor.id).webhook).toEqual(PREVIOUS);
		expect(api.requests({ method: 'DELETE' })).toHaveLength(0); // an attached monitor is never deleted
		expect(t.staticData()).toEqual({});
	});

	test('issue 45.1: "Listen for test event" on a published attach-mode trigger: the checks the test URL got are told by production afterwards, oldest first, once', async () => {
		const monitor = await createMonitorDirectly({ name: 'Existing', schedule: { text: 'hourly' }, targets: [{ type: 'scrape', urls: ['https://news.example.com/'] }], webhook: PREVIOUS });
		const t = await trigger(attachParams(monitor.id, { events: ['monitor.check.completed'] }));
		await t.activate();
		await runCheck(monitor.id); // check 1: production
		await t.activate({ test: true });
		await runCheck(monitor.id); // check 2: to the test URL (the editor)
		await t.deactivate({ test: true });
		await runCheck(monitor.id); // check 3: production again
		const ids = api.monitor(monitor.id).checks.map((c) => c.id).reverse();
		const production = t.executions.filter((e) => e.mode !== 'test').flatMap((e) => e.items.map((i) => [ids.indexOf(i.checkId) + 1, i.caughtUp === true]));
		expect(t.executions.filter((e) => e.mode === 'test').flatMap((e) => e.items.map((i) => ids.indexOf(i.checkId) + 1))).toEqual([2]);
		expect(production).toEqual([[1, false], [2, true], [3, false]]);
		expect(api.monitor(monitor.id).webhook.url).toBe(t.productionUrl);
	});

	test('re-registration keeps the webhook it found first, not its own earlier URL', async () => {
		const monitor = await createMonitorDirectly({ name: 'Existing', schedule: { text: 'hourly' }, targets: [{ type: 'scrape', urls: ['https://news.example.com/'] }], webhook: PREVIOUS });
		const t = await trigger(attachParams(monitor.id));
		await t.activate();
		const { secretToken: _lost, ...rest } = t.staticData();
		t.setStaticData(rest);
		expect(await t.activate()).toEqual({ existed: false });
		expect(t.staticData().previousWebhook).toEqual(PREVIOUS);
		await t.deactivate();
		expect(api.monitor(monitor.id).webhook).toEqual(PREVIOUS);
	});

	test('a monitor with no webhook before: deactivation leaves no live URL or token (an inert loopback webhook the schema accepts)', async () => {
		const monitor = await createMonitorDirectly({ name: 'Bare', schedule: { text: 'hourly' }, targets: [{ type: 'scrape', urls: ['https://news.example.com/'] }] });
		expect(api.monitor(monitor.id).webhook).toBeNull();
		const t = await trigger(attachParams(monitor.id));
		await t.activate();
		expect(t.staticData().previousWebhook).toBeNull();
		const token = t.staticData().secretToken;
		expect(api.monitor(monitor.id).webhook.headers['X-WebData-Trigger-Token']).toBe(token);
		api.log.length = 0;
		expect(await t.deactivate()).toBe(true);

		// One PATCH, accepted by the strict fake (which, like the documented schema, refuses {webhook: null}).
		const patch = api.requests({ method: 'PATCH' });
		expect(patch.map((r) => [r.body, r.status])).toEqual([[{ webhook: { url: 'http://127.0.0.1:9/web-data-trigger-deactivated', events: ['monitor.check.completed'] } }, 200]]);
		const after = api.monitor(monitor.id).webhook;
		expect(after.url).not.toBe(t.productionUrl);
		expect(after.url).not.toBe(t.testUrl);
		expect(JSON.stringify(after)).not.toContain(token);
		expect(Object.keys(after.headers)).toEqual([]);
		expect(t.staticData()).toEqual({});

		// A check after deactivation reaches nobody: no delivery to this n8n, no execution.
		await runCheck(monitor.id);
		expect(api.deliveries.map((d) => [d.url, d.responseStatus])).toEqual([['http://127.0.0.1:9/web-data-trigger-deactivated', null]]);
		expect(t.executions).toHaveLength(0);

		// Activated again: the inert webhook counts as none, so the next deactivation disarms it again.
		await t.activate();
		expect(t.staticData().previousWebhook).toBeNull();
		expect(api.monitor(monitor.id).webhook.url).toBe(t.productionUrl);
		await t.deactivate();
		expect(api.monitor(monitor.id).webhook.url).toBe('http://127.0.0.1:9/web-data-trigger-deactivated');
	});

	test('a monitor with no webhook before, and a service that refuses the inert address: the URL stays, with a token nobody holds', async () => {
		const monitor = await createMonitorDirectly({ name: 'Bare', schedule: { text: 'hourly' }, targets: [{ type: 'scrape', urls: ['https://news.example.com/'] }] });
		const t = await trigger(attachParams(monitor.id));
		await t.activate();
		const token = t.staticData().secretToken;
		api.log.length = 0;
		api.fault({ method: 'PATCH', path: `/v2/monitor/${monitor.id}`, statuses: [400] });
		expect(await t.deactivate()).toBe(true);
		const patch = api.requests({ method: 'PATCH' });
		expect(patch.map((r) => r.status)).toEqual([400, 200]);
		const after = api.monitor(monitor.id).webhook;
		expect(after.url).toBe(t.productionUrl);
		const rotated = after.headers['X-WebData-Trigger-Token'];
		expect(rotated).toMatch(/^[0-9a-f]{64}$/);
		expect(rotated).not.toBe(token);
		expect(t.staticData()).toEqual({});
		// Activated again (a new token) and a check run: every delivery carries the new token, never the rotated one.
		await t.activate();
		expect(t.staticData().secretToken).not.toBe(rotated);
		const refused = await t.post(JSON.stringify({ type: 'monitor.page', webhookId: crypto.randomUUID(), data: [{}] }), { 'X-WebData-Trigger-Token': rotated });
		expect(refused.status).toBe(401);
	});

	test('a webhook taken over by someone else meanwhile is left alone at deactivation', async () => {
		const monitor = await createMonitorDirectly({ name: 'Existing', schedule: { text: 'hourly' }, targets: [{ type: 'scrape', urls: ['https://news.example.com/'] }], webhook: PREVIOUS });
		const t = await trigger(attachParams(monitor.id));
		await t.activate();
		const other = { url: 'https://other.example.com/hook' };
		await fetch(`${api.url}/v2/monitor/${monitor.id}`, {
			method: 'PATCH',
			headers: { authorization: `Bearer ${CANARY_KEY}`, 'content-type': 'application/json' },
			body: JSON.stringify({ webhook: other }),
		});
		await t.deactivate();
		expect(api.monitor(monitor.id).webhook.url).toBe(other.url);
	});

	test('listening while the workflow is active: the test URL takes over, then the production webhook (and token) comes back', async () => {
		const monitor = await createMonitorDirectly({ name: 'Existing', schedule: { text: 'hourly' }, targets: [{ type: 'scrape', urls: ['https://news.example.com/'] }], webhook: PREVIOUS });
		const t = await trigger(attachParams(monitor.id, { runCheckWhenListening: true }));
		await t.activate();
		const production = api.monitor(monitor.id).webhook;
		await api.settled(CHECK_MS * 5);

		await t.activate({ test: true });
		expect(api.monitor(monitor.id).webhook.url).toBe(t.testUrl);
		expect(t.staticData('test').previousWebhook).toEqual(production);
		expect(api.requests({ method: 'POST' }).map((r) => r.path)).toContain(`/v2/monitor/${monitor.id}/run`);
		await api.settled(CHECK_MS * 5);
		expect(t.executions.map((e) => e.mode)).toEqual(['test', 'test']);
		await t.deactivate({ test: true });
		expect(api.monitor(monitor.id).webhook).toEqual(production);

		await runCheck(monitor.id);
		expect(t.executions.slice(2).map((e) => e.mode)).toEqual(['production', 'production']);
		await t.deactivate();
		expect(api.monitor(monitor.id).webhook).toEqual(PREVIOUS);
	});

	test('an unknown monitor fails the activation with a hint', async () => {
		const t = await trigger(attachParams('0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a'));
		await expect(t.activate()).rejects.toThrow(/Monitor not found/);
		const bad = await trigger(attachParams('not-a-uuid'));
		await expect(bad.activate()).rejects.toThrow(/Monitor "not-a-uuid" is not valid/);
	});

	test('the monitor list for the picker', async () => {
		await createMonitorDirectly({ name: 'Alpha pricing', schedule: { text: 'hourly' }, targets: [{ type: 'scrape', urls: ['https://a.example.com/'] }] });
		const beta = await createMonitorDirectly({ name: 'Beta news', schedule: { text: 'hourly' }, targets: [{ type: 'scrape', urls: ['https://b.example.com/'] }] });
		const t = await trigger(attachParams(beta.id));
		const context = loadOptionsContext(t.node, credentialsHelperFor({ apiKey: CANARY_KEY, baseUrl: api.url }));
		const all = await nodeType().methods.listSearch.searchMonitors.call(context);
		expect(all.results.map((r) => r.name).sort()).toEqual(['Alpha pricing', 'Beta news']);
		const some = await nodeType().methods.listSearch.searchMonitors.call(context, 'beta');
		expect(some.results).toEqual([{ name: 'Beta news', value: beta.id }]);
		expect(api.requests({ method: 'GET', path: '/v2/monitor' })[0].query).toEqual({ limit: '100', offset: '0' });
	});
});

// ---------------------------------------------------------------------------------------------
describe('Manual', () => {
	const envelope = (extra = {}) => ({ success: true, type: 'monitor.page', id: 'check-1', webhookId: crypto.randomUUID(), data: [{ url: 'https://x.example.com', status: 'changed' }], metadata: {}, ...extra });

	test('registers nothing; with neither secret every delivery is accepted (unverified)', async () => {
		const t = await trigger({ connection: 'manual', events: ['monitor.page', 'monitor.check.completed'] });
		expect(await t.activate()).toEqual({ existed: true });
		expect(await t.deactivate()).toBe(true);
		expect(api.log).toHaveLength(0);
		expect((await t.post(JSON.stringify(envelope()))).status).toBe(200);
		expect(t.executions).toHaveLength(1);
		expect(t.executions[0].items[0]).toMatchObject({ event: 'monitor.page', url: 'https://x.example.com' });
		// The node tells the user so.
		const notice = nodeType().description.properties.find((p) => p.name === 'unverifiedNotice');
		expect(notice.displayName).toMatch(/unverified/);
		expect(notice.displayOptions.show).toEqual({ source: ['monitor'], connection: ['manual'], secretToken: [''] });
	});

	test('with a Secret Token, a delivery must carry it', async () => {
		const t = await trigger({ connection: 'manual', events: ['monitor.page'], secretToken: 'my-manual-token' });
		expect((await t.post(JSON.stringify(envelope()))).status).toBe(401);
		expect((await t.post(JSON.stringify(envelope()), { [TOKEN_HEADER]: 'my-manual-tokenX' })).status).toBe(401);
		expect((await t.post(JSON.stringify(envelope()), { [TOKEN_HEADER]: 'my-manual-token' })).status).toBe(200);
		expect(t.executions).toHaveLength(1);
	});

	test("with the credential's signing secret, the signature is checked (deliveries from the fake are signed)", async () => {
		const t = await trigger({ connection: 'manual', events: ['monitor.page', 'monitor.check.completed'] }, { credential: { webhookSecret: SIGNING_SECRET } });
		const monitor = await createMonitorDirectly({ name: 'Manual', schedule: { text: 'hourly' }, targets: [{ type: 'scrape', urls: ['https://m.example.com/'] }], webhook: { url: t.productionUrl } });
		await runCheck(monitor.id);
		expect(api.deliveries.map((d) => d.responseStatus)).toEqual([200, 200]);
		expect(t.executions).toHaveLength(2);
		const raw = JSON.stringify(envelope());
		expect((await t.post(raw)).status).toBe(401);
		expect((await t.post(raw, { 'x-firecrawl-signature': sign(raw, 'wrong') })).status).toBe(401);
		expect((await t.post(raw, { 'x-firecrawl-signature': sign(raw) })).status).toBe(200);
	});
});

// ---------------------------------------------------------------------------------------------
describe('issue 29.2: no monitor change is lost to one failed delivery (the service sends each event once)', () => {
	const LOSE_ALL = ['monitor.page', 'monitor.check.completed'];
	/** Every item of every execution as [checkId, event, url, caughtUp]. */
	const told = (t) => t.executions.flatMap((e) => e.items.map((i) => [i.checkId, i.event, i.url ?? null, i.caughtUp === true]));
	const checkIds = (monitorId) => api.monitor(monitorId).checks.map((c) => c.id).reverse(); // oldest first

	test('a check whose deliveries were all lost is told at the next check, first, each page once and marked caughtUp', async () => {
		const t = await trigger(createParams());
		await t.activate();
		const { monitorId } = t.staticData();
		await runCheck(monitorId); // check 1: told as usual
		api.setDelivery({ loseEvents: LOSE_ALL });
		await runCheck(monitorId); // check 2: every delivery lost on the way
		api.setDelivery({ loseEvents: [] });
		expect(api.deliveries.filter((d) => d.lost)).toHaveLength(3);
		expect(t.executions).toHaveLength(3);
		await runCheck(monitorId); // check 3: its first delivery brings check 2 first
		const [c1, c2, c3] = checkIds(monitorId);
		expect(told(t)).toEqual([
			[c1, 'monitor.page', 'https://shop.example.com/pricing', false],
			[c1, 'monitor.page', 'https://shop.example.com/plans', false],
			[c1, 'monitor.check.completed', null, false],
			[c2, 'monitor.page', 'https://shop.example.com/pricing', true],
			[c2, 'monitor.page', 'https://shop.example.com/plans', true],
			[c2, 'monitor.check.completed', null, true],
			[c3, 'monitor.page', 'https://shop.example.com/pricing', false],
			[c3, 'monitor.page', 'https://shop.example.com/plans', false],
			[c3, 'monitor.check.completed', null, false],
		]);
		// The caught-up change is the same item a delivery gives (diff, judgment), in the same execution as check 3's first page.
		expect(t.executions[3].items.map((i) => i.checkId)).toEqual([c2, c2, c2, c3]);
		expect(t.executions[3].items[0]).toMatchObject({ event: 'monitor.page', monitorId, status: 'changed', isMeaningful: true, caughtUp: true, webhookId: null, success: true });
		expect(t.executions[3].items[0].diff.text).toContain('+Price: $12');
		// What was read: the check list once per new check, the lost check's pages once.
		const reads = api.requests({ method: 'GET' }).map((r) => r.path);
		expect(reads.filter((p) => p.endsWith('/checks'))).toHaveLength(2);
		expect(reads.filter((p) => p.includes(`/checks/${c2}`))).toHaveLength(1);
		expect(reads.filter((p) => p.includes(`/checks/${c3}`) || p.includes(`/checks/${c1}`))).toHaveLength(0);
	});

	test("a check whose page deliveries were lost but whose completion came: the completion brings the pages first", async () => {
		const t = await trigger(createParams());
		await t.activate();
		const { monitorId } = t.staticData();
		await runCheck(monitorId);
		api.setDelivery({ loseEvents: ['monitor.page'] });
		await runCheck(monitorId);
		const [, c2] = checkIds(monitorId);
		expect(t.executions).toHaveLength(4);
		expect(t.executions[3].items.map((i) => [i.checkId, i.event, i.url ?? null, i.caughtUp === true])).toEqual([
			[c2, 'monitor.page', 'https://shop.example.com/pricing', true],
			[c2, 'monitor.page', 'https://shop.example.com/plans', true],
			[c2, 'monitor.check.completed', null, false],
		]);
		// The lost deliveries arriving after all (a late retry) start nothing: each page once.
		for (const d of api.deliveries.filter((x) => x.lost)) await api.redeliver(d.webhookId);
		expect(t.executions).toHaveLength(4);
	});

	test('activation stores when the trigger started listening (n8n saves a hook\'s static data): the floor of catch-ups after a restart', async () => {
		const t = await trigger(createParams());
		const before = new Date().toISOString();
		await t.activate();
		expect(t.staticData().listeningSince >= before).toBe(true);
		await t.deactivate();
		expect(t.staticData()).not.toHaveProperty('listeningSince');
	});

	test('one catch-up tells at most 5 missed checks, the oldest first; the rest come with the next delivery, and the delivery at hand waits behind them (issue 45.2: never out of order)', async () => {
		const t = await trigger(createParams({ events: ['monitor.check.completed'] }));
		await t.activate();
		const { monitorId } = t.staticData();
		await runCheck(monitorId);
		api.setDelivery({ loseEvents: LOSE_ALL });
		for (let i = 0; i < 7; i++) await runCheck(monitorId);
		api.setDelivery({ loseEvents: [] });
		await runCheck(monitorId);
		await runCheck(monitorId);
		const ids = checkIds(monitorId);
		expect(ids).toHaveLength(10);
		const byExecution = t.executions.map((e) => e.items.map((i) => [ids.indexOf(i.checkId) + 1, i.caughtUp === true]));
		expect(byExecution).toEqual([
			[[1, false]],
			[[2, true], [3, true], [4, true], [5, true], [6, true]],
			[[7, true], [8, true], [9, true], [10, false]],
		]);
	});

	test('a Manual monitor the credential can read gets the same; deactivation forgets what was told', async () => {
		const t = await trigger({ connection: 'manual', events: ['monitor.page'], secretToken: 'manual-29' });
		const monitor = await createMonitorDirectly({
			name: 'Manual 29',
			schedule: { text: 'hourly' },
			targets: [{ type: 'scrape', urls: ['https://m.example.com/a', 'https://m.example.com/b'] }],
			webhook: { url: t.productionUrl, headers: { [TOKEN_HEADER]: 'manual-29' }, events: ['monitor.page'] },
		});
		await runCheck(monitor.id);
		api.setDelivery({ loseEvents: ['monitor.page'] });
		await runCheck(monitor.id);
		api.setDelivery({ loseEvents: [] });
		await runCheck(monitor.id);
		const [c1, c2, c3] = checkIds(monitor.id);
		expect(told(t)).toEqual([
			[c1, 'monitor.page', 'https://m.example.com/a', false],
			[c1, 'monitor.page', 'https://m.example.com/b', false],
			[c2, 'monitor.page', 'https://m.example.com/a', true],
			[c2, 'monitor.page', 'https://m.example.com/b', true],
			[c3, 'monitor.page', 'https://m.example.com/a', false],
			[c3, 'monitor.page', 'https://m.example.com/b', false],
		]);
		await t.deactivate();
		expect(t.staticData()).not.toHaveProperty('toldChecks');
	});

	test('a catch-up that cannot read the checks (the service fails) still tells the delivery at hand, marked out of order with what is missing, and catches up later', async () => {
		const t = await trigger(createParams());
		await t.activate();
		const { monitorId } = t.staticData();
		await runCheck(monitorId);
		api.setDelivery({ loseEvents: LOSE_ALL });
		await runCheck(monitorId);
		api.setDelivery({ loseEvents: [] });
		api.fault({ method: 'GET', path: `/v2/monitor/${monitorId}/checks`, status: 500, times: 2 });
		await runCheck(monitorId);
		const [, c2, c3] = checkIds(monitorId);
		// Check 3 told as usual; check 2 not yet (its read failed twice, the two attempts of one catch-up).
		expect(told(t).filter((x) => x[0] === c3).map((x) => x[3])).toEqual([false, false, false]);
		expect(told(t).filter((x) => x[0] === c2)).toHaveLength(0);
		// The delivery whose catch-up failed says it may come before older checks, and why.
		const [first] = t.executions.flatMap((e) => e.items).filter((i) => i.checkId === c3);
		expect(first).toMatchObject({ outOfOrder: true, missingBefore: expect.stringMatching(/^the checks before this one could not be read \(.*\); any that were missed are told with a later delivery$/) });
		await runCheck(monitorId); // check 4: check 2 comes now
		expect(told(t).filter((x) => x[0] === c2).map((x) => [x[1], x[3]])).toEqual([
			['monitor.page', true],
			['monitor.page', true],
			['monitor.check.completed', true],
		]);
	});
});

// ---------------------------------------------------------------------------------------------
describe('issue 34: every monitor check told, each once, in order', () => {
	const LOSE_ALL = ['monitor.page', 'monitor.check.completed'];
	const told = (t) => t.executions.flatMap((e) => e.items.map((i) => [i.checkId, i.event, i.url ?? null, i.caughtUp === true]));
	const checkIds = (monitorId) => api.monitor(monitorId).checks.map((c) => c.id).reverse(); // oldest first
	const sha = (text) => crypto.createHash('sha256').update(text).digest('hex').slice(0, 32);
	const patchWebhook = (monitorId, webhook) =>
		fetch(`${api.url}/v2/monitor/${monitorId}`, {
			method: 'PATCH',
			headers: { authorization: `Bearer ${CANARY_KEY}`, 'content-type': 'application/json' },
			body: JSON.stringify({ webhook }),
		});
	let warn;
	beforeEach(() => {
		warn = jest.spyOn(Container.get(Logger), 'warn');
	});
	afterEach(() => warn.mockRestore());

	test.each(['postgres', 'iso'])('times as %s text: a check lost on the activation\'s day is caught up at the next check', async (format) => {
		api.setMonitorTimes(format);
		const t = await trigger(createParams());
		await t.activate();
		const { monitorId } = t.staticData();
		api.setDelivery({ loseEvents: LOSE_ALL });
		await runCheck(monitorId); // check 1: n8n was down
		api.setDelivery({ loseEvents: [] });
		await runCheck(monitorId);
		const [c1, c2] = checkIds(monitorId);
		const listed = await (await fetch(`${api.url}/v2/monitor/${monitorId}/checks`, { headers: { authorization: `Bearer ${CANARY_KEY}` } })).json();
		expect(listed.data[1].createdAt).toMatch(format === 'postgres' ? /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,6})?\+00$/ : /^\d{4}-\d\d-\d\dT.*Z$/);
		expect(listed.data[1].createdAt.slice(0, 10)).toBe(t.staticData().listeningSince.slice(0, 10)); // the activation's day
		expect(told(t)).toEqual([
			[c1, 'monitor.page', 'https://shop.example.com/pricing', true],
			[c1, 'monitor.page', 'https://shop.example.com/plans', true],
			[c1, 'monitor.check.completed', null, true],
			[c2, 'monitor.page', 'https://shop.example.com/pricing', false],
			[c2, 'monitor.page', 'https://shop.example.com/plans', false],
			[c2, 'monitor.check.completed', null, false],
		]);
	});

	test('every item has a dedupeKey: the same for a page whether it came by delivery or by catch-up, another for each page and completion', async () => {
		const t = await trigger(createParams());
		await t.activate();
		const { monitorId } = t.staticData();
		await runCheck(monitorId);
		api.setDelivery({ loseEvents: LOSE_ALL });
		await runCheck(monitorId);
		api.setDelivery({ loseEvents: [] });
		await runCheck(monitorId);
		const [, c2] = checkIds(monitorId);
		const items = t.executions.flatMap((e) => e.items);
		expect(items).toHaveLength(9);
		for (const i of items) expect(i.dedupeKey).toBe(i.event === 'monitor.page' ? `monitor.page:${i.checkId}:${sha(i.url)}` : `monitor.check.completed:${i.checkId}`);
		expect(new Set(items.map((i) => i.dedupeKey)).size).toBe(9);
		// Check 2, caught up here, delivered to another trigger: the same keys.
		const other = await trigger({ connection: 'manual', events: ['monitor.page', 'monitor.check.completed'] });
		await api.deliverMonitor(monitorId, { checkId: c2, url: other.productionUrl });
		const caught = items.filter((i) => i.caughtUp).map((i) => i.dedupeKey);
		expect(other.executions.flatMap((e) => e.items.map((i) => i.dedupeKey))).toEqual(caught);
		expect(caught).toHaveLength(3);
	});

	test('a check the service delivered to another receiver (the webhook pointed elsewhere meanwhile) is passed over, not told (it may have been told before a restart), and n8n\'s log names it once', async () => {
		const t = await trigger(createParams());
		await t.activate();
		const { monitorId, secretToken } = t.staticData();
		await runCheck(monitorId);
		const elsewhere = http.createServer((req, res) => req.resume().on('end', () => res.end('{}')));
		await new Promise((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
		try {
			await patchWebhook(monitorId, { url: `http://127.0.0.1:${elsewhere.address().port}/hook` });
			await runCheck(monitorId); // check 2 goes elsewhere, delivered
		} finally {
			await new Promise((resolve) => elsewhere.close(resolve));
		}
		await patchWebhook(monitorId, { url: t.productionUrl, headers: { [TOKEN_HEADER]: secretToken }, events: ['monitor.page', 'monitor.check.completed'] });
		await runCheck(monitorId);
		const [c1, c2, c3] = checkIds(monitorId);
		expect(told(t).map((x) => x[0])).toEqual([c1, c1, c1, c3, c3, c3]);
		const said = warn.mock.calls.map((c) => c[0]).filter((m) => m.includes(c2));
		expect(said).toHaveLength(1);
		expect(said[0]).toMatch(new RegExp(`monitor ${monitorId}: the service delivered check\\(s\\) ${c2} to the monitor's webhook, but this trigger has no record of telling them`));
		await runCheck(monitorId);
		expect(warn.mock.calls.filter((c) => c[0].includes(c2))).toHaveLength(1); // said once
		expect(told(t).filter((x) => x[0] === c2)).toEqual([]);
	});

	test('"Listen for test event" on an active workflow leaves the production trigger\'s memory alone: a check told in part is finished, not told again', async () => {
		const t = await trigger(createParams());
		await t.activate();
		const { monitorId } = t.staticData();
		await runCheck(monitorId);
		api.setDelivery({ loseEvents: ['monitor.check.completed'] });
		await runCheck(monitorId); // check 2: its pages told, its completion lost (the service records it undelivered)
		api.setDelivery({ loseEvents: [] });
		await t.activate({ test: true });
		await t.deactivate({ test: true });
		await runCheck(monitorId);
		const [c1, c2, c3] = checkIds(monitorId);
		expect(told(t)).toEqual([
			[c1, 'monitor.page', 'https://shop.example.com/pricing', false],
			[c1, 'monitor.page', 'https://shop.example.com/plans', false],
			[c1, 'monitor.check.completed', null, false],
			[c2, 'monitor.page', 'https://shop.example.com/pricing', false],
			[c2, 'monitor.page', 'https://shop.example.com/plans', false],
			[c2, 'monitor.check.completed', null, true],
			[c3, 'monitor.page', 'https://shop.example.com/pricing', false],
			[c3, 'monitor.page', 'https://shop.example.com/plans', false],
			[c3, 'monitor.check.completed', null, false],
		]);
	});
});

describe('output options', () => {
	const manual = (options, events = ['monitor.page', 'monitor.check.completed']) => trigger({ connection: 'manual', events, options });
	const page = (data, extra = {}) => JSON.stringify({ success: true, type: 'monitor.page', id: 'c', webhookId: crypto.randomUUID(), data, metadata: { k: 'v' }, ...extra });

	test('only pages with these statuses / only meaningful changes; filtered deliveries start nothing', async () => {
		const t = await manual({ statuses: ['changed', 'error'], onlyMeaningful: true });
		await t.post(page([{ url: 'a', status: 'changed', isMeaningful: true }]));
		await t.post(page([{ url: 'b', status: 'changed', isMeaningful: false }]));
		await t.post(page([{ url: 'c', status: 'new', isMeaningful: null }]));
		const completed = await t.post(JSON.stringify({ type: 'monitor.check.completed', id: 'c', webhookId: 'w1', data: [{ status: 'completed', summary: {} }] }));
		expect(completed.status).toBe(200);
		expect(t.executions.map((e) => e.items[0].url ?? e.items[0].event)).toEqual(['a', 'monitor.check.completed']);
		expect(t.responses.map((r) => r.body.ignored).filter(Boolean)).toEqual(['no entry left after the filters', 'no entry left after the filters']);
	});

	test('include request headers, with the secret token and the signature redacted', async () => {
		const t = await trigger({ connection: 'manual', events: ['monitor.page'], secretToken: 'visible?', options: { includeHeaders: true } }, { credential: { webhookSecret: SIGNING_SECRET } });
		const raw = page([{ url: 'a', status: 'new' }]);
		await t.post(raw, { [TOKEN_HEADER]: 'visible?', 'x-firecrawl-signature': sign(raw), 'x-request-id': 'r-1' });
		const { headers } = t.executions[0].items[0];
		expect(headers[TOKEN_HEADER]).toBe('[redacted]');
		expect(headers['x-firecrawl-signature']).toBe('[redacted]');
		expect(headers['x-request-id']).toBe('r-1');
		expect(JSON.stringify(t.executions)).not.toContain('visible?');
	});

	test('unselected and unknown events are answered and ignored; Pass Unknown Events lets unknown ones through', async () => {
		const t = await manual({}, ['monitor.check.completed']);
		expect((await t.post(page([{ url: 'a' }]))).body).toEqual({ received: true, ignored: 'event not selected' });
		expect((await t.post(JSON.stringify({ type: 'monitor.paused', data: [] }))).body).toEqual({ received: true, ignored: 'unknown event' });
		expect(t.executions).toHaveLength(0);
		const u = await manual({ passUnknownEvents: true });
		await u.post(JSON.stringify({ type: 'monitor.paused', id: 'm', webhookId: 'w-9', data: [{ reason: 'out of credits' }] }));
		expect(u.executions[0].items).toEqual([
			{ event: 'monitor.paused', checkId: 'm', webhookId: 'w-9', success: null, error: null, metadata: {}, dedupeKey: expect.stringMatching(/^monitor\.paused:[0-9a-f]{32}$/), reason: 'out of credits' },
		]);
	});

	test('a delivery with several entries starts one execution with one item each', async () => {
		const t = await manual({});
		await t.post(page([{ url: 'a', status: 'new' }, { url: 'b', status: 'same' }]));
		expect(t.executions).toHaveLength(1);
		expect(t.executions[0].items.map((i) => [i.url, i.event, i.metadata])).toEqual([
			['a', 'monitor.page', { k: 'v' }],
			['b', 'monitor.page', { k: 'v' }],
		]);
	});
});

// ---------------------------------------------------------------------------------------------
describe('Job events (Source: Job Events, issue 18)', () => {
	const JOB_TOKEN = 'job-token-0123456789abcdef';
	const jobParams = (extra = {}) => ({
		source: 'jobs',
		jobEvents: ['crawl.started', 'crawl.page', 'crawl.completed', 'crawl.failed', 'batch_scrape.page', 'batch_scrape.completed', 'agent.completed'],
		jobToken: JOB_TOKEN,
		...extra,
	});
	const start = async (path, body) => {
		const res = await fetch(`${api.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${CANARY_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
		const json = await res.json();
		if (!json.success) throw new Error(JSON.stringify(json));
		return json;
	};

	test('a crawl reporting to the trigger URL (?token=): one execution per delivery, one item per page with its markdown, the job id and the metadata', async () => {
		const t = await trigger(jobParams(), { credential: { webhookSecret: SIGNING_SECRET } });
		expect(await t.activate()).toEqual({ existed: true }); // nothing to register
		expect(api.log).toHaveLength(0);
		const crawl = await start('/v2/crawl', { url: 'https://docs.example.com/', limit: 3, scrapeOptions: { formats: ['markdown'] }, webhook: { url: `${t.productionUrl}?token=${JOB_TOKEN}`, metadata: { run: 'nightly-7' } } });
		await api.settled(10000);
		expect(api.deliveries.map((d) => [d.type, d.responseStatus])).toEqual([
			['crawl.started', 200],
			['crawl.page', 200],
			['crawl.page', 200],
			['crawl.page', 200],
			['crawl.completed', 200],
		]);
		expect(t.executions.map((e) => [e.items.length, e.items[0].event])).toEqual([
			[1, 'crawl.started'],
			[1, 'crawl.page'],
			[1, 'crawl.page'],
			[1, 'crawl.page'],
			[1, 'crawl.completed'],
		]);
		const pages = t.executions.filter((e) => e.items[0].event === 'crawl.page').map((e) => e.items[0]);
		expect(pages.map((p) => p.metadata.sourceURL)).toEqual(['https://docs.example.com/', 'https://docs.example.com/about', 'https://docs.example.com/pricing']);
		for (const p of pages) {
			expect(p).toMatchObject({ jobType: 'crawl', jobId: crawl.id, success: true, webhookMetadata: { run: 'nightly-7' } });
			expect(typeof p.markdown).toBe('string');
			expect(p.markdown.length).toBeGreaterThan(0);
		}
		expect(t.executions[4].items[0]).toMatchObject({ event: 'crawl.completed', jobId: crawl.id, success: true, webhookMetadata: { run: 'nightly-7' } });
		// The end is read once (at most one document, never limit=0): how the crawl really ended, with its counts.
		expect(t.executions[4].items[0]).toMatchObject({ status: 'completed', total: 3, completed: 3, creditsUsed: 3 });
		expect(api.requests({ method: 'GET' }).map((r) => [r.path, r.query, r.status])).toEqual([[`/v2/crawl/${crawl.id}`, { limit: '1' }, 200]]);
		expect(t.executions[4].items[0]).not.toHaveProperty('markdown');
		expect(t.responses.every((r) => r.status === 200 && r.body.received === true)).toBe(true);
	});

	test('forged deliveries get 401 and start nothing; a retried delivery (same webhookId) is answered without a second execution', async () => {
		const t = await trigger(jobParams(), { credential: { webhookSecret: SIGNING_SECRET } });
		await t.activate();
		await start('/v2/crawl', { url: 'https://docs.example.com/', limit: 1, webhook: { url: `${t.productionUrl}?token=${JOB_TOKEN}`, events: ['page'] } });
		await api.settled(10000);
		expect(t.executions).toHaveLength(1);
		const [real] = api.deliveries;
		const raw = real.rawBody;
		const signature = real.headers['X-Firecrawl-Signature'];
		const forged = [
			[{ 'x-firecrawl-signature': signature }, ''], // no token
			[{ 'x-firecrawl-signature': signature }, '?token=wrong'],
			[{ 'x-firecrawl-signature': signature }, `?token=${JOB_TOKEN}&token=${JOB_TOKEN}`], // repeated
			[{ 'x-firecrawl-signature': signature, [TOKEN_HEADER]: 'wrong' }, `?token=${JOB_TOKEN}`], // a header decides
			[{}, `?token=${JOB_TOKEN}`], // no signature
			[{ 'x-firecrawl-signature': sign(raw, 'not-the-secret') }, `?token=${JOB_TOKEN}`],
		];
		for (const [headers, search] of forged) expect([search, (await t.post(raw, headers, { search })).status]).toEqual([search, 401]);
		// A changed body under the real signature and token.
		const tampered = raw.replace('"success":true', '"success":false');
		expect((await t.post(tampered, { 'x-firecrawl-signature': signature }, { search: `?token=${JOB_TOKEN}` })).status).toBe(401);
		expect(t.executions).toHaveLength(1);
		// The service's retry: identical bytes and headers, same webhookId.
		const again = await api.redeliver(real.webhookId);
		expect(again.responseStatus).toBe(200);
		expect(t.responses.at(-1).body).toEqual({ received: true, duplicate: true });
		expect(t.executions).toHaveLength(1);
		// The token in the header works too (a fresh webhookId).
		const fresh = JSON.stringify({ ...JSON.parse(raw), webhookId: crypto.randomUUID() });
		expect((await t.post(fresh, { 'x-firecrawl-signature': sign(fresh), [TOKEN_HEADER]: JOB_TOKEN })).status).toBe(200);
		expect(t.executions).toHaveLength(2);
	});

	test('activation refuses job events that cannot be verified (no Token, no signing secret); the signing secret alone suffices', async () => {
		const bare = await trigger(jobParams({ jobToken: '' }));
		// The message itself suggests a value: n8n 2.41's editor shows the message only.
		await expect(bare.activate()).rejects.toThrow(/^Job events need a Token or a signing secret: set Token, e\.g\. to [0-9a-f]{64}$/);
		// Issue 36.4: the refusal suggests a value, made fresh each time.
		const suggested = await bare.activate().then(() => undefined, (error) => /for example ([0-9a-f]{64}) \(freshly made for you\)/.exec(error.description)?.[1]);
		expect(suggested).toMatch(/^[0-9a-f]{64}$/);
		// Even if it were active, nothing unverified starts it.
		const raw = JSON.stringify({ success: true, type: 'crawl.page', id: 'j', webhookId: 'w-1', data: [{ markdown: 'x' }] });
		expect((await bare.post(raw)).status).toBe(401);
		expect(bare.executions).toHaveLength(0);

		const signed = await trigger(jobParams({ jobToken: '' }), { credential: { webhookSecret: SIGNING_SECRET } });
		expect(await signed.activate()).toEqual({ existed: true });
		await start('/v2/batch/scrape', { urls: ['https://a.example.com/', 'https://b.example.com/fake-page-error'], webhook: { url: signed.productionUrl, metadata: { batch: 'b-1' } } });
		await api.settled(10000);
		// batch_scrape.started is not selected: answered and ignored.
		expect(api.deliveries.map((d) => [d.type, d.responseStatus])).toEqual([
			['batch_scrape.started', 200],
			['batch_scrape.page', 200],
			['batch_scrape.page', 200],
			['batch_scrape.completed', 200],
		]);
		expect(signed.responses[0].body).toEqual({ received: true, ignored: 'event not selected' });
		expect(signed.executions.map((e) => e.items.map((i) => [i.event, i.success, i.metadata?.sourceURL ?? i.error, i.webhookMetadata.batch]))).toEqual([
			[['batch_scrape.page', true, 'https://a.example.com/', 'b-1']],
			[['batch_scrape.page', false, 'Page failed: fake-page-error marker', 'b-1']],
			[['batch_scrape.completed', true, null, 'b-1']],
		]);
	});

	test('as the open-source server: a cancelled crawl is announced as crawl.completed (success true); the item is crawl.cancelled with its counts (issues 23.3, 29)', async () => {
		const t = await trigger(jobParams({ jobEvents: ['crawl.completed', 'crawl.cancelled'] }));
		await t.activate();
		const crawl = await start('/v2/crawl', { url: 'https://docs.example.com/fake-duration-20000', limit: 6, webhook: { url: `${t.productionUrl}?token=${JOB_TOKEN}`, events: ['completed'] } });
		await new Promise((r) => setTimeout(r, 400));
		await fetch(`${api.url}/v2/crawl/${crawl.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${CANARY_KEY}` } });
		await api.settled(10000);
		expect(api.deliveries.map((d) => [d.type, d.body.success, d.responseStatus])).toEqual([['crawl.completed', true, 200]]);
		expect(t.executions).toHaveLength(1);
		const [item] = t.executions[0].items;
		expect(item).toMatchObject({ event: 'crawl.cancelled', announcedEvent: 'crawl.completed', announcedSuccess: true, jobId: crawl.id, success: false, status: 'cancelled', total: 6 });
		expect(item.completed).toBeLessThan(6);
		expect(api.requests({ method: 'GET' }).map((r) => [r.path, r.status])).toEqual([[`/v2/crawl/${crawl.id}`, 200]]);
	});

	test('"Batch Scrape Failed" alone: a failed batch announced as batch_scrape.completed starts it, a completed one does not', async () => {
		const t = await trigger(jobParams({ jobEvents: ['batch_scrape.failed'] }));
		await t.activate();
		const failed = await start('/v2/batch/scrape', { urls: ['https://a.example.com/fake-job-fail', 'https://b.example.com/', 'https://c.example.com/', 'https://d.example.com/'], webhook: { url: `${t.productionUrl}?token=${JOB_TOKEN}` } });
		const ok = await start('/v2/batch/scrape', { urls: ['https://e.example.com/'], webhook: { url: `${t.productionUrl}?token=${JOB_TOKEN}` } });
		await api.settled(10000);
		const ends = api.deliveries.filter((d) => d.type === 'batch_scrape.completed');
		expect(ends.map((d) => [d.jobId, d.body.success]).sort()).toEqual([[failed.id, true], [ok.id, true]].sort());
		expect(t.executions.map((e) => e.items.map((i) => [i.event, i.announcedEvent, i.jobId, i.status, i.total, i.completed]))).toEqual([[['batch_scrape.failed', 'batch_scrape.completed', failed.id, 'failed', 4, 2]]]);
		// One status read per end delivery; the page events are not selected and read nothing.
		expect(api.requests({ method: 'GET' }).map((r) => r.path).sort()).toEqual([`/v2/batch/scrape/${failed.id}`, `/v2/batch/scrape/${ok.id}`].sort());
	});

	describe('issue 29: every end told true, with the open-source delivery (one attempt, events filter, ends announced as completed)', () => {
		const { buildEventWebhook } = require('../../dist/nodes/WebData/jobs/triggerTarget');
		const node = { name: 'Web Data', type: 'n8n-nodes-webdata.webData', typeVersion: 1, parameters: {} };
		/** The job's webhook as the Web Data node builds it from "Send Events to Web Data Trigger". */
		const webhookFor = (t, job, events) => buildEventWebhook(node, { sendToTrigger: { trigger: { url: t.productionUrl, token: JOB_TOKEN, events } } }, job, 0);

		test('Send Events = Failed and the trigger on Crawl Failed: a crawl that fails starts it once, as crawl.failed; a crawl that completes starts nothing', async () => {
			api.setDelivery({ retries: false });
			const t = await trigger(jobParams({ jobEvents: ['crawl.failed'] }));
			await t.activate();
			const failing = await start('/v2/crawl', { url: 'https://docs.example.com/fake-job-fail', limit: 4, webhook: webhookFor(t, 'crawl', ['failed']) });
			const fine = await start('/v2/crawl', { url: 'https://docs.example.com/', limit: 2, webhook: webhookFor(t, 'crawl', ['failed']) });
			await api.settled(10000);
			// The server announced both ends as crawl.completed (asked for because Failed was chosen).
			expect(api.deliveries.map((d) => [d.type, d.jobId, d.body.success]).sort()).toEqual([['crawl.completed', failing.id, true], ['crawl.completed', fine.id, true]].sort());
			expect(t.executions.map((e) => e.items.map((i) => [i.event, i.announcedEvent, i.jobId, i.success, i.status]))).toEqual([[['crawl.failed', 'crawl.completed', failing.id, false, 'failed']]]);
		});

		test('the trigger on Crawl Completed only: a failed crawl does not start it; a completed one does, with success true', async () => {
			api.setDelivery({ retries: false });
			const t = await trigger(jobParams({ jobEvents: ['crawl.completed'] }));
			await t.activate();
			const failing = await start('/v2/crawl', { url: 'https://docs.example.com/fake-job-fail', limit: 4, webhook: webhookFor(t, 'crawl', ['completed', 'failed']) });
			const fine = await start('/v2/crawl', { url: 'https://docs.example.com/', limit: 2, webhook: webhookFor(t, 'crawl', ['completed', 'failed']) });
			await api.settled(10000);
			expect(api.deliveries.filter((d) => d.jobId === failing.id).map((d) => d.type)).toEqual(['crawl.completed']);
			expect(t.executions.map((e) => e.items.map((i) => [i.event, i.jobId, i.success, i.status]))).toEqual([[['crawl.completed', fine.id, true, 'completed']]]);
		});

		test('batch scrape: Failed only, a failed batch starts batch_scrape.failed', async () => {
			api.setDelivery({ retries: false });
			const t = await trigger(jobParams({ jobEvents: ['batch_scrape.failed'] }));
			await t.activate();
			const failing = await start('/v2/batch/scrape', { urls: ['https://a.example.com/fake-job-fail', 'https://b.example.com/'], webhook: webhookFor(t, 'batch', ['failed']) });
			await api.settled(10000);
			expect(t.executions.map((e) => e.items.map((i) => [i.event, i.announcedEvent, i.jobId, i.success]))).toEqual([[['batch_scrape.failed', 'batch_scrape.completed', failing.id, false]]]);
		});
	});

	test('an agent run reporting here: agent.completed gives one summary item with the result', async () => {
		const t = await trigger(jobParams());
		await t.activate();
		const run = await start('/v2/agent', { prompt: 'Find the price FAKE_DURATION_MS=300 FAKE_COST=7', webhook: { url: `${t.productionUrl}?token=${JOB_TOKEN}`, metadata: { ask: 'price' } } });
		await api.settled(10000);
		const until = Date.now() + 5000;
		while (!api.deliveries.some((d) => d.type === 'agent.completed' && d.responseStatus) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
		expect(t.executions).toHaveLength(1); // started and action are not selected
		expect(t.executions[0].items).toEqual([expect.objectContaining({ event: 'agent.completed', jobType: 'agent', jobId: run.id, success: true, creditsUsed: 7, webhookMetadata: { ask: 'price' } })]);
		expect(t.executions[0].items[0]).toHaveProperty('data');
	});

	test('monitor deliveries to a job-events trigger start nothing; a monitor trigger ignores job events', async () => {
		const jobs = await trigger(jobParams());
		const page = JSON.stringify({ success: true, type: 'monitor.page', id: 'c', webhookId: 'w-m', data: [{ url: 'a', status: 'new' }] });
		expect((await jobs.post(page, {}, { search: `?token=${JOB_TOKEN}` })).body).toEqual({ received: true, ignored: 'event not selected' });
		const monitor = await trigger({ connection: 'manual', events: ['monitor.page'], secretToken: 'm' });
		const crawlPage = JSON.stringify({ success: true, type: 'crawl.page', id: 'j', webhookId: 'w-c', data: [{ markdown: 'x' }] });
		expect((await monitor.post(crawlPage, { [TOKEN_HEADER]: 'm' })).body).toEqual({ received: true, ignored: 'unknown event' });
		expect(jobs.executions.length + monitor.executions.length).toBe(0);
	});
});

// ---------------------------------------------------------------------------------------------
// The examples' trigger halves, run as n8n would run them, and their e2e checks (test/e2e/checks).
const ROOT = path.resolve(__dirname, '..', '..');
const readExample = (name) => JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', `${name}.json`), 'utf8'));
const e2eCheck = (name) => require(path.join(ROOT, 'test', 'e2e', 'checks', `${name}.js`));

/** The example's trigger node, registered as n8n would (with the credential's signing secret); `extra` overrides parameters. */
async function exampleTrigger(example, extra = {}) {
	const triggerNode = example.nodes.find((n) => n.type === TYPE);
	const t = await trigger({ ...triggerNode.parameters, ...extra }, { credential: { webhookSecret: SIGNING_SECRET }, webhookId: triggerNode.webhookId });
	return { t, triggerNode };
}

/**
 * What n8n does with each accepted delivery: run the workflow with the trigger's items. Resolves the
 * executions as JSON, like the ones the e2e phase reads from n8n's public API.
 */
async function runPerDelivery(workflow, triggerNode, t) {
	const executions = [];
	for (const [i, e] of t.executions.entries()) {
		const result = await runWorkflow(
			{ ...workflow, pinData: { [triggerNode.name]: e.items.map((json) => ({ json })) } },
			{ credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url } }, mode: 'webhook', startNode: triggerNode.name },
		);
		record(result.run);
		const nodes = Object.fromEntries(Object.keys(result.runData).map((name) => [name, result.json(name)]));
		executions.push({ id: String(i + 1), status: result.status, mode: 'webhook', trigger: nodes[triggerNode.name], nodes });
	}
	return JSON.parse(JSON.stringify(executions));
}

test('examples/trigger-on-page-change.json: activated and checked once, each delivery runs the workflow and passes its e2e check', async () => {
	const example = readExample('trigger-on-page-change');
	const check = e2eCheck('trigger-on-page-change');
	expect(check.trigger).toEqual({ connection: 'create' });
	const { t, triggerNode } = await exampleTrigger(example);
	await t.activate();
	const { monitorId } = t.staticData();
	const deliveries = await runCheck(monitorId);
	await check({ executions: await runPerDelivery(example, triggerNode, t), deliveries, monitorId });
});

test('examples/trigger-on-crawl-page.json: a crawl reporting to it runs the workflow once per delivery and passes its e2e check', async () => {
	const example = readExample('trigger-on-crawl-page');
	const check = e2eCheck('trigger-on-crawl-page');
	expect(check.trigger).toEqual({ source: 'jobs' });
	const { t, triggerNode } = await exampleTrigger(example);
	expect(await t.activate()).toEqual({ existed: true });
	const res = await fetch(`${api.url}/v2/crawl`, {
		method: 'POST',
		headers: { authorization: `Bearer ${CANARY_KEY}`, 'content-type': 'application/json' },
		body: JSON.stringify({ url: 'https://docs.example.com/', limit: 3, webhook: { url: t.productionUrl, metadata: { run: 'nightly-1' } } }),
	});
	const { id: jobId } = await res.json();
	await api.settled(10000);
	const deliveries = api.deliveries;
	expect(deliveries.map((d) => d.responseStatus)).toEqual([200, 200, 200, 200, 200]);
	const urls = ['https://docs.example.com/', 'https://docs.example.com/about', 'https://docs.example.com/pricing'];
	await check({ executions: await runPerDelivery(example, triggerNode, t), deliveries, jobId, run: 'nightly-1', urls });
});

// ---------------------------------------------------------------------------------------------
// issue 18.2: the starting half. A Crawl Start (n8n-core, the built node) with "Send Events to Web
// Data Trigger" sends the webhook the trigger verifies; the fake's own deliveries reach the trigger.
const RECEIVING = 'trigger-on-crawl-page';

/** Runs the starting workflow in n8n-core: its node's Send Events to Web Data Trigger aimed at `t`. */
async function runStarting(workflowJson, t, token) {
	const wf = JSON.parse(JSON.stringify(workflowJson));
	const node = wf.nodes.find((n) => n.parameters?.options?.sendToTrigger?.trigger);
	Object.assign(node.parameters.options.sendToTrigger.trigger, { url: t.productionUrl, token });
	const result = await runWorkflow(wf, { credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url } } });
	record(result.run);
	return { result, node };
}

test('Crawl Start → Send Events to Web Data Trigger: the token header and run metadata reach a job-events trigger; one execution per page', async () => {
	const token = 'start-token-0123456789';
	const t = await trigger({ source: 'jobs', jobEvents: ['crawl.page', 'crawl.completed'], jobToken: token });
	await t.activate();
	const starting = {
		nodes: [
			{ id: 's1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 's2',
				name: 'Crawl',
				type: 'n8n-nodes-webdata.webData',
				typeVersion: 1,
				position: [200, 0],
				parameters: {
					resource: 'crawl',
					operation: 'start',
					url: 'https://docs.example.com/',
					pageLimit: 2,
					options: { sendToTrigger: { trigger: { url: '', token: '', events: ['page', 'completed'] } }, runMetadata: { values: [{ name: 'run', value: '={{ "r-" + (1 + 1) }}' }] } },
				},
				credentials: { webDataApi: { id: 'c1', name: 'Web Data account' } },
			},
		],
		connections: { Start: { main: [[{ node: 'Crawl', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
	const { result } = await runStarting(starting, t, token);
	expect(result.status).toBe('success');
	const jobId = result.json('Crawl')[0].id;
	const [post] = api.requests({ method: 'POST', path: '/v2/crawl' });
	expect(post.body.webhook).toEqual({ url: t.productionUrl, headers: { 'X-WebData-Trigger-Token': token }, events: ['page', 'completed'], metadata: { run: 'r-2' } });
	await api.settled(10000);
	expect(api.deliveries.map((d) => [d.type, d.headers['X-WebData-Trigger-Token'], d.responseStatus])).toEqual([
		['crawl.page', token, 200],
		['crawl.page', token, 200],
		['crawl.completed', token, 200],
	]);
	expect(t.executions.map((e) => e.items.map((i) => [i.event, i.jobId, i.webhookMetadata]))).toEqual([
		[['crawl.page', jobId, { run: 'r-2' }]],
		[['crawl.page', jobId, { run: 'r-2' }]],
		[['crawl.completed', jobId, { run: 'r-2' }]],
	]);
	// The same start with a wrong token: the trigger refuses every delivery.
	api.reset();
	const before = t.executions.length;
	await runStarting(starting, t, 'not-the-token');
	await api.settled(10000);
	expect(api.deliveries.map((d) => d.responseStatus)).toEqual([401, 401, 401]);
	expect(t.executions).toHaveLength(before);
});

test(`examples/crawl-to-trigger-start.json + ${RECEIVING}.json: the pair passes its e2e checks in-process`, async () => {
	const check = e2eCheck('crawl-to-trigger-start');
	const receivingCheck = e2eCheck(RECEIVING);
	expect(check.trigger).toEqual({ reportsTo: RECEIVING });
	const receiving = readExample(RECEIVING);
	const token = 'pair-token-0123456789abcdef';
	const { t, triggerNode } = await exampleTrigger(receiving, { jobToken: token });
	expect(await t.activate()).toEqual({ existed: true });

	const { result, node } = await runStarting(readExample('crawl-to-trigger-start'), t, token);
	const [request] = api.requests({ method: 'POST', path: '/v2/crawl' });
	await api.settled(10000);
	const jobId = result.json(node.name)[0]?.id;
	const deliveries = api.deliveries.filter((d) => d.jobId === jobId);
	const executions = await runPerDelivery(receiving, triggerNode, t);
	await check({
		start: { status: result.status, items: result.json(node.name) },
		request,
		deliveries: JSON.parse(JSON.stringify(deliveries)),
		productionUrl: t.productionUrl,
		token,
		executions,
		jobId,
		urls: ['https://docs.example.com/', 'https://docs.example.com/about', 'https://docs.example.com/pricing'],
		receivingCheck,
	});
});

// ---------------------------------------------------------------------------------------------
describe('issue 34.7: one authenticator; an unverified delivery reads nothing; the production URL must be reachable', () => {
	const forgedPage = (monitorId) =>
		JSON.stringify({ success: true, type: 'monitor.page', id: crypto.randomUUID(), webhookId: crypto.randomUUID(), data: [{ monitorId, url: 'https://x.example.com/', status: 'changed' }], metadata: {} });
	const readsOf = (monitorId) => api.requests().filter((r) => r.path.includes(monitorId)).map((r) => `${r.method} ${r.path}`);

	test('Manual without Token or signing secret: a delivery naming another monitor of the team starts only its own item, and the trigger reads nothing of that monitor', async () => {
		const other = await createMonitorDirectly({ name: 'Not for this workflow', schedule: { text: 'hourly' }, targets: [{ type: 'scrape', urls: ['https://private.example.com/a'] }] });
		await runCheck(other.id); // a check whose pages a catch-up would read
		api.log.length = 0;
		const t = await trigger({ connection: 'manual', events: ['monitor.page', 'monitor.check.completed'] });
		expect(await t.activate()).toEqual({ existed: true });
		const answer = await t.post(forgedPage(other.id));
		expect(answer.status).toBe(200);
		expect(t.executions.map((e) => e.items.map((i) => [i.monitorId, i.url, i.caughtUp === true]))).toEqual([[[other.id, 'https://x.example.com/', false]]]);
		expect(readsOf(other.id)).toEqual([]);
		expect(api.log).toEqual([]);
	});

	test('Manual with a Secret Token: the token may come as ?token= in the URL as well as in the header; every copy must be right, a repeated one is refused', async () => {
		const t = await trigger({ connection: 'manual', events: ['monitor.page'], secretToken: 'manual-34' });
		const page = () => JSON.stringify({ success: true, type: 'monitor.page', id: 'c', webhookId: crypto.randomUUID(), data: [{ url: 'https://x.example.com/', status: 'new' }], metadata: {} });
		expect((await t.post(page(), {}, { search: '?token=manual-34' })).status).toBe(200);
		expect((await t.post(page(), { [TOKEN_HEADER]: 'manual-34' }, { search: '?token=manual-34' })).status).toBe(200);
		expect((await t.post(page(), { [TOKEN_HEADER]: 'manual-34' }, { search: '?token=wrong' })).status).toBe(401);
		expect((await t.post(page(), {}, { search: '?token=manual-34&token=manual-34' })).status).toBe(401);
		expect((await t.post(page(), {}, { search: '?token=manual-3' })).status).toBe(401);
		expect(t.executions).toHaveLength(2);
	});

	test('Job events: a right token header beside a wrong ?token= is refused (every copy must be right)', async () => {
		const t = await trigger({ source: 'jobs', jobEvents: ['crawl.page'], jobToken: 'job-34' });
		const raw = () => JSON.stringify({ success: true, type: 'crawl.page', id: crypto.randomUUID(), webhookId: crypto.randomUUID(), data: [{ markdown: 'x' }] });
		expect((await t.post(raw(), { [TOKEN_HEADER]: 'job-34' }, { search: '?token=nope' })).status).toBe(401);
		expect((await t.post(raw(), { [TOKEN_HEADER]: 'job-34' }, { search: '?token=job-34' })).status).toBe(200);
		expect(t.executions).toHaveLength(1);
	});

	test.each([
		['Create a Monitor', () => createParams()],
		['Attach', () => ({ connection: 'attach', events: ['monitor.page'], monitor: { __rl: true, mode: 'id', value: '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a' } })],
	])('%s: with a public service, a production URL on a private address in any spelling refuses activation before anything is sent', async (_name, params) => {
		// Loopback spellings only: were the monitor created, its deliveries would stay on this machine.
		for (const n8nBase of [(port) => `http://[::ffff:127.0.0.1]:${port}`, (port) => `http://localhost.:${port}`, (port) => `http://foo.localhost.:${port}`, (port) => `http://[::ffff:7f00:2]:${port}`]) {
			const t = await trigger(params(), { credential: { baseUrl: publicAlias(api.url) }, n8nBase });
			await expect(t.activate()).rejects.toThrow(/^The service at api\.webdata\.invalid:\d+ cannot reach http:\/\//);
			expect([n8nBase(1), api.log]).toEqual([n8nBase(1), []]);
		}
	});
});

// ---------------------------------------------------------------------------------------------
test('issue 45.6 (a guard; it held before): a check of 30 pages reads the monitor\'s check list once, at its first delivery; later deliveries of a known check read nothing', async () => {
	const urls = Array.from({ length: 30 }, (_, k) => `https://shop.example.com/p${k}`).join(', ');
	const t = await trigger(createParams({ urls }));
	await t.activate();
	const { monitorId } = t.staticData();
	await runCheck(monitorId);
	await runCheck(monitorId);
	const lists = api.requests({ method: 'GET', path: `/v2/monitor/${monitorId}/checks` }).filter((r) => /\/checks$/.test(r.path));
	expect(t.executions.length).toBe(2 * 31);
	expect(lists.length).toBe(2);
});
