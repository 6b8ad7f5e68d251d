'use strict';
// Issue 43.2: how several pages' JSON become Extract's one result (resources/extract/combine.ts):
// merged by field in URL order, or one item per page; sources per field; pages without data listed.
// Build first.
const { combinePages, mergeTwo, pageAnswer } = require('../../dist/nodes/WebData/resources/extract/combine');

const page = (url, data, extra = {}) => ({ url, data, ...extra });

describe('merge', () => {
	test('a field comes from the first page that has it; later pages fill only what is empty', () => {
		expect(mergeTwo({ company: 'Acme', ceo: null }, { company: 'Other', ceo: 'Ada' })).toEqual({ company: 'Acme', ceo: 'Ada' });
		expect(mergeTwo({ company: '' }, { company: 'Acme' })).toEqual({ company: 'Acme' });
	});

	test('lists are joined in page order; an entry equal (as JSON) to one already there is kept once', () => {
		expect(mergeTwo({ plans: ['Free', { name: 'Pro' }] }, { plans: [{ name: 'Pro' }, 'Team'] })).toEqual({ plans: ['Free', { name: 'Pro' }, 'Team'] });
		expect(mergeTwo([1, 2], [2, 3])).toEqual([1, 2, 3]);
	});

	test('objects merge field by field, at any depth; a scalar against an object keeps the first', () => {
		expect(mergeTwo({ a: { x: 1, y: null } }, { a: { y: 2, z: 3 } })).toEqual({ a: { x: 1, y: 2, z: 3 } });
		expect(mergeTwo({ a: 'text' }, { a: { x: 1 } })).toEqual({ a: 'text' });
	});

	test('nothing from either stays empty (not undefined)', () => {
		expect(mergeTwo(null, null)).toBeNull();
		expect(mergeTwo({}, null)).toEqual({});
	});
});

describe('combinePages', () => {
	const pages = [page('https://a.example.com', { company: 'Acme', plans: ['Free'] }), page('https://b.example.com', { company: null, plans: ['Pro'] }), page('https://c.example.com', null, { error: 'HTTP 404: Not Found' })];

	test('merged: one item, the data merged, sources per field (only pages that gave it), pages without data named', () => {
		const [item, more] = combinePages(pages, 'merge', true);
		expect(more).toBeUndefined();
		expect(item).toEqual({
			status: 'completed',
			data: { company: 'Acme', plans: ['Free', 'Pro'] },
			sources: { company: ['https://a.example.com'], plans: ['https://a.example.com', 'https://b.example.com'] },
			pagesWithoutData: [{ url: 'https://c.example.com', error: 'HTTP 404: Not Found' }],
		});
	});

	test('without Show Sources there is no "sources"', () => {
		expect(combinePages(pages, 'merge', false)[0].sources).toBeUndefined();
	});

	test('a list result: sources are the pages that gave any of it', () => {
		const [item] = combinePages([page('https://a.example.com', [1]), page('https://b.example.com', [])], 'merge', true);
		expect(item).toMatchObject({ data: [1], sources: ['https://a.example.com'], pagesWithoutData: [{ url: 'https://b.example.com' }] });
	});

	test('one item per page, in the order given, each with its URL and its status', () => {
		const items = combinePages(pages, 'perPage', false);
		expect(items.map((i) => [i.url, i.status])).toEqual([
			['https://a.example.com', 'completed'],
			['https://b.example.com', 'completed'],
			['https://c.example.com', 'failed'],
		]);
		expect(items[2]).toEqual({ url: 'https://c.example.com', status: 'failed', data: null, error: 'HTTP 404: Not Found' });
	});
});

describe('pageAnswer', () => {
	test('the JSON format result, the page URL from metadata.sourceURL, the credits', () => {
		expect(pageAnswer({ json: { a: 1 }, metadata: { sourceURL: 'https://a.example.com', statusCode: 200, creditsUsed: 5 } }, 'x')).toEqual({ url: 'https://a.example.com', data: { a: 1 }, creditsUsed: 5 });
	});

	test('a page the service could not fill: json null with its warning; a page that failed: its HTTP status', () => {
		expect(pageAnswer({ json: null, warning: 'LLM could not extract' }, 'https://a.example.com')).toEqual({ url: 'https://a.example.com', data: null, warning: 'LLM could not extract' });
		expect(pageAnswer({ metadata: { statusCode: 500 } }, 'https://a.example.com', 'from the answer')).toEqual({ url: 'https://a.example.com', data: null, error: 'HTTP 500', warning: 'from the answer' });
	});
});
