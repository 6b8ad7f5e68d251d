'use strict';
// Web Data Trigger: the ledger of told monitor checks (issue 29.2; nodes/WebDataTrigger/checkLedger.ts).
// Build first.
const {
	missedChecks,
	mergeLedgers,
	storeLedger,
	storedLedger,
	tellPage,
	markDone,
	pagesSent,
	pageEnvelope,
	checkEnvelope,
	LedgerMemory,
	KeyedQueue,
	KEEP_CHECKS,
} = require('../../dist/nodes/WebDataTrigger/checkLedger');

const id = (n) => `0190b7c4-0000-7000-8000-${String(n).padStart(12, '0')}`;
const check = (n, status = 'completed') => ({ id: id(n), status, summary: { totalPages: 2, same: 1, changed: 1, new: 0, removed: 0, error: 0 } });

describe('missedChecks: the finished checks since the last told, oldest first', () => {
	const listed = [check(6, 'running'), check(5), check(4), check(3, 'skipped_overlap'), check(2), check(1)]; // newest first, as the service lists

	test('nothing remembered: nothing missed (the trigger starts listening now)', () => {
		expect(missedChecks(listed, [], id(5))).toEqual([]);
	});

	test('before the delivery at hand, after the oldest remembered; told checks passed, a running one left for its own deliveries', () => {
		const ledger = [{ id: id(1), done: true }, { id: id(3), done: true }];
		expect(missedChecks(listed, ledger, id(5)).map((c) => c.id)).toEqual([id(2), id(4)]);
		// A poll: every finished check counts, the running one not.
		expect(missedChecks(listed, ledger).map((c) => c.id)).toEqual([id(2), id(4), id(5)]);
	});

	test('a check told in part is missed until it is done; checks older than the oldest remembered never are', () => {
		const ledger = [{ id: id(4), done: false, pages: ['https://a'] }];
		expect(missedChecks(listed, ledger, id(5)).map((c) => c.id)).toEqual([id(4)]);
	});
});

describe('missedChecks after an n8n restart (the ledger may lack checks told before: n8n does not save static data a webhook call changed when it starts an execution)', () => {
	const delivered = (n, success) => ({ ...check(n), createdAt: `2026-08-0${n}T00:00:00.000Z`, notificationStatus: { webhook: { attempted: true, success, delivered: success ? 3 : 0 } } });
	const listed = [delivered(5, true), delivered(4, false), delivered(3, true), delivered(2, false), delivered(1, false)];

	test('no ledger, a floor (activation time): the checks the service could not deliver since then', () => {
		expect(missedChecks(listed, [], id(5), { since: '2026-08-02T00:00:00.000Z' }).map((c) => c.id)).toEqual([id(2), id(4)]);
	});

	test('no ledger and no floor: nothing (a test registration, or an older activation)', () => {
		expect(missedChecks(listed, [], id(5))).toEqual([]);
	});

	test('a check the service does not say about counts as missed; one the ledger knows is judged by the ledger', () => {
		const unknown = { ...check(4), createdAt: '2026-08-04T00:00:00.000Z' };
		expect(missedChecks([delivered(5, true), unknown, delivered(3, false)], [{ id: id(3), done: true }], id(5)).map((c) => c.id)).toEqual([id(4)]);
	});
});

describe('telling pages and checks', () => {
	test('each page of each check once; nothing more of a check that is done', () => {
		const ledger = [];
		expect(tellPage(ledger, id(1), 'https://a')).toBe(true);
		expect(tellPage(ledger, id(1), 'https://a')).toBe(false);
		expect(tellPage(ledger, id(1), 'https://b')).toBe(true);
		markDone(ledger, id(1));
		expect(tellPage(ledger, id(1), 'https://c')).toBe(false);
		expect(ledger).toEqual([{ id: id(1), done: true }]);
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
		expect(checkEnvelope(id(9), { ...check(1, 'failed'), error: 'Check failed' })).toEqual({
			success: false,
			type: 'monitor.check.completed',
			id: id(1),
			webhookId: null,
			data: [{ monitorId: id(9), checkId: id(1), status: 'failed', summary: check(1).summary }],
			error: 'Check failed',
			metadata: {},
		});
	});
});

describe('keeping the ledger', () => {
	test('static data keeps the newest checks, page lists only for open ones', () => {
		const staticData = {};
		const ledger = Array.from({ length: KEEP_CHECKS + 5 }, (_, i) => ({ id: id(i), done: true }));
		ledger.push({ id: id(999), done: false, pages: ['https://a'], ended: true });
		storeLedger(staticData, id(77), ledger);
		const stored = storedLedger(staticData, id(77));
		expect(stored).toHaveLength(KEEP_CHECKS);
		expect(stored[stored.length - 1]).toEqual({ id: id(999), done: false, pages: ['https://a'], ended: true });
		expect(stored[0]).toEqual({ id: id(6), done: true });
		expect(storedLedger({ toldChecks: { [id(77)]: [{ id: 3 }, 'x', { id: id(1), done: true }] } }, id(77))).toEqual([{ id: id(1), done: true }]);
	});

	test('a new n8n process (empty memory) reads the ledger from static data; parallel processes merge', () => {
		const staticData = {};
		new LedgerMemory().save('k', staticData, id(5), [{ id: id(1), done: true }, { id: id(2), done: false, pages: ['https://a'] }]);
		const restarted = new LedgerMemory();
		expect(restarted.load('k', staticData, id(5))).toEqual([{ id: id(1), done: true }, { id: id(2), done: false, pages: ['https://a'] }]);
		expect(mergeLedgers([{ id: id(2), done: false, pages: ['https://b'] }], [{ id: id(2), done: false, pages: ['https://a'] }, { id: id(3), done: true }])).toEqual([
			{ id: id(2), done: false, pages: ['https://b', 'https://a'] },
			{ id: id(3), done: true },
		]);
	});

	test('deactivation forgets the ledger (memory and static data)', () => {
		const staticData = {};
		const memory = new LedgerMemory();
		memory.save('wf:n|webhook|m', staticData, 'm', [{ id: id(1), done: true }]);
		memory.forget('wf:n', staticData);
		expect(staticData).toEqual({});
		expect(memory.load('wf:n|webhook|m', staticData, 'm')).toEqual([]);
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
