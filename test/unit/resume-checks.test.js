'use strict';
/**
 * jobs/resume.ts: the schedule of the checks a waiting Run and Wait ("Resume on Completion
 * Webhook") makes of its job, and jobs/signature.ts verifyResumeCall (token in the header or
 * the URL, or the signature). Build first: `npm run build`.
 */
const { nextCheckAt, CHECK_SCHEDULE } = require('../../dist/nodes/WebData/jobs/resume');
const { verifyResumeCall, signBody } = require('../../dist/nodes/shared/signature');

/** The check times of a job that never ends, from its start (0) to `deadline` (ms). */
function checks(deadline) {
	const times = [];
	let now = 0;
	for (;;) {
		const next = nextCheckAt(0, now, deadline);
		times.push(next);
		if (next >= deadline) return times;
		now = next;
	}
}

describe('the checks while waiting', () => {
	test('a 600 s run is read at most 8 times (5 checks), the first at 80 s; the gaps grow', () => {
		const times = checks(3_600_000).filter((t) => t <= 600_000);
		expect(times).toEqual([80_000, 160_000, 240_000, 348_000, 504_600]);
		expect(times.length + 1).toBeLessThanOrEqual(8); // + the read on a delivery
	});

	test('whenever a job ends, the next check comes at most max(90 s, half its run time) after its end, with 10 s left for n8n\'s own work', () => {
		const times = checks(24 * 3_600_000);
		let previous = 0;
		for (const t of times) {
			// The worst end is just after the previous check.
			const end = previous + 1;
			const lateness = t - end + 10_000;
			expect([end, lateness <= Math.max(90_000, end / 2)]).toEqual([end, true]);
			previous = t;
		}
	});

	test('every wait is at least 60 s (n8n\'s wait tracker looks every 60 s: shorter waits may resume late), except the last one up to Max Wait', () => {
		const times = checks(1_000_000);
		let previous = 0;
		for (const t of times.slice(0, -1)) {
			expect(t - previous).toBeGreaterThanOrEqual(60_000);
			previous = t;
		}
		expect(times.at(-1)).toBe(1_000_000);
		expect(nextCheckAt(0, 0, 30_000)).toBe(30_000); // Max Wait before the first check: the only check is at Max Wait
	});

	test('after a delivery whose read did not say "ended", the next check is at most 60 s away', () => {
		expect(nextCheckAt(0, 1_000_000, 10_000_000, true) - 1_000_000).toBe(CHECK_SCHEDULE.afterDeliveryMs);
		expect(nextCheckAt(0, 1_000_000, 10_000_000, false) - 1_000_000).toBe(450_000);
	});
});

describe('verifyResumeCall', () => {
	const token = 'a'.repeat(64);
	const raw = Buffer.from('{"type":"agent.completed","id":"x"}');
	const base = { tokenHeader: 'X-WebData-Resume-Token', tokenQuery: 'webdataToken', expectedToken: token, rawBody: raw };
	const sig = (secret = 's3cret') => `sha256=${signBody(secret, raw)}`;

	test.each([
		['the header token', { headers: { 'x-webdata-resume-token': token } }, ['header token']],
		['the URL token', { headers: {}, query: { webdataToken: token } }, ['URL token']],
		['the signature (secret set)', { headers: { 'x-firecrawl-signature': sig() }, signingSecret: 's3cret' }, ['signature']],
		['all three', { headers: { 'x-webdata-resume-token': token, 'x-firecrawl-signature': sig() }, query: { webdataToken: token, signature: 'n8n' }, signingSecret: 's3cret' }, ['header token', 'URL token', 'signature']],
	])('%s alone is enough', (_name, input, by) => {
		expect(verifyResumeCall({ ...base, ...input })).toEqual({ ok: true, verifiedBy: by });
	});

	test.each([
		['nothing', { headers: {}, query: { signature: 'n8n' } }, /neither/],
		['nothing, with a secret', { headers: {}, signingSecret: 's3cret' }, /nor the X-Firecrawl-Signature header/],
		['a signature but no secret to check it', { headers: { 'x-firecrawl-signature': sig() } }, /no signing secret/],
		['a wrong header token, a valid signature', { headers: { 'x-webdata-resume-token': 'b'.repeat(64), 'x-firecrawl-signature': sig() }, signingSecret: 's3cret' }, /header is wrong/],
		['a wrong URL token, a valid header token', { headers: { 'x-webdata-resume-token': token }, query: { webdataToken: 'b'.repeat(64) } }, /URL parameter is wrong/],
		['the URL token twice', { headers: {}, query: { webdataToken: [token, token] } }, /URL parameter is wrong/],
		['the header token twice', { headers: { 'x-webdata-resume-token': [token, token] } }, /header is wrong/],
		['a valid token, a wrong signature', { headers: { 'x-webdata-resume-token': token, 'x-firecrawl-signature': sig('other') }, signingSecret: 's3cret' }, /does not match/],
	])('%s → refused', (_name, input, reason) => {
		const verdict = verifyResumeCall({ ...base, ...input });
		expect(verdict.ok).toBe(false);
		expect(verdict.reason).toMatch(reason);
		expect(verdict.reason).not.toContain(token);
	});
});
