'use strict';
/**
 * The web operations against a real server (issue 14 point 3): Scrape URL, Map URL, Crawl → Run and
 * Wait, Batch Scrape → Run and Wait, Search, Account → Get Credit Usage. Each runs as a real
 * workflow through n8n-core (test/helpers/workflow-runner.js) with the built node, and its items are
 * checked against what examples/README.md documents. Then two free reads of endpoints that
 * self-hosted servers lack (team activity, monitors): they work, or their error says so cleanly.
 * Then the package's heart (issue 24 point 3, test/real-server/heart.js): Parse, Monitor, the Web Data
 * Trigger on a monitor's deliveries, Run and Wait with Resume on Completion Webhook, job events into
 * the trigger. What the server lacks is a `skip` line with the server's answer, never a failure.
 *
 *   WEBDATA_REAL_URL=http://127.0.0.1:3002 WEBDATA_REAL_KEY=fc-… npm run test:real-server
 *   WEBDATA_REAL_URL=fake npm run test:real-server     (the project's fake API, started here)
 *
 * Environment (test/README.md, "A real server"):
 *   WEBDATA_REAL_URL      Base URL of the server (the credential's Base URL), or "fake". Without it: one skip line.
 *   WEBDATA_REAL_KEY      its API key (a self-hosted server without authentication takes any value).
 *   WEBDATA_REAL_SITE     a start page the server can fetch, with a path (http://host/index.html).
 *                         Unset: the suite serves its own 7-page site on 127.0.0.1, which a server on
 *                         this machine can render (and then the page contents are checked exactly).
 *   WEBDATA_REAL_QUERY    the search query (default "web scraping").
 *   WEBDATA_REAL_MAX_WAIT Max Wait of the Run and Wait operations and of each wait for a delivery, seconds (default 120).
 *   WEBDATA_REAL_ONLY     run only the parts whose name contains this text (or one of several, comma-separated).
 *   WEBDATA_REAL_FAKE_WITHOUT with "fake": endpoints (e.g. "parse,monitor") the fake answers as a server
 *                         without them does (HTTP 404, "Cannot POST …"), to see those parts skip.
 *   WEBDATA_REAL_HOOK_URL the URL base at which the server reaches the suite's receiver (n8n's
 *                         webhook and resume URLs), e.g. https://tunnel.example.com. Unset: a server
 *                         at a loopback address gets http://127.0.0.1:<port>; any other server skips
 *                         the parts that need deliveries (a hosted service cannot reach loopback).
 *   WEBDATA_REAL_HOOK_PORT the local port of the receiver (default: the port of WEBDATA_REAL_HOOK_URL, else any).
 *   WEBDATA_REAL_WEBHOOK_SECRET the server's webhook signing secret, put in the credential's Webhook
 *                         Signing Secret so that the trigger and the resume check signatures.
 * Last line: "N passed, N failed, N skipped" (exit code 1 when a check failed), or one skip line (exit code 0).
 * It costs credits on a paid service: about 1 + 10 + 3 pages (+ the search) for the web operations,
 * and as much again plus 5 parses and 2 monitor checks for the heart.
 */
const http = require('http');

const FAKE = (process.env.WEBDATA_REAL_URL || '').trim() === 'fake';
let BASE_URL = FAKE ? '' : (process.env.WEBDATA_REAL_URL || '').trim();
const API_KEY = process.env.WEBDATA_REAL_KEY || (FAKE ? 'real-server-suite-fake-key' : '');

if ((!BASE_URL && !FAKE) || !API_KEY) {
	console.log(
		`real-server suite skipped: set WEBDATA_REAL_URL and WEBDATA_REAL_KEY to run it (${!BASE_URL ? 'WEBDATA_REAL_URL' : 'WEBDATA_REAL_KEY'} is not set; see test/README.md)`,
	);
	process.exit(0);
}

const { runWorkflow } = require('../helpers/workflow-runner');
const { webDataWorkflow, WEB_DATA } = require('../helpers/workflows');
const { heart } = require('./heart');

const MAX_WAIT = Number(process.env.WEBDATA_REAL_MAX_WAIT || 120);
const QUERY = process.env.WEBDATA_REAL_QUERY || 'web scraping';
const ONLY = process.env.WEBDATA_REAL_ONLY || '';
const ONLY_PARTS = ONLY.split(',').map((p) => p.trim().toLowerCase()).filter(Boolean);
const wanted = (name) => ONLY_PARTS.length === 0 || ONLY_PARTS.some((p) => name.toLowerCase().includes(p));
// Fake mode only: endpoints the fake answers like a server without them (Express's 404), e.g. "parse,monitor".
const FAKE_WITHOUT = FAKE ? (process.env.WEBDATA_REAL_FAKE_WITHOUT || '').split(',').map((p) => p.trim()).filter(Boolean) : [];
const HOOK_URL = (process.env.WEBDATA_REAL_HOOK_URL || '').trim();
const HOOK_PORT = Number(process.env.WEBDATA_REAL_HOOK_PORT || (HOOK_URL ? new URL(HOOK_URL).port || 0 : 0));
const FAKE_SECRET = 'real-server-suite-fake-signing-secret';
const WEBHOOK_SECRET = process.env.WEBDATA_REAL_WEBHOOK_SECRET || (FAKE ? FAKE_SECRET : '');
const credentials = () => ({ webDataApi: { apiKey: API_KEY, baseUrl: BASE_URL, webhookSecret: WEBHOOK_SECRET } });

// --- The suite's own site (when WEBDATA_REAL_SITE is not given) ----------------------------------
// A home page links to a, b, c; each of those links home and to its own "more" page: 7 pages.
// Paths end in ".html": the server's URL check wants something that looks like a domain or a path.
const OWN_PAGES = {
	'/index.html': { title: 'Home', body: '<h1>Home</h1><p>Start of the test site.</p><a href="/a.html">A</a> <a href="/b.html">B</a> <a href="/c.html">C</a>' },
};
for (const p of ['a', 'b', 'c']) {
	OWN_PAGES[`/${p}.html`] = { title: `Page ${p}`, body: `<h1>Page ${p}</h1><p>Text of page ${p}.</p><a href="/index.html">home</a> <a href="/${p}-more.html">more</a>` };
	OWN_PAGES[`/${p}-more.html`] = { title: `More ${p}`, body: `<h1>More ${p}</h1><p>More text of ${p}.</p><a href="/${p}.html">back</a>` };
}

function startOwnSite() {
	const server = http.createServer((req, res) => {
		if (req.url === '/sitemap.xml') {
			const urls = Object.keys(OWN_PAGES).map((p) => `<url><loc>http://${req.headers.host}${p}</loc></url>`);
			res.writeHead(200, { 'Content-Type': 'application/xml' });
			res.end(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>`);
			return;
		}
		const page = OWN_PAGES[req.url.split('?')[0]];
		const html = page
			? `<!DOCTYPE html><html><head><title>${page.title}</title><meta name="description" content="${page.title} of the webdata test site"></head><body>${page.body}</body></html>`
			: '<!DOCTYPE html><html><head><title>Not found</title></head><body><h1>Not found</h1></body></html>';
		res.writeHead(page ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
		res.end(html);
	});
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// --- Checks --------------------------------------------------------------------------------------
const results = [];
const notes = [];

function check(name, fn) {
	try {
		const problem = fn();
		if (problem) throw new Error(problem);
		results.push({ name, ok: true });
		console.log(`ok   - ${name}`);
	} catch (error) {
		results.push({ name, ok: false });
		console.log(`FAIL - ${name}: ${error.message}`);
	}
}
/** What the server lacks: not a failure; `answer` is the server's own word (or why it cannot be run). */
function skip(name, answer) {
	results.push({ name, skipped: true });
	console.log(`skip - ${name}: ${answer}`);
}
const note = (text) => {
	notes.push(text);
	console.log(`note - ${text}`);
};
const isString = (v) => typeof v === 'string';
const isNonEmptyString = (v) => typeof v === 'string' && v.trim() !== '';
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const short = (v) => JSON.stringify(v)?.slice(0, 300);
/** The path of a page item's URL; "(no URL)" for an item without one (a failed run's empty item). */
function pathOf(page) {
	try {
		return new URL(page.metadata?.sourceURL ?? page.url).pathname;
	} catch {
		return '(no URL)';
	}
}

async function runNode(parameters, items = [{ json: {} }]) {
	const started = Date.now();
	const result = await runWorkflow(webDataWorkflow(parameters, items), { credentials: credentials() });
	const seconds = ((Date.now() - started) / 1000).toFixed(1);
	if (result.status !== 'success') {
		const e = result.error || {};
		return { ok: false, seconds, error: `${e.message}${e.description ? ` — ${e.description}` : ''}` };
	}
	return { ok: true, seconds, items: result.json(WEB_DATA), raw: result.items(WEB_DATA) };
}

/** Runs one operation; a failed run is one failed check, and its item checks are not run. */
async function operation(name, parameters, items, checks) {
	if (!wanted(name)) return;
	console.log(`\n# ${name}`);
	const run = await runNode(parameters, items);
	check(`${name}: the workflow succeeds${run.ok ? ` (${run.seconds} s, ${run.items.length} items)` : ''}`, () => (run.ok ? undefined : run.error));
	if (run.ok) checks(run.items, run.raw);
}

// Keys of a page item as examples/README.md documents them (Scrape URL, Output: Full).
function checkPage(prefix, page, expectedUrl, own) {
	check(`${prefix}: markdown is a non-empty string`, () => (isNonEmptyString(page.markdown) ? undefined : `markdown: ${short(page.markdown)}`));
	check(`${prefix}: metadata has sourceURL, statusCode 200, contentType text/html`, () => {
		const m = page.metadata;
		if (!isObject(m)) return `metadata: ${short(m)}`;
		if (!isString(m.sourceURL)) return `metadata.sourceURL: ${short(m.sourceURL)}`;
		if (m.statusCode !== 200) return `metadata.statusCode: ${short(m.statusCode)}`;
		if (!isString(m.contentType) || !m.contentType.startsWith('text/html')) return `metadata.contentType: ${short(m.contentType)}`;
		return undefined;
	});
	if (expectedUrl) check(`${prefix}: url is the page's URL`, () => (page.url === expectedUrl ? undefined : `url ${short(page.url)}, expected ${expectedUrl}`));
	if (own) {
		const path = pathOf(page);
		const known = OWN_PAGES[path];
		check(`${prefix}: title and text are those of ${path}`, () => {
			if (!known) return `not a page of the site: ${path}`;
			if (page.metadata.title !== known.title) return `title ${short(page.metadata.title)}, expected ${known.title}`;
			const text = known.body.match(/<p>([^<]*)<\/p>/)[1];
			return page.markdown.includes(text) ? undefined : `markdown lacks "${text}": ${short(page.markdown)}`;
		});
	}
}

/** The receiver for deliveries and resume calls, or the reason why there is none. */
async function startHookReceiver() {
	const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(BASE_URL).hostname);
	if (!HOOK_URL && !loopback) {
		return { why: `the server is not on this machine and WEBDATA_REAL_HOOK_URL is not set (the server must reach the suite's receiver; see test/README.md)` };
	}
	const { startReceiver } = require('./receiver');
	const receiver = await startReceiver({
		port: HOOK_PORT,
		host: HOOK_URL && !/^https?:\/\/(127\.0\.0\.1|localhost)[:/]/.test(HOOK_URL) ? '0.0.0.0' : '127.0.0.1',
		publicBase: HOOK_URL || undefined,
		credential: credentials().webDataApi,
	});
	return { receiver };
}

async function main() {
	let fakeApi;
	if (FAKE) {
		// The project's fake API, as the jest suites start it: signed deliveries, checks 10 times faster.
		const { startFakeApi } = require('../fake-api/server');
		fakeApi = await startFakeApi({ apiKey: API_KEY, webhookSigningSecret: FAKE_SECRET, timeScale: 10 });
		BASE_URL = fakeApi.url;
		for (const name of FAKE_WITHOUT) {
			fakeApi.fault({ re: `^/v2/${name}(/|$)`, statuses: [404], every: 1, body: `Cannot POST /v2/${name}` });
		}
	}
	let ownSite;
	let start = (process.env.WEBDATA_REAL_SITE || '').trim();
	if (!start) {
		ownSite = await startOwnSite();
		start = `http://127.0.0.1:${ownSite.address().port}/index.html`;
	}
	// The fake API does not fetch pages (it makes them up), so the site's contents are checked on a real server only.
	const own = Boolean(ownSite) && !FAKE;
	const origin = new URL(start).origin;
	console.log(`real server: ${BASE_URL}${FAKE ? ' (the project\'s fake API)' : ''}; site: ${start}${own ? ' (served by this suite)' : ''}`);
	let hooks = {};

	try {
		// Scrape URL: Output Full, formats Markdown and Links.
		let links = [];
		let batchUrls = [start];
		await operation('Scrape URL', { resource: 'scrape', operation: 'scrapeUrl', url: start, formats: ['markdown', 'links'] }, undefined, (items) => {
			check('Scrape URL: one item', () => (items.length === 1 ? undefined : `${items.length} items`));
			const [page] = items;
			if (!page) return;
			check('Scrape URL: url comes first', () => (Object.keys(page)[0] === 'url' ? undefined : `first key ${Object.keys(page)[0]}`));
			checkPage('Scrape URL', page, start, own);
			check('Scrape URL: links is a list of absolute URLs', () =>
				Array.isArray(page.links) && page.links.every((l) => /^https?:\/\//.test(l)) ? undefined : `links: ${short(page.links)}`,
			);
			if (own) {
				const expected = ['a', 'b', 'c'].map((p) => `${origin}/${p}.html`);
				check('Scrape URL: links are the three links of the home page', () =>
					expected.every((l) => page.links.includes(l)) ? undefined : `links: ${short(page.links)}`,
				);
			}
			links = (page.links || []).filter((l) => l.startsWith(origin) && l !== start);
		});

		// Map URL: one item with all links ({url, count, links}).
		await operation('Map URL', { resource: 'map', operation: 'mapUrl', url: start, output: 'single' }, undefined, (items) => {
			check('Map URL: one item {url, count, links}', () => {
				if (items.length !== 1) return `${items.length} items`;
				const [m] = items;
				if (!isString(m.url) || !Array.isArray(m.links) || m.count !== m.links.length) return short(m);
				return undefined;
			});
			const found = items[0]?.links ?? [];
			check('Map URL: every link is {url} with an absolute URL (title, description optional)', () =>
				found.every((l) => isObject(l) && /^https?:\/\//.test(l.url)) ? undefined : short(found.slice(0, 3)),
			);
			if (own && found.length > 0) {
				check('Map URL: every link is a page of the site', () => {
					const bad = found.find((l) => !l.url.startsWith(origin) || !OWN_PAGES[new URL(l.url).pathname]);
					return bad ? short(bad) : undefined;
				});
			}
			if (found.length === 0) note('Map URL: the server found no links (a map reads the sitemap and the search index; a server that cannot fetch them returns none)');
			else note(`Map URL: ${found.length} links`);
		});

		// Crawl → Run and Wait: one item per page with jobId, jobStatus, url.
		await operation(
			'Crawl Run and Wait',
			{ resource: 'crawl', operation: 'runAndWait', url: start, pageLimit: 10, options: { crawlEntireDomain: true }, maxWait: MAX_WAIT, onTimeout: 'fail' },
			undefined,
			(items) => {
				check('Crawl Run and Wait: at least one page', () => (items.length >= 1 ? undefined : 'no items'));
				check('Crawl Run and Wait: every item has jobId (UUID), jobStatus "completed", url', () => {
					const bad = items.find((p) => !/^[0-9a-f-]{36}$/i.test(p.jobId) || p.jobStatus !== 'completed' || !isString(p.url));
					return bad ? short({ jobId: bad.jobId, jobStatus: bad.jobStatus, url: bad.url }) : undefined;
				});
				check('Crawl Run and Wait: one job for all pages', () => (new Set(items.map((p) => p.jobId)).size === 1 ? undefined : 'several job ids'));
				items.forEach((p, i) => checkPage(`Crawl Run and Wait page ${i + 1}`, p, undefined, own));
				if (own) {
					const paths = new Set(items.map(pathOf));
					check('Crawl Run and Wait: the 7 pages of the site, each once', () =>
						paths.size === 7 && items.length === 7 && Object.keys(OWN_PAGES).every((p) => paths.has(p)) ? undefined : `pages: ${short([...paths])}`,
					);
				}
			},
		);

		// Batch Scrape → Run and Wait: the start page and up to two linked pages, paired to their items.
		batchUrls = [start, ...links.slice(0, 2)];
		await operation(
			'Batch Scrape Run and Wait',
			{ resource: 'batchScrape', operation: 'runAndWait', url: '={{ $json.link }}', maxWait: MAX_WAIT, onTimeout: 'fail' },
			batchUrls.map((link) => ({ json: { link } })),
			(items, raw) => {
				check(`Batch Scrape Run and Wait: one item per URL (${batchUrls.length})`, () => (items.length === batchUrls.length ? undefined : `${items.length} items`));
				check('Batch Scrape Run and Wait: each page is paired to the item of its URL', () => {
					for (const item of raw) {
						const index = item.pairedItem?.item;
						const url = item.json.metadata?.sourceURL ?? item.json.url;
						if (batchUrls[index] !== url) return `item ${short(item.pairedItem)} has ${url}`;
					}
					return undefined;
				});
				check('Batch Scrape Run and Wait: every item has jobId, jobStatus "completed", url', () => {
					const bad = items.find((p) => !/^[0-9a-f-]{36}$/i.test(p.jobId) || p.jobStatus !== 'completed' || !isString(p.url));
					return bad ? short({ jobId: bad.jobId, jobStatus: bad.jobStatus, url: bad.url }) : undefined;
				});
				items.forEach((p, i) => checkPage(`Batch Scrape Run and Wait page ${i + 1}`, p, undefined, own));
			},
		);

		// Search: one item per result with its source; no results, no items.
		await operation('Search', { resource: 'search', operation: 'search', query: QUERY, maxResults: 3 }, undefined, (items) => {
			check('Search: every item has source (web, news, images) and url', () => {
				const bad = items.find((r) => !['web', 'news', 'images'].includes(r.source) || !isString(r.url));
				return bad ? short(bad) : undefined;
			});
			check('Search: at most Limit (3) results per source', () => {
				const per = {};
				for (const r of items) per[r.source] = (per[r.source] || 0) + 1;
				return Object.values(per).every((n) => n <= 3) ? undefined : short(per);
			});
			if (items.length === 0) note('Search: no results (the server has no search engine it can reach)');
			else note(`Search: ${items.length} results`);
		});

		// Account → Get Credit Usage: one item {remainingCredits, planCredits, billingPeriodStart, billingPeriodEnd}.
		await operation('Get Credit Usage', { resource: 'account', operation: 'getCreditUsage' }, undefined, (items) => {
			check('Get Credit Usage: one item with remainingCredits as a number', () =>
				items.length === 1 && typeof items[0].remainingCredits === 'number' ? undefined : short(items),
			);
			const missing = ['planCredits', 'billingPeriodStart', 'billingPeriodEnd'].filter((k) => !(k in (items[0] ?? {})));
			if (missing.length) note(`Get Credit Usage: the server does not send ${missing.join(', ')} (documented for the hosted service)`);
		});

		// Endpoints that self-hosted servers (the open-source one as of 2025-08) do not have: either the
		// operation works, or its error says the server has no such endpoint, with no HTML in it (issue 14).
		for (const [name, parameters, request] of [
			['Get Many Recent Jobs', { resource: 'account', operation: 'getActivity', limit: 3 }, 'GET /v2/team/activity'],
			['Monitor Get Many', { resource: 'monitor', operation: 'getMany', limit: 3 }, 'GET /v2/monitor'],
		]) {
			if (!wanted(name)) continue;
			console.log(`\n# ${name}`);
			const run = await runNode(parameters);
			check(`${name}: works, or says the server has no endpoint ${request}, without HTML`, () => {
				if (run.ok) return undefined;
				if (!run.error.includes(`has no endpoint ${request}`)) return run.error;
				if (/<[a-z!/]/i.test(run.error)) return `HTML in the error: ${run.error}`;
				if (/Nothing exists with this id|has this ID/.test(run.error)) return `an id hint: ${run.error}`;
				return undefined;
			});
			note(`${name}: ${run.ok ? `works (${run.items.length} items)` : run.error.split(' — ')[0]}`);
		}

		// The heart: Parse, Monitor, the trigger, resume, job events (test/real-server/heart.js).
		hooks = await startHookReceiver();
		if (hooks.receiver) console.log(`\nreceiver (n8n's webhook and resume URLs): ${hooks.receiver.base}`);
		await heart({
			check,
			skip,
			note,
			runNode,
			short,
			isObject,
			isNonEmptyString,
			wanted,
			start,
			own,
			batchUrls,
			maxWait: MAX_WAIT,
			apiKey: API_KEY,
			credentials: credentials(),
			webhookSecret: WEBHOOK_SECRET,
			receiver: hooks.receiver,
			noReceiver: hooks.why,
		});
	} finally {
		if (hooks.receiver) await hooks.receiver.close();
		if (ownSite) await new Promise((resolve) => ownSite.close(resolve));
		if (fakeApi) await fakeApi.close();
	}

	const passed = results.filter((r) => r.ok).length;
	const skipped = results.filter((r) => r.skipped).length;
	const failed = results.length - passed - skipped;
	console.log(`\n${notes.length} notes`);
	console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
	process.exit(failed === 0 ? 0 : 1);
}

main().catch((error) => {
	console.log(`FAIL - the suite itself: ${error.stack || error}`);
	console.log(`${results.filter((r) => r.ok).length} passed, ${results.filter((r) => !r.ok && !r.skipped).length + 1} failed, ${results.filter((r) => r.skipped).length} skipped`);
	process.exit(1);
});
