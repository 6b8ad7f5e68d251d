import { cancellableSleep } from './sleep';

/** One pace per execution and credential; every constant below: FACTS.md "Pace". */

/** The window the service is assumed to count in. */
export const RATE_WINDOW_MS = 1_000;
export const WINDOW_SLACK = 0.03;
export const SLACK_STEP = 0.02;
export const MAX_SLACK = 0.1;
export const PACED_SLOWDOWN = 1.1;
export const RELAX_AFTER_MS = 3_000;
export const RELAX_STEP = 0.01;
export const PROBE_AFTER_MS = 30_000;
export const MAX_WINDOW_MS = 60_000;
/** A request's start may be old when the estimate looks back from it. */
const KEEP_MS = 15_000;

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
	/** Epoch ms. */
	private resumeAt = 0;

	/** 0 = not paced. */
	private limit = 0;

	private windowMs = BASE_WINDOW_MS;

	/** The learned window plus slack. */
	private floorMs = BASE_WINDOW_MS;

	/** Oldest first; `head` is the first one still kept. */
	private sends: PaceTicket[] = [];
	private head = 0;

	private lastLimitedAt = -Infinity;

	/** Probing ends after a probe is answered with 429. */
	private probedAt = -Infinity;
	private probing = true;

	private learning?: { sentAt: number; ticket?: PaceTicket };

	constructor(private readonly clock: PaceClock = realClock) {}

	/** Rejects when `signal` aborts. */
	async turn(signal?: AbortSignal): Promise<PaceTicket> {
		for (;;) {
			const now = this.clock.now();
			// The burst's sends are kept until the limit is learned from them.
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
			// Another 429 may extend the hold while we sleep.
			await this.clock.sleep(at - now, signal);
		}
	}

	/** `waitMs`: the wait the transport will honour; without `ticket` the request counts as started now. */
	rateLimited(waitMs: number, ticket?: PaceTicket): void {
		const now = this.clock.now();
		this.resumeAt = Math.max(this.resumeAt, now + Math.max(0, waitMs));
		const sentAt = ticket?.at ?? now;
		if (ticket) ticket.limited = true;
		// Same burst, same signal.
		if (sentAt < this.lastLimitedAt) return;
		if (this.limit === 0) {
			if (!this.learning) this.learning = { sentAt, ticket };
		} else if (this.probedAt > this.lastLimitedAt) {
			// The last probe was one too many.
			this.limit = Math.max(1, this.limit - 1);
			this.probing = false;
			this.lastLimitedAt = now;
			return;
		} else {
			const maxFloorMs = RATE_WINDOW_MS * (1 + MAX_SLACK);
			const jitter = this.floorMs < maxFloorMs && this.ownSendsBefore(sentAt, maxFloorMs, ticket) >= this.limit;
			this.floorMs = Math.min(this.floorMs + RATE_WINDOW_MS * SLACK_STEP, maxFloorMs);
			// Arrival jitter: the slack step is the whole answer.
			this.windowMs = jitter ? Math.max(this.windowMs, this.floorMs) : Math.min(Math.max(this.windowMs * PACED_SLOWDOWN, this.floorMs), MAX_WINDOW_MS);
		}
		this.lastLimitedAt = now;
	}

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

	/** For tests and benchmarks. */
	get state(): { limit: number; windowMs: number; resumeAt: number } {
		return { limit: this.limit, windowMs: this.windowMs, resumeAt: this.resumeAt };
	}

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

	/** Those the service may have counted. */
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
		if (this.head > 1024 && this.head * 2 > this.sends.length) {
			this.sends = this.sends.slice(this.head);
			this.head = 0;
		}
	}
}
