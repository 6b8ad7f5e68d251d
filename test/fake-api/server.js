#!/usr/bin/env node
'use strict';
// Strict fake of the Web-Data Service API v2 for tests, the demo and the e2e suite.
// JS API: startFakeApi(options) -> api (see README.md). CLI: node test/fake-api/server.js --port N.
const http = require('http');
const { HttpError, fail, badRequest, isPlainObject, sleep, uuidv7 } = require('./util');
const { FaultSet, RateLimiter } = require('./faults');
const { readMultipart, boundaryOf } = require('./multipart');
const parse = require('./parse');
const { Agents } = require('./agent');
const { Monitors } = require('./monitor');
const { Webhooks } = require('./webhooks');
const scrape = require('./scrape');
const crawl = require('./crawl');
const interact = require('./interact');
const team = require('./team');
const extract = require('./extract');

const JSON_BODY_LIMIT = 10 * 1024 * 1024;
const UNAUTHORIZED = { success: false, error: 'Unauthorized: Invalid token' };

// ---- request bodies ----
async function readBody(req) {
	const ct = req.headers['content-type'] || '';
	if (/^multipart\//i.test(ct)) {
		const boundary = boundaryOf(ct);
		if (!boundary) {
			for await (const _ of req); // drain
			return { kind: 'multipart', parts: [], error: 'missing multipart boundary', log: { parts: [], error: 'missing multipart boundary' } };
		}
		const { parts, error } = await readMultipart(req, boundary);
		return { kind: 'multipart', parts, error, log: { parts: parts.map((p) => p.summary()), ...(error ? { error } : {}) } };
	}
	const chunks = [];
	let size = 0;
	for await (const chunk of req) {
		size += chunk.length;
		if (size <= JSON_BODY_LIMIT) chunks.push(chunk);
	}
	if (size === 0) return { kind: 'empty', log: null };
	if (size > JSON_BODY_LIMIT) return { kind: 'tooLarge', log: { size } };
	const text = Buffer.concat(chunks).toString('utf8');
	if (!/\bjson\b/i.test(ct)) return { kind: 'text', text, log: text };
	try {
		const value = JSON.parse(text);
		return { kind: 'json', value, log: value };
	} catch {
		return { kind: 'invalid', text, log: text };
	}
}

/** The JSON request body as express.json() would hand it over (empty -> {}), or the service's 4xx. */
function jsonBody(body) {
	switch (body.kind) {
		case 'json':
			return body.value;
		case 'empty':
			return {};
		case 'invalid':
			throw new HttpError(400, { success: false, code: 'BAD_REQUEST_INVALID_JSON', error: 'Bad Request: the request body is not valid JSON' });
		case 'tooLarge':
			throw fail(413, 'Payload Too Large');
		default:
			throw badRequest('Bad Request', [{ code: 'invalid_content_type', path: [], message: 'Content-Type must be application/json' }]);
	}
}

function send(res, { status, body, headers = {}, raw }) {
	const payload = raw ?? JSON.stringify(body);
	res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(payload), ...headers });
	res.end(payload);
}

function queryObject(searchParams) {
	const q = {};
	for (const [k, v] of searchParams) q[k] = k in q ? [].concat(q[k], v) : v;
	return q;
}

async function dispatch(routes, ctx, missing = () => { throw fail(404, 'Not Found'); }) {
	for (const [method, re, handler] of routes) {
		const m = re.exec(ctx.path);
		if (m && method === ctx.method) return handler(ctx, ...m.slice(1).map(decodeURIComponent));
	}
	return missing();
}

/**
 * A path the server has no route for: Express's own HTML 404 page, not JSON (the server registers
 * no catch-all; apps/api/src/index.ts @61e38dc and @c40bc3e). Issue 14.
 */
function routeMissing(ctx) {
	const page = `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>Cannot ${ctx.method} ${ctx.path}</pre>\n</body>\n</html>\n`;
	return { status: 404, raw: page, headers: { 'Content-Type': 'text/html; charset=utf-8', 'X-Content-Type-Options': 'nosniff' } };
}

const answerError = (e) => {
	if (e instanceof HttpError) return { status: e.status, body: e.body, headers: e.headers };
	console.error('[fake-api] handler crashed:', e);
	return { status: 500, body: { success: false, error: 'Internal Server Error' } };
};

// ---- the server ----
async function startFakeApi(options = {}) {
	const state = {
		options: {
			apiKey: 'fake-api-key',
			timeScale: 1,
			webhookSigningSecret: undefined,
			// Crawl / batch end events: 'completed' (the open-source server: every end is <prefix>.completed,
			// success true) or 'split' (<prefix>.failed / <prefix>.cancelled for those ends).
			jobEndEvents: 'completed',
			...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
		},
		url: null,
		log: [],
		seq: 0,
		team: { zdr: false, remainingCredits: 1000, planCredits: 1000 },
		faults: new FaultSet(),
		scaled: (ms) => Number(ms) / (state.options.timeScale || 1),
	};
	/** Functions run by reset() and close(): route modules register theirs to clear jobs and timers. */
	state.resetHooks = [];
	state.webhooks = new Webhooks(state);
	state.agents = new Agents(state);
	state.monitors = new Monitors(state);

	const apiRoutes = [
		...parse.routes,
		...state.agents.routes(),
		...state.monitors.routes(),
		// Web resources of issue 9: each module exports routes(state) (state is shared, so a module
		// may keep its own jobs under state.<name>, and registers a reset hook: state.resetHooks.push(fn)).
		...scrape.routes(state),
		...crawl.routes(state),
		...interact.routes(state),
		...team.routes(state),
		...extract.routes(state),
	];
	const control = controlApi(state);

	async function handle(req, res) {
		const u = new URL(req.url, 'http://127.0.0.1');
		const ctx = { req, res, method: req.method, path: u.pathname, query: queryObject(u.searchParams) };
		if (ctx.path.startsWith('/__fake/')) return handleControl(control, ctx);

		const record = { seq: ++state.seq, method: req.method, path: ctx.path, query: ctx.query, headers: { ...req.headers }, body: null, status: null, at: Date.now() };
		state.log.push(record);
		try {
			ctx.body = await readBody(req);
		} catch {
			record.aborted = true; // client went away mid-request
			return;
		}
		record.body = ctx.body.log;
		ctx.json = () => jsonBody(ctx.body);

		let result;
		const isApi = ctx.path === '/v2' || ctx.path.startsWith('/v2/');
		const auth = /^Bearer (.+)$/i.exec(req.headers.authorization || '');
		if (isApi && !(auth && auth[1] === state.options.apiKey)) result = { status: 401, body: UNAUTHORIZED };
		if (!result) state.agents.notePoll(req.method, ctx.path);
		if (!result && isApi && state.rateLimiter) {
			const limited = state.rateLimiter.check(ctx.path);
			if (limited) {
				record.rateLimited = true;
				record.retryAfterMs = limited.retryAfterMs;
				result = limited;
			}
		}
		const fault = result ? null : state.faults.match(req.method, ctx.path, record.body);
		if (fault) {
			record.fault = fault.ruleId;
			if (fault.delayMs) await sleep(fault.delayMs);
			if (fault.drop) {
				record.dropped = true;
				return void req.socket.destroy();
			}
			if (fault.malformed) result = { status: 200, raw: '{"success":true,"data":{"markdown":"trunc' };
			else if (fault.status !== undefined) {
				result = { status: fault.status, body: fault.body, headers: fault.headers };
				const retryAfter = Number(fault.headers['Retry-After']);
				if (Number.isFinite(retryAfter)) record.retryAfterMs = retryAfter * 1000;
			}
		}
		if (!result) {
			try {
				result = await dispatch(apiRoutes, ctx, () => routeMissing(ctx));
			} catch (e) {
				result = answerError(e);
			}
		}
		record.status = result.status;
		if (Array.isArray(result.body?.data)) record.documents = result.body.data.length; // a paged answer's size (crawl/batch status reads)
		// What the answer billed and the job it started, for budget checks (issue 35).
		const billed = result.body?.creditsUsed ?? result.body?.creditsBilled ?? result.body?.data?.metadata?.creditsUsed;
		if (typeof billed === 'number') record.creditsUsed = billed;
		if (req.method === 'POST' && typeof result.body?.id === 'string') record.jobId = result.body.id;
		record.answeredAt = Date.now();
		if (!res.destroyed) send(res, result);
	}

	const server = http.createServer((req, res) => {
		handle(req, res).catch((e) => {
			console.error('[fake-api] request failed:', e);
			if (!res.headersSent && !res.destroyed) send(res, { status: 500, body: { success: false, error: 'Internal Server Error' } });
		});
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, '127.0.0.1', resolve);
	});
	state.url = `http://127.0.0.1:${server.address().port}`;

	const api = {
		url: state.url,
		log: state.log,
		get deliveries() {
			return state.webhooks.deliveries;
		},
		/** Log records filtered by a path substring, or by {method, path} (path = substring). */
		requests(filter) {
			const f = typeof filter === 'string' ? { path: filter } : filter || {};
			return state.log.filter((r) => (!f.method || r.method === f.method.toUpperCase()) && (!f.path || r.path.includes(f.path)));
		},
		fault: (rule) => state.faults.add(rule),
		faults: () => state.faults.list(),
		clearFaults: () => state.faults.clear(),
		reset: () => control.reset(),
		setTeam: (patch) => control.setTeam(patch),
		rateLimit: (rule) => control.rateLimit(rule),
		setAgentDefaults: (defaults) => control.setAgentDefaults(defaults),
		createAgentJob: (props) => control.createAgentJob(props),
		seedMonitor: (props) => control.seedMonitor(props),
		/** Edits the fake site that tracked crawls compare against: {<url>: {markdown} | {removed: true} | null}. */
		setSitePages: (pages) => state.crawlJobs.setSitePages(pages),
		/** Records a scrape job (id?, url?) that Interact can use: see interact.js. */
		seedScrapeJob: (props) => interact.seedScrapeJob(state, props),
		agentJob: (id) => control.agentJob(id),
		/** Ends a running agent job now (its configured outcome); its end webhook goes out at once. */
		finishAgentJob: (id) => state.agents.finishNow(id),
		agentPolls: (id) => state.agents.jobs.get(id)?.polls ?? 0,
		monitor: (id) => control.monitor(id),
		setMonitorPlan: (id, plan) => control.setMonitorPlan(id, plan),
		tickMonitor: (id) => control.tickMonitor(id),
		deliverMonitor: (id, opts) => control.deliverMonitor(id, opts),
		/** How monitor, check and page times are written: 'postgres' (default, as the open-source server) or 'iso'. */
		setMonitorTimes: (format) => state.monitors.setTimeFormat(format),
		redeliver: (webhookId) => control.redeliver(webhookId),
		/** Delivery switches {retries, dropCustomHeaders, loseEvents} (webhooks.js); reset() restores them. */
		setDelivery: (patch) => state.webhooks.setDelivery(patch),
		/** /extract: 'retired' (the default: 410 Gone, as the hosted service from 2026-12-10) or 'routed' (a self-hosted server that still has it); reset() restores the start option. */
		setExtract: (mode) => state.setExtract(mode),
		settled: (timeoutMs) => control.settled(timeoutMs),
		close: async () => {
			state.monitors.reset();
			for (const hook of state.resetHooks) hook();
			server.closeAllConnections();
			await new Promise((r) => server.close(() => r()));
		},
	};
	return api;
}

// ---- control API (shared by the JS API and the /__fake/ HTTP routes) ----
function controlApi(state) {
	const monitorOf = (id) => {
		const m = state.monitors.monitors.get(id);
		if (!m) throw fail(404, 'Monitor not found');
		return m;
	};
	const c = {
		reset() {
			state.log.length = 0;
			state.seq = 0;
			state.faults.clear();
			state.agents.reset();
			state.monitors.reset();
			state.webhooks.reset();
			for (const hook of state.resetHooks) hook();
			state.rateLimiter = null;
			state.team = { zdr: false, remainingCredits: 1000, planCredits: 1000 };
		},
		/** {limit, windowMs?, retryAfter?, path?}: a sliding-window rate limit on /v2; null removes it. */
		rateLimit(rule) {
			state.rateLimiter = rule && rule.limit !== undefined ? new RateLimiter(rule) : null;
			return state.rateLimiter ? state.rateLimiter.describe() : null;
		},
		setTeam(patch = {}) {
			Object.assign(state.team, patch);
			return { ...state.team };
		},
		setAgentDefaults(defaults = {}) {
			state.agents.defaults = { ...defaults };
			return state.agents.defaults;
		},
		/** Pre-creates a job: request fields (prompt, urls, schema, model, maxCredits, effort, origin, integration) plus
		 *  behaviour (durationMs, cost, outcome, legacy, data, partial, createdAt, id, status: 'completed'|'failed'). */
		createAgentJob(props = {}) {
			const { prompt = 'Pre-created fake agent job', urls, schema, model, maxCredits, effort, origin, integration, status, ...behaviour } = props;
			const request = Object.fromEntries(Object.entries({ prompt, urls, schema, model, maxCredits, effort, origin, integration }).filter(([, v]) => v !== undefined));
			if (status === 'completed' || status === 'failed') behaviour.durationMs = 0;
			if (status === 'failed' && !behaviour.outcome) behaviour.outcome = 'fail';
			if (typeof behaviour.createdAt === 'string') behaviour.createdAt = Date.parse(behaviour.createdAt);
			return c.agentJob(state.agents.create(request, behaviour).id);
		},
		agentJob(id) {
			const job = state.agents.jobs.get(id);
			if (!job) throw fail(404, 'Agent job not found');
			return state.agents.describe(job);
		},
		/** Creates a monitor directly: {id?, status?, plan?, baseline?, …MonitorCreate fields}. */
		seedMonitor(props) {
			return state.monitors.seed(props);
		},
		monitor(id) {
			const m = monitorOf(id);
			return { ...state.monitors.serialize(m), plan: m.plan, checks: m.checks, knownUrls: [...m.knownUrls] };
		},
		/** plan: {checkDurationMs, extraPages, pages:[{url?, status}], checkStatus, checkError} (merged). */
		setMonitorPlan(id, plan = {}) {
			const m = monitorOf(id);
			Object.assign(m.plan, plan);
			return m.plan;
		},
		/** Starts a scheduled check (or records a skipped_overlap check when one is running). */
		tickMonitor(id) {
			const m = monitorOf(id);
			const busy = m.checks.some((x) => x.status === 'queued' || x.status === 'running');
			if (!busy) return state.monitors.checkView(state.monitors.startCheck(m, 'scheduled'));
			const now = new Date().toISOString();
			const skipped = { ...state.monitors.checkView(m.checks[0]), id: uuidv7(), status: 'skipped_overlap', trigger: 'scheduled', scheduledFor: now, startedAt: null, finishedAt: now, actualCredits: 0, billingStatus: 'not_applicable', notificationStatus: null, createdAt: now, updatedAt: now, pages: [] };
			m.checks.unshift(skipped); // newest first, as the server lists by created_at
			return state.monitors.checkView(skipped);
		},
		/** (Re)sends the webhook events of a finished check with fresh webhookIds; opts {checkId, url}. */
		async deliverMonitor(id, opts = {}) {
			const m = monitorOf(id);
			if (!m.webhook && !opts.url) throw fail(409, 'Monitor has no webhook');
			const check = opts.checkId ? m.checks.find((x) => x.id === opts.checkId) : m.checks.find((x) => x.finishedAt);
			if (!check || !check.finishedAt) throw fail(409, 'No finished check to deliver');
			const wh = { events: ['monitor.page', 'monitor.check.completed'], headers: {}, metadata: {}, ...m.webhook, ...(opts.url ? { url: opts.url } : {}) };
			return state.monitors.deliverCheck(m, check, wh);
		},
		async redeliver(webhookId) {
			const p = state.webhooks.redeliver(webhookId);
			if (!p) throw fail(404, 'Delivery not found');
			return p;
		},
		/** Resolves when no monitor check is queued/running, no crawl/batch job has events due and no webhook delivery is in flight. */
		async settled(timeoutMs = 30000) {
			const until = Date.now() + timeoutMs;
			for (;;) {
				await state.webhooks.idle();
				const busy = [...state.monitors.monitors.values()].some((m) => m.checks.some((x) => x.status === 'queued' || x.status === 'running'));
				if (!busy && !state.crawlJobs?.busy() && state.webhooks.pending.size === 0) return true;
				if (Date.now() > until) throw fail(504, 'Fake API did not settle in time');
				await sleep(10);
			}
		},
	};
	c.routes = [
		['GET', /^\/__fake\/log$/, () => state.log],
		['POST', /^\/__fake\/reset$/, () => (c.reset(), { success: true })],
		['POST', /^\/__fake\/fault$/, (ctx) => ({ id: state.faults.add(ctx.json()) })],
		['GET', /^\/__fake\/faults$/, () => state.faults.list()],
		['DELETE', /^\/__fake\/faults$/, () => (state.faults.clear(), { success: true })],
		['POST', /^\/__fake\/rate-limit$/, (ctx) => ({ rateLimit: c.rateLimit(ctx.json()) })],
		['POST', /^\/__fake\/team$/, (ctx) => c.setTeam(ctx.json())],
		['POST', /^\/__fake\/agent-defaults$/, (ctx) => c.setAgentDefaults(ctx.json())],
		['POST', /^\/__fake\/agent$/, (ctx) => c.createAgentJob(ctx.json())],
		['GET', /^\/__fake\/agent\/([^/]+)$/, (ctx, id) => c.agentJob(id)],
		['POST', /^\/__fake\/agent\/([^/]+)\/finish$/, (ctx, id) => state.agents.finishNow(id)],
		['POST', /^\/__fake\/monitor$/, (ctx) => c.seedMonitor(ctx.json())],
		['POST', /^\/__fake\/site$/, (ctx) => state.crawlJobs.setSitePages(ctx.json())],
		['POST', /^\/__fake\/scrape-job$/, (ctx) => interact.seedScrapeJob(state, ctx.json())],
		['GET', /^\/__fake\/monitor\/([^/]+)$/, (ctx, id) => c.monitor(id)],
		['POST', /^\/__fake\/monitor\/([^/]+)\/plan$/, (ctx, id) => c.setMonitorPlan(id, ctx.json())],
		['POST', /^\/__fake\/monitor\/([^/]+)\/tick$/, (ctx, id) => c.tickMonitor(id)],
		['POST', /^\/__fake\/monitor\/([^/]+)\/deliver$/, (ctx, id) => c.deliverMonitor(id, ctx.json())],
		['POST', /^\/__fake\/monitor-times$/, (ctx) => state.monitors.setTimeFormat(ctx.json().format)],
		['GET', /^\/__fake\/deliveries$/, () => state.webhooks.deliveries],
		['POST', /^\/__fake\/redeliver\/([^/]+)$/, (ctx, id) => c.redeliver(id)],
		['POST', /^\/__fake\/extract$/, (ctx) => (state.setExtract(ctx.json().mode), { mode: state.extractMode })],
		['POST', /^\/__fake\/webhook-delivery$/, (ctx) => state.webhooks.setDelivery(ctx.json())],
		['POST', /^\/__fake\/settled$/, (ctx) => c.settled(ctx.json().timeoutMs).then(() => ({ success: true }))],
	];
	return c;
}

async function handleControl(control, ctx) {
	let result;
	try {
		const body = await readBody(ctx.req);
		ctx.json = () => {
			const v = jsonBody(body);
			if (!isPlainObject(v)) throw badRequest('Control endpoints take a JSON object');
			return v;
		};
		const value = await dispatch(control.routes, ctx);
		result = { status: 200, body: value };
	} catch (e) {
		result = e instanceof HttpError ? { status: e.status, body: e.body } : { status: 400, body: { success: false, error: String(e.message || e) } };
	}
	send(ctx.res, result);
}

// ---- CLI ----
if (require.main === module) {
	const args = process.argv.slice(2);
	const opt = (name) => {
		const i = args.indexOf(name);
		return i >= 0 ? args[i + 1] : undefined;
	};
	startFakeApi({
		port: opt('--port') !== undefined ? Number(opt('--port')) : 0,
		apiKey: opt('--key') ?? 'fake-api-key',
		webhookSigningSecret: opt('--signing-secret'),
		timeScale: opt('--time-scale') !== undefined ? Number(opt('--time-scale')) : 1,
		jobEndEvents: opt('--job-end-events'),
	}).then(
		(api) => {
			process.stdout.write(`FAKE_API_URL=${api.url}\n`);
			const stop = () => api.close().then(() => process.exit(0));
			process.on('SIGTERM', stop);
			process.on('SIGINT', stop);
		},
		(e) => {
			console.error(e);
			process.exit(1);
		},
	);
}

module.exports = { startFakeApi };
