import { sleep } from 'n8n-workflow';

/**
 * Runs `task` for indexes 0..count-1 with at most `limit` running at once and returns the results
 * in index order. The first failure rejects; tasks already running are left to settle.
 * A `throttle` lets running tasks report rate limiting so the pool slows down.
 */
export async function runPool<T>(
	count: number,
	limit: number,
	task: (index: number) => Promise<T>,
	throttle?: Throttle,
): Promise<T[]> {
	const results = new Array<T>(count);
	let next = 0;
	const width = Math.max(1, Math.min(Math.floor(limit) || 1, count));
	const worker = async (slot: number) => {
		while (next < count) {
			if (throttle) await throttle.admit(slot, () => next < count);
			if (next >= count) return;
			const index = next++;
			results[index] = await task(index);
		}
	};
	await Promise.all(Array.from({ length: width }, (_, slot) => worker(slot)));
	return results;
}

/**
 * Shared back-pressure for a pool: a 429 halves how many workers may start new tasks and holds new
 * starts until the wait the service asked for is over. Each later success lets one more worker in.
 */
export class Throttle {
	private allowed: number;

	private resumeAt = 0;

	constructor(
		private readonly width: number,
		private readonly now: () => number = Date.now,
		private readonly wait: (ms: number) => Promise<void> = async (ms) => await sleep(ms),
	) {
		this.allowed = Math.max(1, width);
	}

	/**
	 * Workers above the allowed width, and all workers during a hold, wait here before a new task.
	 * A worker leaves as soon as no work is left for it.
	 */
	async admit(slot: number, workLeft: () => boolean): Promise<void> {
		while (workLeft()) {
			const hold = this.resumeAt - this.now();
			if (hold > 0) {
				await this.wait(Math.min(hold, 1000));
				continue;
			}
			if (slot < this.allowed) return;
			await this.wait(250);
		}
	}

	rateLimited(retryAfterMs: number): void {
		this.allowed = Math.max(1, Math.floor(this.allowed / 2));
		this.resumeAt = Math.max(this.resumeAt, this.now() + retryAfterMs);
	}

	succeeded(): void {
		if (this.allowed < this.width) this.allowed++;
	}

	get current(): number {
		return this.allowed;
	}
}
