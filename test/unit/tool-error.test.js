'use strict';
// Issue 16.3: in tool use the retries keep a time budget and the error's message carries what a
// model can act on (n8n hands a tool's model only the message). Fake clock: no real waits.
const { NodeOperationError } = require('n8n-workflow');
const { apiRequest } = require('../../dist/nodes/WebData/transport');
const { forModel, TOOL_RETRY_BUDGET_MS } = require('../../dist/nodes/WebData/tool/toolError');
const { record } = require('../helpers/canary');
const { fakeContext, recordingDeps, NODE } = require('../helpers/fake-context');

const BUDGET = TOOL_RETRY_BUDGET_MS;

/** Deps whose clock moves by every wait and by `latencyMs` per request. */
function clockDeps(overrides = {}) {
	let now = Date.parse('2026-11-21T12:00:00Z');
	const waits = [];
	const deps = {
		sleep: async (ms) => {
			waits.push(ms);
			now += ms;
		},
		random: () => 0.5,
		now: () => now,
		maxAttempts: 5,
		...overrides,
	};
	return { deps, waits, tick: (ms) => (now += ms) };
}

async function fail(responses, deps, request = { method: 'POST', path: '/scrape', body: { url: 'https://example.com' } }) {
	const { ctx, calls } = fakeContext({ responses });
	const error = await apiRequest(ctx, request, deps).catch((e) => e);
	record(error);
	expect(error.name).toBe('NodeApiError');
	return { error, calls };
}

describe('the retry time budget of tool use', () => {
	test(`a 500 on every try: retries stop before the waits pass ${BUDGET / 1000} s, and the error says when to retry`, async () => {
		const { deps, waits } = clockDeps({ budgetMs: BUDGET });
		const { error, calls } = await fail([{ status: 500, body: { success: false, error: 'Internal Server Error' } }], deps);
		// Backoff 2.5 s, 4.5 s (7 s in all); the next 8.5 s would end at 15.5 s > 15 s.
		expect(waits).toEqual([2500, 4500]);
		expect(calls).toHaveLength(3);
		expect(waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(BUDGET);
		expect(error.context.attempts).toBe(3);
		expect(error.context.budgetStopWaitMs).toBe(8500);
		const text = forModel(error, 'Scrape URL').message;
		expect(text).toMatch(/^Scrape URL failed: Internal Server Error \(HTTP 500\)\./);
		expect(text).toContain('Retryable: yes; tried 3 times over 7 s; retry after 9 s');
		expect(text).toContain("15 s time budget");
		expect(text).toContain('Next step: The service failed with an internal error.');
	});

	test('without a budget (a normal run) the same 500 is tried 5 times over 30 s, as before', async () => {
		const { deps, waits } = clockDeps();
		const { calls } = await fail([{ status: 500, body: { success: false, error: 'Internal Server Error' } }], deps);
		expect(calls).toHaveLength(5);
		expect(waits).toEqual([2500, 4500, 8500, 16500]);
	});

	test('a Retry-After past the budget is not waited for; the message names it as the wait', async () => {
		const { deps, waits } = clockDeps({ budgetMs: BUDGET });
		const { error, calls } = await fail([{ status: 429, body: { success: false, error: 'Rate limit exceeded' }, headers: { 'retry-after': '20' } }], deps);
		expect(waits).toEqual([]);
		expect(calls).toHaveLength(1);
		const text = forModel(error, 'Scrape URL').message;
		expect(text).toMatch(/^Scrape URL failed: Rate limit exceeded \(HTTP 429\)\./);
		expect(text).toContain("Retryable: yes; tried once; retry after 20 s (the service's Retry-After)");
		expect(text).toContain('Next step: The rate limit of your plan was reached.');
	});

	test('a short Retry-After within the budget is waited for and the call succeeds', async () => {
		const { deps, waits } = clockDeps({ budgetMs: BUDGET });
		const { ctx, calls } = fakeContext({
			responses: [{ status: 429, body: { error: 'Rate limit exceeded' }, headers: { 'retry-after': '1' } }, { status: 200, body: { success: true, data: {} } }],
		});
		await expect(apiRequest(ctx, { method: 'POST', path: '/scrape', body: {} }, deps)).resolves.toEqual({ success: true, data: {} });
		expect(waits).toEqual([1000]);
		expect(calls).toHaveLength(2);
	});

	test('time spent waiting for answers counts against the budget too', async () => {
		const base = clockDeps({ budgetMs: BUDGET });
		const { ctx, calls } = fakeContext({ responses: [{ status: 503, body: { error: 'Service Unavailable' } }] });
		// Each answer takes 6 s: after the first (6 s) a 2.5 s wait fits; after the second (14.5 s) none does.
		ctx.helpers.httpRequestWithAuthentication = async (type, options) => {
			calls.push(options);
			base.tick(6000);
			return { statusCode: 503, body: { error: 'Service Unavailable' }, headers: {} };
		};
		const error = await apiRequest(ctx, { method: 'GET', path: '/crawl/x' }, base.deps).catch((e) => e);
		expect(calls).toHaveLength(2);
		expect(base.waits).toEqual([2500]);
		expect(error.context.elapsedMs).toBe(14500);
	});
});

describe('the message a model reads', () => {
	test('a 400 names the fields the service named, says it is not retryable, and what to do', async () => {
		const { deps } = recordingDeps({ budgetMs: BUDGET });
		const details = [
			{ code: 'invalid_string', path: ['url'], message: 'must be an absolute https URL' },
			{ code: 'too_big', path: ['scrapeOptions', 'waitFor'], message: 'Number must be less than or equal to 60000' },
		];
		const { error, calls } = await fail([{ status: 400, body: { success: false, code: 'BAD_REQUEST', error: 'Bad Request', details } }], deps);
		expect(calls).toHaveLength(1);
		const text = forModel(error, 'Scrape URL').message;
		expect(text).toBe(
			'Scrape URL failed: Bad Request (HTTP 400, code BAD_REQUEST). Fields: url: must be an absolute https URL; scrapeOptions.waitFor: Number must be less than or equal to 60000. ' +
				'Retryable: no (the same call fails the same way). Next step: The service rejected the request as invalid. Check the fields named in the message.',
		);
	});

	test('a 402 says credits, not retryable, and the next step', async () => {
		const { deps } = recordingDeps({ budgetMs: BUDGET });
		const { error } = await fail([{ status: 402, body: { success: false, error: 'Payment Required: Insufficient credits' } }], deps);
		const text = forModel(error, 'Search web').message;
		expect(text).toMatch(/^Search web failed: Payment Required: Insufficient credits \(HTTP 402\)\. Retryable: no/);
		expect(text).toContain('Next step: Your account is out of credits');
	});

	test('an action URL (terms to accept) reaches the model', async () => {
		const { deps } = recordingDeps({ budgetMs: BUDGET });
		const { error } = await fail([{ status: 403, body: { success: false, code: 'THIRD_PARTY_DATA_TERMS_REQUIRED', error: 'terms', requiresAction: { url: 'https://example.com/terms' } } }], deps);
		const text = forModel(error, 'Scrape URL').message;
		expect(text).toContain('(HTTP 403, code THIRD_PARTY_DATA_TERMS_REQUIRED)');
		expect(text).toContain('Action required at https://example.com/terms.');
	});

	test('a validation error keeps field, value and rule, and adds its next step', () => {
		const error = new NodeOperationError(NODE, 'URL "example" is not valid: it must be an absolute http(s) URL', {
			description: 'Fix the "URL" field and run again. Nothing was sent to the service.',
		});
		expect(forModel(error, 'Scrape URL').message).toBe(
			'Scrape URL failed: URL "example" is not valid: it must be an absolute http(s) URL. Next step: Fix the "URL" field and run again. Nothing was sent to the service.',
		);
	});

	test('the API key never enters the message', async () => {
		const { CANARY_KEY } = require('../helpers/canary');
		const { deps } = recordingDeps({ budgetMs: BUDGET });
		const { error } = await fail([{ status: 400, body: { success: false, error: `bad key ${CANARY_KEY}`, details: [{ path: ['x'], message: `echo ${CANARY_KEY}` }] } }], deps);
		const text = forModel(error, 'Scrape URL').message;
		record(text);
		expect(text).not.toContain(CANARY_KEY);
	});
});

describe('a hold the execution learned from another call (issue 16.4: one pace per execution)', () => {
	const { Pace } = require('../../dist/nodes/WebData/transport/pace');

	test('past the budget: not waited for and nothing sent; the message says another call heard 429 and when to retry', async () => {
		const { deps, waits } = clockDeps({ budgetMs: BUDGET });
		const pace = new Pace({ now: deps.now, sleep: deps.sleep });
		pace.rateLimited(40_000); // another tool call of this execution heard Retry-After: 40
		const { error, calls } = await fail([{ status: 200, body: { success: true, data: {} } }], { ...deps, pace });
		expect(calls).toHaveLength(0);
		expect(waits).toEqual([]);
		expect(error.context.httpStatus).toBe(429);
		expect(error.context.attempts).toBe(0);
		const text = forModel(error, 'Scrape URL').message;
		expect(text).toContain('Retryable: yes; not sent: another call of this execution was answered 429; retry after 40 s');
		expect(text).toContain('15 s time budget');
	});

	test('within the budget: waited for, then sent', async () => {
		const { deps } = clockDeps({ budgetMs: BUDGET });
		const slept = [];
		const pace = new Pace({
			now: deps.now,
			sleep: async (ms) => {
				slept.push(ms);
				await deps.sleep(ms);
			},
		});
		pace.rateLimited(5_000);
		const { ctx, calls } = fakeContext({ responses: [{ status: 200, body: { success: true, data: {} } }] });
		await expect(apiRequest(ctx, { method: 'POST', path: '/scrape', body: {} }, { ...deps, pace })).resolves.toEqual({ success: true, data: {} });
		expect(slept).toEqual([5000]);
		expect(calls).toHaveLength(1);
	});
});
