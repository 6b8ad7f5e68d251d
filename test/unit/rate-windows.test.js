'use strict';
const { arrivalsNotExplained, requestsInsideWindows } = require('../helpers/rate-windows');

/**
 * The service-view check of the rate-limit tests (issue 15.4) on hand-made timelines: a request
 * that reached the service late, after a 429, passes when its turn came before the run read that
 * 429 (arrival jitter), and fails when its turn came after (a request let out inside the window).
 */
describe('arrivalsNotExplained', () => {
	// Request 1 is answered 429 at 1000 (Retry-After 2 s); the run reads it at 1010.
	const limited = { seq: 1, at: 990, status: 429, answeredAt: 1000, retryAfterMs: 2000 };
	const holds = [{ from: 1010, to: 3010 }];

	test('a request given its turn before the 429 was read, arriving 400 ms late inside the window: not a breach', () => {
		const log = [limited, { seq: 2, at: 1400, status: 200, answeredAt: 1401 }];
		const pace = { holds, turns: [985, 995] };
		expect(requestsInsideWindows(log, { graceMs: 50 }).inside.map((r) => r.seq)).toEqual([2]); // the old check: failed
		expect(arrivalsNotExplained(log, pace)).toEqual([]);
	});

	test('a request given its turn after the 429 was read, arriving inside the window: a breach, however small the gap', () => {
		const log = [limited, { seq: 2, at: 1012, status: 200, answeredAt: 1013 }];
		const pace = { holds, turns: [985, 1011] };
		expect(requestsInsideWindows(log, { graceMs: 50 }).inside).toEqual([]); // the old check: passed
		expect(arrivalsNotExplained(log, pace)).toEqual([expect.objectContaining({ window: 1, inside: [2] })]);
	});

	test('turns before the read that had already arrived do not explain a later arrival', () => {
		const log = [{ seq: 1, at: 980, status: 200, answeredAt: 981 }, { ...limited, seq: 2 }, { seq: 3, at: 1500, status: 200, answeredAt: 1501 }];
		const pace = { holds, turns: [975, 985, 1500] };
		expect(arrivalsNotExplained(log, pace)).toEqual([expect.objectContaining({ window: 2, inside: [3] })]);
	});
});
