'use strict';
// Issue 35: the fake reports credits where the open-source server does, by the server's rules
// (nodes/FACTS.md "Credits"). Run: npx jest --config test/jest.config.js test/fake-api/credits.test.js
const { startFakeApi } = require('./server');

jest.setTimeout(30000);
const KEY = 'test-key';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

describe('fake API: credits', () => {
	let api;
	const call = async (method, p, body) => {
		const res = await fetch(p.startsWith('http') ? p : api.url + p, {
			method,
			headers: { Authorization: `Bearer ${KEY}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
			body: body !== undefined ? JSON.stringify(body) : undefined,
		});
		return { status: res.status, json: await res.json() };
	};
	const scrape = async (body) => {
		const r = await call('POST', '/v2/scrape', body);
		expect(r.status).toBe(200);
		return r.json.data.metadata;
	};
	/** All documents of a crawl or batch status, following `next`. */
	const allPages = async (path) => {
		const docs = [];
		let first;
		for (let next = path; next; ) {
			const r = (await call('GET', next)).json;
			first = first ?? r;
			docs.push(...r.data);
			next = r.next;
		}
		return { status: first, docs };
	};

	beforeAll(async () => {
		api = await startFakeApi({ apiKey: KEY, timeScale: 20, extract: 'routed' });
	});
	afterAll(() => api.close());
	beforeEach(() => api.reset());

	test('scrape: data.metadata.creditsUsed by the billing rules, and the team is charged that much', async () => {
		const json = { type: 'json', prompt: 'The title' };
		const cases = [
			[{ url: 'https://example.com/a' }, 1, 'basic'],
			[{ url: 'https://example.com/a', formats: [json] }, 5, 'basic'],
			[{ url: 'https://example.com/a', formats: ['markdown', { type: 'changeTracking', modes: ['json'] }] }, 5, 'basic'],
			[{ url: 'https://example.com/a', formats: ['markdown', json], proxy: 'enhanced' }, 9, 'stealth'],
			[{ url: 'https://example.com/a', proxy: 'stealth' }, 5, 'stealth'],
			[{ url: 'https://example.com/a', proxy: 'auto' }, 1, 'basic'],
			[{ url: 'https://example.com/fake-antibot', proxy: 'auto' }, 5, 'stealth'],
			[{ url: 'https://example.com/a', formats: [{ type: 'question', question: 'Who?' }] }, 5, 'basic'],
			[{ url: 'https://example.com/a', formats: ['audio'] }, 5, 'basic'],
			[{ url: 'https://example.com/a', zeroDataRetention: true }, 2, 'basic'],
			[{ url: 'https://example.com/a', lockdown: true }, 5, 'basic'],
			[{ url: 'https://example.com/a', lockdown: true, formats: [json] }, 5, 'basic'],
			[{ url: 'https://example.com/a', checkPromptInjection: true }, 5, 'basic'],
			// A 3-page PDF: +1 for each page after the first, only when PDFs are parsed.
			[{ url: 'https://example.com/report.pdf' }, 3, 'basic'],
			[{ url: 'https://example.com/report.pdf', parsers: [{ type: 'pdf', maxPages: 2 }] }, 2, 'basic'],
			[{ url: 'https://example.com/report.pdf', parsers: [] }, 1, 'basic'],
			[{ url: 'https://example.com/report.pdf', redactPII: true }, 1 + 2 + 4 + 4 * 2, 'basic'],
			[{ url: 'https://example.com/report.pdf', proxy: 'enhanced', formats: [json] }, 5 + 2 + 4, 'stealth'],
		];
		for (const [body, credits, proxyUsed] of cases) {
			api.setTeam({ remainingCredits: 1000 });
			const metadata = await scrape(body);
			expect({ body, creditsUsed: metadata.creditsUsed, proxyUsed: metadata.proxyUsed }).toEqual({ body, creditsUsed: credits, proxyUsed });
			expect((await call('GET', '/v2/team/credit-usage')).json.data.remainingCredits).toBe(1000 - credits);
		}
	});

	test('search: top-level creditsUsed = 2 per 10 results (10 with enterprise zdr) + the scraped documents', async () => {
		const search = async (body) => {
			const r = await call('POST', '/v2/search', body);
			expect(r.status).toBe(200);
			return r.json;
		};
		expect((await search({ query: 'fake-empty' })).creditsUsed).toBe(0);
		expect((await search({ query: 'cats', limit: 5 })).creditsUsed).toBe(2);
		expect((await search({ query: 'cats', limit: 11 })).creditsUsed).toBe(4);
		// web, news and images together: 30 results.
		expect((await search({ query: 'cats', limit: 10, sources: ['web', 'news', 'images'] })).creditsUsed).toBe(6);
		expect((await search({ query: 'cats', limit: 10, enterprise: ['zdr'] })).creditsUsed).toBe(10);
		const scraped = await search({ query: 'cats', limit: 3, scrapeOptions: { formats: ['markdown'] } });
		expect(scraped.data.web.map((r) => r.metadata.creditsUsed)).toEqual([1, 1, 1]);
		expect(scraped.creditsUsed).toBe(2 + 3);
		const withJson = await search({ query: 'cats', limit: 3, sources: ['web', 'news'], scrapeOptions: { formats: [{ type: 'json', prompt: 'x' }] } });
		expect(withJson.creditsUsed).toBe(2 + 6 * 5);
	});

	test('batch scrape status: creditsUsed = the finished pages\' metadata.creditsUsed; a failed page bills nothing', async () => {
		const urls = ['https://a.example/1', 'https://a.example/report.pdf', 'https://a.example/fake-page-error', 'https://a.example/4'];
		const { id } = (await call('POST', '/v2/batch/scrape', { urls, formats: [{ type: 'json', prompt: 'x' }], proxy: 'enhanced' })).json;
		await sleep(300); // 2 s / timeScale 20: done
		const { status, docs } = await allPages(`/v2/batch/scrape/${id}`);
		expect(status).toMatchObject({ status: 'completed', completed: 3, total: 4 });
		expect(docs.map((d) => d.metadata.creditsUsed)).toEqual([9, 9 + 2, 9]);
		expect(status.creditsUsed).toBe(29);
	});

	test('crawl status: creditsUsed = the sum of its documents\' metadata.creditsUsed', async () => {
		const { id } = (await call('POST', '/v2/crawl', { url: 'https://example.com', limit: 5, scrapeOptions: { formats: ['markdown', 'audio'] } })).json;
		await sleep(300);
		const { status, docs } = await allPages(`/v2/crawl/${id}`);
		expect(status).toMatchObject({ status: 'completed', completed: 5 });
		expect(docs).toHaveLength(5);
		expect(status.creditsUsed).toBe(25);
		expect(docs.reduce((n, d) => n + d.metadata.creditsUsed, 0)).toBe(25);
	});

	test('extract status: tokensUsed by the token rule (2 per character of the result + 300), creditsUsed present', async () => {
		const { id } = (await call('POST', '/v2/extract', { urls: ['https://example.com/'], prompt: 'The title FAKE_DURATION_MS=20' })).json;
		await sleep(100);
		const done = (await call('GET', `/v2/extract/${id}`)).json;
		expect(done.status).toBe('completed');
		expect(done.tokensUsed).toBe(Math.floor(JSON.stringify(done.data).length * 2 + 300));
		expect(done.creditsUsed).toBe(5);
	});

	test('interact: a stopped code-only session bills 120 credits an hour, at least 2', async () => {
		const { id } = (await call('POST', '/v2/interact', {})).json;
		const stopped = (await call('DELETE', `/v2/interact/${id}`)).json;
		expect(stopped).toMatchObject({ success: true, creditsBilled: 2 });
	});
});
