import { cancellableSleep } from './sleep';

/** One shared pace for every request of one execution and credential: nodes/FACTS.md "Pace". */

/** The window the service is assumed to count in, in ms (the learned limit is per this window). */
export const RATE_WINDOW_MS = 1_000;
/** The run's own window is this much longer than `RATE_WINDOW_MS` (start-to-arrival jitter). */
export const WINDOW_SLACK = 0.03;
/** Each 429 of a paced run adds this much slack for the rest of the run (a machine that jitters more)… */
export const SLACK_STEP = 0.02;
/** …up to this much (it stays: a busy machine stays busy for the run). */
export const MAX_SLACK = 0.1;
/** How much a 429 on an already paced run widens the window. */
export const PACED_SLOWDOWN = 1.1;
/** Quiet time after the last 429 before a widened window narrows again. */
export const RELAX_AFTER_MS = 3_000;
/** How much each success narrows a widened window once relaxing (1 %). */
export const RELAX_STEP = 0.01;
/** Quiet time at the learned window before the limit is raised, by one per `RATE_WINDOW_MS`. */
export const PROBE_AFTER_MS = 30_000;
/** The window never grows past this. */
export const MAX_WINDOW_MS = 60_000;
/** Sends are remembered this long (the estimate looks back from a request's start, which may be old). */
const KEEP_MS = 15_000;

/** One request's start, handed back with its answer. */
export interface PaceTicket {
	readonly at: number;
	limited: boolean;
}

export interface PaceClock {
	now(): number;
	sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const realClock: PaceClock = {
	now: () => Date.now(),
	sleep: async (ms, signal) => await cancellableSleep(ms, signal),
};

const BASE_WINDOW_MS = RATE_WINDOW_MS * (1 + WINDOW_SLACK);

export class Pace {
	/** No request starts before this time (epoch ms). */
	private resumeAt = 0;

	/** At most this many starts in any `windowMs` (0 = not paced). */
	private limit = 0;

	private windowMs = BASE_WINDOW_MS;

	/** The narrowest the window gets again after a 429 widened it (the learned window plus slack). */
	private floorMs = BASE_WINDOW_MS;

	/** Starts of recent requests, oldest first; `head` is the first one still kept. */
	private sends: PaceTicket[] = [];
	private head = 0;

	/** When the run learned of the latest 429 that changed the pace or hold. */
	private lastLimitedAt = -Infinity;

	/** When the limit was last raised by a probe; probing ends after a probe is answered with 429. */
	private probedAt = -Infinity;
	private probing = true;

	/** The first 429 of an unpaced run, to learn the limit from once its hold has passed. */
	private learning?: { sentAt: number; ticket?: PaceTicket };

	constructor(private readonly clock: PaceClock = realClock) {}

	/**
	 * Waits until this request may start: after every hold, and while the window is full, until its
	 * oldest start leaves it. Records the start; rejects when `signal` aborts.
	 */
	async turn(signal?: AbortSignal): Promise<PaceTicket> {
		for (;;) {
			const now = this.clock.now();
			// The sends of the burst are kept until the limit is learned from them, however long the hold.
			if (this.learning && now >= this.resumeAt) this.learn();
			if (!this.learning) this.prune(now);
			let at = this.resumeAt;
			if (this.limit > 0 && this.sends.length - this.head >= this.limit) {
				const oldest = this.sends[this.sends.length - this.limit].at;
				at = Math.max(at, oldest + this.windowMs);
			}
			if (at <= now) {
				const ticket: PaceTicket = { at: now, limited: false };
				this.sends.push(ticket);
				return ticket;
			}
			// A hold may be extended while we sleep (another 429): look again after waking.
			await this.clock.sleep(at - now, signal);
		}
	}

	/**
	 * A request got 429; `waitMs` is the wait the transport will honour (Retry-After or backoff),
	 * `ticket` the request's own turn (without it the request counts as started now).
	 */
	rateLimited(waitMs: number, ticket?: PaceTicket): void {
		const now = this.clock.now();
		this.resumeAt = Math.max(this.resumeAt, now + Math.max(0, waitMs));
		const sentAt = ticket?.at ?? now;
		if (ticket) ticket.limited = true;
		// Sent before the run knew of an earlier 429: the same burst, the same signal.
		if (sentAt < this.lastLimitedAt) return;
		if (this.limit === 0) {
			// Learned when the hold ends, once the burst's other 429s are known.
			if (!this.learning) this.learning = { sentAt, ticket };
		} else if (this.probedAt > this.lastLimitedAt) {
			// The last probe was one too many: one back, and no more probing.
			this.limit = Math.max(1, this.limit - 1);
			this.probing = false;
			this.lastLimitedAt = now;
			return;
		} else {
			const maxFloorMs = RATE_WINDOW_MS * (1 + MAX_SLACK);
			const jitter = this.floorMs < maxFloorMs && this.ownSendsBefore(sentAt, maxFloorMs, ticket) >= this.limit;
			this.floorMs = Math.min(this.floorMs + RATE_WINDOW_MS * SLACK_STEP, maxFloorMs);
			// Arrival jitter: the slack step is the whole answer, the learned rate stands.
			this.windowMs = jitter ? Math.max(this.windowMs, this.floorMs) : Math.min(Math.max(this.windowMs * PACED_SLOWDOWN, this.floorMs), MAX_WINDOW_MS);
		}
		this.lastLimitedAt = now;
	}

	/** A request got a 2xx answer. */
	succeeded(): void {
		if (this.limit === 0) return;
		const now = this.clock.now();
		const quiet = now - this.lastLimitedAt;
		if (quiet < RELAX_AFTER_MS) return;
		if (this.windowMs > this.floorMs) {
			this.windowMs = Math.max(this.floorMs, this.windowMs * (1 - RELAX_STEP));
		} else if (this.probing && quiet >= PROBE_AFTER_MS && now - this.probedAt >= RATE_WINDOW_MS) {
			this.limit++;
			this.probedAt = now;
		}
	}

	/** For tests and benchmarks: the learned limit per window, the window and the hold. */
	get state(): { limit: number; windowMs: number; resumeAt: number } {
		return { limit: this.limit, windowMs: this.windowMs, resumeAt: this.resumeAt };
	}

	/** Sets the limit from the first 429: the requests the service let through in the window before it. */
	private learn(): void {
		const { sentAt, ticket } = this.learning as { sentAt: number; ticket?: PaceTicket };
		this.learning = undefined;
		let allowed = 0;
		for (let i = this.sends.length - 1; i >= this.head; i--) {
			const send = this.sends[i];
			if (send.at <= sentAt - RATE_WINDOW_MS) break;
			if (send !== ticket && send.at <= sentAt && !send.limited) allowed++;
		}
		if (allowed > 0) this.limit = allowed;
	}

	/** This run's unlimited requests started within `spanMs` before `ticket`: those the service may have counted. */
	private ownSendsBefore(sentAt: number, spanMs: number, ticket?: PaceTicket): number {
		let count = 0;
		let before = !ticket;
		for (let i = this.sends.length - 1; i >= this.head; i--) {
			const send = this.sends[i];
			if (send.at <= sentAt - spanMs) break;
			if (send === ticket) before = true;
			else if (before && !send.limited) count++;
		}
		return count;
	}

	private prune(now: number): void {
		const keep = Math.max(KEEP_MS, 2 * this.windowMs);
		while (this.head < this.sends.length && this.sends[this.head].at <= now - keep) this.head++;
		// Drop the forgotten part now and then, not on every turn.
		if (this.head > 1024 && this.head * 2 > this.sends.length) {
			this.sends = this.sends.slice(this.head);
			this.head = 0;
		}
	}
}
