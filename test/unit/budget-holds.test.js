'use strict';
// Issue 44.3 and 44.4: a job never counts less than its finished pages must have cost (the service's
// report is batched and may read 0 at the end), and a Retry (n8n copies the execution's custom data)
// starts clean of the first execution's holds while what it spent stays spent. Build first.
const { CreditBudget, LEDGER_KEY } = require('../../dist/nodes/WebData/budget');
const { jobCredits, settleEndedJob } = require('../../dist/nodes/WebData/budget/jobs');

const JOB = '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a';
function budgetWith(limit, { store = new Map(), executionId } = {}) {
	const ctx = { getNode: () => ({ name: 'Web Data', type: 'n8n-nodes-webdata.webData', typeVersion: 1, parameters: {} }) };
	const s = { get: (k) => store.get(k), set: (k, v) => store.set(k, v) };
	const b = new CreditBudget(ctx, s, 'c1', 'Web Data', () => undefined, executionId);
	b.setCredentialLimit(limit);
	return { b, store };
}

describe('floors', () => {
	test('a finished job reporting 0 for 100 pages counts 100 (1 a page), 500 at 5 a page; a higher report stands', () => {
		expect(jobCredits({ status: 'completed', completed: 100, creditsUsed: 0 })).toBe(100);
		expect(jobCredits({ status: 'completed', completed: 100, creditsUsed: 0 }, 5)).toBe(500);
		expect(jobCredits({ status: 'completed', completed: 10, creditsUsed: 73 })).toBe(73);
		expect(jobCredits({ status: 'completed' })).toBeUndefined();
		expect(jobCredits({ status: 'completed', creditsUsed: 12 })).toBe(12);
	});

	test('a crawl that held 500 and reports 0 for its 100 pages settles at 100, not 0', () => {
		const { b } = budgetWith(1000);
		b.holdForJob(b.reserve({ credits: 500, what: 'this crawl' }), JOB);
		settleEndedJob(b, JOB, { status: 'completed', completed: 100, creditsUsed: 0 });
		expect(b.facts()).toEqual({ budget: 1000, spent: 100, left: 900 });
	});
});

describe('a retried execution', () => {
	test('the copy of the ledger keeps what was spent and lets go of the first execution\'s reservations and job holds', () => {
		const first = budgetWith(100, { executionId: '41' });
		first.b.settle(first.b.reserve({ credits: 7, what: 'this scrape' }), 7);
		first.b.holdForJob(first.b.reserve({ credits: 50, what: 'this crawl' }), JOB);
		first.b.reserve({ credits: 5, what: 'a request whose answer never came' });
		expect(first.b.left()).toBe(100 - 7 - 50 - 5);
		// n8n's Retry copies the custom data into a new execution.
		const retry = budgetWith(100, { store: new Map(first.store), executionId: '42' });
		expect(retry.b.left()).toBe(93);
		expect(retry.b.jobHold(JOB)).toBe(0);
		retry.b.settle(retry.b.reserve({ credits: 3, what: 'this scrape' }), 3);
		expect(JSON.parse(retry.store.get(LEDGER_KEY))).toMatchObject({ c: { c1: { s: 10, r: 0 } }, x: '42' });
	});

	test('the same execution (a wait, another worker) keeps its holds', () => {
		const first = budgetWith(100, { executionId: '41' });
		first.b.holdForJob(first.b.reserve({ credits: 50, what: 'this crawl' }), JOB);
		const later = budgetWith(100, { store: new Map(first.store), executionId: '41' });
		expect(later.b.jobHold(JOB)).toBe(50);
		expect(later.b.left()).toBe(50);
	});
});

describe('no room in the custom data (issue 44.6)', () => {
	test('without a budget, a total n8n drops is said on the item and once in the log; credits.execution still counts this node', () => {
		const warnings = [];
		const ctx = { getNode: () => ({ name: 'Web Data', typeVersion: 2, parameters: {} }), logger: { warn: (m) => warnings.push(m) } };
		// n8n with its 10 keys taken: a new key is dropped without a word.
		const full = { get: () => undefined, set: () => {} };
		const b = new CreditBudget(ctx, full, 'c1', 'Web Data', () => undefined, '7');
		b.setCredentialLimit(undefined);
		b.settle(b.reserve({ credits: 1, what: 'this scrape' }, 0), 1, 0);
		b.settle(b.reserve({ credits: 5, what: 'this scrape' }, 1), 5, 1);
		expect(b.notes.get(0).customDataFull).toMatch(/^n8n has no room for "webdata_credits" in this execution's custom data/);
		expect(b.notes.get(1).customDataFull).toBeDefined();
		expect(warnings).toHaveLength(1);
		expect(b.total()).toBe(6);
	});
});
