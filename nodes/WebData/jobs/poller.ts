// Room jobs/: starting a job and waiting for it — the start with its job ID check (start), polling
// (poller, wait), resuming a paused execution on the service's completion webhook (resume),
// aiming a job's webhook at a Web Data Trigger (triggerTarget) and checking signed
// webhook deliveries (signature). It may import fields/, tool/, helpers/, transport/ and n8n-workflow;
// never resources/, methods/ or the node files. Layout: nodes/README.md.

import { defaultDeps, type TransportDeps } from '../transport';
import { cancellableSleep, cancelledError } from '../transport/sleep';

/**
 * THE polling helper of the package: waits for a long-running job (agent runs now, crawl and
 * monitor-check waits later) by reading its status until a terminal one, or until Max Wait.
 *
 * Schedule (defaults in DEFAULT_POLL_SCHEDULE; issue 15.3):
 * - the first status request goes out `firstPollMs` (1 s) after the job started, the second when
 *   the job is `growFromMs` (4.75 s) old;
 * - from then on the interval is a share (`ageRatio`, 19.5 %) of the job's age, kept between
 *   `minIntervalMs` (0.5 s) and `maxIntervalMs` (90 s): the reads fall at 4.75 s × 1.195^k.
 * Why these numbers: a job that ends between two reads at t and t × (1 + ageRatio) is noticed up
 * to ageRatio × t late, on average about half of that. With ≤ 30 reads for a 600 s job (the budget),
 * at least one gap between 5 s and 600 s must be ≥ 17.6 % of its start (30 reads can grow by
 * (600/5.5)^(1/29) = ×1.176 per read at best), so no schedule keeps EVERY job within 10 %: that
 * would need ≥ 51 reads. This one keeps the typical lateness (median and mean over jobs of a given
 * length ±10 %) within 10 % at every length from 5 s to 600 s, the worst single job within 19.5 %
 * (at most 90 s), and a 600 s job at 30 reads. The old schedule (first read at 1 s, then 25 % of
 * the age, 2 to 45 s) was 11–12 % late typically and up to 25 % (39 % at 5 s) with 28 reads.
 * `npm run bench:polling` shows the figures for 5, 10, 30, 60, 120 and 600 s. Because the interval
 * depends on the job's age, not on the number of polls, a wait that begins on an old job
 * (`startedAt`) polls at once and then at a fitting pace.
 * - The last status is read at the Max Wait deadline, so a timeout reports a fresh status.
 *
 * Errors and retries: each status read is ONE transport request with the transport's own retry
 * budget of spec 7.3 (retry only 408/429/5xx, `Retry-After` on 429, else 2^n s backoff with jitter,
 * at most 5 attempts). The poller never retries a read itself, so attempts are never multiplied
 * (at most 5 per read, not 5 × 5); a transient error is retried without ending the wait. The
 * poller hands the transport its own clock and sleep, so those retry waits count against Max Wait
 * and stop at once on cancel: a retry wait that would pass the deadline ends the wait as a timeout
 * (with the last status read). After a 429 the next regular poll also waits at least as long as
 * `Retry-After` asked. A read that still fails after its attempts (or a non-retryable error, e.g.
 * a 404) ends the wait with that error.
 *
 * Cancellation: every wait is `cancellableSleep(ms, signal)` (transport/sleep.ts: n8n-workflow's
 * sleep, which ignores the signal on n8n 1.x, plus the signal's abort event) with the execution's
 * cancel signal, so stopping the execution ends the wait at once (the transport aborts a request in
 * flight the same way); the poller then throws an AbortError, which the router never turns into
 * an error item.
 */

export interface PollSchedule {
	/** Time from the start of the job to the first status request, in ms. */
	firstPollMs: number;
	/** The job's age at the second status request, in ms; 0: none (the share of the age from the first). */
	growFromMs: number;
	/** From `growFromMs` on, the interval is this share of the job's age... */
	ageRatio: number;
	/** ...but at least this many ms... */
	minIntervalMs: number;
	/** ...and at most this many ms. */
	maxIntervalMs: number;
}

export const DEFAULT_POLL_SCHEDULE: Readonly<PollSchedule> = Object.freeze({
	firstPollMs: 1_000,
	growFromMs: 4_750,
	ageRatio: 0.195,
	minIntervalMs: 500,
	maxIntervalMs: 90_000,
});

/** Default Max Wait: 240 s, so start + wait + output stay inside n8n Cloud's 300 s execution limit. */
export const DEFAULT_MAX_WAIT_MS = 240_000;

/** Time source and sleep of the poller; tests pass a fake clock. */
export interface PollClock {
	now(): number;
	/** Resolves after `ms`, or rejects at once when `signal` aborts. */
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: PollClock = {
	now: () => Date.now(),
	sleep: async (ms, signal) => await cancellableSleep(ms, signal),
};

/**
 * The wait before the next status request: `firstPollMs` after the start for the first one (at
 * once when the job is older), then until the job is `growFromMs` old, then `ageRatio` × age; all
 * after the first clamped to [minIntervalMs, maxIntervalMs].
 */
export function pollDelay(ageMs: number, pollsDone: number, schedule: PollSchedule = DEFAULT_POLL_SCHEDULE): number {
	const age = Math.max(0, ageMs);
	if (pollsDone === 0) return Math.max(0, schedule.firstPollMs - age);
	const growFrom = schedule.growFromMs ?? 0;
	const proportional = age < growFrom ? growFrom - age : age * schedule.ageRatio;
	return Math.round(Math.min(Math.max(proportional, schedule.minIntervalMs), schedule.maxIntervalMs));
}

export interface WaitOptions<S> {
	/**
	 * Reads the status once. Pass `deps` to `apiRequest`: they carry the poller's clock and its
	 * deadline into the transport's retry waits.
	 */
	read(deps: TransportDeps): Promise<S>;
	/** Whether the status is final (the wait ends and returns it). */
	isTerminal(status: S): boolean;
	/** How long to wait at most, from the call, in ms. 0 reads the status once. */
	maxWaitMs: number;
	/** When the job started (epoch ms on the clock); default: now. Sets the pace of the schedule. */
	startedAt?: number;
	/** The execution's cancel signal (`this.getExecutionCancelSignal()`). */
	signal?: AbortSignal;
	schedule?: Partial<PollSchedule>;
	clock?: PollClock;
	/** Base transport dependencies (jitter source, attempt budget, retry observers). */
	transportDeps?: TransportDeps;
	/** Called after every successful read (for observers such as the benchmark). */
	onPoll?(info: { poll: number; elapsedMs: number; status: S }): void;
}

export interface WaitResult<S> {
	/** 'terminal': `isTerminal(status)` held. 'timeout': Max Wait passed first. */
	outcome: 'terminal' | 'timeout';
	/** The last status read; undefined only when Max Wait passed before any read succeeded. */
	status: S | undefined;
	/** Status reads started. */
	polls: number;
	/** HTTP requests sent for them (polls plus transport retries). */
	requests: number;
	/** Time from the call to the end of the wait, in ms. */
	waitedMs: number;
}

/** The error of a stopped execution; `name` AbortError, so the router never makes it an item. */
function throwIfCancelled(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw cancelledError();
}

class DeadlineReached extends Error {}

/** Polls `read` on the schedule until `isTerminal`, Max Wait, an error, or cancellation. */
export async function waitFor<S>(options: WaitOptions<S>): Promise<WaitResult<S>> {
	const clock = options.clock ?? realClock;
	const schedule: PollSchedule = { ...DEFAULT_POLL_SCHEDULE, ...options.schedule };
	const { signal } = options;
	const began = clock.now();
	const startedAt = options.startedAt ?? began;
	const deadline = began + Math.max(0, options.maxWaitMs);
	const base = options.transportDeps ?? defaultDeps;

	let polls = 0;
	let requests = 0;
	let last: S | undefined;
	let deadlineHit = false;
	let slowDownMs = 0;

	const deps: TransportDeps = {
		...base,
		now: () => clock.now(),
		// The transport's retry waits: on the poller's clock, bounded by the deadline, cancellable.
		sleep: async (ms, requestSignal) => {
			if (clock.now() + ms > deadline) {
				deadlineHit = true;
				throw new DeadlineReached('The retry wait would pass Max Wait');
			}
			await clock.sleep(ms, requestSignal ?? signal);
			requests++; // the transport sends the next attempt right after this wait
		},
		onRetry: (info) => {
			if (info.status === 429) slowDownMs = Math.max(slowDownMs, info.delayMs);
			base.onRetry?.(info);
		},
	};

	const result = (outcome: WaitResult<S>['outcome']): WaitResult<S> => ({
		outcome,
		status: last,
		polls,
		requests,
		waitedMs: clock.now() - began,
	});

	for (;;) {
		throwIfCancelled(signal);
		const now = clock.now();
		const remaining = deadline - now;
		if (polls > 0 && remaining <= 0) return result('timeout');
		let delay = pollDelay(now - startedAt, polls, schedule);
		if (slowDownMs > 0) {
			delay = Math.max(delay, slowDownMs);
			slowDownMs = 0;
		}
		delay = Math.min(delay, Math.max(0, remaining));
		if (delay > 0) {
			await clock.sleep(delay, signal).catch(() => {
				// the clock rejects only when the signal aborts
			});
			throwIfCancelled(signal);
		}

		polls++;
		requests++;
		// Read errors are the transport's NodeApiErrors; they end the wait as they are.
		const read = await options.read(deps).then(
			(status) => ({ ok: true as const, status }),
			(error: unknown) => ({ ok: false as const, error }),
		);
		if (!read.ok) {
			if (signal?.aborted) throw cancelledError();
			if (deadlineHit) return result('timeout');
			throw read.error;
		}
		const status = read.status;
		last = status;
		options.onPoll?.({ poll: polls, elapsedMs: clock.now() - began, status });
		if (options.isTerminal(status)) return result('terminal');
		if (clock.now() >= deadline) return result('timeout');
	}
}
