'use strict';
// Issue 44.1: one price table (budget/prices.ts) used by every estimate, row by row equal to
// nodes/FACTS.md "Price table"; the billing page's sums hold for a page, a monitor and a parse.
// Build first.
const fs = require('fs');
const path = require('path');
const { PRICES } = require('../../dist/nodes/WebData/budget/prices');
const { documentCredits, pdfPagesCredits, browserCredits } = require('../../dist/nodes/WebData/budget/cost');
const { monitorCheckEstimate } = require('../../dist/nodes/shared/monitor/estimate');

const facts = fs.readFileSync(path.join(__dirname, '..', '..', 'nodes', 'FACTS.md'), 'utf8');
const table = facts.slice(facts.indexOf('**Price table**'));
const rows = [...table.slice(0, table.indexOf('\n\n', table.indexOf('| Key |'))).matchAll(/^\| (\w+) \| (\d+) \|/gm)].map((m) => [m[1], Number(m[2])]);

test('FACTS "Price table" and budget/prices.ts hold the same rows', () => {
	expect(rows.length).toBeGreaterThan(10);
	expect(Object.fromEntries(rows)).toEqual({ ...PRICES });
});

test('a page: the billing page\'s additions add up (JSON + Enhanced = 9, + zero data retention = 10); lockdown and JSON make 5', () => {
	const json = { formats: [{ type: 'json', prompt: 'x' }] };
	expect(documentCredits({ ...json, proxy: 'enhanced' })).toBe(9);
	expect(documentCredits({ ...json, proxy: 'enhanced' }, { zdr: true })).toBe(10);
	expect(documentCredits({ ...json, lockdown: true })).toBe(5);
	expect(documentCredits({ formats: ['markdown'], checkPromptInjection: true })).toBe(5);
});

test('a monitor\'s page counts Enhanced, lockdown and the prompt-injection check, as a scrape does (not 1 a page)', () => {
	const target = (scrapeOptions) => ({ targets: [{ type: 'scrape', urls: ['https://a.example.com', 'https://b.example.com'], scrapeOptions }] });
	expect(monitorCheckEstimate(target({ formats: ['markdown'], proxy: 'enhanced' })).credits).toBe(10);
	expect(monitorCheckEstimate(target({ formats: ['markdown'], checkPromptInjection: true })).credits).toBe(10);
	expect(monitorCheckEstimate(target({ formats: [{ type: 'json', prompt: 'x' }], proxy: 'enhanced' })).credits).toBe(18);
	expect(monitorCheckEstimate(target({ formats: ['markdown'] })).credits).toBe(2);
});

test('a PDF parse with Max Pages counts its pages; without it the pages are unknown', () => {
	expect(pdfPagesCredits({ parsers: [{ type: 'pdf', maxPages: 20 }] })).toBe(19);
	expect(pdfPagesCredits({ parsers: [{ type: 'pdf' }] })).toBe(0);
	expect(pdfPagesCredits({})).toBe(0);
});

test('a browser session by the minute: 2 a minute, a started minute whole; 7 with a prompt', () => {
	expect(browserCredits(3600)).toBe(120);
	expect(browserCredits(300)).toBe(10);
	expect(browserCredits(30)).toBe(2);
	expect(browserCredits(61)).toBe(4);
	expect(browserCredits(60, true)).toBe(7);
});
