'use strict';
// An agent run's end read from every status shape a server build gives (issue 23.3; api-facts
// "Read in the server's code"): the newest (stopReason, partial), an older one (errorCode), and the
// open-source API as of 2026-08 (status, error, data, model, expiresAt, creditsUsed only).
// Build first.
const { classifyRun, isUnsuccessful, unsuccessfulRunError } = require('../../dist/nodes/WebData/resources/agent/outcome');
const { AGENT_HINTS } = require('../../dist/nodes/WebData/resources/agent/shared');
const { toNodeApiError } = require('../../dist/nodes/WebData/transport/errors');

const node = { id: 'n', name: 'Web Data', type: 'n8n-nodes-webdata.webData', typeVersion: 1, position: [0, 0], parameters: {} };
const id = '0199aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee';
// The 2026-08 build's fields, and nothing else.
const oss = (extra) => ({ id, success: true, model: 'spark-2', expiresAt: '2026-08-22T00:00:00.000Z', creditsUsed: 0, ...extra });

describe('classifyRun reads the end from every build', () => {
	test.each([
		// newest build
		['newest: stopReason credit_limit_reached', { status: 'failed', stopReason: 'credit_limit_reached', partial: { a: 1 } }, 'credit_limit_reached'],
		['newest: stopReason cancelled', { status: 'failed', stopReason: 'cancelled' }, 'cancelled'],
		['newest: stopReason refused', { status: 'failed', stopReason: 'refused', error: 'The agent refused the task.' }, 'refused'],
		// older build
		['older: errorCode MAX_CREDITS_EXCEEDED', { status: 'failed', errorCode: 'MAX_CREDITS_EXCEEDED', error: 'Agent failed' }, 'credit_limit_reached'],
		// 2026-08: the error text only
		['2026-08: error "Max credits exceeded"', oss({ status: 'failed', error: 'Max credits exceeded' }), 'credit_limit_reached'],
		['2026-08: error "Agent reached max credits"', oss({ status: 'failed', error: 'Agent reached max credits' }), 'credit_limit_reached'],
		['2026-08: a cancelled run', oss({ status: 'failed', error: 'Agent run was cancelled.' }), 'cancelled'],
		['2026-08: a refused task', oss({ status: 'failed', error: 'The agent refused the task.' }), 'refused'],
		['2026-08: an internal error', oss({ status: 'failed', error: 'Agent run failed due to an internal error.' }), 'failed'],
		['2026-08: failed without a word', oss({ status: 'failed' }), 'failed'],
		['2026-08: a cancelled run still reading processing', oss({ status: 'processing' }), 'running'],
		['2026-08: completed', oss({ status: 'completed', data: { a: 1 } }), 'completed'],
		// statuses that name the end
		['docs: status cancelled', { status: 'cancelled' }, 'cancelled'],
		['thread-run word: status refused', { status: 'refused' }, 'refused'],
		['thread-run word: status credit_limit_reached', { status: 'credit_limit_reached' }, 'credit_limit_reached'],
		['an unknown status', { status: 'awaiting_approval' }, 'other'],
	])('%s', (_name, job, outcome) => {
		expect(classifyRun(job)).toBe(outcome);
	});

	test('every end but completed is unsuccessful', () => {
		expect(['credit_limit_reached', 'refused', 'cancelled', 'failed'].every(isUnsuccessful)).toBe(true);
		expect(['completed', 'running', 'other'].some(isUnsuccessful)).toBe(false);
	});
});

describe('the node error says the end, whatever the build said it with', () => {
	test.each([
		['newest', { status: 'failed', stopReason: 'credit_limit_reached', creditsUsed: 0 }, 'stopReason "credit_limit_reached"'],
		['older', { status: 'failed', errorCode: 'MAX_CREDITS_EXCEEDED', creditsUsed: 0 }, 'errorCode "MAX_CREDITS_EXCEEDED"'],
		['2026-08', oss({ status: 'failed', error: 'Max credits exceeded' }), 'error "Max credits exceeded"'],
	])('credit limit (%s): the Max Credits advice, not "failed"', (_build, job, evidence) => {
		const error = unsuccessfulRunError(node, { id, ...job }, classifyRun(job), 0, 50);
		expect(error.message).toBe('The agent run stopped at its Max Credits (50) before it finished');
		expect(error.description).toContain(`the service reported ${evidence}`);
		expect(error.description).toContain('Raise Max Credits');
		expect(error.context).toMatchObject({ outcome: 'credit_limit_reached', jobId: id });
	});

	test('refused (2026-08): says so and how to go on', () => {
		const job = oss({ status: 'failed', error: 'The agent refused the task.' });
		const error = unsuccessfulRunError(node, job, classifyRun(job), 0);
		expect(error.message).toBe('The agent refused the task');
		expect(error.description).toContain('Rephrase the prompt');
		expect(error.context).toMatchObject({ outcome: 'refused', status: 'failed' });
	});
});

test('the newest start\'s 400 "Invalid schema: …" gets the Output JSON Schema hint, as "Invalid JSON schema" does', () => {
	for (const text of ['Invalid schema: #/properties/n/type must be a JSON Schema type', 'Invalid JSON schema: #/type']) {
		const error = toNodeApiError(node, { method: 'POST', path: '/agent', status: 400, body: { success: false, error: text }, attempts: 1, hints: AGENT_HINTS }, undefined, 0);
		expect([text, error.description]).toEqual([text, expect.stringContaining('The Output JSON Schema is not valid JSON Schema')]);
	}
});
