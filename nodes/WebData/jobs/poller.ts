import { NodeApiError } from 'n8n-workflow';

import { defaultDeps, type TransportDeps } from '../transport';
import { cancellableSleep, cancelledError } from '../transport/sleep';

/** The package's one poller (FACTS.md "Polling"). */

export interface PollSchedule {
	firstPollMs: number;
	/** 0: none (the share of the age from the first). */
	growFromMs: number;
	/** From `growFromMs` on, the interval is this share of the job's age, within min and max. */
	ageRatio: number;
	minIntervalMs: number;
	maxIntervalMs: number;
}

export const DEFAULT_POLL_SCHEDULE: Readonly<PollSchedule> = Object.freeze({
	firstPollMs: 1_000,
	growFromMs: 4_750,
	ageRatio: 0.195,
	minIntervalMs: 500,
	maxIntervalMs: 90_000,
});

/** 240 s keeps start + wait + output inside n8n Cloud's 300 s execution limit. */
export const DEFAULT_MAX_WAIT_MS = 240_000;

export interface PollClock {
	now(): number;
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: PollClock = {
	now: () => Date.now(),
	sleep: async (ms, signal) => await cancellableSleep(ms, signal),
};

export function pollDelay(ageMs: number, pollsDone: number, schedule: PollSchedule = DEFAULT_POLL_SCHEDULE): number {
	const age = Math.max(0, ageMs);
	if (pollsDone === 0) return Math.max(0, schedule.firstPollMs - age);
	const growFrom = schedule.growFromMs ?? 0;
	const proportional = age < growFrom ? growFrom - age : age * schedule.ageRatio;
	return Math.round(Math.min(Math.max(proportional, schedule.minIntervalMs), schedule.maxIntervalMs));
}

export interface WaitOptions<S> {
	/** Pass `deps` to `apiRequest` so retry waits count against the deadline. */
	read(deps: TransportDeps): Promise<S>;
	isTerminal(status: S): boolean;
	/** From the call; 0 reads the status once. */
	maxWaitMs: number;
	/** Epoch ms on the clock; default now. Sets the pace of the schedule. */
	startedAt?: number;
	signal?: AbortSignal;
	schedule?: Partial<PollSchedule>;
	clock?: PollClock;
	transportDeps?: TransportDeps;
	onPoll?(info: { poll: number; elapsedMs: number; status: S }): void;
	/** The longest wait before the next read, given the last status (a job spending toward a budget). */
	maxDelayMs?(status: S, nowMs: number): number;
}

export interface WaitResult<S> {
	outcome: 'terminal' | 'timeout';
	/** Undefined only when Max Wait passed before any read succeeded. */
	status: S | undefined;
	/** The last read's failure, when it failed: what was seen. */
	readError?: string;
	polls: number;
	/** Polls plus transport retries. */
	requests: number;
	waitedMs: number;
}

/** `name` AbortError, so the router never makes it an item. */
function throwIfCancelled(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw cancelledError();
}

class DeadlineReached extends Error {}

/** The job is gone or not this key's: waiting cannot change that. A proxy's or CDN's page says nothing of the job. */
const FINAL_READ_STATUSES = ['401', '403', '404'];

/** Poll and webhook waits alike: a failed read ends the wait only on the service's 401/403/404, or a 410. */
export function endsTheWait(error: unknown): error is NodeApiError {
	if (!(error instanceof NodeApiError)) return false;
	const code = String(error.httpCode);
	return code === '410' || (FINAL_READ_STATUSES.includes(code) && error.context.serviceAnswer === true);
}

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
	let readError: string | undefined;
	let deadlineHit = false;
	let slowDownMs = 0;

	const deps: TransportDeps = {
		...base,
		now: () => clock.now(),
		// Retry waits: on the poller's clock, bounded by the deadline, cancellable.
		sleep: async (ms, requestSignal) => {
			if (clock.now() + ms > deadline) {
				deadlineHit = true;
				throw new DeadlineReached('The retry wait would pass Max Wait');
			}
			await clock.sleep(ms, requestSignal ?? signal);
			requests++;
		},
		onRetry: (info) => {
			if (info.status === 429) slowDownMs = Math.max(slowDownMs, info.delayMs);
			base.onRetry?.(info);
		},
	};

	const result = (outcome: WaitResult<S>['outcome']): WaitResult<S> => ({
		outcome,
		status: last,
		...(readError !== undefined ? { readError } : {}),
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
		if (last !== undefined && options.maxDelayMs) delay = Math.max(schedule.minIntervalMs, Math.min(delay, options.maxDelayMs(last, now)));
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
		const read = await options.read(deps).then(
			(status) => ({ ok: true as const, status }),
			(error: unknown) => ({ ok: false as const, error }),
		);
		if (!read.ok) {
			if (signal?.aborted) throw cancelledError();
			if (deadlineHit) return result('timeout');
			if (endsTheWait(read.error) || !(read.error instanceof NodeApiError)) throw read.error;
			// A proxy's page, the service unreachable, 5xx past the retries: read again later.
			readError = read.error.message;
			if (clock.now() >= deadline) return result('timeout');
			continue;
		}
		const status = read.status;
		last = status;
		readError = undefined;
		options.onPoll?.({ poll: polls, elapsedMs: clock.now() - began, status });
		if (options.isTerminal(status)) return result('terminal');
		if (clock.now() >= deadline) return result('timeout');
	}
}

/** For a Max Wait message: what the last read saw when it failed. */
export const readErrorNote = (wait: { readError?: string }): string => (wait.readError ? ` The last status read failed: ${wait.readError}.` : '');
