'use strict';
// The one authenticator of every webhook delivery (nodes/shared/signature.ts authenticateDelivery):
// one rule set for monitor events and job events (the trigger's token places) and resume calls (the
// waiting execution's), as each caller calls it; and the names and helpers defined once. The
// callers' own answers (401, nothing started or woken) are in test/integration/trigger.test.js and
// agent-resume.test.js. Build first: `npm run build`.
const fs = require('fs');
const path = require('path');
const { tsFiles } = require('../helpers/source-files');
const shared = require('../../dist/nodes/shared/signature');

const NODES = path.join(__dirname, '../../nodes');
const SECRET = 'whsec-one-authenticator';
const TOKEN = 'a'.repeat(64);
const raw = Buffer.from('{ "type": "crawl.completed", "id": "x", "data": [] }');
const sig = (body = raw, secret = SECRET) => `sha256=${shared.signBody(secret, body)}`;

/** How each caller calls it (WebDataTrigger.node.ts webhook(), jobs/resume.ts resumeWebhook()). */
const CALLERS = {
	'monitor events': { places: shared.TRIGGER_TOKEN },
	'job events': { places: shared.TRIGGER_TOKEN },
	'resume calls': { places: shared.RESUME_TOKEN },
};

describe.each(Object.entries(CALLERS))('%s', (_caller, { places }) => {
	const H = places.header.toLowerCase();
	const Q = places.query;
	const auth = (headers, query = {}, extra = {}) => shared.authenticateDelivery({ headers, query, rawBody: raw, places, expectedToken: TOKEN, ...extra });

	test.each([
		['the token header', { [H]: TOKEN }, {}],
		['the URL token', {}, { [Q]: TOKEN }],
		['both, both right', { [H]: TOKEN }, { [Q]: TOKEN }],
	])('%s → accepted, verified by the token', (_name, headers, query) => {
		expect(auth(headers, query)).toEqual({ ok: true, verifiedBy: ['token'] });
	});

	test.each([
		['no token anywhere', {}, {}, /carries neither/],
		['a wrong header token', { [H]: 'b'.repeat(64) }, {}, /header is wrong/],
		['a wrong URL token', {}, { [Q]: 'b'.repeat(64) }, /URL parameter is wrong/],
		['a right header beside a wrong URL token', { [H]: TOKEN }, { [Q]: 'b'.repeat(64) }, /URL parameter is wrong/],
		['a wrong header beside a right URL token', { [H]: 'b'.repeat(64) }, { [Q]: TOKEN }, /header is wrong/],
		['the URL token twice (both right)', {}, { [Q]: [TOKEN, TOKEN] }, /more than once/],
		['the URL token as an object', {}, { [Q]: { a: TOKEN } }, /more than once/],
		['the header twice (both right)', { [H]: [TOKEN, TOKEN] }, {}, /more than once/],
		['an empty URL token', {}, { [Q]: '' }, /URL parameter is wrong/],
		['the token in the other kind of header', { [(places === shared.RESUME_TOKEN ? shared.TRIGGER_TOKEN : shared.RESUME_TOKEN).header]: TOKEN }, {}, /carries neither/],
		['a token that differs in case', { [H]: TOKEN.toUpperCase() }, {}, /header is wrong/],
	])('%s → refused, naming what failed and never the token', (_name, headers, query, reason) => {
		const verdict = auth(headers, query);
		expect(verdict).toMatchObject({ ok: false, failed: 'token' });
		expect(verdict.reason).toMatch(reason);
		expect(verdict.reason).not.toContain(TOKEN);
	});

	test('with the signing secret too, the token AND the signature over the raw bytes are required', () => {
		const withSecret = (headers, query = {}, rawBody = raw) => auth(headers, query, { signingSecret: SECRET, rawBody });
		expect(withSecret({ [H]: TOKEN, 'x-firecrawl-signature': sig() })).toEqual({ ok: true, verifiedBy: ['token', 'signature'] });
		expect(withSecret({ 'x-firecrawl-signature': sig() }, { [Q]: TOKEN })).toEqual({ ok: true, verifiedBy: ['token', 'signature'] });
		expect(withSecret({ [H]: TOKEN })).toMatchObject({ ok: false, failed: 'signature', reason: 'the X-Firecrawl-Signature header is missing' });
		expect(withSecret({ 'x-firecrawl-signature': sig() })).toMatchObject({ ok: false, failed: 'token' });
		expect(withSecret({ [H]: TOKEN, 'x-firecrawl-signature': sig(raw, 'other') })).toMatchObject({ ok: false, failed: 'signature' });
		const reserialised = Buffer.from(JSON.stringify(JSON.parse(raw.toString())));
		expect(withSecret({ [H]: TOKEN, 'x-firecrawl-signature': sig() }, {}, reserialised)).toMatchObject({ ok: false, failed: 'signature' });
		expect(auth({ [H]: TOKEN, 'x-firecrawl-signature': sig() }, {}, { signingSecret: SECRET, rawBody: undefined })).toMatchObject({ ok: false, failed: 'signature' });
		expect(withSecret({ [H]: TOKEN, 'x-firecrawl-signature': [sig(), sig()] })).toMatchObject({ ok: false, failed: 'signature' });
	});

	test('a signature alone (no token set, the secret set) is enough; a signature the credential has no secret for counts as absent', () => {
		const bySignature = shared.authenticateDelivery({ headers: { 'x-firecrawl-signature': sig() }, query: {}, rawBody: raw, places, signingSecret: SECRET });
		expect(bySignature).toEqual({ ok: true, verifiedBy: ['signature'] });
		expect(auth({ 'x-firecrawl-signature': sig() })).toMatchObject({ ok: false, failed: 'token' });
	});

	test('nothing to check against → refused; only a caller that allows it gets an unverified pass', () => {
		const none = { headers: {}, query: {}, rawBody: raw, places };
		expect(shared.authenticateDelivery(none)).toMatchObject({ ok: false, failed: 'nothing set' });
		expect(shared.authenticateDelivery({ ...none, expectedToken: '', signingSecret: '  ' })).toMatchObject({ ok: false, failed: 'nothing set' });
		expect(shared.authenticateDelivery({ ...none, allowUnverified: true })).toEqual({ ok: true, verifiedBy: [] });
	});
});

describe('one definition each', () => {
	const sources = tsFiles(NODES).map((file) => ({ file: path.relative(NODES, file), text: fs.readFileSync(file, 'utf8') }));
	const where = (pattern) => sources.filter((s) => pattern.test(s.text)).map((s) => s.file);

	test('the token header and query names are written once, in nodes/shared/signature.ts', () => {
		for (const literal of ["'X-WebData-Trigger-Token'", "'X-WebData-Resume-Token'", "'webdataToken'", "_QUERY = 'token'"]) {
			expect([literal, where(new RegExp(literal.replace(/[-[\]{}()*+?.,\\^$|#]/g, '\\$&')))]).toEqual([literal, ['shared/signature.ts']]);
		}
	});

	test('one authenticator, used by the trigger and the resume call; one refuse()', () => {
		expect(where(/function (verifyDelivery|verifyResumeCall|authenticateJobDelivery)\b/)).toEqual([]);
		expect(where(/export function authenticateDelivery\b/)).toEqual(['shared/signature.ts']);
		expect(where(/\bauthenticateDelivery\(/).sort()).toEqual(['WebData/jobs/resume.ts', 'WebDataTrigger/WebDataTrigger.node.ts', 'shared/signature.ts']);
		expect(where(/function refuse\(/)).toEqual(['shared/signature.ts']);
	});

	test('the resume token keeps the purpose that tokens of executions waiting since 1.0.0 were derived with', () => {
		const resume = require('../../dist/nodes/WebData/jobs/resume');
		expect(resume.RESUME_TOKEN_PURPOSE).toBe('webdata-agent-resume');
		const node = { id: 'node-1', name: 'Crawl' };
		expect(resume.resumeToken('key', '42', node)).toBe(shared.derivedToken('key', 'webdata-agent-resume', '42', 'node-1'));
	});
});
