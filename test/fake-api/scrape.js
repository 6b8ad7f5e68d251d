'use strict';
// POST /v2/scrape, POST /v2/search, POST /v2/map (strict bodies, OpenAPI shapes, spec 7.1 errors),
// and GET /fake-screenshots/<id>.png (no auth: screenshot links point there, like a signed storage URL).
//
// URL markers that make /v2/scrape answer with an error of spec 7.1 (no fault rule needed):
//   fake-timeout     → 408 {code: SCRAPE_TIMEOUT, error: 'Request Timeout'}
//   fake-unsupported → 403 {code: UNSUPPORTED_SITE, error: 'We apologize for the inconvenience but we do not support this site...'}
//   fake-terms       → 403 {code: THIRD_PARTY_DATA_TERMS_REQUIRED, requiresAction: {url}}
//   fake-404         → 200 with metadata.statusCode 404 and metadata.error (the page, not the API, failed)
const { HttpError, badRequest, fail, isHttpUrl, uuidFrom } = require('./util');
// A successful scrape is recorded in state.scrapes (Map scrape id → {id, url, createdAt}) for interact.js.
const { str, int, bool, arr, obj, union, assertValid, validationError } = require('./validate');
const { SCRAPE_OPTION_PROPS, refineScrapeOptions, checkScrapeOptions, fakeDocument, SCREENSHOT_PNG } = require('./scrapeOptions');

const invalidUrl = (field = 'url') =>
	badRequest('Invalid URL', [{ code: 'invalid_string', validation: 'url', path: [field], message: 'Invalid URL' }]);

function requireUrl(body, field = 'url') {
	if (!isHttpUrl(body[field])) throw invalidUrl(field);
}

function requireObject(body) {
	if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Bad Request', [{ code: 'invalid_type', path: [], expected: 'object', message: 'Expected object' }]);
}

function pageErrors(url) {
	if (url.includes('fake-timeout')) throw new HttpError(408, { success: false, code: 'SCRAPE_TIMEOUT', error: 'Request Timeout' });
	if (url.includes('fake-unsupported'))
		throw new HttpError(403, {
			success: false,
			code: 'UNSUPPORTED_SITE',
			error: 'We apologize for the inconvenience but we do not support this site. If you are part of an enterprise and want to have a further discussion about this, please contact us.',
		});
	if (url.includes('fake-terms'))
		throw new HttpError(403, {
			success: false,
			code: 'THIRD_PARTY_DATA_TERMS_REQUIRED',
			error: 'The data provider for this URL requires your organization to accept its terms.',
			requiresAction: { url: 'https://dashboard.example/terms/provider' },
		});
}

// ---- /v2/scrape ----
const scrapeBody = obj(
	{ url: str(), ...SCRAPE_OPTION_PROPS, zeroDataRetention: bool(), origin: str(), integration: str() }, // integration never null: server v2/types.ts 000404f7
	{ required: ['url'], refine: refineScrapeOptions },
);

// ---- /v2/search ----
const SOURCES = ['web', 'news', 'images'];
const CATEGORIES = ['github', 'research', 'pdf'];
const sourceItem = union(
	str({ enum: SOURCES }),
	obj({ type: str({ enum: ['web'] }), tbs: str(), location: str() }, { required: ['type'] }),
	obj({ type: str({ enum: ['news', 'images'] }) }, { required: ['type'] }),
);
const categoryItem = union(str({ enum: CATEGORIES }), obj({ type: str({ enum: CATEGORIES }) }, { required: ['type'] }));
// types.ts @81015eb searchDomainSchema (trimmed, lower-cased first): the last label has 2+ characters.
const HOSTNAME_RE = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;
const hostname = (v, p, out) => {
	if (typeof v !== 'string') return str()(v, p, out);
	if (!HOSTNAME_RE.test(v.trim().toLowerCase())) out.push({ code: 'invalid_string', validation: 'hostname', path: p, message: 'Invalid hostname: give a domain such as example.com, without protocol or path' });
};
const searchBody = obj(
	{
		query: str({ min: 1, max: 500 }),
		limit: int({ min: 1, max: 100 }),
		sources: arr(sourceItem, { min: 1 }),
		categories: arr(categoryItem),
		includeDomains: arr(hostname, { max: 50 }),
		excludeDomains: arr(hostname, { max: 50 }),
		tbs: str(),
		location: str(),
		country: str(),
		safe: bool(),
		timeout: int({ min: 1000, max: 300000 }),
		ignoreInvalidURLs: bool(),
		highlights: bool(),
		enterprise: arr(str({ enum: ['anon', 'zdr'] })),
		scrapeOptions: (v, p, out) => out.push(...checkScrapeOptions(v, p, { search: true })),
		threatProtection: obj({}, { loose: true }),
		origin: str(),
		integration: str(),
	},
	{
		required: ['query'],
		refine: (v, p, out) => {
			if (v.includeDomains?.length && v.excludeDomains?.length)
				out.push({ code: 'custom', path: [...p, 'includeDomains'], message: 'includeDomains and excludeDomains cannot both be set' });
		},
	},
);

function slug(text) {
	return String(text).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'result';
}

function searchResults(body, origin, seq) {
	if (body.query.includes('fake-empty')) return { web: [] };
	const limit = body.limit ?? 10;
	const sources = (body.sources ?? ['web']).map((s) => (typeof s === 'string' ? s : s.type));
	const scrape = body.scrapeOptions && Array.isArray(body.scrapeOptions.formats) && body.scrapeOptions.formats.length ? body.scrapeOptions : null;
	const q = slug(body.query);
	const domains = body.includeDomains?.length ? body.includeDomains : ['example.com', 'example.org', 'example.net'];
	const data = {};
	const scrapeInto = (item, url) => {
		if (!scrape) return item;
		const doc = fakeDocument(url, scrape, { origin, seq });
		return { ...item, ...doc };
	};
	for (const source of new Set(sources)) {
		const results = [];
		for (let n = 1; n <= limit; n++) {
			const url = `https://${domains[(n - 1) % domains.length]}/${source}/${q}-${n}`;
			const title = `${body.query} — ${source} result ${n}`;
			if (source === 'web') {
				const item = { url, title, description: `Result ${n} about ${body.query}.`, position: n };
				if (body.categories?.length) item.category = typeof body.categories[0] === 'string' ? body.categories[0] : body.categories[0].type;
				results.push(scrapeInto(item, url));
			} else if (source === 'news') {
				results.push(scrapeInto({ title, snippet: `News ${n} about ${body.query}.`, url, date: '2 hours ago', imageUrl: `${url}.jpg`, position: n }, url));
			} else {
				results.push({ title, imageUrl: `https://img.example.com/${q}-${n}.jpg`, imageWidth: 640, imageHeight: 480, url, position: n });
			}
		}
		data[source] = results;
	}
	return data;
}

/**
 * The search's `creditsUsed` (issue 35; search/execute.ts of the newest stored server, nodes/FACTS.md
 * "Credits"): every 10 results (web, news and images together, after the limit) cost 2 credits, 10
 * with enterprise ["zdr"]; each scraped result adds its document's metadata.creditsUsed. No result,
 * no charge.
 */
function searchCredits(body, data) {
	const results = Object.values(data).flat();
	const perTen = (body.enterprise ?? []).includes('zdr') ? 10 : 2;
	const scraped = results.reduce((n, r) => n + (r.metadata?.creditsUsed ?? 0), 0);
	return Math.ceil(results.length / 10) * perTen + scraped;
}

// ---- /v2/map ----
const location = SCRAPE_OPTION_PROPS.location;
const mapBody = obj(
	{
		url: str(),
		search: str(),
		sitemap: str({ enum: ['skip', 'include', 'only'] }),
		includeSubdomains: bool(),
		ignoreQueryParameters: bool(),
		ignoreCache: bool(),
		limit: int({ min: 1, max: 100000 }),
		timeout: int({ min: 1 }),
		location,
		auditMetadata: obj({ username: str({ max: 1024 }) }, { required: ['username'] }),
		threatProtection: obj({}, { loose: true }),
		origin: str(),
		integration: str(),
	},
	{ required: ['url'] },
);

const SITE_PATHS = ['', 'about', 'pricing', 'blog', 'blog/first-post', 'blog/second-post', 'docs', 'docs/getting-started', 'docs/api', 'contact', 'careers', 'legal/privacy'];

function mapLinks(body) {
	const base = new URL(body.url);
	const host = base.hostname;
	const sitemap = body.sitemap ?? 'include';
	let links = SITE_PATHS.map((p, n) => ({
		url: `${base.protocol}//${host}/${p}`,
		title: p ? `${p.split('/').pop().replace(/-/g, ' ')} | ${host}` : host,
		description: `Page ${n + 1} of ${host}`,
		inSitemap: n % 3 !== 2,
	}));
	if (body.includeSubdomains !== false) links.push({ url: `${base.protocol}//blog.${host}/`, title: `blog.${host}`, inSitemap: false });
	if (body.ignoreQueryParameters === false) links.push({ url: `${base.protocol}//${host}/search?q=fake`, title: 'Search', inSitemap: false });
	if (sitemap === 'only') links = links.filter((l) => l.inSitemap);
	if (sitemap === 'skip') links = links.filter((l) => !l.inSitemap || l.url.endsWith(`${host}/`));
	if (body.search) {
		const words = body.search.toLowerCase().split(/\s+/).filter(Boolean);
		const score = (l) => words.filter((w) => l.url.toLowerCase().includes(w)).length;
		links = links.map((l) => ({ l, s: score(l) })).sort((a, b) => b.s - a.s).map((x) => x.l);
	}
	return links.slice(0, body.limit ?? 5000).map(({ inSitemap, ...l }) => l);
}

function routes(state) {
	// Scrape jobs by scrape id, so Interact (interact.js) can open a session on a scraped page.
	if (!(state.scrapes instanceof Map)) state.scrapes = new Map();
	state.resetHooks.push(() => state.scrapes.clear());
	const originOf = (ctx) => (ctx.req.headers.host ? `http://${ctx.req.headers.host}` : state.url);
	const charge = (credits) => {
		if (state.team.remainingCredits < credits) throw fail(402, 'Payment Required: Insufficient credits');
		state.team.remainingCredits -= credits;
	};
	return [
		[
			'POST',
			/^\/v2\/scrape$/,
			(ctx) => {
				const body = ctx.json();
				requireObject(body);
				requireUrl(body);
				assertValid(scrapeBody, body);
				pageErrors(body.url);
				const { url, zeroDataRetention, origin, integration, ...options } = body;
				// Marker fake-screenshot-port-<n> in the URL: the screenshot links point to 127.0.0.1:<n> (a
				// closed port in tests: storage that cannot be reached) instead of the fake's own origin.
				const shotPort = /fake-screenshot-port-(\d+)/.exec(url);
				const doc = fakeDocument(url, options, { origin: shotPort ? `http://127.0.0.1:${shotPort[1]}` : originOf(ctx), seq: state.seq, zdr: zeroDataRetention === true });
				charge(doc.metadata.creditsUsed);
				state.scrapes.set(doc.metadata.scrapeId, { id: doc.metadata.scrapeId, url, createdAt: new Date().toISOString() });
				return { status: 200, body: { success: true, data: doc } };
			},
		],
		[
			'POST',
			/^\/v2\/search$/,
			(ctx) => {
				const body = ctx.json();
				requireObject(body);
				assertValid(searchBody, body);
				const data = searchResults(body, originOf(ctx), state.seq);
				const creditsUsed = searchCredits(body, data);
				charge(creditsUsed);
				return { status: 200, body: { success: true, data, creditsUsed, id: uuidFrom('search', body.query, String(state.seq)) } };
			},
		],
		[
			'POST',
			/^\/v2\/map$/,
			(ctx) => {
				const body = ctx.json();
				requireObject(body);
				requireUrl(body);
				assertValid(mapBody, body);
				charge(1);
				return { status: 200, body: { success: true, links: mapLinks(body) } };
			},
		],
		[
			'GET',
			/^\/fake-screenshots\/([A-Za-z0-9-]+)(?:-action)?\.png$/,
			() => ({ status: 200, raw: SCREENSHOT_PNG, headers: { 'Content-Type': 'image/png' } }),
		],
	];
}

module.exports = { routes, validationError, checkScrapeOptions };
