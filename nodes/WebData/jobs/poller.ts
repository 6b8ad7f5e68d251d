// Room jobs/: starting a job and waiting for it — the start with its job ID check (start), polling
// (poller, wait), resuming a paused execution on the service's completion webhook (resume),
// aiming a job's webhook at a Web Data Trigger (triggerTarget) and checking signed
// webhook deliveries (signature). It may import fields/, tool/, helpers/, transport/ and n8n-workflow;
// never resources/, methods/ or the node files. Layout: nodes/README.md.

import { defaultDeps, type TransportDeps } from '../transport';
import { cancellableSleep, cancelledError } from '../transport/sleep';

/** The one poller of the package: reads a job's status until it ends, Max Wait, an error or cancellation (nodes/FACTS.md "Polling"). */

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

/** The wait before the next status request (DEFAULT_POLL_SCHEDULE; nodes/FACTS.md "Polling"). */
export function pollDelay(ageMs: number, pollsDone: number, schedule: PollSchedule = DEFAULT_POLL_SCHEDULE): number {
	const age = Math.max(0, ageMs);
	if (pollsDone === 0) return Math.max(0, schedule.firstPollMs - age);
	const growFrom = schedule.growFromMs ?? 0;
	const proportional = age < growFrom ? growFrom - age : age * schedule.ageRatio;
	return Math.round(Math.min(Math.max(proportional, schedule.minIntervalMs), schedule.maxIntervalMs));
}

export interface WaitOptions<S> {
	/** Reads the status once; pass `deps` to `apiRequest` so retry waits count against the deadline. */
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
