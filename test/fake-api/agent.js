'use strict';
// Agent jobs (api-facts 4; spec 2.11, 3, 6.2, 7.2). Job state is derived lazily from the clock:
// a job is "processing" for durationMs (scaled by timeScale), then reaches its configured outcome.
const { fail, passthrough, badRequest, isUuid, isPlainObject, uuidv7, uuidFrom, iso, baseUrlOf, later } = require('./util');
const { researchResult } = require('./research');
const { sendJobWebhook } = require('./webhooks');
const { str, num, bool, arr, obj, rec, union, assertValid } = require('./validate');

const DAY = 24 * 3600 * 1000;
const PAGE_SIZE = 20;
const OUTCOMES = ['completed', 'credit_limit', 'fail', 'refused'];
const STATUS_SHAPES = ['newest', 'oss', 'errorcode'];
/** The error text of a credit-limited run in builds without stopReason. */
const OSS_CREDIT_LIMIT_ERROR = 'Max credits exceeded';
const JSON_SCHEMA_TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'];
const ERRORS = {
	cancelled: 'Agent run was cancelled.',
	credit_limit: 'Agent reached max credits',
	fail: 'Agent run failed due to an internal error.',
	refused: 'The agent refused the task.',
};
const TRACE_CODES = { cancelled: 'cancelled', credit_limit: 'credit_limit_reached', fail: 'internal', refused: 'refused' };
const OUTCOME_NAMES = { completed: 'succeeded', cancelled: 'cancelled', credit_limit: 'credit_limit_reached', fail: 'failed', refused: 'refused' };

const jsonSchemaCheck = (v, p, out) => {
	const problems = [];
	(function walk(s, where) {
		if (!isPlainObject(s)) return problems.push(`${where} must be an object`);
		const types = s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type];
		for (const t of types) if (!JSON_SCHEMA_TYPES.includes(t)) problems.push(`${where}/type '${t}' is not a JSON Schema type`);
		if (s.properties !== undefined) {
			if (!isPlainObject(s.properties)) problems.push(`${where}/properties must be an object`);
			else for (const [k, sub] of Object.entries(s.properties)) walk(sub, `${where}/properties/${k}`);
		}
		if (s.items !== undefined && !Array.isArray(s.items)) walk(s.items, `${where}/items`);
		if (s.required !== undefined && !(Array.isArray(s.required) && s.required.every((x) => typeof x === 'string')))
			problems.push(`${where}/required must be an array of strings`);
	})(v, '#');
	if (problems.length) out.push({ code: 'custom', path: p, message: `Invalid JSON schema: ${problems[0]}` });
};

const agentRequestSchema = obj(
	{
		prompt: str({ min: 1, max: 10000 }),
		urls: arr(str({ url: true })),
		strictConstrainToURLs: bool(),
		schema: jsonSchemaCheck,
		maxCredits: num({ gt: 0 }),
		model: str({ enum: ['spark-1-pro', 'spark-1-mini', 'spark-2'] }),
		effort: str({ enum: ['low', 'medium', 'high'] }),
		auditMetadata: obj({ username: str({ max: 1024 }) }, { required: ['username'] }),
		origin: str(),
		// integration: a string; null is refused (server controllers/v2/types.ts 000404f7: integrationSchema.optional(), no null).
		integration: str(),
		webhook: union(
			str({ url: true }),
			obj(
				{
					url: str({ url: true }),
					headers: rec(str()),
					metadata: rec(str()),
					events: arr(str({ enum: ['started', 'action', 'completed', 'failed', 'cancelled'] })),
				},
				{ required: ['url'] },
			),
		),
	},
	{ required: ['prompt'] },
);

/**
 * Prompt markers: FAKE_DURATION_MS=500 FAKE_COST=40 FAKE_OUTCOME=fail|refused|credit_limit FAKE_LEGACY,
 * FAKE_STATUS_SHAPE=oss|errorcode (how the status read says why a run ended: `oss` as the open-source
 * API @ ca0be9b, 2026-08: status, error, data, model, expiresAt, creditsUsed only; `errorcode` as an
 * older build: `errorCode: "MAX_CREDITS_EXCEEDED"`; default: the newest, with stopReason and partial),
 * and for webhooks FAKE_NO_WEBHOOK (the run's end sends no webhook) FAKE_WEBHOOK_DELAY_MS=N (the end's
 * webhook leaves N ms after the end, before timeScale).
 */
function promptMarkers(prompt) {
	const out = {};
	for (const [, key, value] of prompt.matchAll(/\bFAKE_([A-Z_]+?)(?:=([\w.-]+))?(?=\s|$|[,.;)\]])/g)) {
		if (key === 'DURATION_MS') out.durationMs = Number(value);
		else if (key === 'COST') out.cost = Number(value);
		else if (key === 'OUTCOME' && OUTCOMES.includes(value)) out.outcome = value;
		else if (key === 'LEGACY') out.legacy = true;
		else if (key === 'STATUS_SHAPE' && STATUS_SHAPES.includes(value)) out.statusShape = value;
		else if (key === 'NO_WEBHOOK') out.noWebhook = true;
		else if (key === 'WEBHOOK_DELAY_MS') out.webhookDelayMs = Number(value);
	}
	return out;
}

/** Agent webhook events (api-facts 3): the config takes short names; omitted or empty = all. */
const WEBHOOK_EVENTS = ['started', 'action', 'completed', 'failed', 'cancelled'];

/** The webhook config of a start request as the service keeps it: {url, headers, metadata, events}. */
function webhookConfig(webhook) {
	if (webhook === undefined) return null;
	if (typeof webhook === 'string') return { url: webhook, headers: {}, metadata: {}, events: [...WEBHOOK_EVENTS] };
	return {
		url: webhook.url,
		headers: webhook.headers ?? {},
		metadata: webhook.metadata ?? {},
		events: webhook.events?.length ? [...webhook.events] : [...WEBHOOK_EVENTS],
	};
}

class Agents {
	constructor(state) {
		this.state = state;
		this.jobs = new Map();
		this.defaults = {};
		this.lastCreatedAt = 0;
		this.timers = new Set();
		state.resetHooks.push(() => this.clearTimers());
	}

	reset() {
		this.clearTimers();
		this.jobs.clear();
		this.defaults = {};
	}

	clearTimers() {
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
	}

	/** A timer that reset() and close() clear, and that does not keep the process alive. */
	later(ms, fn) {
		return later(this.timers, ms, fn);
	}

	/** Creates a job from a (validated) request body plus overrides; returns the job record. */
	create(request, overrides = {}) {
		const props = { durationMs: 3000, cost: 10, outcome: 'completed', legacy: false, ...this.defaults, ...overrides };
		const createdAt = props.createdAt ?? Math.max(Date.now(), this.lastCreatedAt + 1);
		this.lastCreatedAt = Math.max(this.lastCreatedAt, createdAt);
		const id = props.id ?? uuidv7(createdAt);
		const job = {
			id,
			createdAt,
			request,
			prompt: request.prompt ?? '',
			model: request.model ?? 'spark-2',
			maxCredits: request.maxCredits ?? 2500,
			durationMs: this.state.scaled(props.durationMs),
			cost: props.cost,
			outcome: props.outcome,
			legacy: !!props.legacy,
			statusShape: props.statusShape ?? 'newest',
			data: props.data,
			partial: props.partial,
			cancelledAt: null,
			cancelFraction: 0,
			polls: 0,
			snapshotIds: [uuidFrom(id, 'snapshot', 1), uuidFrom(id, 'snapshot', 2)],
			webhook: webhookConfig(request.webhook),
			noWebhook: !!props.noWebhook,
			webhookDelayMs: this.state.scaled(props.webhookDelayMs ?? 0),
			endTimer: null,
			endSent: false,
		};
		this.jobs.set(id, job);
		if (job.webhook) this.scheduleWebhooks(job);
		return job;
	}

	// ---- webhooks (api-facts 3: agent.started|action|completed|failed|cancelled) ----
	wants(job, event) {
		return !!job.webhook && job.webhook.events.includes(event);
	}

	/** started now, one action half-way, and the end event when the run ends (derived from the clock). */
	scheduleWebhooks(job) {
		if (this.wants(job, 'started')) this.sendWebhook(job, 'agent.started', true, [{ creditsUsed: 0 }]);
		const ph = this.phase(job);
		if (this.wants(job, 'action') && ph.status === 'processing') {
			this.later(job.createdAt + job.durationMs / 2 - Date.now(), () => {
				if (this.phase(job).kind !== 'processing') return;
				const action = { creditsUsed: Math.floor(job.cost / 2), action: 'search', input: { query: job.prompt.slice(0, 60) } };
				this.sendWebhook(job, 'agent.action', true, [action]);
			});
		}
		job.endTimer = this.later(ph.endAt - Date.now() + job.webhookDelayMs, () => this.sendEnd(job));
	}

	/** Ends a running job now (its configured outcome); its end webhook follows at once (plus any delay). */
	finishNow(id) {
		const job = this.jobs.get(id);
		if (!job) throw fail(404, 'Agent job not found');
		if (this.phase(job).kind === 'processing') {
			job.durationMs = Math.max(0, Date.now() - job.createdAt);
			if (job.endTimer) {
				clearTimeout(job.endTimer);
				this.timers.delete(job.endTimer);
			}
			if (job.webhook) job.endTimer = this.later(job.webhookDelayMs, () => this.sendEnd(job));
		}
		return this.describe(job);
	}

	/** The end event of a finished run (completed, failed, or cancelled), once. */
	sendEnd(job) {
		if (job.endSent || job.noWebhook) return;
		const ph = this.phase(job);
		if (ph.kind === 'processing') {
			job.endTimer = this.later(ph.endAt - Date.now(), () => this.sendEnd(job));
			return;
		}
		job.endSent = true;
		const creditsUsed = this.creditsUsed(job, ph);
		if (ph.kind === 'completed') {
			if (this.wants(job, 'completed')) this.sendWebhook(job, 'agent.completed', true, [{ creditsUsed, data: this.resultData(job) }]);
		} else if (ph.kind === 'cancelled') {
			if (this.wants(job, 'cancelled')) this.sendWebhook(job, 'agent.cancelled', false, [{ creditsUsed }]);
		} else if (this.wants(job, 'failed')) {
			this.sendWebhook(job, 'agent.failed', false, [{ creditsUsed }], ERRORS[ph.kind]);
		}
	}

	/** One delivery in the envelope {success, type, id, webhookId, data, error?, metadata}; retried when not answered 2xx. */
	sendWebhook(job, type, success, data, error) {
		return sendJobWebhook(this.state, (ms, fn) => this.later(ms, fn), () => this.jobs.has(job.id), job, type, success, data, error);
	}

	/** Derived state at `now`: {status, kind, fraction, endAt}. kind ∈ processing|completed|cancelled|credit_limit|fail|refused. */
	phase(job, now = Date.now()) {
		const limited = job.outcome === 'credit_limit' || job.cost > job.maxCredits;
		const share = job.cost > job.maxCredits ? job.maxCredits / job.cost : 1;
		const endAt = job.createdAt + job.durationMs * share;
		if (job.cancelledAt !== null) return { status: 'failed', kind: 'cancelled', fraction: job.cancelFraction, endAt: job.cancelledAt };
		if (now < endAt) {
			const fraction = job.durationMs > 0 ? (now - job.createdAt) / job.durationMs : 1;
			return { status: 'processing', kind: 'processing', fraction: Math.max(0, fraction), endAt };
		}
		const kind = limited ? 'credit_limit' : job.outcome;
		return { status: kind === 'completed' ? 'completed' : 'failed', kind, fraction: share, endAt };
	}

	creditsUsed(job, ph) {
		if (ph.kind === 'completed') return job.cost;
		if (ph.kind === 'processing' || ph.kind === 'cancelled') return Math.floor(job.cost * Math.min(1, ph.fraction));
		return 0; // failed runs are not charged (spec 3)
	}

	/** The run's answer: its preset `data`, else a plausible research result for the prompt and schema (research.js). */
	resultData(job) {
		if (job.data !== undefined) return job.data;
		return researchResult(job.request);
	}

	statusBody(job) {
		const ph = this.phase(job);
		const body = { success: true, status: ph.status };
		if (ph.kind === 'completed') body.data = this.resultData(job);
		if (ph.status === 'failed') body.error = ERRORS[ph.kind];
		if (job.statusShape === 'oss') {
			if (ph.kind === 'credit_limit') body.error = OSS_CREDIT_LIMIT_ERROR;
		} else if (job.statusShape === 'errorcode') {
			if (ph.kind === 'credit_limit') {
				body.error = OSS_CREDIT_LIMIT_ERROR;
				body.errorCode = 'MAX_CREDITS_EXCEEDED';
			}
		} else if (ph.kind === 'credit_limit') {
			body.stopReason = 'credit_limit_reached';
			body.partial = job.partial ?? { note: 'Best-effort partial result', itemsFound: 1 };
			body.partialSchemaValid = false;
		}
		body.model = job.model;
		if (job.request.effort) body.effort = job.request.effort;
		body.expiresAt = iso((ph.status === 'processing' ? job.createdAt : ph.endAt) + DAY);
		body.creditsUsed = this.creditsUsed(job, ph);
		return body;
	}

	/** Trace events visible at this moment (api-facts 4 base shape, spec 6.2 kinds). */
	traceEvents(job) {
		const ph = this.phase(job);
		const at = (f) => iso(job.createdAt + Math.round(job.durationMs * f));
		const orchestrator = { id: uuidFrom(job.id, 'orchestrator'), role: 'orchestrator', name: 'orchestrator' };
		const browser = { id: uuidFrom(job.id, 'browser'), role: 'browser', name: 'browser-1', parentId: orchestrator.id };
		const timeline = [
			[0, 'run.started', orchestrator, { prompt: job.prompt.slice(0, 200) }],
			[0, 'agent.started', orchestrator, {}],
			[0.1, 'progress.reported', orchestrator, { phase: 'planning', message: 'Planning the research' }],
			[0.2, 'tool_call.started', browser, { toolCallId: 'call-1', toolName: 'search', parameters: { query: job.prompt.slice(0, 60) } }],
			[0.3, 'tool_call.finished', browser, { toolCallId: 'call-1', toolName: 'search', result: { results: 3 } }],
			[0.4, 'artifact.updated', orchestrator, { artifact: { kind: 'json', artifactId: 'result', path: 'result.json', snapshotId: job.snapshotIds[0], change: 'init' } }],
			[0.5, 'memory.compacted', orchestrator, { tokensBefore: 12000, tokensAfter: 3000, note: 'unknown event type for forward compatibility' }],
			[0.6, 'error.occurred', browser, { error: { code: 'internal', retryable: true, message: 'Browser tab crashed; retrying.' } }],
			[0.8, 'artifact.updated', orchestrator, { artifact: { kind: 'json', artifactId: 'result', path: 'result.json', snapshotId: job.snapshotIds[1], change: 'update' } }],
			[0.9, 'reasoning.summary', orchestrator, { text: 'Collected and cross-checked the sources.' }],
		].filter(([f]) => f <= ph.fraction || ph.kind === 'completed');
		if (ph.kind !== 'processing') {
			const end = ph.fraction;
			if (ph.kind === 'completed') timeline.push([1, 'agent.finished', orchestrator, {}]);
			else {
				const error = { code: TRACE_CODES[ph.kind], retryable: false, message: ERRORS[ph.kind] };
				if (ph.kind === 'cancelled') timeline.push([end, 'run.cancel_requested', orchestrator, {}]);
				timeline.push([end, 'error.occurred', orchestrator, { error }]);
				timeline.push([end, 'run.finished', orchestrator, { outcome: OUTCOME_NAMES[ph.kind], error }]);
			}
			if (ph.kind === 'completed') timeline.push([1, 'run.finished', orchestrator, { outcome: 'succeeded' }]);
		}
		return timeline.map(([f, type, agent, payload], i) => ({
			schemaVersion: 1,
			eventId: uuidFrom(job.id, 'event', i),
			runId: job.id,
			occurredAt: at(f),
			producerSequence: i + 1,
			agent,
			type,
			...payload,
		}));
	}

	lookup(jobId) {
		if (!isUuid(jobId)) throw fail(400, 'Invalid job ID format. Job ID must be a valid UUID.');
		const job = this.jobs.get(jobId);
		if (!job) throw fail(404, 'Agent job not found');
		return job;
	}

	// ---- HTTP handlers ----
	start(ctx) {
		const body = ctx.json();
		assertValid(agentRequestSchema, body);
		if (this.state.team.zdr || body.prompt.includes('ZDR_TEAM'))
			throw fail(400, 'Your team has zero data retention enabled. This is not supported on extract.');
		const job = this.create(body, promptMarkers(body.prompt));
		return { status: 200, body: { success: true, id: job.id } };
	}

	/** Counts every authenticated status poll of a known job, including ones answered by an injected fault. */
	notePoll(method, path) {
		const m = method === 'GET' && /^\/v2\/agent\/([^/]+)$/.exec(path);
		const job = m && this.jobs.get(m[1]);
		if (job) job.polls++;
	}

	status(ctx, jobId) {
		const job = this.lookup(jobId);
		return { status: 200, body: this.statusBody(job) };
	}

	cancel(ctx, jobId) {
		const job = this.lookup(jobId);
		const ph = this.phase(job);
		if (ph.kind === 'cancelled') throw fail(409, 'Agent is already cancelled');
		if (ph.status !== 'processing') throw fail(409, 'Agent already finished');
		job.cancelledAt = Date.now();
		job.cancelFraction = Math.min(1, ph.fraction);
		if (job.endTimer) {
			clearTimeout(job.endTimer);
			this.timers.delete(job.endTimer);
		}
		if (job.webhook) job.endTimer = this.later(job.webhookDelayMs, () => this.sendEnd(job));
		return { status: 200, body: { success: true } };
	}

	trace(ctx, jobId) {
		const job = this.lookup(jobId);
		if (job.legacy) throw passthrough(400, 'Trace is only available for Spark 2 extracts');
		return { status: 200, body: { success: true, id: job.id, events: this.traceEvents(job), creditsUsed: this.creditsUsed(job, this.phase(job)) } };
	}

	snapshot(ctx, jobId, snapshotId) {
		const job = this.lookup(jobId);
		if (job.legacy) throw passthrough(400, 'Snapshots are only available for Spark 2 extracts');
		if (!isUuid(snapshotId)) throw passthrough(400, 'Invalid snapshot ID');
		const visible = this.traceEvents(job).some((e) => e.artifact?.snapshotId === snapshotId);
		if (!visible) throw passthrough(404, 'Snapshot not found');
		const content = snapshotId === job.snapshotIds[0] ? { status: 'collecting', items: [] } : this.resultData(job);
		return { status: 200, body: { success: true, id: job.id, snapshotId, snapshot: JSON.stringify(content) } };
	}

	list(ctx) {
		const raw = ctx.query.before;
		const before = raw === undefined ? Infinity : Number(raw);
		if (raw !== undefined && !(/^\d+$/.test(raw) && Number.isSafeInteger(before)))
			throw badRequest('Bad Request', [{ code: 'invalid_query', path: ['before'], message: 'before must be a unix timestamp in milliseconds' }]);
		const jobs = [...this.jobs.values()].filter((j) => j.createdAt < before).sort((a, b) => b.createdAt - a.createdAt);
		const page = jobs.slice(0, PAGE_SIZE);
		const agents = page.map((j) => {
			const r = j.request;
			return {
				id: j.id,
				createdAt: iso(j.createdAt),
				targetHint: r.urls?.[0] ? new URL(r.urls[0]).hostname : j.prompt.slice(0, 80),
				origin: r.origin ?? 'api',
				...(r.integration ? { integration: r.integration } : {}),
				settings: { hidden: false, starred: false },
				status: this.phase(j).status,
				options: {
					prompt: j.prompt,
					model: j.model,
					...(r.urls ? { urls: r.urls } : {}),
					...(r.schema ? { schema: r.schema } : {}),
					...(r.effort ? { effort: r.effort } : {}),
				},
			};
		});
		const body = { success: true, agents };
		if (jobs.length > PAGE_SIZE) body.next = `${baseUrlOf(ctx.req, this.state.url)}/v2/agent?before=${page[page.length - 1].createdAt}`;
		return { status: 200, body };
	}

	/** Internal view for tests and the control API. */
	describe(job) {
		const ph = this.phase(job);
		const { endTimer: _timer, ...rest } = job;
		return { ...rest, phase: ph.kind, status: ph.status, endsAt: iso(ph.endAt), createdAt: iso(job.createdAt) };
	}

	routes() {
		return [
			['POST', /^\/v2\/agent$/, (ctx) => this.start(ctx)],
			['GET', /^\/v2\/agent$/, (ctx) => this.list(ctx)],
			['GET', /^\/v2\/agent\/([^/]+)$/, (ctx, id) => this.status(ctx, id)],
			['DELETE', /^\/v2\/agent\/([^/]+)$/, (ctx, id) => this.cancel(ctx, id)],
			['GET', /^\/v2\/agent\/([^/]+)\/trace$/, (ctx, id) => this.trace(ctx, id)],
			['GET', /^\/v2\/agent\/([^/]+)\/snapshots\/([^/]+)$/, (ctx, id, sid) => this.snapshot(ctx, id, sid)],
		];
	}
}

module.exports = { Agents, promptMarkers };
