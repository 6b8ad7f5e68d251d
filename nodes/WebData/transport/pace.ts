import { sleep } from 'n8n-workflow';

/**
 * One shared pace for every request of one node run (first tries, retries, status polls, every
 * resource), so concurrent requests respect each other's rate limits.
 *
 * - **Hold.** After any 429 no request of the run starts before the time the service asked for
 *   (`Retry-After`, else the transport's backoff). Requests already waiting to retry wait for it too.
 * - **Learned rate.** A 429 also tells how fast the service lets requests through: the run spaces its
 *   request starts so that per second at most `SAFETY` × (the number of requests that succeeded in
 *   the second before the first 429) start. A 429 on a run that is already paced widens the spacing
 *   by `PACED_SLOWDOWN` (a bounded step: the 429 may not be about the rate at all). Without that, a run that resumes at full speed gets one 429 and
 *   one full `Retry-After` pause per rate window, which halves throughput. The spacing only grows
 *   from the successes the service really allowed, so repeated 429s of one burst do not compound.
 * - **Recovery.** After `RELAX_AFTER_MS` without a 429 each success shortens the spacing by
 *   `RELAX_STEP`, so a run that was slowed by a passing limit (another workflow sharing the key)
 *   speeds up again; below `MIN_INTERVAL_MS` the spacing is dropped.
 *
 * Time and sleep are injected for tests; `turn()` stops at once when the execution is cancelled.
 */

/** Share of the observed allowed rate the run aims for. */
export const SAFETY = 0.95;
/** How far back successes count when a 429 arrives, in ms (the rate window of the estimate). */
export const RATE_WINDOW_MS = 1_000;
/** How much a 429 on an already paced run widens the spacing. */
export const PACED_SLOWDOWN = 1.1;
/** Quiet time after the last 429 before the spacing starts to shrink again. */
export const RELAX_AFTER_MS = 10_000;
/** How much each success shortens the spacing once relaxing (1 %). */
export const RELAX_STEP = 0.01;
/** Spacing below this is dropped (no pacing). */
export const MIN_INTERVAL_MS = 5;
/** Spacing never grows past this. */
export const MAX_INTERVAL_MS = 60_000;

export interface PaceClock {
	now(): number;
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const realClock: PaceClock = {
	now: () => Date.now(),
	sleep: async (ms, signal) => await sleep(ms, signal),
};

export class Pace {
	/** No request starts before this time (epoch ms). */
	private resumeAt = 0;

	/** Minimum time between two request starts, in ms (0 = not paced). */
	private intervalMs = 0;

	/** The earliest start time of the next request under the spacing. */
	private nextSlot = 0;

	/** Times of recent successful answers (kept for the rate window). */
	private successes: number[] = [];

	private lastLimitedAt = -Infinity;

	constructor(private readonly clock: PaceClock = realClock) {}

	/**
	 * Waits until this request may start: after every hold, and after the previous request's slot.
	 * Reserves the slot it takes. Rejects when `signal` aborts.
	 */
	async turn(signal?: AbortSignal): Promise<void> {
		for (;;) {
			const now = this.clock.now();
			const at = Math.max(this.resumeAt, this.intervalMs > 0 ? this.nextSlot : 0);
			if (at <= now) {
				if (this.intervalMs > 0) this.nextSlot = Math.max(now, this.nextSlot) + this.intervalMs;
				return;
			}
			// A hold may be extended while we sleep (another 429): look again after waking.
			await this.clock.sleep(at - now, signal);
		}
	}

	/** A request got 429; `waitMs` is the wait the transport will honour (Retry-After or backoff). */
	rateLimited(waitMs: number): void {
		const now = this.clock.now();
		this.resumeAt = Math.max(this.resumeAt, now + Math.max(0, waitMs));
		let interval = this.intervalMs;
		if (now - this.lastLimitedAt < RATE_WINDOW_MS) {
			// Several 429s of one burst arrive together: they are one signal, not several.
		} else if (this.intervalMs === 0) {
			// Unpaced: the successes of the second before the 429 are the rate the service allows.
			// None tells nothing about the rate: the hold applies, no spacing yet.
			this.prune(now);
			if (this.successes.length > 0) interval = RATE_WINDOW_MS / (this.successes.length * SAFETY);
		} else {
			// Paced and still limited: slow down by a bounded step. A measured estimate would now
			// measure the run's own spacing and spiral down when the 429s are not about the rate.
			interval = this.intervalMs * PACED_SLOWDOWN;
		}
		this.intervalMs = Math.min(interval, MAX_INTERVAL_MS);
		this.lastLimitedAt = now;
		// The first request after the hold goes at the resume time; the others follow the spacing.
		this.nextSlot = Math.max(this.nextSlot, this.resumeAt);
	}

	/** A request got a 2xx answer. */
	succeeded(): void {
		const now = this.clock.now();
		this.successes.push(now);
		this.prune(now);
		if (this.intervalMs > 0 && now - this.lastLimitedAt >= RELAX_AFTER_MS) {
			this.intervalMs *= 1 - RELAX_STEP;
			if (this.intervalMs < MIN_INTERVAL_MS) this.intervalMs = 0;
		}
	}

	/** For tests and benchmarks: the current spacing and hold. */
	get state(): { intervalMs: number; resumeAt: number } {
		return { intervalMs: this.intervalMs, resumeAt: this.resumeAt };
	}

	private prune(now: number): void {
		const from = now - RATE_WINDOW_MS;
		let drop = 0;
		while (drop < this.successes.length && this.successes[drop] < from) drop++;
		if (drop > 0) this.successes.splice(0, drop);
	}
}
