'use strict';
// Crawl and batch-scrape jobs (OpenAPI /crawl, /crawl/{id}, /crawl/{id}/errors, /crawl/active,
// /crawl/params-preview, /batch/scrape, /batch/scrape/{id}, /batch/scrape/{id}/errors).
// Strict bodies: crawl nests ScrapeOptions under `scrapeOptions`; batch scrape has the ScrapeOptions
// fields at the TOP LEVEL beside `urls` (a nested `scrapeOptions` there is an unrecognized key → 400).
//
// Jobs progress with the clock: a job "scraping" for durationMs (default 2000, divided by timeScale),
// its pages finishing evenly over that time. Markers (in the crawl URL, or in any batch URL):
//   fake-duration-<ms>   the job's duration (before timeScale)
//   fake-job-fail        the job ends "failed" (no more pages after half the time)
//   fake-page-error      (batch) this URL fails: it is listed by /errors, not in data
//   fake-pages-<n>       (crawl) the site has n pages (<start>/page-1 ... page-<n-1> after the start URL;
//                        `limit` still applies), and the status pages are cut by size as the service
//                        does (up to 10 MiB of documents each, crawl-status.ts @ 014bc161) instead of 3
//                        documents. With fake-long-<chars> in the URL every page carries that much
//                        Markdown (the page URLs keep the start URL's path). For scale benchmarks.
// Change tracking (a `changeTracking` format in scrapeOptions): the fake remembers, per URL and
// `tag`, the Markdown each tracked crawl returned (across jobs, until reset) and compares at the
// job's start: changeStatus `new` (never tracked), `same`, `changed`, and `removed` for a tracked page
// the site no longer has (statusCode 404, visibility `hidden`, as the service finds it from memory of
// earlier crawls); previousScrapeAt is the earlier crawl's time. The site is edited through the
// control API: setSitePages({<url>: {markdown} | {removed: true} | null (back to the default)}).
// Status responses are paged: PAGE_SIZE documents per response, `next` = absolute URL with ?skip=N
// on the fake's origin while more finished pages exist, and on EVERY page of a job that still runs,
// an empty one too (skip = skip + documents on this page); absent once a finished job's last page is
// read. As the service: apps/api/src/controllers/v2/crawl-status.ts (next while total > skip +
// documents read; @ 014bc161) and __tests__/crawl-status-next.test.ts @ 11dbeb90 ("keeps the cursor while the
// crawl is still running", "ends the cursor after the last page of a completed/cancelled crawl").
// `?limit=N` (as the server, crawl-status.ts @ 2dd97c64): at most N documents on the page (0: none),
// still cut by size; `next` repeats `&limit=N`. `skip`/`limit` not a number or negative → 500.
const { fail, badRequest, isUuid, isHttpUrl, uuidv7, iso, baseUrlOf } = require('./util');
const { sendJobWebhook } = require('./webhooks');
const { str, int, bool, arr, obj, rec, assertValid } = require('./validate');
const { SCRAPE_OPTION_PROPS, refineScrapeOptions, checkScrapeOptions, fakeDocument, pageFacts, scrapeCredits } = require('./scrapeOptions');
const rules = require('./serverRules');

const PAGE_SIZE = 3;
/** Status page size of a fake-pages-<n> job: the service's cut (apps/api/src/controllers/v2/crawl-status.ts @ 014bc161, 10 MiB). */
const PAGE_BYTES = 10 * 1024 * 1024;
/** Crawl/batch `webhook.events` short names and their default when omitted (controllers/v2/types.ts webhookSchema, 61e38dc8). */
const WEBHOOK_EVENTS = ['completed', 'failed', 'page', 'started'];
const DEFAULT_DURATION_MS = 2000;
const SITE_PATHS = ['', 'about', 'pricing', 'blog', 'blog/first-post', 'blog/second-post', 'docs', 'docs/getting-started', 'docs/api', 'contact', 'careers', 'legal/privacy'];

// services/webhook/schema.ts: metadata values are strings; the managed X-Firecrawl-* headers are refused.
const webhook = (events) =>
	obj({ url: str({ url: true }), headers: rec(str()), metadata: rec(str()), events: arr(str({ enum: events })) }, { required: ['url'], refine: rules.managedHeaders });

const crawlBody = obj(
	{
		url: str({ url: true }),
		prompt: str({ max: 10000 }),
		excludePaths: arr(str()),
		includePaths: arr(str()),
		maxDiscoveryDepth: int({ min: 0 }),
		sitemap: str({ enum: ['skip', 'include', 'only'] }),
		ignoreQueryParameters: bool(),
		regexOnFullURL: bool(),
		limit: int({ min: 1, max: 10000 }),
		crawlEntireDomain: bool(),
		allowExternalLinks: bool(),
		allowSubdomains: bool(),
		ignoreRobotsTxt: bool(),
		robotsUserAgent: str(),
		delay: rules.delay,
		maxConcurrency: int({ min: 1 }),
		webhook: webhook(['completed', 'page', 'failed', 'started']),
		scrapeOptions: (v, p, out) => out.push(...checkScrapeOptions(v, p)),
		zeroDataRetention: bool(),
		origin: str(),
		// integration: a string; null is refused (server controllers/v2/types.ts 000404f7: integrationSchema.optional(), no null).
		integration: str(),
	},
	{ required: ['url'], refine: rules.pathPatterns },
);

const batchBody = obj(
	{
		urls: arr(str({ url: true }), { min: 1 }),
		webhook: webhook(['completed', 'page', 'failed', 'started']),
		maxConcurrency: int({ min: 1 }),
		ignoreInvalidURLs: bool(),
		...SCRAPE_OPTION_PROPS,
		zeroDataRetention: bool(),
		origin: str(),
		// integration: a string; null is refused (server controllers/v2/types.ts 000404f7: integrationSchema.optional(), no null).
		integration: str(),
	},
	{ required: ['urls'], refine: refineScrapeOptions },
);

const previewBody = obj({ url: str({ url: true }), prompt: str({ min: 1, max: 10000 }) }, { required: ['url', 'prompt'] });

function requireObject(body) {
	if (body === null || typeof body !== 'object' || Array.isArray(body))
		throw badRequest('Bad Request', [{ code: 'invalid_type', path: [], expected: 'object', message: 'Expected object' }]);
}

function markers(text) {
	const d = /fake-duration-(\d+)/.exec(text);
	return { durationMs: d ? Number(d[1]) : undefined, fail: text.includes('fake-job-fail') };
}

function crawlUrls(body) {
	const u = new URL(body.url);
	const origin = u.origin;
	const many = /fake-pages-(\d+)/.exec(body.url);
	const limit = Math.min(body.limit ?? 10, many ? Number(many[1]) : SITE_PATHS.length);
	const start = body.url;
	const rest = many
		? Array.from({ length: Math.max(0, Math.min(Number(many[1]), 10000) - 1) }, (_, k) => `${start.replace(/\/$/, '')}/page-${k + 1}`)
		: SITE_PATHS.map((p) => `${origin}/${p}`).filter((x) => x !== start && x !== `${start}/` && `${x}/` !== start);
	let urls = [start, ...rest];
	if (body.includePaths?.length) {
		const res = body.includePaths.map(rules.pathRegExp);
		urls = urls.filter((x, i) => i === 0 || res.some((re) => re.test(new URL(x).pathname.slice(1))));
	}
	if (body.excludePaths?.length) {
		const res = body.excludePaths.map(rules.pathRegExp);
		urls = urls.filter((x) => !res.some((re) => re.test(new URL(x).pathname.slice(1))));
	}
	if (body.maxDiscoveryDepth === 0) urls = urls.slice(0, 1);
	return urls.slice(0, limit);
}

/** The webhook config as the service keeps it: {url, headers, metadata, events}; omitted events = the four short names. */
function webhookConfig(webhook) {
	if (webhook === undefined) return null;
	return { url: webhook.url, headers: webhook.headers ?? {}, metadata: webhook.metadata ?? {}, events: webhook.events ? [...webhook.events] : [...WEBHOOK_EVENTS] };
}

class Jobs {
	constructor(state) {
		this.state = state;
		this.jobs = new Map();
		this.timers = new Set();
		this.site = new Map(); // url → {markdown} | {removed: true}: edits of the fake site
		this.tracked = new Map(); // tag + url → {markdown, at}: what tracked crawls last returned
	}

	reset() {
		for (const t of this.timers) clearTimeout(t);
		this.timers.clear();
		this.jobs.clear();
		this.site.clear();
		this.tracked.clear();
	}

	/** A timer that reset() clears and that does not keep the process alive. */
	later(ms, fn) {
		const t = setTimeout(() => {
			this.timers.delete(t);
			fn();
		}, Math.max(0, ms));
		t.unref?.();
		this.timers.add(t);
		return t;
	}

	/** True while a job with a webhook still has events to send (for settled()). */
	busy() {
		return [...this.jobs.values()].some((j) => j.webhook && !j.endSent);
	}

	// ---- webhooks (api-facts 3; webhooks OpenAPI crawl*/batchScrape*): <prefix>.started|page|completed ----
	// As the open-source server: every end is <prefix>.completed (success true). With the fake's option
	// jobEndEvents: 'split', a failed job sends <prefix>.failed and a cancelled one <prefix>.cancelled;
	// an empty events list means all (services/webhook/delivery.ts 3b844de23cfe webhookEventMatchesFilter),
	// so `cancelled`, which has no short name in the enum, is sent only then.
	wants(job, event) {
		return !!job.webhook && (job.webhook.events.length === 0 || job.webhook.events.includes(event));
	}

	prefixOf(job) {
		return job.kind === 'crawl' ? 'crawl' : 'batch_scrape';
	}

	/** started now, each page when it finishes (by the job's clock), then the end event once. */
	scheduleWebhooks(job) {
		if (this.wants(job, 'started')) this.sendWebhook(job, 'started', true, []);
		const n = job.urls.length;
		job.urls.forEach((u, i) => {
			const fire = () => {
				const ph = this.phase(job);
				if (i >= ph.done) {
					if (ph.status === 'scraping') this.later(5, fire); // the clock has not quite reached it yet
					return; // the job ended before this page
				}
				job.pagesHandled++;
				if (!this.wants(job, 'page')) return;
				if (u.includes('fake-page-error')) this.sendWebhook(job, 'page', false, [], 'Page failed: fake-page-error marker');
				else this.sendWebhook(job, 'page', true, [fakeDocument(u, this.scrapeOptionsOf(job), { origin: job.origin, seq: `${job.id}-${i}`, zdr: job.request.zeroDataRetention === true, ...job.pages.get(u) })]);
			};
			this.later(job.createdAt + (job.durationMs * (i + 1)) / n - Date.now(), fire);
		});
		const endAt = job.fail ? job.createdAt + job.durationMs / 2 : job.createdAt + job.durationMs;
		this.later(endAt - Date.now() + 1, () => this.sendEnd(job));
	}

	sendEnd(job) {
		if (!job.webhook || job.endSent) return;
		const ph = this.phase(job);
		// After every page that finished before the end (their events go first).
		if (ph.status === 'scraping' || job.pagesHandled < ph.done) return void this.later(5, () => this.sendEnd(job));
		job.endSent = true;
		if (this.state.options.jobEndEvents === 'split') {
			// A build with .failed / .cancelled events (api-facts 3: crawl.cancelled in a newer types.ts).
			if (ph.status === 'completed' && this.wants(job, 'completed')) this.sendWebhook(job, 'completed', true, []);
			else if (ph.status === 'failed' && this.wants(job, 'failed')) this.sendWebhook(job, 'failed', false, [], 'Job failed: fake-job-fail marker');
			else if (ph.status === 'cancelled' && this.wants(job, 'cancelled')) this.sendWebhook(job, 'cancelled', false, []);
			return;
		}
		// The open-source server (firecrawl apps/api @ ca0be9b, services/webhook/types.ts and
		// services/worker/crawl-logic.ts): no .failed, no .cancelled; every end is announced as
		// <prefix>.completed with success true and data [], after the job is marked finished (a status
		// read then says how it really ended).
		if (this.wants(job, 'completed')) this.sendWebhook(job, 'completed', true, []);
	}

	/** One signed delivery {success, type, id, webhookId, data, error?, metadata}; retried when not answered 2xx. */
	sendWebhook(job, event, success, data, error) {
		return sendJobWebhook(this.state, (ms, fn) => this.later(ms, fn), () => this.jobs.has(job.id), job, `${this.prefixOf(job)}.${event}`, success, data, error);
	}

	/** Edits the fake site (see the header): {<url>: {markdown} | {removed: true} | null}. */
	setSitePages(pages = {}) {
		for (const [url, page] of Object.entries(pages)) {
			if (page === null) this.site.delete(url);
			else this.site.set(url, { ...page });
		}
		return Object.fromEntries(this.site);
	}

	/**
	 * The crawl's URLs with what each page returns when the job tracks changes: {urls, pages: Map(url →
	 * {markdown?, changeTracking, metadata?})}; the tracked history is updated at the job's start.
	 */
	trackChanges(request, urls, createdAt) {
		const formats = request.scrapeOptions?.formats ?? [];
		const ct = formats.find((f) => f === 'changeTracking' || f?.type === 'changeTracking');
		const pages = new Map();
		if (!ct) return { urls: urls.filter((u) => !this.site.get(u)?.removed), pages };
		const tag = typeof ct === 'object' && typeof ct.tag === 'string' ? ct.tag : '';
		const kept = [];
		for (const url of urls) {
			const key = `${tag}\u0000${url}`;
			const edit = this.site.get(url);
			const before = this.tracked.get(key);
			const previousScrapeAt = before ? iso(before.at) : null;
			if (edit?.removed) {
				if (!before) continue; // never seen, and gone: not part of the crawl
				this.tracked.delete(key);
				kept.push(url);
				pages.set(url, { markdown: '', changeTracking: { changeStatus: 'removed', visibility: 'hidden', previousScrapeAt }, metadata: { statusCode: 404, error: 'Not Found' } });
				continue;
			}
			const markdown = edit?.markdown ?? fakeDocument(url, { formats: ['markdown'] }).markdown;
			const changeStatus = !before ? 'new' : before.markdown === markdown ? 'same' : 'changed';
			this.tracked.set(key, { markdown, at: createdAt });
			kept.push(url);
			pages.set(url, { markdown, changeTracking: { changeStatus, visibility: 'visible', previousScrapeAt } });
		}
		return { urls: kept, pages };
	}

	create(kind, request, urlsIn, markerText, origin) {
		const m = markers(markerText);
		const createdAt = Date.now();
		const id = uuidv7(createdAt);
		const { urls, pages } = kind === 'crawl' ? this.trackChanges(request, urlsIn, createdAt) : { urls: urlsIn, pages: new Map() };
		const job = {
			pages,
			id,
			kind,
			createdAt,
			request,
			urls,
			durationMs: this.state.scaled(m.durationMs ?? DEFAULT_DURATION_MS),
			fail: m.fail,
			cancelledAt: null,
			origin,
			webhook: webhookConfig(request.webhook),
			pagesHandled: 0,
			endSent: false,
		};
		this.jobs.set(id, job);
		if (job.webhook) this.scheduleWebhooks(job);
		return job;
	}

	find(kind, id) {
		if (!isUuid(id)) throw fail(400, 'Invalid job ID format');
		const job = this.jobs.get(id);
		if (!job || job.kind !== kind) throw fail(404, kind === 'crawl' ? 'Crawl job not found' : 'Batch scrape job not found');
		return job;
	}

	/** {status, done (count of finished urls), endAt}. */
	phase(job, now = Date.now()) {
		const n = job.urls.length;
		const frac = (t) => (job.durationMs > 0 ? Math.min(1, Math.max(0, (t - job.createdAt) / job.durationMs)) : 1);
		if (job.cancelledAt !== null) return { status: 'cancelled', done: Math.floor(n * frac(job.cancelledAt)), endAt: job.cancelledAt };
		if (job.fail) {
			const half = job.createdAt + job.durationMs / 2;
			if (now >= half) return { status: 'failed', done: Math.floor(n / 2), endAt: half };
			return { status: 'scraping', done: Math.floor(n * frac(now)), endAt: null };
		}
		const f = frac(now);
		if (f >= 1) return { status: 'completed', done: n, endAt: job.createdAt + job.durationMs };
		return { status: 'scraping', done: Math.floor(n * f), endAt: null };
	}

	scrapeOptionsOf(job) {
		if (job.kind === 'crawl') return job.request.scrapeOptions ?? {};
		const { urls, webhook: _w, maxConcurrency, ignoreInvalidURLs, zeroDataRetention, origin, integration, ...options } = job.request;
		return options;
	}

	finished(job, ph) {
		return job.urls.slice(0, ph.done).filter((u) => !u.includes('fake-page-error'));
	}

	status(ctx, kind, id) {
		const job = this.find(kind, id);
		const ph = this.phase(job);
		// `skip` and `limit` as the server reads them: parseInt, no schema; a value the database cannot
		// take (not a number, negative) fails there: 500 from the error handler (controllers/v2/
		// crawl-status.ts @ 2dd97c64, services/worker/nuq.ts getCrawlJobsForListing @ 41ffb6d7: SQL
		// LIMIT/OFFSET; index.ts @ ca0be9b7). `limit` = at most that many documents (0: none), still cut by size.
		const queryInt = (name) => {
			const raw = ctx.query[name];
			if (typeof raw !== 'string') return undefined;
			const n = Number.parseInt(raw, 10);
			if (Number.isNaN(n) || n < 0) throw fail(500, 'An unexpected error occurred. Please contact help@firecrawl.com for help.', { code: 'UNKNOWN_ERROR' });
			return n;
		};
		const skip = queryInt('skip') ?? 0;
		const limit = queryInt('limit');
		const done = this.finished(job, ph);
		const options = this.scrapeOptionsOf(job);
		const zdr = job.request.zeroDataRetention === true;
		const doc = (u, k) => fakeDocument(u, options, { origin: job.origin, seq: `${job.id}-${skip + k}`, zdr, ...job.pages.get(u) });
		let data;
		if (/fake-pages-\d+/.test(job.request.url ?? '')) {
			// Cut by size: documents while they fit in PAGE_BYTES (at least one).
			data = [];
			let bytes = 0;
			for (let k = 0; skip + k < done.length && (limit === undefined || k < limit); k++) {
				const d = doc(done[skip + k], k);
				const size = Buffer.byteLength(JSON.stringify(d));
				if (data.length > 0 && bytes + size > PAGE_BYTES) break;
				data.push(d);
				bytes += size;
			}
		} else data = done.slice(skip, skip + Math.min(PAGE_SIZE, limit ?? PAGE_SIZE)).map((u, k) => doc(u, k));
		// A running job always has a cursor (its pages are not all there yet), even past the end.
		const more = skip + data.length < done.length || ph.status === 'scraping';
		const path = kind === 'crawl' ? `/v2/crawl/${id}` : `/v2/batch/scrape/${id}`;
		const now = Date.now();
		const body = {
			success: true,
			status: ph.status,
			total: job.urls.length,
			completed: done.length,
			// The credits billed for the job's pages so far (the hosted server's credits_billed_by_crawl_id
			// sum): each finished page's metadata.creditsUsed; failed pages bill nothing (issue 35).
			creditsUsed: done.reduce((n, u) => n + scrapeCredits(options, pageFacts(u, options), { zdr }), 0),
			expiresAt: iso(job.createdAt + 24 * 3600 * 1000),
			createdAt: iso(job.createdAt),
			duration: ((ph.endAt ?? now) - job.createdAt) / 1000,
			data,
		};
		// The server repeats the `limit` it was given, as given (crawl-status.ts @ 2dd97c64).
		if (more) body.next = `${baseUrlOf(ctx.req, this.state.url)}${path}?skip=${skip + data.length}${typeof ctx.query.limit === 'string' && ctx.query.limit !== '' ? `&limit=${ctx.query.limit}` : ''}`;
		if (ph.endAt !== null) body.completedAt = iso(ph.endAt);
		return { status: 200, body };
	}

	errors(kind, id) {
		const job = this.find(kind, id);
		const ph = this.phase(job);
		const errors = job.urls
			.slice(0, ph.done)
			.filter((u) => u.includes('fake-page-error'))
			.map((u, k) => ({ id: `${job.id.slice(0, 24)}${String(k).padStart(12, '0')}`, timestamp: iso(job.createdAt + 1), url: u, error: 'Page failed: fake-page-error marker' }));
		const robotsBlocked = job.kind === 'crawl' && !job.request.ignoreRobotsTxt ? [`${new URL(job.request.url).origin}/admin`] : [];
		return { status: 200, body: { errors, robotsBlocked } };
	}

	cancel(kind, id) {
		const job = this.find(kind, id);
		if (this.phase(job).status === 'scraping') {
			job.cancelledAt = Date.now();
			this.sendEnd(job);
		}
		return { status: 200, body: { status: 'cancelled' } };
	}
}

function charge(state, credits) {
	if (state.team.remainingCredits < credits) throw fail(402, 'Payment Required: Insufficient credits');
}

function routes(state) {
	const jobs = new Jobs(state);
	state.crawlJobs = jobs;
	state.resetHooks.push(() => jobs.reset());
	const originOf = (ctx) => baseUrlOf(ctx.req, state.url);
	const ID = '([^/]+)';
	return [
		[
			'POST',
			/^\/v2\/crawl$/,
			(ctx) => {
				const body = ctx.json();
				requireObject(body);
				if (!isHttpUrl(body.url)) throw badRequest('Invalid URL', [{ code: 'invalid_string', validation: 'url', path: ['url'], message: 'Invalid URL' }]);
				assertValid(crawlBody, body);
				charge(state, 1);
				const job = jobs.create('crawl', body, crawlUrls(body), body.url, originOf(ctx));
				return { status: 200, body: { success: true, id: job.id, url: `${originOf(ctx)}/v2/crawl/${job.id}` } };
			},
		],
		[
			'GET',
			/^\/v2\/crawl\/active$/,
			(ctx) => {
				const crawls = [...jobs.jobs.values()]
					.filter((j) => j.kind === 'crawl' && jobs.phase(j).status === 'scraping')
					.map((j) => ({ id: j.id, teamId: 'fake-team', url: j.request.url, status: 'scraping', options: { ...j.request, url: undefined } }));
				return { status: 200, body: { success: true, crawls } };
			},
		],
		[
			'POST',
			/^\/v2\/crawl\/params-preview$/,
			(ctx) => {
				const body = ctx.json();
				requireObject(body);
				assertValid(previewBody, body);
				const p = body.prompt.toLowerCase();
				const data = { url: body.url };
				const m = /\b(blog|docs|pricing)\b/.exec(p);
				if (m) data.includePaths = [`${m[1]}/.*`];
				if (/\bsubdomain/.test(p)) data.allowSubdomains = true;
				if (/\bexternal\b/.test(p)) data.allowExternalLinks = true;
				const d = /depth (\d+)/.exec(p);
				if (d) data.maxDiscoveryDepth = Number(d[1]);
				data.sitemap = /\bno sitemap\b/.test(p) ? 'skip' : 'include';
				return { status: 200, body: { success: true, data } };
			},
		],
		['GET', new RegExp(`^/v2/crawl/${ID}$`), (ctx, id) => jobs.status(ctx, 'crawl', id)],
		['DELETE', new RegExp(`^/v2/crawl/${ID}$`), (ctx, id) => jobs.cancel('crawl', id)],
		['GET', new RegExp(`^/v2/crawl/${ID}/errors$`), (ctx, id) => jobs.errors('crawl', id)],
		[
			'POST',
			/^\/v2\/batch\/scrape$/,
			(ctx) => {
				const body = ctx.json();
				requireObject(body);
				if (Array.isArray(body.urls) && body.ignoreInvalidURLs !== true) {
					const bad = body.urls.findIndex((u) => !isHttpUrl(u));
					if (bad >= 0) throw badRequest('Invalid URL', [{ code: 'invalid_string', validation: 'url', path: ['urls', bad], message: 'Invalid URL' }]);
				}
				const valid = Array.isArray(body.urls) ? body.urls.filter((u) => isHttpUrl(u)) : body.urls;
				assertValid(batchBody, { ...body, urls: valid });
				charge(state, 1);
				const job = jobs.create('batch', body, valid, valid.join(' '), originOf(ctx));
				const invalidURLs = body.ignoreInvalidURLs === true ? body.urls.filter((u) => !isHttpUrl(u)) : undefined;
				return { status: 200, body: { success: true, id: job.id, url: `${originOf(ctx)}/v2/batch/scrape/${job.id}`, ...(invalidURLs ? { invalidURLs } : {}) } };
			},
		],
		['GET', new RegExp(`^/v2/batch/scrape/${ID}$`), (ctx, id) => jobs.status(ctx, 'batch', id)],
		['DELETE', new RegExp(`^/v2/batch/scrape/${ID}$`), (ctx, id) => jobs.cancel('batch', id)],
		['GET', new RegExp(`^/v2/batch/scrape/${ID}/errors$`), (ctx, id) => jobs.errors('batch', id)],
	];
}

module.exports = { routes, PAGE_SIZE };
