'use strict';
// Shared ScrapeOptions of the fake: the strict checker (OpenAPI components.schemas.ScrapeOptions plus
// the keys spec 2.9 shows on a monitor's scrapeOptions) and a realistic Document for a URL.
// Used by scrape.js (POST /v2/scrape, /v2/search, /v2/map) and by crawl.js (crawl, batch scrape).
//
//   checkScrapeOptions(value, path) -> zod-style issues [] (unknown keys are issues)
//   fakeDocument(url, scrapeOptions, extra?) -> Document
//     extra: {origin} = where screenshot links point (the fake's own URL; GET /fake-screenshots/<id>.png
//     serves a PNG there), {title, markdown} to override the generated text, {metadata} merged in.
//   SCREENSHOT_PNG: the bytes served for every screenshot.
const { isPlainObject, uuidFrom, sampleFromSchema } = require('./util');
const { str, int, num, bool, arr, obj, rec, union, nullable, custom } = require('./validate');
const rules = require('./serverRules');

const both = (...schemas) => (v, p, out) => schemas.forEach((s) => s(v, p, out));
const jsonSchema = both(obj({}, { loose: true }), rules.structuredSchema);

const SIMPLE_FORMATS = ['markdown', 'summary', 'html', 'rawHtml', 'links', 'images', 'screenshot', 'json', 'changeTracking', 'branding', 'product', 'menu', 'audio', 'video'];
const ACTION_TYPES = ['wait', 'screenshot', 'click', 'write', 'press', 'scroll', 'scrape', 'executeJavascript', 'pdf'];

const viewport = obj({ width: int(), height: int() }, { required: ['width', 'height'] });

const formatObject = (v, p, out) => {
	if (!isPlainObject(v)) return void out.push({ code: 'invalid_type', path: p, expected: 'object', received: typeof v, message: 'Expected object' });
	switch (v.type) {
		case 'json':
			return obj({ type: str(), schema: jsonSchema, prompt: str({ max: 10000 }) }, { required: ['type'] })(v, p, out);
		case 'changeTracking':
			return obj(
				{ type: str(), modes: arr(str({ enum: ['git-diff', 'json'] })), schema: jsonSchema, prompt: str(), tag: nullable(str()) },
				{ required: ['type'] },
			)(v, p, out);
		case 'screenshot':
			return obj({ type: str(), fullPage: bool(), quality: int({ min: 1, max: 100 }), viewport }, { required: ['type'] })(v, p, out);
		case 'question':
			return obj({ type: str(), question: str({ max: 10000 }) }, { required: ['type', 'question'] })(v, p, out);
		case 'highlights':
			return obj({ type: str(), query: str({ max: 10000 }) }, { required: ['type', 'query'] })(v, p, out);
		default:
			return obj({ type: str({ enum: SIMPLE_FORMATS }) }, { required: ['type'] })(v, p, out);
	}
};
const formatItem = (v, p, out) => (typeof v === 'string' ? str({ enum: SIMPLE_FORMATS })(v, p, out) : formatObject(v, p, out));

const actionItem = (v, p, out) => {
	if (!isPlainObject(v)) return void out.push({ code: 'invalid_type', path: p, expected: 'object', message: 'Expected object' });
	const t = v.type;
	const shapes = {
		wait: v.selector !== undefined
			? obj({ type: str(), selector: str() }, { required: ['type', 'selector'] })
			: obj({ type: str(), milliseconds: int({ min: 1 }) }, { required: ['type', 'milliseconds'] }),
		screenshot: obj({ type: str(), fullPage: bool(), quality: int({ min: 1, max: 100 }), viewport }, { required: ['type'] }),
		click: obj({ type: str(), selector: str(), all: bool() }, { required: ['type', 'selector'] }),
		write: obj({ type: str(), text: str() }, { required: ['type', 'text'] }),
		press: obj({ type: str(), key: str() }, { required: ['type', 'key'] }),
		scroll: obj({ type: str(), direction: str({ enum: ['up', 'down'] }), selector: str() }, { required: ['type'] }),
		scrape: obj({ type: str() }, { required: ['type'] }),
		executeJavascript: obj({ type: str(), script: str() }, { required: ['type', 'script'] }),
		pdf: obj({ type: str(), format: str({ enum: ['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'Letter', 'Legal', 'Tabloid', 'Ledger'] }), landscape: bool(), scale: num() }, { required: ['type'] }),
	};
	if (!ACTION_TYPES.includes(t)) return str({ enum: ACTION_TYPES })(t, [...p, 'type'], out);
	shapes[t](v, p, out);
};

const parserItem = union(
	str({ enum: ['pdf', 'image'] }),
	obj(
		{ type: str({ enum: ['pdf'] }), mode: str({ enum: ['fast', 'auto', 'ocr'] }), maxPages: int({ min: 1, max: 10000 }), pages: bool(), blocks: bool(), pageMarkers: bool() },
		{ required: ['type'] },
	),
	obj({ type: str({ enum: ['image'] }) }, { required: ['type'] }),
);

const location = obj({ country: rules.country, languages: arr(str()) });

const redactObject = obj({
	mode: str({ enum: ['accurate', 'aggressive', 'fast'] }),
	replaceStyle: str({ enum: ['tag', 'mask', 'remove'] }),
	entities: arr(str({ enum: ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'] })),
});

const SCRAPE_OPTION_PROPS = {
	formats: arr(formatItem),
	onlyMainContent: bool(),
	onlyCleanContent: bool(),
	includeTags: arr(str()),
	excludeTags: arr(str()),
	maxAge: int({ min: 0 }),
	minAge: int({ min: 0 }),
	headers: rec(str()),
	waitFor: int({ min: 0, max: rules.MAX_WAIT_FOR_MS }),
	mobile: bool(),
	skipTlsVerification: bool(),
	timeout: int({ min: 1000, max: 300000 }),
	parsers: arr(parserItem),
	actions: both(arr(actionItem, { max: 50 }), rules.actionsTotal),
	location,
	removeBase64Images: bool(),
	blockAds: bool(),
	proxy: str({ enum: ['basic', 'stealth', 'enhanced', 'auto'] }),
	storeInCache: bool(),
	lockdown: bool(),
	redactPII: union(bool(), redactObject),
	profile: obj({ name: str({ min: 1, max: 128 }), saveChanges: bool() }, { required: ['name'] }),
	threatProtection: obj({}, { loose: true }),
	auditMetadata: obj({ username: str({ max: 1024 }) }, { required: ['username'] }),
	checkPromptInjection: bool(),
};

/** Rules across keys (the real server's refinements). */
function refineScrapeOptions(v, p, out) {
	const formats = Array.isArray(v.formats) ? v.formats.map((f) => (typeof f === 'string' ? f : f && f.type)) : [];
	if (formats.includes('changeTracking') && !formats.includes('markdown'))
		out.push(custom([...p, 'formats'], 'The changeTracking format requires the markdown format to be specified as well'));
	rules.waitForHalfOfTimeout(v, p, out);
	rules.totalWaitWithActions(v, p, out);
}

const scrapeOptionsSchema = obj(SCRAPE_OPTION_PROPS, { refine: refineScrapeOptions });

/** Search's scrapeOptions: the same keys, with search's shorter format list (types.ts searchRequestSchema). */
const searchScrapeOptionsSchema = obj(
	{
		...SCRAPE_OPTION_PROPS,
		formats: arr((v, p, out) => {
			formatItem(v, p, out);
			const type = typeof v === 'string' ? v : isPlainObject(v) ? v.type : undefined;
			if (SIMPLE_FORMATS.includes(type) && !rules.SEARCH_FORMATS.includes(type)) str({ enum: rules.SEARCH_FORMATS })(type, typeof v === 'string' ? p : [...p, 'type'], out);
		}),
	},
	{ refine: refineScrapeOptions },
);

/** Issues of a ScrapeOptions object at `path` (strict: unknown keys are issues); {search: true} for /v2/search. */
function checkScrapeOptions(value, path = [], o = {}) {
	const issues = [];
	(o.search ? searchScrapeOptionsSchema : scrapeOptionsSchema)(value, path, issues);
	return issues;
}

// ---- documents ----
const SCREENSHOT_PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
	'base64',
);

const formatTypes = (options) =>
	(Array.isArray(options && options.formats) ? options.formats : ['markdown']).map((f) => (typeof f === 'string' ? { type: f } : f));

function titleFor(url) {
	try {
		const u = new URL(url);
		const last = u.pathname.split('/').filter(Boolean).pop();
		return last ? `${decodeURIComponent(last).replace(/\.[a-z0-9]+$/i, '').replace(/[-_]+/g, ' ')} | ${u.hostname}` : u.hostname;
	} catch {
		return String(url);
	}
}

/**
 * What billing reads of the page behind `url` (issue 35): `numPages` (a URL ending in .pdf is a
 * 3-page PDF, cut to the pdf parser's maxPages) and `proxyUsed` ('stealth' for proxy enhanced or
 * stealth, and for proxy auto on a URL with the marker fake-antibot, where auto escalates).
 */
function pageFacts(url, options = {}) {
	const isPdf = /\.pdf($|[?#])/i.test(url);
	const maxPages = ((options.parsers || []).find((x) => x && x.maxPages) || {}).maxPages;
	const stealth = options.proxy === 'enhanced' || options.proxy === 'stealth' || (options.proxy === 'auto' && url.includes('fake-antibot'));
	return { numPages: isPdf ? Math.min(3, maxPages || 3) : undefined, proxyUsed: stealth ? 'stealth' : 'basic' };
}

/** Whether PDFs are parsed (server shouldParsePDF: no `parsers` = yes; else a pdf entry). */
const parsesPdf = (parsers) => !Array.isArray(parsers) || parsers.some((x) => x === 'pdf' || (x && x.type === 'pdf'));

/**
 * Credits of one scraped document, as the server's calculateCreditsToBeBilled (lib/scrape-billing.ts
 * @ 61e38dc8 and the newest stored version; nodes/FACTS.md "Credits"): 1 per document; lockdown +4;
 * a json format (or changeTracking with mode json) makes it 5 (set after lockdown, so it replaces
 * lockdown's bonus, as the server does); question, query, highlights, audio, video +4 each; zero data
 * retention +1 (not with lockdown); each PDF page after the first +1 when PDFs are parsed; redactPII
 * +4 and +4 per extra PDF page; the stealth proxy +4; checkPromptInjection +4 (spec 2.1).
 */
function scrapeCredits(options = {}, facts = {}, { zdr = false } = {}) {
	const formats = formatTypes(options);
	const has = (t) => formats.some((f) => f.type === t);
	const tracking = formats.find((f) => f.type === 'changeTracking');
	let credits = 1;
	if (options.lockdown) credits += 4;
	if (has('json') || (tracking && (tracking.modes || []).includes('json'))) credits = 5;
	for (const t of ['question', 'query', 'highlights', 'audio', 'video']) if (has(t)) credits += 4;
	if (zdr && !options.lockdown) credits += 1;
	const extraPages = parsesPdf(options.parsers) && facts.numPages > 1 ? facts.numPages - 1 : 0;
	credits += extraPages;
	if (options.redactPII) credits += 4 + 4 * extraPages;
	if (facts.proxyUsed === 'stealth') credits += 4;
	if (options.checkPromptInjection) credits += 4;
	return credits;
}

/** A Document as the service returns it for `url`, with a key for each requested format. */
/** Numbered paragraphs of the page's own text, about `chars` characters in all (at most 2 MB). */
function longText(url, chars) {
	const target = Math.min(chars, 2_000_000);
	const parts = [];
	let length = 0;
	for (let n = 1; length < target; n++) {
		const p = `Paragraph ${n} of ${url}: the service returns this text as the page's Markdown.`;
		parts.push(p);
		length += p.length + 2;
	}
	return parts.join('\n\n').slice(0, target);
}

function fakeDocument(url, scrapeOptions = {}, extra = {}) {
	const options = scrapeOptions || {};
	const formats = formatTypes(options);
	const wants = (t) => formats.find((f) => f.type === t);
	const scrapeId = uuidFrom('scrape', url, String(extra.seq ?? ''));
	const facts = pageFacts(url, options);
	const isPdf = facts.numPages !== undefined;
	const is404 = url.includes('fake-404');
	const title = extra.title ?? (is404 ? 'Page not found' : titleFor(url));
	const long = /fake-long-(\d+)/.exec(url); // a long page: about N characters of Markdown
	const body = is404
		? 'The page you asked for does not exist.'
		: long
			? longText(url, Number(long[1]))
			: `This is the content of ${url}. It has a short paragraph and a [link](${new URL('/about', url).href}).`;
	const markdown = extra.markdown ?? `# ${title}\n\n${body}`;
	const html = `<h1>${title}</h1><p>${body}</p>`;
	const doc = {};
	if (wants('markdown')) doc.markdown = markdown;
	if (wants('summary')) doc.summary = `A page titled "${title}".`;
	if (wants('html')) doc.html = html;
	if (wants('rawHtml')) doc.rawHtml = `<!DOCTYPE html><html><head><title>${title}</title></head><body>${html}<script>1</script></body></html>`;
	if (wants('links')) doc.links = [new URL('/about', url).href, new URL('/contact', url).href];
	if (wants('images')) doc.images = [new URL('/logo.png', url).href];
	if (wants('screenshot')) doc.screenshot = `${extra.origin || 'http://127.0.0.1'}/fake-screenshots/${scrapeId}.png`;
	const json = wants('json');
	if (json) doc.json = json.schema ? sampleFromSchema(json.schema, { title, source: url }) : { answer: `Extracted from ${url}`, prompt: json.prompt ?? null };
	const ct = wants('changeTracking');
	if (ct) {
		const modes = ct.modes || [];
		doc.changeTracking = {
			previousScrapeAt: null,
			changeStatus: 'new',
			visibility: 'visible',
			diff: modes.includes('git-diff') ? null : undefined,
			json: modes.includes('json') ? {} : undefined,
			...(extra.changeTracking || {}), // a crawl that tracks changes (crawl.js trackChanges)
		};
		for (const k of Object.keys(doc.changeTracking)) if (doc.changeTracking[k] === undefined) delete doc.changeTracking[k];
	}
	if (Array.isArray(options.actions) && options.actions.length) {
		doc.actions = { screenshots: [], scrapes: [], javascriptReturns: [], pdfs: [] };
		for (const a of options.actions) {
			if (a.type === 'screenshot') doc.actions.screenshots.push(`${extra.origin || 'http://127.0.0.1'}/fake-screenshots/${scrapeId}-action.png`);
			if (a.type === 'scrape') doc.actions.scrapes.push({ url, html });
			if (a.type === 'executeJavascript') doc.actions.javascriptReturns.push({ type: 'undefined', value: null });
			if (a.type === 'pdf') doc.actions.pdfs.push(`${extra.origin || 'http://127.0.0.1'}/fake-screenshots/${scrapeId}.pdf`);
		}
	}
	doc.metadata = {
		title,
		description: `Description of ${title}`,
		language: 'en',
		sourceURL: url,
		url,
		statusCode: is404 ? 404 : 200,
		contentType: isPdf ? 'application/pdf' : 'text/html; charset=utf-8',
		scrapeId,
		creditsUsed: scrapeCredits(options, facts, { zdr: extra.zdr }),
		proxyUsed: facts.proxyUsed,
		cacheState: 'miss',
		...(is404 ? { error: 'Not Found' } : {}),
		...(isPdf ? { numPages: facts.numPages, totalPages: 3 } : {}),
		...(extra.metadata || {}),
	};
	return doc;
}

module.exports = { checkScrapeOptions, fakeDocument, pageFacts, scrapeCredits, scrapeOptionsSchema, SCRAPE_OPTION_PROPS, refineScrapeOptions, SCREENSHOT_PNG };
