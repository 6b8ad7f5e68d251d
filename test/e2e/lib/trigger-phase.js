'use strict';
/*
 * Trigger phase of the e2e suite: the Web Data Trigger inside the real `n8n start`.
 *
 * A webhook trigger cannot run with `n8n execute`, so run.js hands every workflow that contains a
 * webDataTrigger node to this phase (after the execute phase, same n8n user folder):
 *   1. a second fake API that signs its deliveries (--signing-secret) and runs checks quickly
 *   2. `n8n start` on free ports; owner set-up (POST /rest/owner/setup), an API key (POST
 *      /rest/api-keys), then only n8n's public API: two credentials on that fake (with and without
 *      the signing secret), the workflows, activation, executions, deactivation
 *   3. per trigger workflow, proofs by its connection mode ("ok"/"not ok" lines, each timed):
 *        create: "Listen for test event" (POST /rest/workflows/:id/run, as the editor does) creates a
 *                temporary monitor for the test URL, runs a check, and deletes it after the first
 *                event; activation → the fake received POST /v2/monitor with n8n's production
 *                webhook URL and the secret token header; a check run delivers monitor.page and
 *                monitor.check.completed and n8n records one execution per delivery holding the
 *                pages; forged deliveries (no token, wrong token, wrong signature) → 401 and no
 *                execution; bad bodies → 400 (422 from n8n's own parser for malformed JSON) and no
 *                execution; the same webhookId delivered twice → one execution; n8n restarted
 *                (SIGTERM does not call delete) serves the webhook again with no second monitor;
 *                deactivation deletes the monitor
 *        attach: activation points the monitor's webhook at n8n (previous webhook kept); a check
 *                run → executions filtered by the workflow's options; deactivation restores the
 *                previous webhook; a monitor that had no webhook is left with an inert one (no
 *                n8n URL, no token) that the API accepts
 *        jobs:   (Source "Job Events") activation calls nothing at the service; a crawl started at
 *                the fake with the production URL as its webhook → one execution per delivery, one
 *                item per page; forged ones → 401; a retry → no second execution; a Token in
 *                ?token= admits deliveries without a signing secret; deactivation calls nothing
 *        poll:   (Web Data Poll Trigger, issue 29.3) no webhook: Fetch Test Event before and after the
 *                monitor's first check; activation polls once (remembers the newest check); a check
 *                run comes with n8n's next scheduled poll; a check run while inactive comes with the
 *                next activation's poll; no check twice
 *        reportsTo: (a workflow that STARTS a job, issue 18.2) the receiving example is activated with
 *                a Token; this workflow's Send Events to Web Data Trigger gets its production URL and
 *                Token and runs (POST /rest/workflows/:id/run, as "Execute workflow"); the crawl's
 *                signed deliveries carry the token header and start one execution per page
 *      plus the workflow's own check module (test/e2e/checks/<name>.js, `module.exports.trigger =
 *      {connection}`), called with {executions, deliveries, monitorId} after the check run.
 * Everything n8n printed and returned is added to `captured` for the canary scan. n8n's output is in
 * <tmp>/n8n-start.log; E2E_N8N_LOG_LEVEL=debug makes it verbose.
 * Activation and deactivation through the public API are asynchronous in n8n 2.41 (its publication
 * outbox applies them), so every proof waits for the effect it checks, with a time limit.
 */
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const proc = require('./proc');
const { hostProfile } = require('./hosts');
const { startFake, fakeClient } = require('./fake');
const { freePort } = require('./n8n');
const { secs } = require('./report');
const { runVectorStore } = require('./vector-store-phase');

const TRIGGER_TYPE = 'n8n-nodes-webdata.webDataTrigger';
const POLL_TRIGGER_TYPE = 'n8n-nodes-webdata.webDataPollTrigger';
const TOKEN_HEADER = 'X-WebData-Trigger-Token';
const PREVIOUS_WEBHOOK = {
	url: 'http://127.0.0.1:9/previous-receiver',
	headers: { 'X-Previous-Token': 'keep-me' },
	metadata: { owner: 'team-a' },
	events: ['monitor.page', 'monitor.check.completed'],
};
const API_KEY_SCOPES = [
	'workflow:create',
	'workflow:read',
	'workflow:update',
	'workflow:delete',
	'workflow:list',
	'workflow:activate',
	'workflow:deactivate',
	'execution:read',
	'execution:list',
	'credential:create',
];

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const sign = (secret, raw) => `sha256=${crypto.createHmac('sha256', secret).update(raw).digest('hex')}`;

/** Whether a workflow file's text holds a Web Data Trigger or Web Data Poll Trigger node (such workflows come here). */
function isTriggerWorkflow(text) {
	return String(text).includes(`"${TRIGGER_TYPE}"`) || String(text).includes(`"${POLL_TRIGGER_TYPE}"`);
}

class Phase {
	constructor(env) {
		Object.assign(this, env); // root, tmp, ctx, apiKey, record, captured, timings, substitute, oneLine
		this.signingSecret = `e2e-signing-${crypto.randomBytes(12).toString('hex')}`;
		this.startLog = path.join(this.tmp, 'n8n-start.log');
		this.n8nOutput = [];
	}

	// ---- n8n start ------------------------------------------------------------------------------
	async startN8n() {
		const t0 = Date.now();
		const bin = path.join(this.ctx.hostDir, 'node_modules', 'n8n', 'bin', 'n8n');
		const child = proc.start(path.join(this.ctx.nodeDir, 'bin', 'node'), [...(this.nodeArgs ?? []), bin, 'start'], { env: this.env, cwd: this.tmp });
		const log = fs.createWriteStream(this.startLog, { flags: 'a' });
		log.write(`\n$ n8n start (port ${this.port})\n`);
		const keep = (d) => {
			log.write(d);
			this.n8nOutput.push(d.toString('utf8'));
		};
		child.stdout.on('data', keep);
		child.stderr.on('data', keep);
		child.once('exit', (code, signal) => log.end(`[n8n start exited: code ${code}, signal ${signal}]\n`));
		this.child = child;
		const deadline = Date.now() + 90000;
		for (;;) {
			if (child.exitCode !== null || child.signalCode !== null) throw new Error(`n8n start exited early (code ${child.exitCode}); see ${this.startLog}`);
			try {
				const res = await fetch(`${this.base}/healthz/readiness`);
				// n8n 1.x answers readiness before its REST routes exist: wait for those too.
				if (res.ok && (await fetch(`${this.base}/rest/settings`)).status !== 404) break;
			} catch {
				/* not listening yet */
			}
			if (Date.now() > deadline) throw new Error('n8n start was not ready within 90 s');
			await sleep(250);
		}
		return Date.now() - t0;
	}

	/** SIGTERM (n8n stops without calling the trigger's delete()), then waits for the process to end. */
	async stopN8n() {
		const child = this.child;
		if (!child || child.exitCode !== null || child.signalCode !== null) return;
		const ended = new Promise((r) => child.once('exit', r));
		proc.killGroup(child, 'SIGTERM');
		await Promise.race([ended, sleep(10000)]);
		if (child.exitCode === null && child.signalCode === null) {
			proc.killGroup(child, 'SIGKILL');
			await ended;
		}
	}

	/**
	 * The editor's "Execute workflow" / "Listen for test event" from `triggerName`. n8n 1.x wants the
	 * whole workflow in the body as well (its editor sends it).
	 */
	async runManually(workflowId, triggerName) {
		const body = { triggerToStartFrom: { name: triggerName } };
		if (hostProfile(process.env.E2E_N8N).major === 1) {
			const got = await this.rest('GET', `/rest/workflows/${workflowId}`, undefined, { cookie: this.cookie });
			body.workflowData = got.json?.data;
		}
		return await this.rest('POST', `/rest/workflows/${workflowId}/run`, body, { cookie: this.cookie });
	}

	async rest(method, route, body, headers = {}) {
		const res = await fetch(`${this.base}${route}`, {
			method,
			headers: { 'content-type': 'application/json', ...headers },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		let json;
		try {
			json = text ? JSON.parse(text) : undefined;
		} catch {
			json = text;
		}
		return { status: res.status, json, headers: res.headers };
	}

	/** n8n's public API with the API key; throws on a non-2xx answer. */
	async api(method, route, body) {
		const r = await this.rest(method, `/api/v1${route}`, body, { 'X-N8N-API-KEY': this.apiKeyN8n });
		if (r.status < 200 || r.status >= 300) {
			const e = new Error(`n8n public API ${method} ${route} answered ${r.status}: ${this.oneLine(JSON.stringify(r.json))}`);
			e.status = r.status;
			throw e;
		}
		return r.json;
	}

	async setup() {
		const t0 = Date.now();
		const fakeApi = await startFake({
			root: this.root,
			apiKey: this.apiKey,
			logFile: path.join(this.tmp, 'fake-api-trigger.log'),
			args: ['--signing-secret', this.signingSecret, '--time-scale', '5'],
		});
		this.fake = fakeClient(fakeApi.url);
		this.port = await freePort();
		const brokerPort = await freePort();
		this.base = `http://127.0.0.1:${this.port}`;
		this.env = {
			...this.ctx.env,
			N8N_PORT: String(this.port),
			WEBHOOK_URL: `${this.base}/`,
			N8N_WEBHOOK_URL: `${this.base}/`,
			N8N_RUNNERS_BROKER_PORT: String(brokerPort),
			...(process.env.E2E_N8N_LOG_LEVEL ? { N8N_LOG_LEVEL: process.env.E2E_N8N_LOG_LEVEL } : {}),
			...(this.extraEnv ?? {}), // the benchmark's own settings (test/bench/trigger-throughput.js)
		};
		const startMs = await this.startN8n();

		const owner = await this.rest('POST', '/rest/owner/setup', {
			email: 'e2e-owner@example.com',
			firstName: 'E2E',
			lastName: 'Owner',
			password: `E2e-${crypto.randomBytes(8).toString('hex')}-Pw1`,
		});
		const cookie = (owner.headers.get('set-cookie') || '').split(';')[0];
		this.cookie = cookie;
		if (owner.status !== 200 || !cookie.startsWith('n8n-auth=')) throw new Error(`owner setup answered ${owner.status}: ${this.oneLine(JSON.stringify(owner.json))}`);
		const key = await this.rest('POST', '/rest/api-keys', { label: 'webdata-e2e', scopes: API_KEY_SCOPES, expiresAt: null }, { cookie });
		this.apiKeyN8n = key.json?.data?.rawApiKey;
		if (key.status !== 200 || !this.apiKeyN8n) throw new Error(`creating an API key answered ${key.status}: ${this.oneLine(JSON.stringify(key.json))}`);

		const credential = async (name, webhookSecret) =>
			(await this.api('POST', '/credentials', { name, type: 'webDataApi', data: { apiKey: this.apiKey, baseUrl: this.fake.url, webhookSecret, ...hostProfile(process.env.E2E_N8N).credentialExtras } })).id;
		this.credentials = {
			signed: { id: await credential('Web Data (signed deliveries)', this.signingSecret), name: 'Web Data (signed deliveries)' },
			tokenOnly: { id: await credential('Web Data (token only)', ''), name: 'Web Data (token only)' },
		};
		this.timings.push(['trigger phase set-up (fake, n8n start, owner, API key, credentials)', Date.now() - t0, `n8n start ready in ${secs(startMs)}`]);
		return startMs;
	}

	// ---- helpers for the proofs -------------------------------------------------------------------
	/** Executions of a workflow (oldest first), in a compact shape, once `count` of them have finished. */
	async executions(workflowId, { count, mode, timeoutMs = 20000 } = {}) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const list = await this.api('GET', `/executions?workflowId=${encodeURIComponent(workflowId)}&includeData=true&limit=250`);
			const all = (list.data || []).filter((e) => !mode || e.mode === mode).sort((a, b) => Number(a.id) - Number(b.id));
			const done = all.filter((e) => e.finished || ['success', 'error', 'crashed', 'canceled'].includes(e.status));
			if (count === undefined || (all.length >= count && done.length === all.length) || Date.now() > deadline) {
				this.captured.push({ source: `executions of workflow ${workflowId} (public API)`, text: JSON.stringify(all) });
				return all.map((e) => this.compact(e));
			}
			await sleep(200);
		}
	}

	compact(e) {
		const runData = e.data?.resultData?.runData ?? {};
		const nodes = {};
		for (const [name, runs] of Object.entries(runData)) {
			const last = runs[runs.length - 1];
			nodes[name] = (last?.data?.main?.[0] ?? []).map((i) => i.json);
		}
		const triggerName = Object.keys(runData).find((n) => runData[n][0]?.source?.length === 0 || !runData[n][0]?.source) ?? Object.keys(runData)[0];
		return { id: e.id, status: e.status, mode: e.mode, trigger: nodes[triggerName] ?? [], nodes };
	}

	/**
	 * Waits until `fn` returns a truthy value. Activation and deactivation through the public API are
	 * asynchronous in n8n 2.41 (the publication outbox applies them), so proofs wait for their effect.
	 */
	async until(fn, what, timeoutMs = 30000) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const value = await fn();
			if (value) return value;
			if (Date.now() > deadline) throw new Error(`timed out after ${secs(timeoutMs)} waiting for ${what}`);
			await sleep(150);
		}
	}

	async deliveries() {
		return await this.fake.call('GET', '/__fake/deliveries');
	}

	async settled() {
		await this.fake.call('POST', '/__fake/settled', { timeoutMs: 20000 });
	}

	/** Runs one check of a monitor at the fake; resolves {check, delivered}: the check and the deliveries it made, all settled. */
	async runCheck(monitorId) {
		const from = (await this.deliveries()).length;
		const check = await this.fake.call('POST', `/__fake/monitor/${monitorId}/tick`);
		await this.settled();
		return { check, delivered: (await this.deliveries()).slice(from) };
	}

	async monitorsAtFake() {
		const res = await fetch(`${this.fake.url}/v2/monitor?limit=100`, { headers: { authorization: `Bearer ${this.apiKey}` } });
		return (await res.json()).data;
	}

	async postToN8n(url, raw, headers) {
		const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: raw });
		return { status: res.status, body: await res.text() };
	}

	/** Runs one proof as its own "ok"/"not ok" line; returns whether it passed. */
	async step(name, fn) {
		const t0 = Date.now();
		try {
			const note = await fn();
			const ms = Date.now() - t0;
			this.timings.push([`trigger: ${name}`, ms]);
			this.record(`trigger: ${name} (${secs(ms)})${note ? ` — ${note}` : ''}`, true);
			return true;
		} catch (e) {
			const reason = e.code === 'ERR_ASSERTION' ? e.message.split('\n')[0] : e.message;
			this.record(`trigger: ${name}`, false, reason, [e.details, this.n8nTail()].filter(Boolean).join('\n'));
			return false;
		}
	}

	n8nTail(n = 15) {
		return `n8n start log tail:\n${proc.tail(this.n8nOutput.join(''), n)}`;
	}

	/** Creates the workflow through the public API, with its credential references on `credential`. */
	async createWorkflow(item, vars, credential, { webhookId, triggerParameters, prepare } = {}) {
		const wf = JSON.parse(this.substitute(item.text, vars));
		if (prepare) prepare(wf);
		if (webhookId) for (const node of wf.nodes) if (node.type === TRIGGER_TYPE) node.webhookId = webhookId;
		if (triggerParameters) for (const node of wf.nodes) if (node.type === TRIGGER_TYPE) Object.assign(node.parameters, triggerParameters);
		for (const node of wf.nodes) {
			if (node.type.startsWith('n8n-nodes-webdata.')) node.credentials = { webDataApi: { id: credential.id, name: credential.name } };
		}
		const created = await this.api('POST', '/workflows', {
			name: `${wf.name || item.base} (e2e)`,
			nodes: wf.nodes,
			connections: wf.connections,
			settings: wf.settings || { executionOrder: 'v1' },
		});
		const trigger = wf.nodes.find((n) => n.type === TRIGGER_TYPE);
		return { id: created.id, wf, trigger, productionUrl: trigger ? `${this.base}/webhook/${trigger.webhookId}/webhook` : undefined };
	}

	// ---- the proofs ---------------------------------------------------------------------------------
	async runCreate(item) {
		const label = item.name;
		let w;
		let monitorId;
		let token;
		let firstDeliveries = [];
		await this.step(`${label}: "Listen for test event" registers the test URL the same way (a temporary monitor, a check at once) and removes it after the first event`, async () => {
			await this.fake.reset();
			w = await this.createWorkflow(item, {}, this.credentials.signed);
			const testUrl = `${this.base}/webhook-test/${w.trigger.webhookId}/webhook`;
			const run = await this.runManually(w.id, w.trigger.name);
			assert.equal(run.status, 200, `POST /rest/workflows/:id/run answered ${run.status}: ${this.oneLine(JSON.stringify(run.json))}`);
			assert.equal(run.json?.data?.waitingForWebhook, true, 'n8n waits for the test event');
			const deleted = await this.until(async () => {
				const found = (await this.fake.log()).filter((r) => r.method === 'DELETE');
				return found.length ? found : undefined;
			}, 'the test monitor to be deleted after the first event');
			const log = await this.fake.log();
			const created = log.filter((r) => r.method === 'POST' && r.path === '/v2/monitor');
			assert.equal(created.length, 1, 'one temporary monitor');
			assert.equal(created[0].body.name, `[n8n test] ${w.trigger.parameters.monitorName}`);
			assert.equal(created[0].body.webhook.url, testUrl, "n8n's test URL");
			assert.match(created[0].body.webhook.headers[TOKEN_HEADER], /^[0-9a-f]{64}$/);
			const testMonitorId = deleted[0].path.split('/').pop();
			assert.ok(log.some((r) => r.method === 'POST' && r.path === `/v2/monitor/${testMonitorId}/run` && r.status === 200), 'a check was started at once');
			await this.settled();
			// n8n stops listening after the first event; deliveries that arrive while it is still
			// closing the test webhook may start more manual executions (n8n's own behaviour), so
			// only the first is asserted.
			const executions = await this.executions(w.id, { count: 1 });
			assert.ok(executions.length >= 1, 'the first event started a manual execution');
			assert.ok(executions.every((e) => e.mode === 'manual'));
			assert.equal(executions[0].trigger[0].event, 'monitor.page');
			assert.equal(executions[0].trigger[0].monitorId, testMonitorId);
			const answered = (await this.deliveries()).map((d) => d.responseStatus);
			assert.equal(answered[0], 200, 'the first delivery was taken');
			assert.equal((await this.monitorsAtFake()).length, 0, 'the temporary monitor is gone');
			return `${testUrl.replace(this.base, '')}; deliveries answered ${answered.join(', ')}; ${executions.length} manual execution(s), first ${executions[0].trigger[0].url}; monitor deleted`;
		});
		await this.step(`${label}: Options → Max Credits per Day below what the schedule and URLs may cost a day: activation is refused with the estimate, no monitor is created`, async () => {
			await this.fake.reset();
			const capped = await this.createWorkflow(item, {}, this.credentials.signed, { webhookId: crypto.randomUUID(), triggerParameters: { options: { maxCreditsPerDay: 100 } } });
			let said;
			let where;
			try {
				await this.api('POST', `/workflows/${capped.id}/activate`);
			} catch (e) {
				said = e.message; // n8n 1.x activates in the request: the refusal is its answer
				where = `the activate call answered ${e.status}`;
			}
			if (!said) {
				// n8n 2.x publishes in the background: the trigger's failure is the workflow's publication
				// status, which the editor shows beside the Publish button.
				const failed = await this.until(async () => {
					const r = await this.rest('GET', `/rest/workflows/${capped.id}/publication-status`, undefined, { cookie: this.cookie });
					return (r.json?.data?.triggers ?? []).find((t) => t.status === 'failed');
				}, "the trigger's activation to fail (publication status)", 60000);
				said = failed.errorMessage;
				where = 'the publication status says the trigger failed';
			}
			await this.api('POST', `/workflows/${capped.id}/deactivate`).catch(() => {});
			await this.api('DELETE', `/workflows/${capped.id}`).catch(() => {});
			assert.match(String(said), /This monitor may cost up to 192 credits a day, over Max Credits per Day \(100\)/);
			// (what creates or changes a monitor: the earlier test's monitor may still be deleted late)
			const sent = (await this.fake.log()).filter((r) => r.path.startsWith('/v2/monitor') && r.method !== 'DELETE' && r.method !== 'GET');
			assert.deepEqual(sent.map((r) => `${r.method} ${r.path}`), [], `no monitor was created or changed (sent: ${sent.map((r) => `${r.method} ${r.path} ${r.status} ${JSON.stringify(r.body ?? {}).slice(0, 120)}`).join('; ')})`);
			return `${where}: ${this.oneLine(String(said)).slice(0, 160)}`;
		});
		const activated = await this.step(`${label}: activation creates the monitor with n8n's production webhook URL and the secret token header`, async () => {
			await this.fake.reset();
			if (!w) w = await this.createWorkflow(item, {}, this.credentials.signed);
			const t0 = Date.now();
			await this.api('POST', `/workflows/${w.id}/activate`);
			const posts = await this.until(async () => {
				const found = (await this.fake.log()).filter((r) => r.method === 'POST' && r.path === '/v2/monitor');
				return found.length ? found : undefined;
			}, 'the monitor creation');
			await this.until(async () => (await this.postToN8n(w.productionUrl, '{}', {})).status !== 404, 'the production webhook to be served');
			const activationMs = Date.now() - t0;
			assert.equal(posts.length, 1, `one POST /v2/monitor (got ${posts.length})`);
			assert.equal(posts[0].status, 200);
			const { webhook } = posts[0].body;
			assert.equal(webhook.url, w.productionUrl, "the webhook URL is n8n's production URL");
			assert.match(webhook.url, new RegExp(`^http://127\\.0\\.0\\.1:${this.port}/webhook/`));
			assert.deepEqual(Object.keys(webhook.headers), [TOKEN_HEADER]);
			assert.match(webhook.headers[TOKEN_HEADER], /^[0-9a-f]{64}$/, 'a 64-hex secret token');
			assert.deepEqual(webhook.events, w.trigger.parameters.events);
			monitorId = (await this.monitorsAtFake())[0].id;
			token = webhook.headers[TOKEN_HEADER];
			return `monitor ${monitorId.slice(0, 8)}… registered ${secs(activationMs)} after the activate call, ${webhook.url}`;
		});
		if (!activated) return;

		await this.step(`${label}: a check run delivers monitor.page and monitor.check.completed; n8n records executions whose items hold the pages`, async () => {
			await this.fake.call('POST', `/__fake/monitor/${monitorId}/tick`);
			await this.settled();
			firstDeliveries = await this.deliveries();
			assert.deepEqual(firstDeliveries.map((d) => d.type), ['monitor.page', 'monitor.page', 'monitor.check.completed']);
			assert.deepEqual(firstDeliveries.map((d) => d.responseStatus), [200, 200, 200], 'n8n answered every delivery with 200');
			assert.ok(firstDeliveries.every((d) => d.headers[TOKEN_HEADER] === token && /^sha256=/.test(d.headers['X-Firecrawl-Signature'])), 'deliveries carry the token and a signature');
			const executions = await this.executions(w.id, { count: 3, mode: 'webhook' });
			assert.equal(executions.length, 3, `one execution per delivery (got ${executions.length})`);
			const byWebhookId = Object.fromEntries(executions.map((e) => [e.trigger[0]?.webhookId, e]));
			for (const d of firstDeliveries) {
				const e = byWebhookId[d.webhookId];
				assert.ok(e, `an execution holds delivery ${d.webhookId} (${d.type})`);
				assert.deepEqual(e.trigger.map((i) => i.event), d.body.data.map(() => d.type));
				if (d.type === 'monitor.page') assert.equal(e.trigger[0].url, d.body.data[0].url, 'the item holds the page');
			}
			await item.check({ executions, deliveries: firstDeliveries, monitorId, fake: this.fake });
			return `${executions.length} executions: ${executions.map((e) => e.trigger[0]?.url ?? e.trigger[0]?.event).join(', ')}`;
		});

		const real = firstDeliveries[0];
		// A page of a check not told yet (the trigger tells each page of each check once, issue 29.2).
		const fresh = () => {
			const checkId = crypto.randomUUID();
			const body = real?.body ?? { type: 'monitor.page', data: [{}] };
			return JSON.stringify({ ...body, id: checkId, webhookId: crypto.randomUUID(), data: body.data.map((d) => ({ ...d, checkId })) });
		};
		const countNow = async () => (await this.executions(w.id)).length;

		await this.step(`${label}: forged deliveries (no token, wrong token, wrong signature, no signature) get 401 and start no execution`, async () => {
			const before = await countNow();
			const raw = fresh();
			const attempts = [
				['no token, no signature', {}],
				['a wrong token, a valid signature', { [TOKEN_HEADER]: crypto.randomBytes(32).toString('hex'), 'X-Firecrawl-Signature': sign(this.signingSecret, raw) }],
				['the right token, a wrong signature', { [TOKEN_HEADER]: token, 'X-Firecrawl-Signature': sign('guessed-secret', raw) }],
				['the right token, no signature', { [TOKEN_HEADER]: token }],
			];
			const statuses = [];
			for (const [name, headers] of attempts) {
				const r = await this.postToN8n(w.productionUrl, raw, headers);
				statuses.push(r.status);
				assert.equal(r.status, 401, `${name}: HTTP ${r.status} (${r.body.slice(0, 100)})`);
			}
			await sleep(500);
			assert.equal(await countNow(), before, 'no new execution');
			return `${statuses.join(', ')}; executions still ${before}`;
		});

		await this.step(`${label}: bad bodies get 400 (no type, no data) or 422 (malformed JSON, n8n's parser) and start no execution`, async () => {
			const before = await countNow();
			const auth = (raw) => ({ [TOKEN_HEADER]: token, 'X-Firecrawl-Signature': sign(this.signingSecret, raw) });
			const cases = [
				['no type', JSON.stringify({ webhookId: crypto.randomUUID(), data: [] }), 400],
				['no data', JSON.stringify({ type: 'monitor.page', webhookId: crypto.randomUUID() }), 400],
				['malformed JSON', '{"type":"monitor.page","data":[', 422],
			];
			const seen = [];
			for (const [name, raw, status] of cases) {
				const r = await this.postToN8n(w.productionUrl, raw, auth(raw));
				seen.push(`${name} ${r.status}`);
				assert.equal(r.status, status, `${name}: HTTP ${r.status} (${r.body.slice(0, 120)})`);
			}
			await sleep(300);
			assert.equal(await countNow(), before, 'no new execution');
			return seen.join(', ');
		});

		await this.step(`${label}: the same webhookId delivered twice (a service retry) starts one execution`, async () => {
			const before = await countNow();
			const again = await this.fake.call('POST', `/__fake/redeliver/${real.webhookId}`);
			assert.equal(again.attempt, 2);
			assert.equal(again.rawBody, real.rawBody, 'identical bytes, same webhookId');
			assert.equal(again.responseStatus, 200, 'the retry is answered 200');
			const third = await this.fake.call('POST', `/__fake/redeliver/${real.webhookId}`);
			assert.equal(third.responseStatus, 200);
			await sleep(500);
			const executions = await this.executions(w.id);
			assert.equal(executions.length, before, 'no new execution');
			assert.equal(executions.filter((e) => e.trigger[0]?.webhookId === real.webhookId).length, 1, `exactly one execution for webhookId ${real.webhookId}`);
			return `3 deliveries of ${real.webhookId.slice(0, 8)}…, 1 execution`;
		});

		await this.step(`${label}: an accepted delivery is answered {"received":true} (not n8n's literal "firstEntryJson") and starts one execution; its retry is answered as a duplicate`, async () => {
			const before = await countNow();
			const raw = fresh();
			const headers = { [TOKEN_HEADER]: token, 'X-Firecrawl-Signature': sign(this.signingSecret, raw) };
			const first = await this.postToN8n(w.productionUrl, raw, headers);
			assert.equal(first.status, 200, `HTTP ${first.status} (${first.body.slice(0, 120)})`);
			assert.deepEqual(JSON.parse(first.body), { received: true }, `the body: ${first.body.slice(0, 120)}`);
			const again = await this.postToN8n(w.productionUrl, raw, headers);
			assert.deepEqual([again.status, JSON.parse(again.body)], [200, { received: true, duplicate: true }]);
			const executions = await this.executions(w.id, { count: before + 1 });
			await sleep(300);
			assert.equal((await countNow()), before + 1, 'exactly one new execution');
			return `${first.status} ${first.body}; retry ${again.status} ${again.body}; executions ${before} → ${executions.length}`;
		});

		await this.step(`${label}: after an n8n restart (SIGTERM, no delete) the webhook is served again, no second monitor, deliveries still start executions`, async () => {
			await this.stopN8n();
			assert.ok((await this.monitorsAtFake()).some((m) => m.id === monitorId), 'the monitor survives the stop');
			const logBefore = (await this.fake.log()).length;
			const ms = await this.startN8n();
			// n8n 2.41 keeps published webhooks in its database and serves them again after a restart
			// (an older n8n calls checkExists() at start-up, which finds the monitor). Either way: no
			// new monitor, and the stored secret token still admits the monitor's deliveries.
			const t1 = Date.now();
			const probe = await this.until(async () => {
				const r = await this.postToN8n(w.productionUrl, '{}', {});
				return r.status !== 404 ? r : undefined;
			}, 'the production webhook to be served again', 60000);
			assert.equal(probe.status, 401, 'an unauthenticated probe is refused');
			const reactivatedMs = Date.now() - t1;
			const log = (await this.fake.log()).slice(logBefore).map((r) => `${r.method} ${r.path} ${r.status}`);
			assert.ok(log.every((l) => l === `GET /v2/monitor/${monitorId} 200`), `start-up at most checks that the monitor exists (got ${log.join('; ') || 'nothing'})`);
			assert.equal((await this.monitorsAtFake()).length, 1, 'no second monitor');
			const before = await countNow();
			const { delivered: second } = await this.runCheck(monitorId);
			assert.deepEqual(second.map((d) => d.responseStatus), [200, 200, 200]);
			const executions = await this.executions(w.id, { count: before + 3 });
			assert.equal(executions.length, before + 3);
			const statuses = executions.slice(before).map((e) => e.trigger[0].status).sort();
			assert.deepEqual(statuses, ['changed', 'completed', 'same'], 'the second check: the first page changed, the other the same');
			return `ready again in ${secs(ms)}, webhook served ${secs(reactivatedMs)} later, calls to the service at start-up: ${log.length}; second check → ${statuses.join(', ')}`;
		});

		await this.step(`${label}: n8n down during a check (its deliveries fail, the service sends each once): the next check's first delivery brings the lost check first, caughtUp, each page once`, async () => {
			await this.fake.call('POST', '/__fake/webhook-delivery', { retries: false });
			await this.stopN8n();
			const { delivered: lost } = await this.runCheck(monitorId);
			assert.deepEqual(lost.map((d) => [d.type, d.responseStatus]), [['monitor.page', null], ['monitor.page', null], ['monitor.check.completed', null]], 'n8n was down: every delivery of that check failed');
			const lostCheckId = lost[0].checkId;
			await this.startN8n();
			await this.until(async () => (await this.postToN8n(w.productionUrl, '{}', {})).status !== 404, 'the production webhook to be served again', 60000);
			const before = await countNow();
			const { delivered: next } = await this.runCheck(monitorId);
			assert.deepEqual(next.map((d) => d.responseStatus), [200, 200, 200]);
			const executions = (await this.executions(w.id, { count: before + 3 })).slice(before);
			const items = executions.flatMap((e) => e.trigger);
			const caught = items.filter((i) => i.caughtUp === true);
			if (caught.length !== 3) throw new Error(`lost check ${lostCheckId}; caught up: ${JSON.stringify(caught.map((i) => [i.checkId, i.event]))}`);
			assert.deepEqual(
				caught.map((i) => [i.checkId, i.event, i.url ?? null]),
				[
					[lostCheckId, 'monitor.page', lost[0].body.data[0].url],
					[lostCheckId, 'monitor.page', lost[1].body.data[0].url],
					[lostCheckId, 'monitor.check.completed', null],
				],
				'the lost check, told late, in order',
			);
			assert.deepEqual(executions[0].trigger.slice(0, 3).map((i) => i.caughtUp), [true, true, true], 'first, in the execution of the next check\'s first delivery');
			assert.equal(items.filter((i) => i.checkId === next[0].checkId).length, 3, 'the next check as usual');
			assert.equal(items.length, 6, 'each page of each check once');
			const reads = (await this.fake.log()).filter((r) => r.method === 'GET' && r.path.startsWith(`/v2/monitor/${monitorId}/checks`)).map((r) => r.path);
			return `lost check ${lostCheckId.slice(0, 8)}… told in execution ${executions[0].id} before check ${next[0].checkId.slice(0, 8)}…; reads: ${reads.length} (${[...new Set(reads.map((p) => p.replace(monitorId, ':id').replace(/[0-9a-f-]{36}$/, ':check')))].join(', ')})`;
		});

		await this.step(`${label}: deactivation deletes the created monitor`, async () => {
			const logBefore = (await this.fake.log()).length;
			await this.api('POST', `/workflows/${w.id}/deactivate`);
			const deletes = await this.until(async () => {
				const found = (await this.fake.log()).slice(logBefore).filter((r) => r.method === 'DELETE');
				return found.length ? found : undefined;
			}, 'the monitor deletion');
			await sleep(300);
			assert.deepEqual(deletes.map((r) => [r.path, r.status]), [[`/v2/monitor/${monitorId}`, 200]]);
			assert.equal((await this.monitorsAtFake()).length, 0, 'no monitor left');
			const after = await this.until(async () => {
				const r = await this.postToN8n(w.productionUrl, fresh(), { [TOKEN_HEADER]: token });
				return r.status === 404 ? r : undefined;
			}, 'the webhook to be gone from n8n (404)');
			return `DELETE /v2/monitor/${monitorId.slice(0, 8)}… → 200; webhook URL now ${after.status}`;
		});
	}

	/**
	 * Source "Job Events": nothing is registered; a crawl started at the fake with the workflow's
	 * production URL as its webhook sends signed crawl.* deliveries, each starting one execution.
	 */
	async runJobs(item) {
		const label = item.name;
		const run = `e2e-${crypto.randomBytes(4).toString('hex')}`;
		const urls = ['https://docs.example.com/', 'https://docs.example.com/about', 'https://docs.example.com/pricing'];
		let w;
		let real;
		const startCrawl = async (webhook) => {
			const res = await fetch(`${this.fake.url}/v2/crawl`, {
				method: 'POST',
				headers: { authorization: `Bearer ${this.apiKey}`, 'content-type': 'application/json' },
				body: JSON.stringify({ url: urls[0], limit: urls.length, webhook }),
			});
			const json = await res.json();
			assert.equal(json.success, true, `POST /v2/crawl: ${this.oneLine(JSON.stringify(json))}`);
			return json.id;
		};
		const activated = await this.step(`${label}: activation registers nothing at the service and serves the production URL`, async () => {
			await this.fake.reset();
			w = await this.createWorkflow(item, {}, this.credentials.signed);
			await this.api('POST', `/workflows/${w.id}/activate`);
			const probe = await this.until(async () => {
				const r = await this.postToN8n(w.productionUrl, '{}', {});
				return r.status !== 404 ? r : undefined;
			}, 'the production webhook to be served');
			assert.equal(probe.status, 401, 'an unsigned probe is refused');
			assert.deepEqual((await this.fake.log()).map((r) => `${r.method} ${r.path}`), [], 'no call to the service');
			return `${w.productionUrl.replace(this.base, '')} served; probe → ${probe.status}`;
		});
		if (!activated) return;

		await this.step(`${label}: a crawl reporting to the production URL starts one execution per delivery, one item per page`, async () => {
			const jobId = await startCrawl({ url: w.productionUrl, metadata: { run } });
			await this.settled();
			const deliveries = (await this.deliveries()).filter((d) => d.jobId === jobId);
			assert.deepEqual(deliveries.map((d) => d.type), ['crawl.started', 'crawl.page', 'crawl.page', 'crawl.page', 'crawl.completed']);
			assert.deepEqual(deliveries.map((d) => d.responseStatus), [200, 200, 200, 200, 200], 'n8n answered every delivery with 200');
			const executions = await this.executions(w.id, { count: 4, mode: 'webhook' });
			await item.check({ executions, deliveries, jobId, run, urls, fake: this.fake });
			real = deliveries.find((d) => d.type === 'crawl.page');
			return `${deliveries.length} deliveries → ${executions.length} executions: ${executions.map((e) => e.nodes['Page summary']?.[0]?.report).join('; ')}`;
		});
		if (!real) return;
		const countNow = async () => (await this.executions(w.id)).length;

		await this.step(`${label}: forged crawl deliveries (no signature, wrong signature, changed body) get 401 and start no execution`, async () => {
			const before = await countNow();
			const raw = JSON.stringify({ ...real.body, webhookId: crypto.randomUUID() });
			const attempts = [
				['no signature', raw, {}],
				['a wrong signature', raw, { 'X-Firecrawl-Signature': sign('guessed-secret', raw) }],
				['a changed body under the real signature', real.rawBody.replace('"success":true', '"success":false'), { 'X-Firecrawl-Signature': real.headers['X-Firecrawl-Signature'] }],
			];
			const statuses = [];
			for (const [name, body, headers] of attempts) {
				const r = await this.postToN8n(w.productionUrl, body, headers);
				statuses.push(r.status);
				assert.equal(r.status, 401, `${name}: HTTP ${r.status} (${r.body.slice(0, 100)})`);
			}
			await sleep(500);
			assert.equal(await countNow(), before, 'no new execution');
			return `${statuses.join(', ')}; executions still ${before}`;
		});

		await this.step(`${label}: a crawl.page delivered again (same webhookId, a service retry) starts no second execution`, async () => {
			const before = await countNow();
			const again = await this.fake.call('POST', `/__fake/redeliver/${real.webhookId}`);
			assert.equal(again.rawBody, real.rawBody, 'identical bytes, same webhookId');
			assert.equal(again.responseStatus, 200, 'the retry is answered 200');
			await sleep(500);
			const executions = await this.executions(w.id);
			assert.equal(executions.length, before, 'no new execution');
			assert.equal(executions.filter((e) => e.trigger[0]?.webhookId === real.webhookId).length, 1);
			return `2 deliveries of ${real.webhookId.slice(0, 8)}…, 1 execution`;
		});

		await this.step(`${label}: with a Token and no signing secret, ?token= in the crawl's webhook URL admits deliveries; a wrong token gets 401`, async () => {
			const token = crypto.randomBytes(24).toString('hex');
			const t = await this.createWorkflow(item, {}, this.credentials.tokenOnly, { webhookId: crypto.randomUUID(), triggerParameters: { jobToken: token } });
			await this.api('POST', `/workflows/${t.id}/activate`);
			await this.until(async () => (await this.postToN8n(t.productionUrl, '{}', {})).status !== 404, 'the production webhook to be served');
			const jobId = await startCrawl({ url: `${t.productionUrl}?token=${token}`, events: ['page'], metadata: { run } });
			await this.settled();
			const deliveries = (await this.deliveries()).filter((d) => d.jobId === jobId);
			assert.deepEqual(deliveries.map((d) => d.responseStatus), [200, 200, 200]);
			const executions = await this.executions(t.id, { count: 3, mode: 'webhook' });
			assert.equal(executions.length, 3, 'one execution per page');
			const raw = JSON.stringify({ ...deliveries[0].body, webhookId: crypto.randomUUID() });
			const wrong = await this.postToN8n(`${t.productionUrl}?token=${token.slice(0, -1)}x`, raw, {});
			const none = await this.postToN8n(t.productionUrl, raw, {});
			assert.deepEqual([wrong.status, none.status], [401, 401]);
			await sleep(300);
			assert.equal((await this.executions(t.id)).length, 3, 'no new execution');
			await this.api('POST', `/workflows/${t.id}/deactivate`);
			return `3 page deliveries → 3 executions; wrong token ${wrong.status}, none ${none.status}`;
		});

		await this.step(`${label}: delivered as the open-source server does (one attempt, ends announced as crawl.completed): a trigger on Crawl Failed alone starts for the failed crawl only, as crawl.failed`, async () => {
			// The crawl's webhook as the Web Data node builds it for Send Events = Failed (it also asks for completed).
			const { buildEventWebhook } = require(path.join(this.root, 'dist', 'nodes', 'WebData', 'jobs', 'triggerTarget.js'));
			const t = await this.createWorkflow(item, {}, this.credentials.signed, { webhookId: crypto.randomUUID(), triggerParameters: { jobEvents: ['crawl.failed'] } });
			await this.api('POST', `/workflows/${t.id}/activate`);
			await this.until(async () => (await this.postToN8n(t.productionUrl, '{}', {})).status !== 404, 'the production webhook to be served');
			await this.fake.call('POST', '/__fake/webhook-delivery', { retries: false });
			const webhook = buildEventWebhook({ name: 'Start', type: 'n8n-nodes-webdata.webData', typeVersion: 1, parameters: {} }, { sendToTrigger: { trigger: { url: t.productionUrl, token: '', events: ['failed'] } } }, 'crawl', 0);
			assert.deepEqual(webhook.events, ['failed', 'completed']);
			const start = async (url) => {
				const res = await fetch(`${this.fake.url}/v2/crawl`, { method: 'POST', headers: { authorization: `Bearer ${this.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ url, limit: 2, webhook }) });
				return (await res.json()).id;
			};
			const failed = await start('https://docs.example.com/fake-job-fail');
			const fine = await start('https://docs.example.com/');
			await this.settled();
			const ends = (await this.deliveries()).filter((d) => d.jobId === failed || d.jobId === fine);
			assert.deepEqual(ends.map((d) => [d.type, d.body.success, d.responseStatus]), [['crawl.completed', true, 200], ['crawl.completed', true, 200]], 'both ends announced as completed, once each');
			const executions = await this.executions(t.id, { count: 1, mode: 'webhook' });
			await sleep(500);
			const all = await this.executions(t.id);
			assert.equal(all.length, 1, `one execution (got ${all.length})`);
			assert.deepEqual(
				all[0].trigger.map((i) => [i.event, i.announcedEvent, i.jobId, i.success, i.status]),
				[['crawl.failed', 'crawl.completed', failed, false, 'failed']],
			);
			await this.api('POST', `/workflows/${t.id}/deactivate`);
			return `failed crawl → execution ${executions[0].id} (event crawl.failed, announced crawl.completed); completed crawl → none`;
		});

		await this.step(`${label}: deactivation calls nothing at the service; the URL is gone`, async () => {
			const logBefore = (await this.fake.log()).length;
			await this.api('POST', `/workflows/${w.id}/deactivate`);
			await this.until(async () => (await this.postToN8n(w.productionUrl, '{}', {})).status === 404, 'the webhook to be gone from n8n (404)');
			assert.deepEqual((await this.fake.log()).slice(logBefore), [], 'no call to the service');
			return 'webhook URL now 404';
		});
	}

	/**
	 * A workflow that STARTS a job reporting to a Web Data Trigger (issue 18.2; its check exports
	 * `trigger = {reportsTo: '<receiving example>'}`): the receiving example is created with a Token
	 * and activated; this workflow's "Send Events to Web Data Trigger" gets that production URL and
	 * Token (what a user pastes) and runs as "Execute workflow" does in the editor; the fake's crawl
	 * sends its signed events to the real trigger. Its check gets the start, the crawl request, the
	 * deliveries and the receiving workflow's executions (and runs that workflow's own check).
	 */
	async runReportsTo(item) {
		const label = item.name;
		const receivingBase = item.check.trigger.reportsTo;
		const receiving = {
			name: `examples/${receivingBase}`,
			base: receivingBase,
			text: fs.readFileSync(path.join(this.root, 'examples', `${receivingBase}.json`), 'utf8'),
			check: require(path.join(this.root, 'test', 'e2e', 'checks', `${receivingBase}.js`)),
		};
		const token = crypto.randomBytes(24).toString('hex');
		const urls = ['https://docs.example.com/', 'https://docs.example.com/about', 'https://docs.example.com/pricing'];
		await this.step(`${label}: started in n8n, its crawl sends each page to ${receivingBase} (active, with a Token): one execution per page with the run metadata`, async () => {
			await this.fake.reset();
			const r = await this.createWorkflow(receiving, {}, this.credentials.signed, { webhookId: crypto.randomUUID(), triggerParameters: { jobToken: token } });
			await this.api('POST', `/workflows/${r.id}/activate`);
			const probe = await this.until(async () => {
				const p = await this.postToN8n(r.productionUrl, '{}', {});
				return p.status !== 404 ? p : undefined;
			}, 'the production webhook to be served');
			assert.equal(probe.status, 401, 'an unsigned probe is refused');
			const s = await this.createWorkflow(item, {}, this.credentials.signed, {
				prepare: (wf) => {
					const targets = wf.nodes.filter((n) => n.parameters?.options?.sendToTrigger?.trigger);
					assert.equal(targets.length, 1, 'one node sends its events to a trigger');
					Object.assign(targets[0].parameters.options.sendToTrigger.trigger, { url: r.productionUrl, token });
				},
			});
			const manual = s.wf.nodes.find((n) => n.type === 'n8n-nodes-base.manualTrigger');
			const ran = await this.runManually(s.id, manual.name);
			assert.equal(ran.status, 200, `POST /rest/workflows/:id/run answered ${ran.status}: ${this.oneLine(JSON.stringify(ran.json))}`);
			const [started] = await this.executions(s.id, { count: 1 });
			assert.ok(started, 'the starting workflow ran');
			const startNode = s.wf.nodes.find((n) => n.type === 'n8n-nodes-webdata.webData');
			const [request] = (await this.fake.log()).filter((x) => x.method === 'POST' && x.path === '/v2/crawl');
			assert.ok(request, 'the fake received POST /v2/crawl');
			const jobId = started.nodes[startNode.name]?.[0]?.id;
			await this.settled();
			const deliveries = (await this.deliveries()).filter((d) => d.jobId === jobId);
			const executions = await this.executions(r.id, { count: deliveries.length, mode: 'webhook' });
			await item.check({
				start: { status: started.status, items: started.nodes[startNode.name] ?? [] },
				request,
				deliveries,
				productionUrl: r.productionUrl,
				token,
				executions,
				jobId,
				urls,
				receivingCheck: receiving.check,
			});
			await this.api('POST', `/workflows/${r.id}/deactivate`);
			return `Start → crawl ${String(jobId).slice(0, 8)}…; ${deliveries.length} deliveries → ${executions.length} executions of ${receivingBase}: ${executions.map((e) => e.nodes['Page summary']?.[0]?.report).join('; ')}`;
		});
	}

	/**
	 * Web Data Poll Trigger (issue 29.3; its check exports `trigger = {poll: true}`): no webhook, no
	 * public URL. "Fetch Test Event" (the editor's run of the poll node, mode manual) first without a
	 * finished check (an error that says what the trigger does and when the next check is due), then
	 * with one; activation (n8n polls once at once: it remembers the newest check); a check run, then
	 * n8n's scheduled poll (every minute here) starts one execution with that check; a check run
	 * while inactive comes with the poll at the next activation, and no check comes twice.
	 */
	async runPoll(item) {
		const label = item.name;
		const monitorId = crypto.randomUUID();
		let w;
		let node;
		const tick = async () => (await this.runCheck(monitorId)).check.id;
		const execution = async (id) => await this.api('GET', `/executions/${id}?includeData=true`);
		const pollExecutions = async () => (await this.executions(w.id)).filter((e) => e.mode === 'trigger');

		await this.step(`${label}: Fetch Test Event before the monitor's first check says what the trigger does and when the first event comes`, async () => {
			await this.fake.reset();
			await this.fake.call('POST', '/__fake/monitor', {
				id: monitorId,
				name: 'Competitor pricing (poll e2e)',
				goal: 'Tell me when a price changes',
				judgeEnabled: true,
				targets: [{ type: 'scrape', urls: ['https://example.com/pricing', 'https://example.com/plans'] }],
			});
			w = await this.createWorkflow(item, {}, this.credentials.tokenOnly, {
				prepare: (wf) => {
					node = wf.nodes.find((n) => n.type === POLL_TRIGGER_TYPE);
					node.parameters.monitor = { __rl: true, mode: 'id', value: monitorId };
					node.parameters.pollTimes = { item: [{ mode: 'everyMinute' }] }; // n8n's shortest poll interval
				},
			});
			const run = await this.runManually(w.id, node.name);
			assert.equal(run.status, 200, `POST /rest/workflows/:id/run answered ${run.status}: ${this.oneLine(JSON.stringify(run.json))}`);
			const [e] = await this.executions(w.id, { count: 1 });
			assert.equal(e.status, 'error', 'the test fails with a message');
			const error = (await execution(e.id)).data?.resultData?.error ?? {};
			const nextRunAt = (await this.fake.call('GET', `/__fake/monitor/${monitorId}`)).nextRunAt;
			assert.equal(error.message, 'The monitor has no finished check yet');
			assert.match(error.description ?? '', /reads the monitor's new checks at each poll time/);
			// A time a person reads (issue 36.4): "in about 19 hours (2026-11-30 00:30 UTC)".
			const at = new Date(nextRunAt).toISOString();
			const when = new RegExp(`its next check is (in about \\d+ (minutes|hours|days)|within a minute) \\(${at.slice(0, 10)} ${at.slice(11, 16)} UTC\\)`);
			assert.match(error.description ?? '', when, `the next check time ${nextRunAt} in: ${error.description}`);
			return `"${error.message}": ${this.oneLine(error.description).slice(0, 160)}…`;
		});
		if (!w) return;

		let firstCheckId;
		await this.step(`${label}: Fetch Test Event after a check gives that check's items, as a poll would, and remembers nothing`, async () => {
			firstCheckId = await tick();
			const before = (await this.executions(w.id)).length;
			const run = await this.runManually(w.id, node.name);
			assert.equal(run.status, 200);
			const e = (await this.executions(w.id, { count: before + 1 })).at(-1);
			assert.equal(e.status, 'success');
			assert.deepEqual(e.trigger.map((i) => [i.event, i.checkId, i.status]), [
				['monitor.page', firstCheckId, 'new'],
				['monitor.page', firstCheckId, 'new'],
				['monitor.check.completed', firstCheckId, 'completed'],
			]);
			assert.equal((await this.deliveries()).length, 0, 'no webhook delivery: nothing reaches n8n from the service');
			return e.nodes['Change report'].map((r) => r.report).join('; ');
		});

		const activated = await this.step(`${label}: activation polls once and remembers the newest check; a check run comes with n8n's next scheduled poll, once`, async () => {
			const t0 = Date.now();
			await this.api('POST', `/workflows/${w.id}/activate`);
			await this.until(async () => (await this.fake.log()).some((r) => r.method === 'GET' && r.path === `/v2/monitor/${monitorId}/checks` && r.at >= t0), 'the activation poll');
			await sleep(1500);
			assert.equal((await pollExecutions()).length, 0, 'the first poll starts nothing (the checks before activation are history)');
			const checkId = await tick();
			const executions = await this.until(async () => {
				const found = await pollExecutions();
				// n8n 1.123 can list an execution it is still running: look again once it has ended.
				return found.length && found.every((e) => ['success', 'error', 'crashed', 'canceled'].includes(e.status)) ? found : undefined;
			}, "n8n's scheduled poll", 100000);
			await item.check({ executions, checkId, monitorId });
			return `check ${checkId.slice(0, 8)}… → poll execution ${executions[0].id} ${secs(Date.now() - t0)} after activating: ${executions[0].nodes['Change report'].map((r) => r.report).join('; ')}`;
		});
		if (!activated) return;

		await this.step(`${label}: a check run while inactive comes at the next activation's poll; no check is told twice`, async () => {
			await this.api('POST', `/workflows/${w.id}/deactivate`);
			await sleep(1000);
			const checkId = await tick();
			const before = (await pollExecutions()).length;
			await this.api('POST', `/workflows/${w.id}/activate`);
			const executions = await this.until(async () => {
				const found = await pollExecutions();
				return found.length > before ? found : undefined;
			}, 'the activation poll to tell the new check', 60000);
			await sleep(1500);
			const after = await pollExecutions();
			assert.equal(after.length, before + 1, `one new execution (got ${after.length - before})`);
			const told = after.flatMap((e) => e.trigger.map((i) => `${i.checkId}|${i.event}|${i.url ?? ''}`));
			assert.equal(new Set(told).size, told.length, 'each page of each check once');
			assert.deepEqual([...new Set(executions.at(-1).trigger.map((i) => i.checkId))], [checkId]);
			assert.ok(!told.some((x) => x.startsWith(firstCheckId)), 'the check from before the first activation is never told');
			await this.api('POST', `/workflows/${w.id}/deactivate`);
			return `check ${checkId.slice(0, 8)}… → execution ${executions.at(-1).id}; ${after.length} poll executions, ${told.length} items, no repeat`;
		});
	}

	async runAttach(item) {
		const label = item.name;
		let w;
		let monitorId;
		const activated = await this.step(`${label}: activation points the existing monitor's webhook at n8n (the previous webhook is kept)`, async () => {
			await this.fake.reset();
			const res = await fetch(`${this.fake.url}/v2/monitor`, {
				method: 'POST',
				headers: { authorization: `Bearer ${this.apiKey}`, 'content-type': 'application/json' },
				body: JSON.stringify({
					name: 'Existing monitor (e2e)',
					schedule: { text: 'hourly' },
					targets: [{ type: 'scrape', urls: ['https://news.example.com/a', 'https://news.example.com/b', 'https://news.example.com/c'] }],
					webhook: PREVIOUS_WEBHOOK,
				}),
			});
			monitorId = (await res.json()).data.id;
			await this.fake.call('POST', `/__fake/monitor/${monitorId}/plan`, {
				pages: [
					{ url: 'https://news.example.com/a', status: 'changed' },
					{ url: 'https://news.example.com/b', status: 'same' },
					{ url: 'https://news.example.com/c', status: 'new' },
				],
			});
			const logBefore = (await this.fake.log()).length;
			w = await this.createWorkflow(item, { MONITOR_ID: monitorId }, this.credentials.tokenOnly);
			await this.api('POST', `/workflows/${w.id}/activate`);
			const patches = await this.until(async () => {
				const found = (await this.fake.log()).slice(logBefore).filter((r) => r.method === 'PATCH');
				return found.length ? found : undefined;
			}, 'the webhook update');
			await this.until(async () => (await this.postToN8n(w.productionUrl, '{}', {})).status !== 404, 'the production webhook to be served');
			assert.equal(patches.length, 1, 'one PATCH of the monitor');
			const { webhook } = patches[0].body;
			assert.equal(webhook.url, w.productionUrl, "n8n's production URL");
			assert.match(webhook.headers[TOKEN_HEADER], /^[0-9a-f]{64}$/);
			assert.deepEqual(webhook.events, ['monitor.page']);
			assert.deepEqual(webhook.metadata, PREVIOUS_WEBHOOK.metadata);
			const now = await this.fake.call('GET', `/__fake/monitor/${monitorId}`);
			assert.equal(now.webhook.url, w.productionUrl);
			return `PATCH /v2/monitor/${monitorId.slice(0, 8)}… → ${webhook.url}`;
		});
		if (!activated) return;

		await this.step(`${label}: a check run starts executions only for the registered event and the chosen statuses`, async () => {
			await this.fake.call('POST', `/__fake/monitor/${monitorId}/tick`);
			await this.settled();
			const deliveries = await this.deliveries();
			assert.ok(deliveries.every((d) => d.responseStatus === 200), `n8n answered 200 (got ${deliveries.map((d) => d.responseStatus).join(', ')})`);
			const executions = await this.executions(w.id, { count: 1 });
			await sleep(300);
			const settledExecutions = await this.executions(w.id);
			await item.check({ executions: settledExecutions, deliveries, monitorId, fake: this.fake });
			return `${deliveries.length} deliveries → ${executions.length} execution (${settledExecutions.map((e) => `${e.trigger[0].status} ${e.trigger[0].url}`).join(', ')})`;
		});

		await this.step(`${label}: "Listen for test event" while published (issue 45.1): the check the editor got is told by production after, caught up before the next one`, async () => {
			const triggerName = w.trigger.name;
			const monitorUrl = async () => (await this.fake.call('GET', `/__fake/monitor/${monitorId}`)).webhook?.url;
			const listened = await this.runManually(w.id, triggerName);
			assert.equal(listened.status, 200, `Listen for test event answered ${listened.status}`);
			await this.until(async () => String(await monitorUrl()).includes('/webhook-test/'), 'the monitor to point at the test URL');
			// One page a check: its one delivery reaches the test URL, so the service records the check delivered.
			await this.fake.call('POST', `/__fake/monitor/${monitorId}/plan`, { pages: [{ url: 'https://news.example.com/a', status: 'changed' }] });
			await this.fake.call('POST', `/__fake/monitor/${monitorId}/tick`);
			await this.settled();
			const tested = await this.until(async () => {
				const list = (await this.executions(w.id)).filter((e) => e.mode === 'manual' && e.status === 'success');
				return list.length ? list : undefined;
			}, 'the editor\'s test execution');
			const editorCheck = tested[0].trigger[0].checkId;
			await this.until(async () => (await monitorUrl()) === w.productionUrl, 'the production webhook to be restored after the test event');
			const before = (await this.executions(w.id)).filter((e) => e.mode !== 'manual').length;
			await this.fake.call('POST', `/__fake/monitor/${monitorId}/tick`);
			await this.settled();
			const production = await this.until(async () => {
				const list = (await this.executions(w.id)).filter((e) => e.mode !== 'manual');
				return list.length > before ? list : undefined;
			}, 'a production execution for the next check');
			const latest = production.at(-1).trigger;
			assert.equal(latest.length, 2, `the next check's execution tells the editor's check first (items: ${JSON.stringify(latest.map((i) => [i.checkId, i.caughtUp]))})`);
			assert.equal(latest[0].checkId, editorCheck, 'first, the check the editor got');
			assert.equal(latest[0].caughtUp, true);
			assert.notEqual(latest[1].checkId, editorCheck);
			assert.ok(!latest[1].caughtUp, 'then the delivery at hand');
			return `test execution for check ${editorCheck.slice(0, 8)}…; production's next execution: ${latest.map((i) => `${i.checkId.slice(0, 8)}…${i.caughtUp ? ' (caughtUp)' : ''}`).join(', ')}`;
		});

		await this.step(`${label}: deactivation restores the monitor's previous webhook`, async () => {
			await this.api('POST', `/workflows/${w.id}/deactivate`);
			const now = await this.until(async () => {
				const m = await this.fake.call('GET', `/__fake/monitor/${monitorId}`);
				return m.webhook?.url === PREVIOUS_WEBHOOK.url ? m : undefined;
			}, 'the previous webhook to be restored');
			assert.deepEqual(now.webhook, PREVIOUS_WEBHOOK);
			return `webhook back to ${now.webhook.url}`;
		});

		await this.step(`${label}: a monitor that had no webhook: deactivation leaves no live URL or token (an inert webhook the API accepts), and later checks reach nobody`, async () => {
			const res = await fetch(`${this.fake.url}/v2/monitor`, {
				method: 'POST',
				headers: { authorization: `Bearer ${this.apiKey}`, 'content-type': 'application/json' },
				body: JSON.stringify({ name: 'Monitor without a webhook (e2e)', schedule: { text: 'hourly' }, targets: [{ type: 'scrape', urls: ['https://news.example.com/bare'] }] }),
			});
			const bareId = (await res.json()).data.id;
			const bare = await this.createWorkflow(item, { MONITOR_ID: bareId }, this.credentials.tokenOnly, { webhookId: crypto.randomUUID() });
			await this.api('POST', `/workflows/${bare.id}/activate`);
			const registered = await this.until(async () => {
				const m = await this.fake.call('GET', `/__fake/monitor/${bareId}`);
				return m.webhook?.url === bare.productionUrl ? m.webhook : undefined;
			}, "the bare monitor's webhook to point at n8n");
			const token = registered.headers[TOKEN_HEADER];
			assert.match(token, /^[0-9a-f]{64}$/);
			await this.until(async () => (await this.postToN8n(bare.productionUrl, '{}', {})).status !== 404, 'the production webhook to be served');
			const logBefore = (await this.fake.log()).length;
			await this.api('POST', `/workflows/${bare.id}/deactivate`);
			const patches = await this.until(async () => {
				const found = (await this.fake.log()).slice(logBefore).filter((r) => r.method === 'PATCH' && r.path === `/v2/monitor/${bareId}`);
				return found.length ? found : undefined;
			}, 'the webhook update at deactivation');
			await sleep(300);
			assert.deepEqual(patches.map((r) => r.status), [200], `one accepted PATCH (got ${patches.map((r) => `${JSON.stringify(r.body)} → ${r.status}`).join('; ')})`);
			const after = (await this.fake.call('GET', `/__fake/monitor/${bareId}`)).webhook;
			assert.notEqual(after.url, bare.productionUrl, 'the webhook no longer points at n8n');
			assert.ok(!JSON.stringify(after).includes(token), 'the secret token is gone from the monitor');
			assert.match(after.url, /^http:\/\/127\.0\.0\.1:9\//, 'an inert loopback address');
			const { delivered: later } = await this.runCheck(bareId);
			assert.ok(later.every((d) => d.url === after.url && d.responseStatus === null), `later deliveries go to the inert address only (got ${later.map((d) => `${d.url} ${d.responseStatus}`).join(', ')})`);
			assert.equal((await this.executions(bare.id)).length, 0, 'no execution');
			const old = await this.postToN8n(bare.productionUrl, JSON.stringify({ type: 'monitor.page', webhookId: crypto.randomUUID(), data: [{}] }), { [TOKEN_HEADER]: token });
			assert.equal(old.status, 404, 'the old URL with the old token starts nothing');
			return `PATCH → ${patches[0].status}, webhook now ${after.url} (events ${JSON.stringify(after.events)}, no token); a later check: ${later.length} delivery to it, 0 executions; old URL + token → ${old.status}`;
		});
	}
}

/**
 * Runs the trigger phase. env: {root, tmp, ctx, items, apiKey, record, captured, timings, substitute,
 * oneLine}; items: [{name, base, text, check, loadError?}]. Records its own "ok"/"not ok" lines.
 */
async function runTriggerPhase(env) {
	const { items, record } = env;
	if (items.length === 0) return;
	const phase = new Phase(env);
	const SETUP = 'trigger: set-up: fake API with a signing secret, `n8n start`, owner, API key, credentials';
	try {
		let startMs;
		try {
			startMs = await phase.setup();
		} catch (e) {
			record(SETUP, false, e.message, [e.stack, phase.n8nTail(30)].join('\n'));
			return;
		}
		record(`${SETUP} (n8n ready in ${secs(startMs)})`, true);
		for (const item of items) {
			if (item.loadError) {
				record(`trigger: ${item.name}`, false, item.loadError.message);
				continue;
			}
			const connection = item.check.trigger?.connection;
			if (item.check.trigger?.partOf) {
				// run by its partner's proofs (lib/vector-store-phase.js), in the same n8n
				if (!items.some((x) => x.base === item.check.trigger.partOf)) record(`trigger: ${item.name}`, false, `it runs with ${item.check.trigger.partOf}, which is not selected (E2E_FILTER)`);
				continue;
			}
			if (item.check.trigger?.vectorStore) await runVectorStore(phase, item);
			else if (item.check.trigger?.reportsTo) await phase.runReportsTo(item);
			else if (item.check.trigger?.source === 'jobs') await phase.runJobs(item);
			else if (item.check.trigger?.poll) await phase.runPoll(item);
			else if (connection === 'create') await phase.runCreate(item);
			else if (connection === 'attach') await phase.runAttach(item);
			else record(`trigger: ${item.name}`, false, `its check module must export trigger = {connection: 'create' | 'attach'}, {source: 'jobs'}, {poll: true}, {reportsTo: '<example>'}, {vectorStore: {answer: '<example>'}} or {partOf: '<example>'} (got ${JSON.stringify(item.check.trigger)})`);
		}
	} finally {
		await phase.stopN8n();
		env.captured.push({ source: 'n8n start (stdout+stderr)', text: phase.n8nOutput.join('') });
	}
}

module.exports = { runTriggerPhase, isTriggerWorkflow, Phase, TOKEN_HEADER };
