'use strict';
// Monitors (spec 2.9, 4.2; api-facts 2, 3): strict CRUD, manual runs whose checks progress
// queued -> running -> completed on timers, paged check results and real webhook deliveries.
const crypto = require('crypto');
const { fail, badRequest, isUuid, isPlainObject, uuidv7, uuidFrom, iso, baseUrlOf, intQuery } = require('./util');
const { str, int, bool, any, arr, obj, rec, nullable, custom, assertValid, validationError } = require('./validate');
const { validateCron, nextRun, runsPerMonth, textToCron, isTimeZone } = require('./cron');
const rules = require('./serverRules');
const { scrapeCredits } = require('./scrapeOptions');

const EVENTS = ['monitor.page', 'monitor.check.completed'];
const PAGE_STATUSES = ['same', 'new', 'changed', 'removed', 'error'];
const CHECK_STATUSES = ['queued', 'running', 'completed', 'failed', 'partial', 'skipped_overlap', 'skipped_no_credits'];
const ZDR_ERROR = 'Monitoring requires retained snapshots and diffs, and is not supported for zero data retention teams.';

// ---- request schemas ----
const scheduleSchema = obj(
	{ cron: str({ max: 128 }), text: str({ max: 128 }), timezone: str({ max: 128 }) },
	{
		refine(v, p, out) {
			if ((v.cron === undefined) === (v.text === undefined)) out.push(custom(p, 'Schedule must have exactly one of cron or text'));
			if (typeof v.cron === 'string') {
				try {
					validateCron(v.cron);
				} catch (e) {
					out.push(custom([...p, 'cron'], e.message));
				}
			}
			if (typeof v.text === 'string') {
				try {
					validateCron(textToCron(v.text, 0));
				} catch (e) {
					out.push(custom([...p, 'text'], e.message));
				}
			}
			if (typeof v.timezone === 'string' && !isTimeZone(v.timezone)) out.push(custom([...p, 'timezone'], `Invalid monitor schedule timezone: ${v.timezone}`));
		},
	},
);
const stringArray = arr(str());
const scrapeOptionsSchema = obj({
	actions: arr(obj({ type: str(), milliseconds: int({ min: 0 }) }, { required: ['type'], loose: true })),
	auditMetadata: obj({ username: str({ max: 1024 }) }, { required: ['username'] }),
	blockAds: bool(),
	checkPromptInjection: bool(),
	excludeTags: stringArray,
	formats: arr((v, p, out) => (typeof v === 'string' ? undefined : obj({ type: str() }, { required: ['type'], loose: true })(v, p, out))),
	headers: rec(str()),
	includeTags: stringArray,
	location: obj({ country: str(), languages: stringArray }),
	lockdown: bool(),
	maxAge: int({ min: 0 }),
	minAge: int({ min: 0 }),
	mobile: bool(),
	onlyCleanContent: bool(),
	onlyMainContent: bool(),
	parsers: arr(any()),
	profile: obj({ name: str(), saveChanges: bool() }, { required: ['name'] }),
	proxy: str(),
	redactPII: any(),
	removeBase64Images: bool(),
	skipTlsVerification: bool(),
	storeInCache: bool(),
	threatProtection: obj({}, { loose: true }),
	timeout: int({ min: 1000, max: 300000 }),
	waitFor: int({ min: 0 }),
});
const targetId = str({ uuid: true });
const targetSchemas = {
	scrape: obj({ id: targetId, type: str(), urls: arr(str({ url: true }), { min: 1 }), scrapeOptions: scrapeOptionsSchema }, { required: ['type', 'urls'] }),
	crawl: obj(
		{
			id: targetId,
			type: str(),
			url: str({ url: true }),
			crawlOptions: obj(
				{ limit: int({ min: 1 }), maxDiscoveryDepth: int({ min: 0 }), includePaths: stringArray, excludePaths: stringArray, delay: rules.delay },
				{ loose: true, refine: rules.pathPatterns },
			),
			scrapeOptions: scrapeOptionsSchema,
		},
		{ required: ['type', 'url'] },
	),
	search: obj(
		{
			id: targetId,
			type: str(),
			queries: arr(str({ min: 1, max: 256 }), { min: 1, max: 12 }),
			searchWindow: str({ enum: ['5m', '15m', '1h', '6h', '24h', '7d'] }),
			maxResults: int({ min: 1, max: 50 }),
			includeDomains: arr(str(), { max: 50 }),
			excludeDomains: arr(str(), { max: 50 }),
		},
		{
			required: ['type', 'queries'],
			refine: (v, p, out) =>
				v.includeDomains && v.excludeDomains && out.push(custom(p, 'includeDomains and excludeDomains are mutually exclusive')),
		},
	),
};
const targetSchema = (v, p, out) => {
	const schema = isPlainObject(v) && targetSchemas[v.type];
	if (schema) return schema(v, p, out);
	out.push({
		code: isPlainObject(v) ? 'invalid_union_discriminator' : 'invalid_type',
		path: isPlainObject(v) ? [...p, 'type'] : p,
		message: "Invalid discriminator value. Expected 'scrape' | 'crawl' | 'search'",
	});
};
const webhookSchema = obj(
	{
		url: str({ url: true }),
		headers: rec(str()),
		metadata: rec(str()),
		events: arr(str({ enum: EVENTS })),
	},
	{
		required: ['url'],
		refine: rules.managedHeaders,
	},
);
const notificationSchema = obj({
	email: obj({ enabled: bool(), includeDiffs: bool(), recipients: arr(str({ email: true }), { max: 25 }) }),
});
const monitorFields = {
	name: str({ min: 1, max: 256 }),
	goal: nullable(str({ max: 2000 })),
	schedule: scheduleSchema,
	targets: arr(targetSchema, { min: 1, max: 50 }),
	judgeEnabled: bool(),
	retentionDays: int({ min: 1, max: 365 }),
	webhook: webhookSchema,
	notification: notificationSchema,
	origin: str(),
};
const createSchema = obj(monitorFields, { required: ['name', 'schedule', 'targets'] });
const updateSchema = obj({ ...monitorFields, status: str({ enum: ['active', 'paused'] }) });

function checkSearchGoal({ targets, goal, judgeEnabled }) {
	if (targets.some((t) => t.type === 'search') && !(goal && goal.trim()) && judgeEnabled !== false)
		throw validationError([custom(['goal'], 'A search target requires a non-empty goal')]);
}

function uuidParam(value, name) {
	if (!isUuid(value)) throw badRequest('Bad Request', [{ code: 'invalid_string', validation: 'uuid', path: [name], message: 'Invalid uuid' }]);
}

/**
 * The times of monitors, checks and pages as the open-source server answers them: its monitor
 * controller passes the database's timestamptz columns through (drizzle, mode "string", returns
 * Postgres' own text): "2026-11-28 17:39:27.210714+00" (api-facts "Times are database text").
 * The fake keeps ISO inside and writes microseconds from the milliseconds, so a time has 0 to 6
 * fraction digits as Postgres trims them.
 */
function pgText(value) {
	if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) return value;
	const iso = new Date(value).toISOString();
	const ms = Number(iso.slice(20, 23));
	const fraction = `${iso.slice(20, 23)}${String((ms * 37) % 1000).padStart(3, '0')}`.replace(/0+$/, '');
	return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction ? `.${fraction}` : ''}+00`;
}
const TIME_FORMATS = ['postgres', 'iso'];
const MONITOR_TIMES = ['nextRunAt', 'lastRunAt', 'createdAt', 'updatedAt'];
const CHECK_TIMES = ['scheduledFor', 'startedAt', 'finishedAt', 'createdAt', 'updatedAt'];

/** Per-URL status overrides that a test can put into monitored URLs: ...fake-changed..., etc. */
const urlMarker = (url) => /fake-(same|new|changed|removed|error)\b/.exec(url)?.[1];
const emptySummary = () => ({ totalPages: 0, same: 0, changed: 0, new: 0, removed: 0, error: 0 });

class Monitors {
	constructor(state) {
		this.state = state;
		this.monitors = new Map();
		this.timers = new Set();
		this.timeFormat = 'postgres';
	}

	reset() {
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
		this.monitors.clear();
		this.timeFormat = 'postgres';
	}

	/** How the API writes times: 'postgres' (the open-source server, the default) or 'iso'. */
	setTimeFormat(format) {
		if (!TIME_FORMATS.includes(format)) throw badRequest(`The time format must be one of ${TIME_FORMATS.join(', ')}`);
		this.timeFormat = format;
		return { format };
	}

	/** A copy of `view` with the named times written in the current format. */
	timesOut(view, names) {
		if (this.timeFormat === 'iso' || !view) return view;
		const out = { ...view };
		for (const name of names) if (name in out) out[name] = pgText(out[name]);
		return out;
	}

	monitorOut(m) {
		return this.timesOut(this.serialize(m), MONITOR_TIMES);
	}

	checkOut(view) {
		const out = this.timesOut(view, CHECK_TIMES);
		const webhook = out?.notificationStatus?.webhook;
		if (webhook && this.timeFormat !== 'iso') out.notificationStatus = { ...out.notificationStatus, webhook: this.timesOut(webhook, ['deliveredAt']) };
		if (Array.isArray(out?.pages)) out.pages = out.pages.map((p) => this.timesOut(p, ['createdAt']));
		return out;
	}

	later(ms, fn) {
		const t = setTimeout(() => {
			this.timers.delete(t);
			fn();
		}, ms);
		this.timers.add(t);
	}

	// ---- normalisation ----
	normalizeSchedule(s, id) {
		const jitter = parseInt(id.replace(/-/g, '').slice(-4), 16) % 60;
		return { cron: s.cron !== undefined ? s.cron.trim().replace(/\s+/g, ' ') : textToCron(s.text, jitter), timezone: s.timezone ?? 'UTC' };
	}

	normalizeTargets(targets) {
		return targets.map((t) => {
			const id = t.id ?? uuidv7();
			if (t.type === 'scrape') {
				const so = t.scrapeOptions ?? {};
				const formats = so.formats ?? [];
				const hasMarkdown = formats.some((f) => f === 'markdown' || f?.type === 'markdown');
				return { id, type: 'scrape', urls: t.urls, scrapeOptions: { ...so, formats: hasMarkdown ? formats : ['markdown', ...formats] } };
			}
			if (t.type === 'crawl') return { id, ...t, crawlOptions: t.crawlOptions ?? {} };
			return { id, ...t, searchWindow: t.searchWindow ?? '24h', maxResults: t.maxResults ?? 10 };
		});
	}

	applyFields(m, body) {
		if (body.name !== undefined) m.name = body.name;
		if (body.goal !== undefined) m.goal = body.goal;
		if (body.judgeEnabled !== undefined) m.judgeEnabled = body.judgeEnabled;
		else if (body.goal !== undefined) m.judgeEnabled = !!(body.goal && body.goal.trim());
		if (body.schedule !== undefined) m.schedule = this.normalizeSchedule(body.schedule, m.id);
		if (body.targets !== undefined) m.targets = this.normalizeTargets(body.targets);
		if (body.retentionDays !== undefined) m.retentionDays = body.retentionDays;
		if (body.webhook !== undefined)
			m.webhook = { url: body.webhook.url, headers: body.webhook.headers ?? {}, metadata: body.webhook.metadata ?? {}, events: body.webhook.events?.length ? body.webhook.events : [...EVENTS] };
		if (body.notification !== undefined) {
			const e = body.notification.email;
			m.notification = e ? { email: { enabled: false, includeDiffs: false, recipients: [], ...e } } : {};
		}
		if (body.origin !== undefined) m.origin = body.origin;
		if (body.status !== undefined) m.status = body.status;
		const marker = /FAKE_EXTRA_PAGES=(\d+)/.exec(`${m.name} ${m.goal ?? ''}`);
		if (marker) m.plan.extraPages = Number(marker[1]);
		m.updatedAt = iso();
	}

	pagesPerCheck(m) {
		return m.targets.reduce(
			(n, t) => n + (t.type === 'scrape' ? t.urls.length : t.type === 'crawl' ? t.crawlOptions.limit ?? 10 : t.maxResults),
			m.plan.extraPages || 0,
		);
	}

	serialize(m) {
		const recipients = m.notification.email?.recipients ?? [];
		return {
			id: m.id,
			name: m.name,
			status: m.status,
			schedule: { ...m.schedule },
			nextRunAt: m.status === 'active' ? iso(nextRun(m.schedule.cron, m.schedule.timezone)) : null,
			lastRunAt: m.lastRunAt,
			currentCheckId: m.currentCheckId,
			targets: m.targets,
			webhook: m.webhook,
			notification: m.notification,
			...(recipients.length
				? { emailRecipientSubscriptions: recipients.map((email) => ({ email, status: 'pending', source: 'opt_in', confirmationEmailSent: true })) }
				: {}),
			retentionDays: m.retentionDays,
			estimatedCreditsPerMonth: runsPerMonth(m.schedule.cron) * this.pagesPerCheck(m),
			lastCheckSummary: m.lastCheckSummary,
			goal: m.goal,
			judgeEnabled: m.judgeEnabled,
			createdAt: m.createdAt,
			updatedAt: m.updatedAt,
		};
	}

	find(id) {
		uuidParam(id, 'monitorId');
		const m = this.monitors.get(id);
		if (!m) throw fail(404, 'Monitor not found');
		return m;
	}

	/** A new monitor record with the service's defaults, `fields` applied, stored under `id`. */
	newMonitor(id, fields) {
		const m = {
			id,
			status: 'active',
			goal: null,
			judgeEnabled: false,
			retentionDays: 30,
			webhook: null,
			notification: {},
			lastRunAt: null,
			currentCheckId: null,
			lastCheckSummary: null,
			createdAt: iso(),
			checks: [],
			knownUrls: new Set(),
			plan: {},
		};
		this.applyFields(m, fields);
		this.monitors.set(m.id, m);
		return m;
	}

	// ---- CRUD handlers ----
	create(ctx) {
		const body = ctx.json();
		assertValid(createSchema, body);
		checkSearchGoal(body);
		if (this.state.team.zdr) throw fail(400, ZDR_ERROR);
		const m = this.newMonitor(uuidv7(), body);
		return { status: 200, body: { success: true, data: this.monitorOut(m) } };
	}

	list(ctx) {
		const limit = intQuery(ctx.query, 'limit', { def: 25, min: 1, max: 100 });
		const offset = intQuery(ctx.query, 'offset', { def: 0, min: 0 });
		const all = [...this.monitors.values()].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
		return { status: 200, body: { success: true, data: all.slice(offset, offset + limit).map((m) => this.monitorOut(m)) } };
	}

	get(ctx, id) {
		return { status: 200, body: { success: true, data: this.monitorOut(this.find(id)) } };
	}

	update(ctx, id) {
		const m = this.find(id);
		const body = ctx.json();
		if (isPlainObject(body) && Object.keys(body).length === 0) throw validationError([custom([], 'Update body cannot be empty')]);
		assertValid(updateSchema, body);
		checkSearchGoal({
			targets: body.targets ?? m.targets,
			goal: body.goal !== undefined ? body.goal : m.goal,
			judgeEnabled: body.judgeEnabled ?? (body.goal !== undefined ? undefined : m.judgeEnabled),
		});
		if (this.state.team.zdr) throw fail(400, ZDR_ERROR);
		this.applyFields(m, body);
		return { status: 200, body: { success: true, data: this.monitorOut(m) } };
	}

	remove(ctx, id) {
		const m = this.find(id);
		m.status = 'deleted';
		this.monitors.delete(id);
		return { status: 200, body: { success: true } };
	}

	// ---- checks ----
	run(ctx, id) {
		const m = this.find(id);
		if (m.status === 'paused') throw fail(409, 'Monitor is paused. Resume it before running a check.');
		const running = m.checks.find((c) => c.status === 'queued' || c.status === 'running');
		if (running) throw fail(409, 'Monitor check is already running.', { checkId: running.id });
		if (this.state.team.zdr) throw fail(400, ZDR_ERROR);
		const check = this.startCheck(m, 'manual');
		return { status: 200, body: { success: true, id: check.id, data: this.checkOut(this.checkView(check)) } };
	}

	startCheck(m, trigger) {
		const check = this.newCheck(m, trigger);
		const duration = this.state.scaled(m.plan.checkDurationMs ?? 1500);
		this.later(duration * 0.2, () => Object.assign(check, { status: 'running', startedAt: iso(), updatedAt: iso() }));
		this.later(duration, () => this.finishCheck(m, check));
		return check;
	}

	/** A queued check, recorded on the monitor (no timers). */
	newCheck(m, trigger) {
		const now = iso();
		const estimate = this.pagesPerCheck(m);
		const check = {
			id: uuidv7(),
			monitorId: m.id,
			status: 'queued',
			trigger,
			scheduledFor: now,
			startedAt: null,
			finishedAt: null,
			estimatedCredits: estimate,
			reservedCredits: estimate,
			actualCredits: null,
			billingStatus: 'reserved',
			summary: emptySummary(),
			targetResults: m.targets.map((t) => ({ targetId: t.id, type: t.type })),
			notificationStatus: null,
			error: null,
			createdAt: now,
			updatedAt: now,
			pages: [],
		};
		m.checks.unshift(check);
		m.currentCheckId = check.id;
		return check;
	}

	/**
	 * Test seeding, for suites that cannot send authenticated requests before a workflow runs (the
	 * e2e checks' before()): a monitor made from `fields` (name, goal, judgeEnabled, schedule,
	 * targets, webhook, notification, retentionDays; sensible defaults, no validation), with an
	 * optional fixed `id`, `status`, `plan`, and `baseline: true` for a first check that has already finished (every page
	 * `new`), so the next check reports changes. Returns the control view of the monitor.
	 */
	seed(props = {}) {
		const { baseline, plan, status, id, ...fields } = props;
		if (id !== undefined && !isUuid(id)) throw badRequest('The seed id must be a UUID');
		if (id !== undefined && this.monitors.has(id)) throw fail(409, 'A monitor with this id exists');
		const m = this.newMonitor(id ?? uuidv7(), {
			name: 'Seeded monitor',
			schedule: { text: 'daily' },
			targets: [{ type: 'scrape', urls: ['https://example.com/'] }],
			...fields,
		});
		Object.assign(m.plan, plan);
		if (baseline) {
			const check = this.newCheck(m, 'scheduled');
			check.startedAt = iso();
			this.finishCheck(m, check);
		}
		if (status !== undefined) m.status = status;
		return { ...this.serialize(m), plan: m.plan, checks: m.checks, knownUrls: [...m.knownUrls] };
	}

	/** Page statuses: plan.pages override; else first check all `new`, later the first URL `changed`, rest `same`. */
	generatePages(m, check) {
		const first = m.knownUrls.size === 0;
		const plan = m.plan;
		const entries = [];
		for (const t of m.targets) {
			let urls;
			if (t.type === 'scrape') urls = t.urls;
			else if (t.type === 'crawl') urls = Array.from({ length: Math.min(t.crawlOptions.limit ?? 3, 10) }, (_, i) => (i ? `${t.url.replace(/\/$/, '')}/page-${i}` : t.url));
			else urls = t.queries.flatMap((q, qi) => [`https://results.example.com/${encodeURIComponent(q)}/${qi}`]).slice(0, t.maxResults);
			for (const url of urls) entries.push({ target: t, url });
		}
		const base = entries.find((e) => e.target.type !== 'search')?.url ?? 'https://example.com/';
		for (let i = 0; i < (plan.extraPages || 0); i++)
			entries.push({ target: m.targets[0], url: `${new URL(base).origin}/fake-extra-${i + 1}`, status: PAGE_STATUSES[i % PAGE_STATUSES.length] });
		if (Array.isArray(plan.pages))
			entries.splice(0, entries.length, ...plan.pages.map((p, i) => ({ target: m.targets[0], url: p.url ?? `${new URL(base).origin}/planned-${i + 1}`, status: p.status })));
		else
			for (const url of m.knownUrls) if (!entries.some((e) => e.url === url)) entries.push({ target: m.targets[0], url, status: 'removed' });

		return entries.map((e, i) => {
			const status =
				e.status ?? urlMarker(e.url) ?? (first || !m.knownUrls.has(e.url) ? 'new' : i === 0 && e.target.type !== 'search' ? 'changed' : 'same');
			if (status === 'removed') m.knownUrls.delete(e.url);
			else m.knownUrls.add(e.url);
			const changed = status === 'changed';
			const judged = changed && m.judgeEnabled;
			return {
				id: uuidFrom(check.id, 'page', i),
				targetId: e.target.id,
				url: e.url,
				status,
				previousScrapeId: status === 'new' ? null : uuidFrom(e.url, 'previous'),
				currentScrapeId: status === 'removed' || status === 'error' ? null : uuidFrom(check.id, e.url),
				statusCode: status === 'error' ? 500 : status === 'removed' ? 404 : 200,
				error: status === 'error' ? 'Failed to scrape the page (fake upstream error).' : null,
				metadata: e.target.type === 'search' ? { searchStatus: status === 'new' ? 'alert' : 'already_seen' } : {},
				judgment: judged
					? {
							meaningful: true,
							confidence: 'high',
							reason: 'The price changed, which matches the monitor goal.',
							meaningfulChanges: [{ type: 'changed', before: 'Price: $10', after: 'Price: $12', reason: 'Price increase' }],
						}
					: null,
				diff: changed
					? {
							text: '--- previous\n+++ current\n@@ -1,2 +1,2 @@\n # Pricing\n-Price: $10\n+Price: $12\n',
							json: {
								files: [
									{
										from: 'previous',
										to: 'current',
										additions: 1,
										deletions: 1,
										chunks: [
											{
												content: '@@ -1,2 +1,2 @@',
												changes: [
													{ type: 'normal', content: ' # Pricing' },
													{ type: 'del', content: '-Price: $10' },
													{ type: 'add', content: '+Price: $12' },
												],
											},
										],
									},
								],
							},
						}
					: null,
				createdAt: iso(),
			};
		});
	}

	/** What a check is billed: each page that did not fail at its target's per-page price (Enhanced, JSON, the prompt-injection check: scrapeCredits); a search result 1. */
	checkCredits(m, pages) {
		const price = (t) => {
			if (!t || t.type === 'search') return 1;
			const o = t.scrapeOptions ?? {};
			return scrapeCredits(o, { proxyUsed: o.proxy === 'enhanced' || o.proxy === 'stealth' ? 'stealth' : 'basic' });
		};
		return pages.filter((p) => p.status !== 'error').reduce((n, p) => n + price(m.targets.find((t) => t.id === p.targetId)), 0);
	}

	finishCheck(m, check) {
		check.pages = this.generatePages(m, check);
		const summary = emptySummary();
		for (const p of check.pages) summary[p.status]++;
		summary.totalPages = check.pages.length;
		const now = iso();
		Object.assign(check, {
			status: m.plan.checkStatus ?? 'completed',
			error: m.plan.checkError ?? (m.plan.checkStatus === 'failed' ? 'Check failed (fake).' : null),
			startedAt: check.startedAt ?? now,
			finishedAt: now,
			updatedAt: now,
			summary,
			actualCredits: this.checkCredits(m, check.pages),
			billingStatus: 'confirmed',
		});
		Object.assign(m, { lastRunAt: now, lastCheckSummary: { ...summary }, currentCheckId: null });
		if (m.webhook && this.monitors.has(m.id)) this.deliverCheck(m, check);
	}

	/** Builds the webhook envelopes (api-facts 3) for a finished check, each with a fresh webhookId. */
	envelopes(m, check, wh) {
		const out = [];
		if (wh.events.includes('monitor.page'))
			for (const p of check.pages.filter((x) => x.status !== 'removed')) {
				out.push({
					success: p.status !== 'error',
					type: 'monitor.page',
					id: check.id,
					webhookId: crypto.randomUUID(),
					data: [
						{
							monitorId: m.id,
							checkId: check.id,
							url: p.url,
							status: p.status,
							previousScrapeId: p.previousScrapeId,
							currentScrapeId: p.currentScrapeId,
							error: p.error,
							isMeaningful: p.judgment ? p.judgment.meaningful : null,
							judgment: p.judgment,
							diff: p.diff,
						},
					],
					...(p.error ? { error: p.error } : {}),
					metadata: wh.metadata,
				});
			}
		if (wh.events.includes('monitor.check.completed'))
			out.push({
				success: check.status === 'completed',
				type: 'monitor.check.completed',
				id: check.id,
				webhookId: crypto.randomUUID(),
				data: [{ monitorId: m.id, checkId: check.id, status: check.status, summary: { ...check.summary } }],
				...(check.error ? { error: check.error } : {}),
				metadata: wh.metadata,
			});
		return out;
	}

	/** Delivers the check's events in order (sequentially) and records notificationStatus. */
	async deliverCheck(m, check, wh = m.webhook) {
		const results = [];
		for (const env of this.envelopes(m, check, wh)) {
			// The open-source server sends each event once (api-facts 6); switch loseEvents loses some on the way.
			const lose = this.state.webhooks.delivery.loseEvents.includes(env.type);
			results.push(await this.state.webhooks.send(wh.url, env, wh.headers, { monitorId: m.id, checkId: check.id }, { lose }));
		}
		const last = results[results.length - 1];
		const ok = results.every((r) => r.responseStatus >= 200 && r.responseStatus < 300);
		check.notificationStatus = {
			webhook: {
				attempted: results.length > 0,
				success: ok,
				delivered: results.filter((r) => r.responseStatus >= 200 && r.responseStatus < 300).length,
				queued: 0,
				statusCode: last?.responseStatus ?? null,
				error: results.find((r) => r.error)?.error ?? null,
				deliveredAt: iso(),
			},
		};
		return results;
	}

	checkView(check) {
		const { pages, ...rest } = check;
		return { ...rest, summary: { ...rest.summary } };
	}

	listChecks(ctx, id) {
		const m = this.find(id);
		const limit = intQuery(ctx.query, 'limit', { def: 25, min: 1, max: 100 });
		const offset = intQuery(ctx.query, 'offset', { def: 0, min: 0 });
		const status = ctx.query.status;
		if (status !== undefined && !CHECK_STATUSES.includes(status)) throw validationError([{ code: 'invalid_enum_value', path: ['status'], message: `Invalid status '${status}'` }]);
		const checks = m.checks.filter((c) => !status || c.status === status);
		return { status: 200, body: { success: true, data: checks.slice(offset, offset + limit).map((c) => this.checkOut(this.checkView(c))) } };
	}

	getCheck(ctx, id, checkId) {
		const m = this.find(id);
		uuidParam(checkId, 'checkId');
		const check = m.checks.find((c) => c.id === checkId);
		if (!check) throw fail(404, 'Check not found');
		const limit = intQuery(ctx.query, 'limit', { def: 25, min: 1, max: 100 });
		const skip = intQuery(ctx.query, 'skip', { def: 0, min: 0 });
		const status = ctx.query.status;
		if (status !== undefined && !PAGE_STATUSES.includes(status)) throw validationError([{ code: 'invalid_enum_value', path: ['status'], message: `Invalid status '${status}'` }]);
		const pages = check.pages.filter((p) => !status || p.status === status);
		const data = this.checkOut({ ...this.checkView(check), pages: pages.slice(skip, skip + limit) });
		const body = { success: true };
		if (skip + limit < pages.length) {
			const next = `${baseUrlOf(ctx.req, this.state.url)}/v2/monitor/${m.id}/checks/${check.id}?skip=${skip + limit}&limit=${limit}${status ? `&status=${status}` : ''}`;
			body.next = next;
			data.next = next;
		}
		body.data = data;
		return { status: 200, body };
	}

	routes() {
		const M = '([^/]+)';
		return [
			['POST', /^\/v2\/monitor$/, (ctx) => this.create(ctx)],
			['GET', /^\/v2\/monitor$/, (ctx) => this.list(ctx)],
			['GET', new RegExp(`^/v2/monitor/${M}$`), (ctx, id) => this.get(ctx, id)],
			['PATCH', new RegExp(`^/v2/monitor/${M}$`), (ctx, id) => this.update(ctx, id)],
			['DELETE', new RegExp(`^/v2/monitor/${M}$`), (ctx, id) => this.remove(ctx, id)],
			['POST', new RegExp(`^/v2/monitor/${M}/run$`), (ctx, id) => this.run(ctx, id)],
			['GET', new RegExp(`^/v2/monitor/${M}/checks$`), (ctx, id) => this.listChecks(ctx, id)],
			['GET', new RegExp(`^/v2/monitor/${M}/checks/${M}$`), (ctx, id, cid) => this.getCheck(ctx, id, cid)],
		];
	}
}

module.exports = { Monitors, pgText };
