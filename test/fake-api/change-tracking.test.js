'use strict';
// The fake's change tracking on crawl (crawl.js trackChanges): per URL and tag it remembers what a
// tracked crawl returned, and the next tracked crawl says new / same / changed / removed; the site is
// edited through setSitePages (control route POST /__fake/site). Used by the site → vector store e2e.
const { startFakeApi } = require('./server');
const { CANARY_KEY } = require('../helpers/canary');

jest.setTimeout(20000);

let api;
beforeAll(async () => {
	api = await startFakeApi({ apiKey: CANARY_KEY, timeScale: 20 });
});
afterAll(async () => api.close());
beforeEach(() => api.reset());

const H = { authorization: `Bearer ${CANARY_KEY}`, 'content-type': 'application/json' };
async function crawl(formats, limit = 4) {
	const started = await (await fetch(`${api.url}/v2/crawl`, { method: 'POST', headers: H, body: JSON.stringify({ url: 'https://docs.example.com/', limit, scrapeOptions: { formats } }) })).json();
	await new Promise((r) => setTimeout(r, 200));
	const docs = [];
	for (let url = `${api.url}/v2/crawl/${started.id}`; url; ) {
		const page = await (await fetch(url, { headers: H })).json();
		expect(page.status).toBe('completed');
		docs.push(...page.data);
		url = page.next;
	}
	return Object.fromEntries(docs.map((d) => [d.metadata.url, d]));
}
const statuses = (docs) => Object.fromEntries(Object.entries(docs).map(([u, d]) => [u, d.changeTracking?.changeStatus]));
const TRACK = ['markdown', 'changeTracking'];

test('new, then same; an edited page is changed (with its new Markdown and the earlier time); a removed one is removed once, then gone', async () => {
	const first = await crawl(TRACK);
	expect(Object.values(statuses(first))).toEqual(['new', 'new', 'new', 'new']);
	expect(first['https://docs.example.com/about'].changeTracking).toEqual({ previousScrapeAt: null, changeStatus: 'new', visibility: 'visible' });
	expect(Object.values(statuses(await crawl(TRACK)))).toEqual(['same', 'same', 'same', 'same']);

	api.setSitePages({ 'https://docs.example.com/about': { markdown: '# About\n\nNew text' }, 'https://docs.example.com/pricing': { removed: true } });
	const third = await crawl(TRACK);
	expect(statuses(third)).toEqual({
		'https://docs.example.com/': 'same',
		'https://docs.example.com/about': 'changed',
		'https://docs.example.com/pricing': 'removed',
		'https://docs.example.com/blog': 'same',
	});
	expect(third['https://docs.example.com/about'].markdown).toBe('# About\n\nNew text');
	expect(third['https://docs.example.com/about'].changeTracking.previousScrapeAt).toMatch(/^\d{4}-\d\d-\d\dT/);
	expect(third['https://docs.example.com/pricing']).toMatchObject({ markdown: '', changeTracking: { changeStatus: 'removed', visibility: 'hidden' }, metadata: { statusCode: 404 } });
	expect(Object.keys(await crawl(TRACK))).not.toContain('https://docs.example.com/pricing');
});

test('a tag keeps its own history; a page removed before it was ever tracked is simply not crawled; reset forgets', async () => {
	api.setSitePages({ 'https://docs.example.com/blog': { removed: true } });
	await crawl(TRACK);
	const tagged = await crawl(['markdown', { type: 'changeTracking', tag: 'mine' }]);
	expect(Object.values(statuses(tagged))).toEqual(['new', 'new', 'new']);
	expect(Object.keys(tagged)).not.toContain('https://docs.example.com/blog');
	api.setSitePages({ 'https://docs.example.com/blog': null });
	expect(statuses(await crawl(TRACK))['https://docs.example.com/blog']).toBe('new');
	// without change tracking, nothing is compared
	expect(Object.values(await crawl(['markdown'])).every((d) => d.changeTracking === undefined)).toBe(true);
	api.reset();
	expect(Object.values(statuses(await crawl(TRACK)))).toEqual(['new', 'new', 'new', 'new']);
});
