'use strict';
// The transport's editor-list mode (issue 17.2): load-options contexts (listSearch) make one attempt
// with a 5 s timeout; executions keep the retries of spec 7.3; `editorList` overrides either way.
const { apiRequest, EDITOR_LIST_TIMEOUT_MS } = require('../../dist/nodes/WebData/transport');
const { fakeContext, recordingDeps } = require('../helpers/fake-context');

const busy = { status: 503, body: { success: false, error: 'Service Unavailable' } };

/** A fake context shaped like n8n's load-options context (it has getCurrentNodeParameter). */
function listContext(responses) {
	const made = fakeContext({ responses });
	made.ctx.getCurrentNodeParameter = () => undefined;
	delete made.ctx.getExecutionCancelSignal;
	return made;
}

test('a list (load-options context): one attempt, no wait, the editor timeout on the request', async () => {
	const { ctx, calls } = listContext([busy]);
	const { deps, waits } = recordingDeps();
	const error = await apiRequest(ctx, { method: 'GET', path: '/agent' }, deps).catch((e) => e);
	expect(error.httpCode).toBe('503');
	expect(calls).toHaveLength(1);
	expect(waits).toEqual([]);
	expect(calls[0].timeout).toBe(EDITOR_LIST_TIMEOUT_MS);
	expect(EDITOR_LIST_TIMEOUT_MS).toBeLessThanOrEqual(5000);
});

test('a list never waits longer than the editor timeout, even when the call asks for more', async () => {
	const { ctx, calls } = listContext([{ status: 200, body: { success: true } }]);
	await apiRequest(ctx, { method: 'GET', path: '/agent', timeoutMs: 60000 }, recordingDeps().deps);
	expect(calls[0].timeout).toBe(EDITOR_LIST_TIMEOUT_MS);
});

test('an unreachable service: the list error names the address and the reason', async () => {
	const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
	const { ctx, calls } = listContext([refused]);
	const error = await apiRequest(ctx, { method: 'GET', path: '/agent' }, recordingDeps().deps).catch((e) => e);
	expect(calls).toHaveLength(1);
	// Issue 22 point 3: the editor shows "<httpCode> - <message>": no raw "ECONNREFUSED - " first, plain
	// words, and the address and the advice in the description, whole (the editor splits messages at dashes).
	expect(error.message).toBe('The Web Data service cannot be reached (connection refused: nothing answers at that address and port)');
	expect(error.httpCode).toBeNull();
	expect(error.message).not.toMatch(/[-–—]/);
	expect(error.description).toBe(
		'Address: http://127.0.0.1:9. Check the Base URL in the credential and that this n8n can reach it, then open the list again.',
	);
});

test('an execution keeps retrying (5 attempts); editorList: true makes it one', async () => {
	const exec = fakeContext({ responses: [busy] });
	const { deps, waits } = recordingDeps();
	await apiRequest(exec.ctx, { method: 'GET', path: '/agent' }, deps).catch((e) => e);
	expect(exec.calls).toHaveLength(5);
	expect(waits).toHaveLength(4);
	const forced = fakeContext({ responses: [busy] });
	await apiRequest(forced.ctx, { method: 'GET', path: '/agent', editorList: true }, recordingDeps().deps).catch((e) => e);
	expect(forced.calls).toHaveLength(1);
	const list = listContext([busy]);
	await apiRequest(list.ctx, { method: 'GET', path: '/agent', editorList: false }, recordingDeps().deps).catch((e) => e);
	expect(list.calls).toHaveLength(5);
});
