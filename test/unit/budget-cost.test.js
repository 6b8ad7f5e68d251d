'use strict';
/**
 * Issue 35: the costs the node reserves before sending (nodes/WebData/budget/cost.ts) against the
 * fake service's billing (test/fake-api/scrapeOptions.js scrapeCredits, which follows the open-source
 * server's rules, nodes/FACTS.md "Credits"), and the ledger as n8n's custom data can hold it.
 */
const { documentCredits, searchCredits, reportedCredits } = require('../../dist/nodes/WebData/budget/cost');
const { parseLedger, serializeLedger, MAX_VALUE_CHARS } = require('../../dist/nodes/WebData/budget/ledger');
const { CreditBudget, budgetValue } = require('../../dist/nodes/WebData/budget');
const { scrapeCredits, pageFacts } = require('../fake-api/scrapeOptions');

describe('the least a page costs is what the service bills for a plain HTML page', () => {
	const cases = [
		{},
		{ formats: ['markdown'] },
		{ formats: ['markdown', { type: 'json', prompt: 'x' }] },
		{ formats: ['markdown', { type: 'changeTracking', modes: ['json'] }] },
		{ formats: ['markdown', { type: 'changeTracking', modes: ['git-diff'] }] },
		{ formats: ['markdown', { type: 'question', question: 'x' }, 'audio'] },
		{ formats: ['markdown'], proxy: 'enhanced' },
		{ formats: ['markdown'], proxy: 'stealth' },
		{ formats: ['markdown'], proxy: 'auto' },
		{ formats: ['markdown'], lockdown: true },
		{ formats: [{ type: 'json', prompt: 'x' }], lockdown: true },
		{ formats: ['markdown'], redactPII: true, checkPromptInjection: true },
	];
	test.each(cases.map((c) => [JSON.stringify(c), c]))('%s', (_name, options) => {
		const billed = scrapeCredits(options, pageFacts('https://example.com/page', options));
		expect(documentCredits(options)).toBe(billed);
		expect(documentCredits(options, { zdr: true })).toBe(scrapeCredits(options, pageFacts('https://example.com/page', options), { zdr: true }));
	});

	test('what only the answer can tell is billed on top: the auto proxy escalating, a PDF\'s pages', () => {
		const auto = { formats: ['markdown'], proxy: 'auto' };
		expect(scrapeCredits(auto, pageFacts('https://fake-antibot.example/x', auto))).toBe(documentCredits(auto) + 4);
		expect(scrapeCredits({}, pageFacts('https://example.com/report.pdf', {}))).toBe(documentCredits({}) + 2);
	});
});

describe('a search is bounded by its results', () => {
	test.each([
		[{ limit: 5 }, 2],
		[{ limit: 10 }, 2],
		[{ limit: 11 }, 4],
		[{ limit: 10, sources: [{ type: 'web' }, { type: 'news' }, { type: 'images' }] }, 6],
		[{ limit: 10, enterprise: ['zdr'] }, 10],
		[{ limit: 3, scrapeOptions: { formats: ['markdown'] } }, 2 + 3],
		[{ limit: 6, scrapeOptions: { formats: [{ type: 'json', prompt: 'x' }] } }, 2 + 30],
		[{ limit: 4, sources: ['web', 'images'], scrapeOptions: { formats: ['markdown'] } }, 2 + 4],
	])('%j → %i (as the fake bills a full page of results)', (body, credits) => {
		expect(searchCredits(body)).toBe(credits);
	});
});

test('reported credits: the top-level creditsUsed, else the document\'s', () => {
	expect(reportedCredits({ creditsUsed: 7, data: { metadata: { creditsUsed: 1 } } })).toBe(7);
	expect(reportedCredits({ data: { metadata: { creditsUsed: 5 } } })).toBe(5);
	expect(reportedCredits({ data: {} })).toBeUndefined();
	expect(reportedCredits({ creditsUsed: 'x' })).toBeUndefined();
});

test('budget values: a whole number above 0, anything else is no budget', () => {
	expect([5, '12', 3.9, 0, -1, '', null, undefined, true, 'abc'].map(budgetValue)).toEqual([5, 12, 3, undefined, undefined, undefined, undefined, undefined, undefined, undefined]);
});

describe('the ledger in 512 characters', () => {
	test('node names beyond the room are summed under "other nodes"; the accounts are kept whole', () => {
		const n = Object.fromEntries(Array.from({ length: 40 }, (_, k) => [`A node with a long descriptive name number ${k}`, k + 1]));
		const text = serializeLedger({ c: { c1: { s: 820, r: 3, j: { abcdef012345: 40 } } }, n });
		expect(text.length).toBeLessThanOrEqual(MAX_VALUE_CHARS);
		const back = parseLedger(text);
		expect(back.c).toEqual({ c1: { s: 820, r: 3, j: { abcdef012345: 40 } } });
		expect(Object.values(back.n).reduce((a, b) => a + b, 0)).toBe((40 * 41) / 2);
		expect(back.n['other nodes']).toBeGreaterThan(0);
		expect(back.n['A node with a long descriptive name number 39']).toBe(40);
	});

	test('an edited or broken value reads as an empty ledger, never as negative credits', () => {
		expect(parseLedger('{not json')).toEqual({ c: {}, n: {} });
		expect(parseLedger(JSON.stringify({ c: { c1: { s: -5, r: 'x' } } }))).toEqual({ c: { c1: { s: 0, r: 0 } }, n: {} });
	});
});

describe('reserve and settle', () => {
	function budgetWith(limit, store = new Map()) {
		const ctx = { getNode: () => ({ name: 'Web Data', type: 'n8n-nodes-webdata.webData', typeVersion: 1, parameters: {} }) };
		const s = { get: (k) => store.get(k), set: (k, v) => store.set(k, v) };
		const b = new CreditBudget(ctx, s, 'c1', 'Web Data', () => undefined);
		b.setCredentialLimit(limit);
		return { b, store };
	}

	test('reservations taken one after another without an answer in between never pass the budget', () => {
		const { b } = budgetWith(10);
		const holds = [];
		for (let k = 0; k < 3; k++) holds.push(b.reserve({ credits: 3, what: 'this scrape' }));
		expect(() => b.reserve({ credits: 3, what: 'this scrape' })).toThrow(/^Credit budget reached: This scrape would cost at least 3 credits, and 1 of this execution's 10 are left/);
		expect(() => b.reserve({ credits: 3, what: 'this scrape' })).toThrow();
		b.settle(holds[0], 1);
		b.release(holds[1]);
		expect(b.left()).toBe(10 - 1 - 3);
	});

	test('a job holds its bound by ID until it ends; then what it reports counts, once', () => {
		const { b } = budgetWith(100);
		const hold = b.reserve({ credits: 40, what: 'this crawl' });
		b.holdForJob(hold, '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a');
		expect(b.left()).toBe(60);
		expect(b.leftForJob('0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a')).toBe(100);
		b.settleJob('0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a', 33);
		expect(b.left()).toBe(67);
		expect(b.jobHold('0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a')).toBe(0);
		expect(b.total()).toBe(33);
	});

	test('no budget: nothing is refused, and the total still grows', () => {
		const { b, store } = budgetWith(0);
		const hold = b.reserve({ credits: 1_000_000, what: 'this crawl' });
		b.settle(hold, 12);
		expect(store.get('webdata_credits')).toBe('12');
		expect(store.get('webdata_budget')).toBeUndefined();
	});

	test('a request whose cost is unknown still needs a credit left', () => {
		const { b } = budgetWith(2);
		b.settle(b.reserve({ credits: 2, what: 'a' }), 2);
		expect(() => b.reserve({ credits: 0, what: 'this extract' })).toThrow(/needs at least 1 credit, and 0 of this execution's 2 are left/);
		expect(() => b.reserve({ credits: 0, what: 'stopping the session', recordOnly: true })).not.toThrow();
	});
});
