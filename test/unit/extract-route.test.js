'use strict';
// Issue 43.1: where each Extract parameter goes on the endpoints that live (nodes/FACTS.md "Extract
// after /extract"): the route and the request body, each option. Pure planning; nothing is sent.
// Build first.
const { planExtract, DEFAULT_PAGE_PROMPT } = require('../../dist/nodes/WebData/resources/extract/route');

const node = { name: 'Web Data', type: 'n8n-nodes-webdata.webData', typeVersion: 1, position: [0, 0], parameters: {} };
const params = (p = {}) => ({ urls: '', prompt: '', outputShape: 'free', options: {}, scrapeOptions: {}, ...p });
const plan = (p, starting = false) => planExtract(node, params(p), 0, starting);
const SCHEMA = { type: 'object', properties: { company: { type: 'string' } }, required: ['company'] };
const refused = (p) => {
	try {
		plan(p);
	} catch (e) {
		return e;
	}
	throw new Error('expected a validation error');
};

describe('the route', () => {
	test('one known page → Scrape with a JSON format (prompt and schema); Start → a batch of one (a job to read later)', () => {
		const p = plan({ urls: 'https://example.com/pricing', prompt: 'The plans', outputShape: 'schema', jsonSchema: JSON.stringify(SCHEMA) });
		expect(p.route).toBe('scrape');
		expect(p.body).toEqual({ url: 'https://example.com/pricing', formats: [{ type: 'json', prompt: 'The plans', schema: SCHEMA }] });
		const s = plan({ urls: 'https://example.com/pricing', prompt: 'The plans' }, true);
		expect(s.route).toBe('batchScrape');
		expect(s.body).toEqual({ urls: ['https://example.com/pricing'], formats: [{ type: 'json', prompt: 'The plans' }], ignoreInvalidURLs: true });
	});

	test('several known pages → Batch Scrape with the JSON format; Ignore Invalid URLs keeps its meaning (on unless switched off)', () => {
		const p = plan({ urls: 'https://a.example.com, https://b.example.com', prompt: 'X', options: { ignoreInvalidURLs: false } });
		expect(p.route).toBe('batchScrape');
		expect(p.body).toEqual({ urls: ['https://a.example.com', 'https://b.example.com'], formats: [{ type: 'json', prompt: 'X' }], ignoreInvalidURLs: false });
	});

	test.each([
		['no URLs', { prompt: 'The founders of Example Inc.' }, /no URLs/],
		['a /* URL', { urls: 'https://example.com/*', prompt: 'X' }, /ends in \/\*/],
		['Enable Web Search', { urls: 'https://example.com', prompt: 'X', options: { enableWebSearch: true } }, /Web Search/],
		['Allow External Links', { urls: 'https://example.com', prompt: 'X', options: { allowExternalLinks: true } }, /External Links/],
	])('%s → the Agent', (_what, p, reason) => {
		const out = plan(p);
		expect(out.route).toBe('agent');
		expect(out.reason).toMatch(reason);
	});

	test('Options → Endpoint "/extract" sends the old body to /extract, unchanged', () => {
		const p = plan({ urls: 'https://example.com/*', prompt: 'X', options: { endpoint: 'extract', showSources: true, systemPrompt: 'Be brief' } });
		expect(p.route).toBe('extract');
		expect(p.body).toEqual({ urls: ['https://example.com/*'], prompt: 'X', showSources: true, systemPrompt: 'Be brief' });
	});
});

describe('each option', () => {
	test('System Prompt is joined before the Prompt (the JSON format and the agent take one prompt); together at most 10000 characters', () => {
		expect(plan({ urls: 'https://example.com', prompt: 'The plans', options: { systemPrompt: 'Answer in German' } }).body.formats).toEqual([{ type: 'json', prompt: 'Answer in German\n\nThe plans' }]);
		const e = refused({ urls: 'https://example.com', prompt: 'p'.repeat(6000), options: { systemPrompt: 's'.repeat(5000) } });
		expect(e.message).toMatch(/^Prompt ".*" is not valid: with the System Prompt it has 11002 characters; the service takes one prompt of at most 10000/);
	});

	test('URLs alone (Free Form, no prompt): the JSON format gets a plain prompt; with a schema none is needed', () => {
		expect(plan({ urls: 'https://example.com' }).body.formats).toEqual([{ type: 'json', prompt: DEFAULT_PAGE_PROMPT }]);
		expect(plan({ urls: 'https://example.com', outputShape: 'schema', jsonSchema: JSON.stringify(SCHEMA) }).body.formats).toEqual([{ type: 'json', schema: SCHEMA }]);
	});

	test('the agent: URLs without /*, the scope in words, the schema and Max Credits (Agent)', () => {
		const p = plan({ urls: 'https://example.com/*, https://docs.example.com', prompt: 'The mission', outputShape: 'schema', jsonSchema: JSON.stringify(SCHEMA), options: { includeSubdomains: false, maxCredits: 300 } });
		expect(p.body).toEqual({
			prompt: 'The mission\nRead the pages below https://example.com/ as well.\nUse only pages of these sites (not their subdomains).',
			urls: ['https://example.com/', 'https://docs.example.com'],
			schema: SCHEMA,
			maxCredits: 300,
		});
		const web = plan({ urls: 'https://example.com', prompt: 'X', options: { enableWebSearch: true } });
		expect(web.body.prompt).toBe('X\nYou may search the web for more data beyond these pages.');
		const ext = plan({ urls: 'https://example.com', prompt: 'X', options: { allowExternalLinks: true } });
		expect(ext.body.prompt).toBe('X\nUse only pages of these sites and the sites they link to.');
		expect(plan({ prompt: 'The founders' }).body).toEqual({ prompt: 'The founders' });
	});

	test('the agent: options it has no use for are left out with a note; Headers, Browser Actions and Location are refused before sending', () => {
		const p = plan({ urls: 'https://example.com/*', prompt: 'X', options: { ignoreSitemap: true, showSources: true }, scrapeOptions: { onlyMainContent: true, timeout: 30000 } });
		expect(p.body).toEqual({ prompt: 'X\nRead the pages below https://example.com/ as well.\nUse only pages of these sites.', urls: ['https://example.com/'] });
		expect(p.notes).toEqual([
			'Scrape Options (onlyMainContent, timeout) left out: the agent reads pages its own way.',
			'Ignore Sitemap left out: the agent finds pages its own way.',
			'Show Sources: the agent reports no sources per field; "sources" lists the URLs it was given.',
		]);
		const e = refused({ urls: 'https://example.com/*', prompt: 'X', scrapeOptions: { headers: { header: [{ name: 'Cookie', value: 'a=b' }] } } });
		expect(e.message).toMatch(/^Scrape Options → Headers .* is not valid: this Extract runs on the agent \(https:\/\/example.com\/\* ends in \/\*/);
		expect(refused({ urls: 'https://example.com/*', prompt: 'X', scrapeOptions: { locationCountry: 'de' } }).message).toMatch(/^Scrape Options → Location/);
	});

	test('known pages: the scrape options go to the top level; Include Subdomains and Ignore Sitemap mean nothing without /* and are noted', () => {
		const p = plan({ urls: 'https://a.example.com, https://b.example.com', prompt: 'X', options: { includeSubdomains: true, ignoreSitemap: true }, scrapeOptions: { onlyMainContent: true, locationCountry: 'de' } });
		expect(p.body).toEqual({ urls: ['https://a.example.com', 'https://b.example.com'], onlyMainContent: true, location: { country: 'DE' }, formats: [{ type: 'json', prompt: 'X' }], ignoreInvalidURLs: true });
		expect(p.notes).toEqual(['Include Subdomains and Ignore Sitemap left out: they choose pages below a /* URL, and none was given.']);
	});

	test('Show Sources and Combine Pages are kept for the results; bad values are refused naming the field', () => {
		const p = plan({ urls: 'https://a.example.com, https://b.example.com', prompt: 'X', options: { showSources: true, combinePages: 'perPage' } });
		expect(p).toMatchObject({ showSources: true, combine: 'perPage' });
		expect(plan({ urls: 'https://a.example.com', prompt: 'X' }).combine).toBe('merge');
		expect(refused({ urls: 'https://a.example.com', prompt: 'X', options: { endpoint: 'v1' } }).message).toMatch(/^Options → Endpoint "v1" is not valid/);
		expect(refused({ urls: 'https://a.example.com', prompt: 'X', options: { combinePages: 'zip' } }).message).toMatch(/^Options → Combine Pages "zip" is not valid/);
		expect(refused({ prompt: 'X', options: { maxCredits: 0 } }).message).toMatch(/^Options → Max Credits \(Agent\) 0 is not valid/);
	});
});
