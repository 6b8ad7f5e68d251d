'use strict';
const {
	Pace,
	RATE_WINDOW_MS,
	WINDOW_SLACK,
	SLACK_STEP,
	MAX_SLACK,
	PACED_SLOWDOWN,
	RELAX_AFTER_MS,
	PROBE_AFTER_MS,
} = require('../../dist/nodes/WebData/transport/pace');

const WINDOW = RATE_WINDOW_MS * (1 + WINDOW_SLACK);

/**
 * Virtual time: sleep(ms) parks the caller until the clock reaches now + ms; `drive(promise)` moves
 * the clock from timer to timer (earliest first) until the promise settles.
 */
function fakeClock() {
	let now = 1_000_000;
	const timers = [];
	const settle = async () => {
		for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
	};
	return {
		now: () => now,
		sleep: (ms, signal) => {
			if (signal?.aborted) return Promise.reject(new Error('aborted'));
			return new Promise((resolve) => timers.push({ at: now + ms, resolve }));
		},
		advance: (ms) => {
			now += ms;
		},
		async drive(promise) {
			let done = false;
			const result = promise.finally(() => {
				done = true;
			});
			await settle();
			while (!done) {
				if (timers.length === 0) throw new Error('nothing left to wake: the promise can never settle');
				timers.sort((a, b) => a.at - b.at);
				const timer = timers.shift();
				now = Math.max(now, timer.at);
				timer.resolve();
				await settle();
			}
			return result;
		},
	};
}

/** Starts `n` turns at once (each resolves when given), returning their tickets in order. */
async function turns(clock, pace, n) {
	const starts = [];
	await clock.drive(
		Promise.all(
			Array.from({ length: n }, async () => {
				const ticket = await pace.turn();
				starts.push(clock.now());
				return ticket;
			}),
		),
	);
	return starts.sort((a, b) => a - b);
}

/** An unpaced run that sends `sent` requests at once; the first `allowed` succeed, the rest get 429. */
async function burst(clock, pace, sent, allowed, retryAfterMs = 1000) {
	const tickets = [];
	for (let i = 0; i < sent; i++) tickets.push(await pace.turn());
	clock.advance(50);
	for (let i = 0; i < sent; i++) {
		if (i < allowed) pace.succeeded(tickets[i]);
		else pace.rateLimited(retryAfterMs, tickets[i]);
	}
	return tickets;
}

describe('Pace', () => {
	test('unpaced until a 429: turns are immediate', async () => {
		const clock = fakeClock();
		const pace = new Pace(clock);
		const t0 = clock.now();
		for (let i = 0; i < 5; i++) await pace.turn();
		expect(clock.now()).toBe(t0);
		expect(pace.state.limit).toBe(0);
	});

	test('a 429 holds every later turn until Retry-After has passed', async () => {
		const clock = fakeClock();
		const pace = new Pace(clock);
		const t0 = clock.now();
		pace.rateLimited(2000);
		await clock.drive(pace.turn());
		expect(clock.now()).toBeGreaterThanOrEqual(t0 + 2000);
	});

	test('the limit is learned from the requests sent before the 429, also those still unanswered when it came', async () => {
		// Issue 15.2: 10 requests sent in the second before the limited one, only 4 answered when its
		// 429 arrives (requests overlap). Counting answers would learn 4 per second; the service allowed 10.
		const clock = fakeClock();
		const pace = new Pace(clock);
		const sent = [];
		for (let i = 0; i < 10; i++) {
			sent.push(await pace.turn());
			clock.advance(20);
		}
		const limited = await pace.turn();
		for (let i = 0; i < 4; i++) pace.succeeded(sent[i]);
		clock.advance(30);
		pace.rateLimited(1000, limited);
		for (let i = 4; i < 10; i++) pace.succeeded(sent[i]);
		await clock.drive(pace.turn()); // the hold passes; the limit is learned at the next turn
		expect(pace.state.limit).toBe(10);
	});

	test('a burst sent at one instant: the 429s of its other requests are waited for, not counted as allowed', async () => {
		// 5 requests in the same millisecond, 2 allowed: the first 429 read is one of three, and the other
		// two 429s are still on their way. The limit is 2, not 4.
		const clock = fakeClock();
		const pace = new Pace(clock);
		await burst(clock, pace, 5, 2);
		expect(pace.state.limit).toBe(0); // not yet: the hold is in force
		await clock.drive(pace.turn());
		expect(pace.state.limit).toBe(2);
	});

	test('a long Retry-After (a minute) does not make the run forget the burst it learns from', async () => {
		const clock = fakeClock();
		const pace = new Pace(clock);
		await burst(clock, pace, 8, 6, 60_000);
		await clock.drive(pace.turn());
		expect(pace.state.limit).toBe(6);
	});

	test('once paced, a full window goes at once and the next request waits until the oldest start leaves it', async () => {
		const clock = fakeClock();
		const pace = new Pace(clock);
		await burst(clock, pace, 15, 10);
		const resume = pace.state.resumeAt;
		const starts = await turns(clock, pace, 25);
		expect(pace.state.limit).toBe(10);
		// Ten at the resume time (a rolling window allows a whole window's worth at once, spreading
		// them costs a spacing per window), ten one window later, five one more window later.
		expect(starts.slice(0, 10)).toEqual(Array(10).fill(resume));
		expect(starts.slice(10, 20)).toEqual(Array(10).fill(resume + WINDOW));
		expect(starts.slice(20)).toEqual(Array(5).fill(resume + 2 * WINDOW));
		// Never more than the limit in any window.
		for (let i = 10; i < starts.length; i++) expect(starts[i] - starts[i - 10]).toBeGreaterThanOrEqual(WINDOW);
	});

	test('concurrent waiters each take their own place in the window', async () => {
		const clock = fakeClock();
		const pace = new Pace(clock);
		await burst(clock, pace, 3, 2); // 2 per window allowed
		const starts = await turns(clock, pace, 6);
		for (let i = 2; i < starts.length; i++) expect(starts[i] - starts[i - 2]).toBeGreaterThanOrEqual(WINDOW);
		expect(starts[5] - starts[0]).toBeLessThan(3 * WINDOW);
	});

	test('a hold extended while a request sleeps is honoured', async () => {
		const clock = fakeClock();
		const pace = new Pace(clock);
		const t0 = clock.now();
		pace.rateLimited(1000);
		const waiting = pace.turn();
		pace.rateLimited(3000); // another 429 with a longer Retry-After
		await clock.drive(waiting);
		expect(clock.now()).toBeGreaterThanOrEqual(t0 + 3000);
	});

	test('nothing sent before the 429: the hold applies, no limit is invented', async () => {
		const clock = fakeClock();
		const pace = new Pace(clock);
		const ticket = await pace.turn();
		pace.rateLimited(100, ticket);
		expect(pace.state.resumeAt).toBe(clock.now() + 100);
		await clock.drive(pace.turn());
		expect(pace.state.limit).toBe(0);
	});

	test('429s of requests sent before the run knew of the first are the same signal; one sent after widens the window by a bounded step', async () => {
		const clock = fakeClock();
		const pace = new Pace(clock);
		const lateOne = await pace.turn(); // sent with the burst, answered after the others
		await burst(clock, pace, 8, 4);
		const hold = pace.state.resumeAt;
		clock.advance(5);
		pace.rateLimited(1000, lateOne); // a late 429 of the same burst: the same signal
		expect(pace.state.resumeAt).toBe(hold + 5); // its own Retry-After is honoured all the same
		await clock.drive(pace.turn());
		expect(pace.state).toMatchObject({ limit: 4, windowMs: WINDOW });
		// Sent while paced, after the run knew, with none of the run's own requests in the window
		// before it: the 429 is about something else (another workflow on the key).
		clock.advance(2 * RATE_WINDOW_MS);
		const late = await pace.turn();
		clock.advance(50);
		pace.rateLimited(1000, late);
		expect(pace.state.windowMs).toBeCloseTo(WINDOW * PACED_SLOWDOWN, 6);
		expect(pace.state.limit).toBe(4);
		// Ten more such 429s do not spiral: one bounded step each.
		for (let k = 0; k < 10; k++) {
			clock.advance(2 * RATE_WINDOW_MS);
			const again = await clock.drive(pace.turn());
			clock.advance(10);
			pace.rateLimited(1000, again);
		}
		expect(pace.state.windowMs).toBeCloseTo(WINDOW * PACED_SLOWDOWN ** 11, 3);
	});

	test('a paced 429 that the run\'s own full window explains (arrival jitter) adds slack, and widens no more than that until the slack is at its most', async () => {
		const clock = fakeClock();
		const pace = new Pace(clock);
		await burst(clock, pace, 8, 4);
		clock.advance(2 * RATE_WINDOW_MS); // the hold and the burst are over
		await clock.drive(pace.turn());
		expect(pace.state).toMatchObject({ limit: 4, windowMs: WINDOW });
		let windowMs = WINDOW;
		const most = RATE_WINDOW_MS * (1 + MAX_SLACK);
		for (let step = 1; windowMs < most; step++) {
			// A full window of the run's own, then the next request at the window's edge gets 429:
			// one of the four reached the service late.
			const full = await turns(clock, pace, 4);
			const edge = await clock.drive(pace.turn());
			expect(edge.at - full[0]).toBeCloseTo(windowMs, 6);
			clock.advance(5);
			pace.rateLimited(1000, edge);
			windowMs = Math.min(WINDOW + step * RATE_WINDOW_MS * SLACK_STEP, most);
			expect(pace.state.windowMs).toBeCloseTo(windowMs, 6); // the slack step, no slowdown
			expect(pace.state.limit).toBe(4);
			clock.advance(2 * RATE_WINDOW_MS);
		}
		// The slack is at its most: the next such 429 is not jitter any more, the window widens.
		await turns(clock, pace, 4);
		const edge = await clock.drive(pace.turn());
		clock.advance(5);
		pace.rateLimited(1000, edge);
		expect(pace.state.windowMs).toBeCloseTo(most * PACED_SLOWDOWN, 6);
	});

	test('after a quiet spell successes narrow a widened window back to the learned one plus the slack the 429 added, not below', async () => {
		const clock = fakeClock();
		const pace = new Pace(clock);
		await burst(clock, pace, 6, 5);
		await clock.drive(pace.turn());
		const late = await pace.turn();
		pace.rateLimited(1000, late);
		const widened = pace.state.windowMs;
		expect(widened).toBeGreaterThan(WINDOW);
		clock.advance(RELAX_AFTER_MS - 1);
		pace.succeeded();
		expect(pace.state.windowMs).toBe(widened); // not yet
		clock.advance(2);
		for (let i = 0; i < 100; i++) pace.succeeded();
		// The paced 429 was one more than the slack covered: the run keeps SLACK_STEP more of it.
		expect(pace.state.windowMs).toBeCloseTo(WINDOW + RATE_WINDOW_MS * SLACK_STEP, 6);
		expect(pace.state.limit).toBe(5);
	});

	test('after a long quiet spell the limit grows by one per window; the 429 that answers a probe takes a step back for good', async () => {
		const clock = fakeClock();
		const pace = new Pace(clock);
		await burst(clock, pace, 6, 3);
		await clock.drive(pace.turn());
		expect(pace.state.limit).toBe(3);
		clock.advance(PROBE_AFTER_MS);
		pace.succeeded();
		expect(pace.state.limit).toBe(4);
		pace.succeeded(); // one step per window
		expect(pace.state.limit).toBe(4);
		clock.advance(RATE_WINDOW_MS);
		pace.succeeded();
		expect(pace.state.limit).toBe(5);
		clock.advance(RATE_WINDOW_MS);
		pace.succeeded();
		expect(pace.state.limit).toBe(6);
		clock.advance(10);
		const probe = await clock.drive(pace.turn());
		pace.rateLimited(1000, probe);
		expect(pace.state).toMatchObject({ limit: 5, windowMs: WINDOW });
		clock.advance(10 * PROBE_AFTER_MS);
		pace.succeeded();
		expect(pace.state.limit).toBe(5);
	});

	test('a cancelled execution stops waiting', async () => {
		const clock = fakeClock();
		const pace = new Pace(clock);
		pace.rateLimited(5000);
		const controller = new AbortController();
		controller.abort();
		await expect(pace.turn(controller.signal)).rejects.toThrow();
	});
});
