'use strict';
/**
 * Stop stops at once on n8n 1.x (issue 22.4): n8n-workflow 1.x (n8n 1.123 ships 1.120) has
 * `sleep(ms)` only and ignores the cancel signal the package passes, so a stopped Run and Wait
 * would wait out its current poll interval (up to 90 s). Here n8n-workflow's `sleep` is replaced by
 * 1.x's (a plain timer that ignores a second argument); every wait of the package — the poller's,
 * the transport's retry wait, the shared pace's hold — must still end within a moment of the stop.
 * Build first: `npm run build`.
 */
const v1Calls = [];
jest.mock('n8n-workflow', () => {
	const actual = jest.requireActual('n8n-workflow');
	// n8n-workflow 1.120's sleep: `async (ms) => new Promise((resolve) => setTimeout(resolve, ms))`.
	const v1Sleep = async (ms) => {
		v1Calls.push(ms);
		return await new Promise((resolve) => setTimeout(resolve, ms));
	};
	return { ...actual, sleep: v1Sleep };
});

const { cancellableSleep, SLEEP_SLICE_MS } = require('../../dist/nodes/WebData/transport/sleep');
const { waitFor } = require('../../dist/nodes/WebData/jobs/poller');
const { defaultDeps } = require('../../dist/nodes/WebData/transport');
const { Pace } = require('../../dist/nodes/WebData/transport/pace');

const LONG_MS = 20_000; // a wait that must NOT be waited out (the real interval is up to 90 s)
const STOP_AFTER_MS = 50;
const MARGIN_MS = 5_000; // "at once" on a busy machine: far below LONG_MS

/** Starts `run(signal)`, stops after STOP_AFTER_MS; resolves how it ended and how long after the stop. */
async function stopDuring(run) {
	const controller = new AbortController();
	const began = Date.now();
	let stoppedAt;
	const stopper = setTimeout(() => {
		stoppedAt = Date.now();
		controller.abort();
	}, STOP_AFTER_MS);
	let guard;
	const outcome = await Promise.race([
		run(controller.signal).then(
			() => ({ how: 'resolved' }),
			(error) => ({ how: 'rejected', error }),
		),
		new Promise((resolve) => {
			guard = setTimeout(() => resolve({ how: 'still waiting' }), STOP_AFTER_MS + MARGIN_MS);
		}),
	]);
	clearTimeout(guard);
	clearTimeout(stopper);
	return { ...outcome, afterStopMs: Date.now() - (stoppedAt ?? began) };
}

beforeEach(() => {
	v1Calls.length = 0;
});

describe('waits end at once when the execution is stopped, with n8n-workflow 1.x sleep (which ignores the signal)', () => {
	test('the emulated 1.x sleep really ignores the signal (the premise)', async () => {
		const { sleep } = require('n8n-workflow');
		const r = await stopDuring((signal) => sleep(300, signal));
		expect(r.how).toBe('resolved'); // it waited its whole 300 ms despite the stop
	});

	test('cancellableSleep rejects with AbortError right after the stop, leaving only short timers', async () => {
		const r = await stopDuring((signal) => cancellableSleep(LONG_MS, signal));
		expect(r.how).toBe('rejected');
		expect(r.error.name).toBe('AbortError');
		expect(r.afterStopMs).toBeLessThan(MARGIN_MS);
		expect(Math.max(...v1Calls)).toBeLessThanOrEqual(SLEEP_SLICE_MS);
	});

	test('cancellableSleep without a stop waits the whole time (in slices)', async () => {
		const t0 = Date.now();
		await cancellableSleep(2_300, new AbortController().signal);
		expect(Date.now() - t0).toBeGreaterThanOrEqual(2_250);
		expect(v1Calls).toEqual([1_000, 1_000, 300]);
	});

	test('an already stopped execution does not wait at all', async () => {
		const c = new AbortController();
		c.abort();
		await expect(cancellableSleep(LONG_MS, c.signal)).rejects.toMatchObject({ name: 'AbortError' });
		expect(v1Calls).toEqual([]);
	});

	test("the poller's wait (Run and Wait with Poll) ends right after the stop", async () => {
		let reads = 0;
		const r = await stopDuring((signal) =>
			waitFor({
				read: async () => {
					reads++;
					return { status: 'processing' };
				},
				isTerminal: () => false,
				maxWaitMs: 60_000,
				schedule: { firstPollMs: LONG_MS },
				signal,
			}),
		);
		expect(r.how).toBe('rejected');
		expect(r.error.name).toBe('AbortError');
		expect(r.afterStopMs).toBeLessThan(MARGIN_MS);
		expect(reads).toBe(0);
	});

	test("the transport's retry wait ends right after the stop", async () => {
		const r = await stopDuring((signal) => defaultDeps.sleep(LONG_MS, signal));
		expect(r.how).toBe('rejected');
		expect(r.afterStopMs).toBeLessThan(MARGIN_MS);
	});

	test("the shared pace's hold after a 429 ends right after the stop", async () => {
		const pace = new Pace();
		pace.rateLimited(LONG_MS);
		const r = await stopDuring((signal) => pace.turn(signal));
		expect(r.how).toBe('rejected');
		expect(r.afterStopMs).toBeLessThan(MARGIN_MS);
	});
});
