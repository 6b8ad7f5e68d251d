'use strict';
// The ledger of told monitor checks (issues 29.2, 34; nodes/WebDataTrigger/checkLedger.ts): a mark
// read back to, the checks told after it, each once, in order. Build first.
const {
	missedChecks,
	placeChecks,
	advanceMark,
	readBack,
	mergeLedgers,
	newLedger,
	storeLedger,
	storedLedger,
	tellPage,
	markDone,
	isDone,
	pagesSent,
	pageEnvelope,
	checkEnvelope,
	catchUpProblems,
	LedgerMemory,
	KeyedQueue,
	KEEP_BEHIND,
	MAX_READ_BACK,
} = require('../../dist/nodes/WebDataTrigger/checkLedger');
const { fakeContext, recordingDeps } = require('../helpers/fake-context');

const id = (n) => `0190b7c4-0000-7000-8000-${String(n).padStart(12, '0')}`;
/** Check n, created n minutes after 2026-11-28 17:00 UTC, written as the open-source server writes it. */
const pgAt = (n) => `2026-11-28 ${String(17 + Math.floor(n / 60)).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}:27.210714+00`;
const check = (n, status = 'completed', extra = {}) => ({ id: id(n), status, createdAt: pgAt(n), summary: { totalPages: 2, same: 1, changed: 1, new: 0, removed: 0, error: 0 }, ...extra });
const ids = (checks) => checks.map((c) => c.id);
const ledgerOf = (checks = [], extra = {}) => ({ ...newLedger({}), checks, ...extra });

describe('missedChecks: of the checks after the mark (newest first), the finished ones not told, oldest first', () => {
	const after = [check(6, 'running'), check(5), check(4), check(3, 'skipped_overlap'), check(2), check(1)];

	test('a poll: every finished check not done; the running one waits for its end', () => {
		const ledger = ledgerOf([{ id: id(3), done: true }]);
		expect(ids(missedChecks(after, ledger).tell)).toEqual([id(1), id(2), id(4), id(5)]);
		expect(missedChecks(after, ledger).passed).toEqual([]);
	});

	test('a check told in part is missed until it is done; one behind the mark never is', () => {
		const ledger = ledgerOf([{ id: id(4), done: false, pages: ['https://a'] }], { behind: [id(2)] });
		expect(ids(missedChecks(after, ledger).tell)).toEqual([id(1), id(3), id(4), id(5)]);
	});

	test('a poll tells a check whose webhook the service delivered (to another receiver) all the same', () => {
		const delivered = after.map((c) => ({ ...c, notificationStatus: { webhook: { attempted: true, success: true, delivered: 3 } } }));
		expect(ids(missedChecks(delivered, ledgerOf()).tell)).toEqual([id(1), id(2), id(3), id(4), id(5)]);
	});

	describe('the webhook trigger (a delivery of check 5 at hand)', () => {
		const status = (n, success) => ({ ...check(n), notificationStatus: { webhook: { attempted: true, success } } });
		const listed = [check(6, 'running'), status(5, true), status(4, false), status(3, true), check(2), status(1, true)];

		test('the check at hand and newer ones come with their own deliveries', () => {
			expect(ids(missedChecks(listed, ledgerOf(), { currentCheckId: id(5) }).tell)).toEqual([id(1), id(2), id(3), id(4)]);
		});

		test('unknown here and delivered by the service: passed over (it may have been told before a restart), not told', () => {
			const missed = missedChecks(listed, ledgerOf([{ id: id(1), done: false, pages: ['https://a'] }]), { currentCheckId: id(5), passDelivered: true });
			expect(ids(missed.tell)).toEqual([id(1), id(2), id(4)]); // 1 is known (told in part), 2 the service does not say about
			expect(ids(missed.passed)).toEqual([id(3)]);
		});
	});
});

describe('placeChecks: which checks read come after the mark', () => {
	const read = [check(9), check(8), check(7)];

	test('reading back reached the mark, or the mark is the list\'s end: all of them', () => {
		expect(placeChecks(read, { id: id(6) }, 'mark')).toEqual({ after: read, unplaced: [] });
		expect(placeChecks(read, {}, 'end')).toEqual({ after: read, unplaced: [] });
	});

	test('issue 34: Postgres-text creation times of the activation\'s day are after an ISO activation time', () => {
		const activation = Date.parse('2026-11-28T17:06:26.502Z');
		expect(placeChecks(read, { at: activation }, 'older')).toEqual({ after: read, unplaced: [] });
	});

	test('a check without a readable creation time is placed by a check after it in the list; the last ones are not', () => {
		const odd = (n) => ({ ...check(n), createdAt: 'yesterday' });
		const mixed = [odd(9), check(8), odd(7)];
		expect(placeChecks(mixed, { at: Date.parse('2026-11-28T17:00:00Z') }, 'older')).toEqual({ after: mixed.slice(0, 2), unplaced: [mixed[2]] });
		// The mark check itself was not found and its time is unknown: nothing can be placed.
		expect(placeChecks(read, { id: id(1) }, 'end')).toEqual({ after: [], unplaced: read });
	});
});

describe('readBack: pages of 100 from the newest to the mark', () => {
	const page = (from, to) => ({ status: 200, body: { success: true, data: Array.from({ length: from - to + 1 }, (_, i) => check(from - i)) } });
	const deps = recordingDeps().deps;

	test('stops at the mark, reading as many pages as it takes; a check listed twice (a newer one came between two pages) counts once', async () => {
		const { ctx, calls } = fakeContext({ responses: [page(260, 161), page(162, 63), page(63, 1)] });
		const { read, end } = await readBack(ctx, id(9), { id: id(40), at: Date.parse('2026-11-28T17:40:27.210Z') }, deps);
		expect(end).toBe('mark');
		expect(read.map((c) => c.id)).toEqual(Array.from({ length: 220 }, (_, i) => id(260 - i)));
		expect(calls.map((c) => c.qs)).toEqual([
			{ limit: 100, offset: 0 },
			{ limit: 100, offset: 100 },
			{ limit: 100, offset: 200 },
		]);
	});

	test('stops at a check created before the mark (the mark check was deleted since), times compared as times', async () => {
		const { ctx } = fakeContext({ responses: [page(50, 1)] });
		const { read, end } = await readBack(ctx, id(9), { id: 'gone', at: Date.parse('2026-11-28T17:39:26.502Z') }, deps);
		expect(end).toBe('older');
		expect(read.map((c) => c.id)).toEqual(Array.from({ length: 12 }, (_, i) => id(50 - i))); // 17:39:27.21 is after 17:39:26.502
	});

	test(`reads back at most ${MAX_READ_BACK} checks`, async () => {
		const responses = Array.from({ length: 12 }, (_, k) => page(1200 - 100 * k, 1101 - 100 * k));
		const { ctx, calls } = fakeContext({ responses });
		const { read, end } = await readBack(ctx, id(9), { id: id(1) }, deps);
		expect([end, read.length, calls.length]).toEqual(['bound', MAX_READ_BACK, MAX_READ_BACK / 100]);
		expect(catchUpProblems({ envelopes: [], checks: [], passed: [], unplaced: [], cut: true })).toEqual([
			`more than ${MAX_READ_BACK} checks came since the last check told: the newest ${MAX_READ_BACK} were read, older ones are not told.`,
		]);
	});
});

describe('advanceMark: the mark moves over the oldest checks told', () => {
	test('up to the first check not done or still running; the passed ones are kept behind, so a late delivery of one tells nothing', () => {
		const read = [check(5), check(4, 'running'), check(3), check(2), check(1)];
		const ledger = ledgerOf([{ id: id(1), done: true }, { id: id(2), done: true }, { id: id(3), done: true }, { id: id(5), done: true }]);
		advanceMark(ledger, read);
		expect(ledger.mark).toEqual({ id: id(3), at: Date.parse('2026-11-28T17:03:27.210Z') });
		expect(ledger.checks).toEqual([{ id: id(5), done: true }]);
		expect(ledger.behind).toEqual([id(1), id(2), id(3)]);
		expect(tellPage(ledger, id(2), 'https://late')).toBe(false);
		expect(isDone(ledger, id(2))).toBe(true);
	});

	test(`keeps at most ${KEEP_BEHIND} behind`, () => {
		const read = Array.from({ length: KEEP_BEHIND + 5 }, (_, i) => check(KEEP_BEHIND + 5 - i));
		const ledger = ledgerOf(read.map((c) => ({ id: c.id, done: true })));
		advanceMark(ledger, read);
		expect(ledger.behind).toHaveLength(KEEP_BEHIND);
		expect(ledger.behind.at(-1)).toBe(id(KEEP_BEHIND + 5));
		expect(ledger.checks).toEqual([]);
	});
});

describe('telling pages and checks', () => {
	test('each page of each check once; nothing more of a check that is done', () => {
		const ledger = newLedger({});
		expect(tellPage(ledger, id(1), 'https://a')).toBe(true);
		expect(tellPage(ledger, id(1), 'https://a')).toBe(false);
		expect(tellPage(ledger, id(1), 'https://b')).toBe(true);
		markDone(ledger, id(1));
		expect(tellPage(ledger, id(1), 'https://c')).toBe(false);
		expect(ledger.checks).toEqual([{ id: id(1), done: true }]);
	});

	test('pagesSent: every page but the removed ones (the service sends no monitor.page for them)', () => {
		expect(pagesSent({ totalPages: 5, removed: 2 })).toBe(3);
		expect(pagesSent({ totalPages: 5 })).toBe(5);
		expect(pagesSent(null)).toBeUndefined();
	});

	test('a page and a check read from the service become the envelopes a delivery has', () => {
		const page = { id: 'p', targetId: 't', url: 'https://a', status: 'changed', previousScrapeId: 's0', currentScrapeId: 's1', statusCode: 200, error: null, judgment: { meaningful: true }, diff: { text: 'x' }, createdAt: 'now' };
		expect(pageEnvelope(id(9), id(1), page)).toEqual({
			success: true,
			type: 'monitor.page',
			id: id(1),
			webhookId: null,
			data: [{ monitorId: id(9), checkId: id(1), url: 'https://a', status: 'changed', previousScrapeId: 's0', currentScrapeId: 's1', error: null, isMeaningful: true, judgment: { meaningful: true }, diff: { text: 'x' } }],
			metadata: {},
		});
		expect(pageEnvelope(id(9), id(1), { url: 'https://b', status: 'error', error: 'boom' })).toMatchObject({ success: false, error: 'boom', data: [{ isMeaningful: null }] });
		const { createdAt, ...failed } = check(1, 'failed');
		expect(checkEnvelope(id(9), { ...failed, error: 'Check failed' })).toEqual({
			success: false,
			type: 'monitor.check.completed',
			id: id(1),
			webhookId: null,
			data: [{ monitorId: id(9), checkId: id(1), status: 'failed', summary: check(1).summary }],
			error: 'Check failed',
			metadata: {},
		});
		expect(createdAt).toBe(pgAt(1));
	});

	test('what a catch-up passed over or could not place is said, naming the checks', () => {
		const [passed, unplaced] = catchUpProblems({ envelopes: [], checks: [], passed: [1, 2, 3, 4, 5, 6, 7].map(id), unplaced: [id(8)], cut: false });
		expect(passed).toContain(`check(s) ${[1, 2, 3, 4, 5].map(id).join(', ')} and 2 more to the monitor's webhook, but this trigger has no record of telling them`);
		expect(passed).toMatch(/Monitor → Get Check.*Web Data Poll Trigger tells every check/);
		expect(unplaced).toMatch(new RegExp(`check\\(s\\) ${id(8)} have no readable creation time.*not told`));
	});
});

describe('keeping the ledger', () => {
	test('static data keeps the mark (as ISO), the checks after it (page lists only for open ones) and the newest behind it', () => {
		const staticData = {};
		const ledger = { mark: { id: id(3), at: Date.parse('2026-11-28T17:03:27.210Z') }, checks: [{ id: id(5), done: true, pages: ['x'] }, { id: id(9), done: false, pages: ['https://a'], ended: true }], behind: [id(2), id(3)] };
		storeLedger(staticData, id(77), ledger);
		expect(staticData.toldChecks[id(77)]).toEqual({
			mark: { id: id(3), at: '2026-11-28T17:03:27.210Z' },
			checks: [{ id: id(5), done: true }, { id: id(9), done: false, pages: ['https://a'], ended: true }],
			behind: [id(2), id(3)],
		});
		expect(storedLedger(staticData, id(77))).toEqual({ ...ledger, checks: [{ id: id(5), done: true }, ledger.checks[1]] });
		expect(storedLedger(staticData, id(78))).toEqual({ mark: undefined, checks: [], behind: [] });
		storeLedger(staticData, id(79), newLedger({}));
		expect(storedLedger(staticData, id(79)).mark).toEqual({});
	});

	test('a ledger stored before issue 34 (a list, read back to its first entry) is read as a mark', () => {
		const old = (list) => storedLedger({ toldChecks: { m: list } }, 'm');
		expect(old([{ id: id(1), done: true }, { id: id(2), done: false, pages: ['https://a'] }, 'x', { id: 3 }])).toEqual({
			mark: { id: id(1) },
			checks: [{ id: id(2), done: false, pages: ['https://a'] }],
			behind: [id(1)],
		});
		// The poll trigger's "no finished check yet" entry: every check is after it.
		expect(old([{ id: 'no-finished-check-yet', done: true }])).toEqual({ mark: {}, checks: [], behind: [] });
	});

	test('a new n8n process (empty memory) reads the ledger from static data; memory and static data merge, the further mark winning', () => {
		const staticData = {};
		const saved = { mark: { id: id(1), at: 1000 }, checks: [{ id: id(2), done: false, pages: ['https://a'] }], behind: [id(1)] };
		new LedgerMemory().save('k', staticData, id(5), saved);
		expect(new LedgerMemory().load('k', staticData, id(5))).toEqual(saved);
		const merged = mergeLedgers(
			{ mark: { id: id(2), at: 2000 }, checks: [{ id: id(3), done: false, pages: ['https://b'] }], behind: [id(2)] },
			{ mark: { id: id(1), at: 1000 }, checks: [{ id: id(2), done: false, pages: ['https://a'] }, { id: id(3), done: false, pages: ['https://a'] }], behind: [id(1)] },
		);
		expect(merged).toEqual({ mark: { id: id(2), at: 2000 }, checks: [{ id: id(3), done: false, pages: ['https://b', 'https://a'] }], behind: [id(1), id(2)] });
		expect(mergeLedgers(newLedger({}), newLedger({ at: 5 })).mark).toEqual({ at: 5 });
		expect(mergeLedgers(newLedger(), newLedger({ at: 5 })).mark).toEqual({ at: 5 });
	});

	test('deactivation forgets the ledger of its own registration only: a test listen leaves production\'s memory alone', () => {
		const production = {};
		const test = {};
		const memory = new LedgerMemory();
		memory.save('wf:n|production|m', production, 'm', ledgerOf([{ id: id(1), done: true }]));
		memory.save('wf:n|test|m', test, 'm', ledgerOf([{ id: id(2), done: true }]));
		memory.forget('wf:n|test', test);
		expect(test).toEqual({});
		expect(memory.load('wf:n|test|m', test, 'm').checks).toEqual([]);
		expect(memory.load('wf:n|production|m', {}, 'm').checks).toEqual([{ id: id(1), done: true }]);
	});

	test('KeyedQueue runs the calls of one key one after another, others in parallel; a failure does not block the next', async () => {
		const queue = new KeyedQueue();
		const order = [];
		let release;
		const gate = new Promise((r) => (release = r));
		const a = queue.run('m1', async () => {
			await gate;
			order.push('a');
		});
		const b = queue.run('m1', async () => {
			order.push('b');
			throw new Error('b failed');
		});
		const c = queue.run('m1', async () => order.push('c'));
		const other = queue.run('m2', async () => order.push('other'));
		await other;
		expect(order).toEqual(['other']);
		release();
		await a;
		await expect(b).rejects.toThrow('b failed');
		await c;
		expect(order).toEqual(['other', 'a', 'b', 'c']);
	});
});
