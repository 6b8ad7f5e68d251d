'use strict';
/**
 * Interact (and Account) validation: every rule fails before anything is sent. Each case runs the
 * operation's execute() with a stand-in execute context whose HTTP helper records calls: the error
 * must name the field and the rule, and no call may have been made. These cases bypass n8n's own
 * parameter checks (as an expression would), so they prove the node's checks themselves.
 * Build first: `npm run build`.
 */
const { NodeOperationError } = require('n8n-workflow');
const { interact } = require('../../dist/nodes/WebData/resources/interact');
const { account } = require('../../dist/nodes/WebData/resources/account');
const { executeRequest } = require('../../dist/nodes/WebData/resources/interact/execute');
const { startBody } = require('../../dist/nodes/WebData/resources/interact/start');
const { fakeContext } = require('../helpers/fake-context');
const { record } = require('../helpers/canary');

const ID = '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a';
const rl = (value) => ({ __rl: true, mode: 'id', value });

function context(params, body = { success: true }) {
	const { ctx, calls } = fakeContext({ responses: [{ status: 200, body }] });
	ctx.getNodeParameter = (name, _i, fallback, options) => {
		const value = Object.prototype.hasOwnProperty.call(params, name) ? params[name] : fallback;
		if (options && options.extractValue && value && typeof value === 'object' && value.__rl) return value.value;
		return value;
	};
	ctx.continueOnFail = () => false;
	return { ctx, calls };
}

async function refused(resource, operation, params, field, rule) {
	const { ctx, calls } = context(params);
	const error = await resource.operations[operation].execute.call(ctx, 0).then(
		() => undefined,
		(e) => e,
	);
	record(error);
	expect(error).toBeInstanceOf(NodeOperationError);
	expect(error.message).toContain(field);
	if (rule) expect(error.message).toMatch(rule);
	expect(error.description).toContain('Nothing was sent');
	expect(calls).toHaveLength(0);
}

describe('Start Session', () => {
	test.each([
		[{ ttl: 29 }, 'Time to Live (Seconds)', /30 to 3600/],
		[{ ttl: 3601 }, 'Time to Live (Seconds)', /30 to 3600/],
		[{ ttl: 'soon' }, 'Time to Live (Seconds)', /whole number/],
		[{ activityTtl: 3601 }, 'Idle Timeout (Seconds)', /10 to 3600/],
		[{ activityTtl: 12.5 }, 'Idle Timeout (Seconds)', /whole number/],
		[{ streamWebView: 'yes' }, 'Stream Live View', /true or false/],
		[{ profileName: '  ' }, 'Profile Name', /empty/],
		[{ profileName: 'n'.repeat(129) }, 'Profile Name', /128/],
		[{ saveProfileChanges: false }, 'Save Changes to Profile', /Profile Name/],
		[{ profileName: 'p', saveProfileChanges: 'no' }, 'Save Changes to Profile', /true or false/],
	])('%j → %s', async (options, field, rule) => {
		await refused(interact, 'start', { options }, field, rule);
	});

	test('the body holds only what was set, profile nested; numbers given as text are read', () => {
		expect(startBody(context({ options: {} }).ctx, 0)).toEqual({});
		expect(startBody(context({ options: { ttl: '90', profileName: 'p', saveProfileChanges: true } }).ctx, 0)).toEqual({
			ttl: 90,
			profile: { name: 'p', saveChanges: true },
		});
		expect(startBody(context({ options: { activityTtl: 10, streamWebView: true } }).ctx, 0)).toEqual({ activityTtl: 10, streamWebView: true });
	});
});

describe('Execute', () => {
	const session = { target: 'session', sessionId: rl(ID), code: 'console.log(1)', language: 'node' };
	const page = { target: 'scrapeJob', scrapeJobId: rl(ID), executeWith: 'code', code: 'console.log(1)', language: 'node' };
	test.each([
		[{ ...session, target: 'tab' }, 'Browser', /session, scrapeJob/],
		[{ ...session, sessionId: rl('1234') }, 'Session ID', /UUID/],
		[{ ...session, sessionId: rl('') }, 'Session ID', /UUID/],
		[{ ...page, scrapeJobId: rl('scrape-1') }, 'Scrape ID', /UUID/],
		[{ ...page, executeWith: 'agent' }, 'Execute With', /code, prompt/],
		[{ ...session, code: '' }, 'Code', /empty/],
		[{ ...session, code: 42 }, 'Code', /empty/],
		[{ ...session, code: 'c'.repeat(100001) }, 'Code', /100000/],
		[{ ...session, language: 'javascript' }, 'Language', /node, python, bash/],
		[{ ...page, executeWith: 'prompt', prompt: ' ' }, 'Prompt', /empty/],
		[{ ...page, executeWith: 'prompt', prompt: 'p'.repeat(10001) }, 'Prompt', /10000/],
		[{ ...session, options: { timeout: 0 } }, 'Timeout (Seconds)', /1 to 300/],
		[{ ...session, options: { timeout: 300.5 } }, 'Timeout (Seconds)', /whole number/],
	])('%#: %s', async (params, field, rule) => {
		await refused(interact, 'execute', params, field, rule);
	});

	test('the request: path per target, code with language, prompt alone, timeout only when set', () => {
		expect(executeRequest(context(session).ctx, 0)).toEqual({
			target: 'session',
			id: ID,
			path: `/interact/${ID}/execute`,
			body: { code: 'console.log(1)', language: 'node' },
		});
		expect(executeRequest(context({ ...page, language: 'python', options: { timeout: 5 } }).ctx, 0)).toEqual({
			target: 'scrapeJob',
			id: ID,
			path: `/scrape/${ID}/interact`,
			body: { code: 'console.log(1)', language: 'python', timeout: 5 },
		});
		expect(executeRequest(context({ ...page, executeWith: 'prompt', prompt: 'Click Next' }).ctx, 0).body).toEqual({ prompt: 'Click Next' });
		// A session never sends a prompt, whatever Execute With holds.
		expect(executeRequest(context({ ...session, executeWith: 'prompt', prompt: 'x' }).ctx, 0).body).toEqual({
			code: 'console.log(1)',
			language: 'node',
		});
		// An ID pasted with spaces around it is trimmed.
		expect(executeRequest(context({ ...session, sessionId: rl(` ${ID} `) }).ctx, 0).id).toBe(ID);
	});
});

describe('Stop Session and Get Many Sessions', () => {
	test.each([
		[{ target: 'session', sessionId: rl('x') }, 'Session ID'],
		[{ target: 'scrapeJob', scrapeJobId: rl('x') }, 'Scrape ID'],
		[{ target: 'other' }, 'Browser'],
	])('stop %j → %s', async (params, field) => {
		await refused(interact, 'stop', params, field);
	});

	test.each([
		[{ status: 'stopped' }, 'Status'],
		[{ status: 'all', returnAll: false, limit: 0 }, 'Limit'],
		[{ status: 'all', returnAll: false, limit: 2.5 }, 'Limit'],
	])('list %j → %s', async (params, field) => {
		await refused(interact, 'getMany', params, field);
	});
});

describe('Account', () => {
	test('Split by API Key must be a boolean', async () => {
		await refused(account, 'getCreditUsageHistory', { byApiKey: 'yes' }, 'Split by API Key', /true or false/);
		await refused(account, 'getTokenUsageHistory', { byApiKey: 1 }, 'Split by API Key', /true or false/);
	});

	test('byApiKey is sent only when true', async () => {
		for (const [byApiKey, qs] of [
			[false, undefined],
			[true, { byApiKey: true }],
		]) {
			const { ctx, calls } = context({ byApiKey }, { success: true, periods: [{ totalCredits: 1 }] });
			const items = await account.operations.getCreditUsageHistory.execute.call(ctx, 0);
			expect(items).toEqual([{ json: { totalCredits: 1 } }]);
			expect(calls).toHaveLength(1);
			expect(calls[0].url).toMatch(/\/v2\/team\/credit-usage\/historical$/);
			expect(calls[0].qs).toEqual(qs);
		}
	});
});
