'use strict';
const { Pace, SAFETY, RELAX_AFTER_MS } = require('../../dist/nodes/WebData/transport/pace');

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

describe('Pace', () => {
	test('unpaced until a 429: turns are immediate', async () => {
		const clock = fakeClock();
		const pace = new Pace(clock);
		const t0 = clock.now();
		for (let i = 0; i < 5; i++) await pace.turn();
		expect(clock.now()).toBe(t0);
		expect(pace.state.intervalMs).toBe(0);
	});

	test('a 429 holds every later turn until Retry-After has passed', async () => {
		const clock = fakeClock();
		const pace = new Pace(clock);
		const t0 = clock.now();
		pace.rateLimited(2000);
		await clock.drive(pace.turn());
		expect(clock.now()).toBeGreaterThanOrEqual(t0 + 2000);
	});

	test('the rate after a 429 follows the successes of the last second', async () => {
		const clock = fakeClock();
		const pace = new Pace(clock);
		for (let i = 0; i < 10; i++) {
			pace.succeeded();
			clock.advance(10);
		}
		pace.rateLimited(1000);
		expect(pace.state.intervalMs).toBeCloseTo(1000 / (10 * SAFETY), 5);
		// Several 429s of the same burst do not compound.
		pace.rateLimited(1000);
		pace.rateLimited(1000);
		expect(pace.state.intervalMs).toBeCloseTo(1000 / (10 * SAFETY), 5);
		// After the hold, starts are spaced by the interval.
		const starts = [];
		for (let i = 0; i < 5; i++) {
			await clock.drive(pace.turn());
			starts.push(clock.now());
		}
		const gaps = starts.slice(1).map((t, i) => t - starts[i]);
		for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(1000 / (10 * SAFETY) - 1e-6);
	});

	test('concurrent waiters each take their own slot', async () => {
		const clock = fakeClock();
		const pace = new Pace(clock);
		pace.succeeded();
		pace.succeeded();
		pace.rateLimited(1000); // 2 per second allowed → ~526 ms apart
		const starts = [];
		await clock.drive(Promise.all([0, 1, 2, 3].map(async () => {
			await pace.turn();
			starts.push(clock.now());
		})));
		starts.sort((a, b) => a - b);
		for (let i = 1; i < starts.length; i++) expect(starts[i] - starts[i - 1]).toBeGreaterThanOrEqual(500);
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

	test('no success in the window: the hold applies, no spacing is invented', async () => {
		const clock = fakeClock();
		const pace = new Pace(clock);
		pace.rateLimited(100);
		expect(pace.state.intervalMs).toBe(0);
		expect(pace.state.resumeAt).toBe(clock.now() + 100);
	});

	test('repeated 429s on a paced run do not spiral down (a few successes stay in the window)', async () => {
		const clock = fakeClock();
		const pace = new Pace(clock);
		pace.succeeded();
		pace.succeeded();
		pace.rateLimited(1000);
		const first = pace.state.intervalMs;
		// A run at that pace: two successes per window, then another 429, ten times over.
		for (let round = 0; round < 10; round++) {
			clock.advance(1000); // the hold
			for (let k = 0; k < 2; k++) {
				pace.succeeded();
				clock.advance(pace.state.intervalMs);
			}
			pace.rateLimited(1000);
		}
		expect(pace.state.intervalMs).toBeCloseTo(first * 1.1 ** 10, 5);
	});

	test('after a quiet spell successes shorten the spacing until it is dropped', async () => {
		const clock = fakeClock();
		const pace = new Pace(clock);
		pace.succeeded();
		pace.rateLimited(1000);
		const first = pace.state.intervalMs;
		clock.advance(RELAX_AFTER_MS - 1);
		pace.succeeded();
		expect(pace.state.intervalMs).toBe(first); // not yet
		clock.advance(2);
		for (let i = 0; i < 2000 && pace.state.intervalMs > 0; i++) pace.succeeded();
		expect(pace.state.intervalMs).toBe(0);
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
