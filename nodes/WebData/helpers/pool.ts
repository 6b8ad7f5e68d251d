/**
 * Runs `task` for indexes 0..count-1 with at most `limit` running at once and returns the results
 * in index order. The first failure rejects; tasks already running are left to settle.
 * Rate limits are not the pool's business: every request of a run waits for the run's shared pace
 * (transport/pace.ts), so a 429 holds first tries and retries alike.
 */
export async function runPool<T>(count: number, limit: number, task: (index: number) => Promise<T>): Promise<T[]> {
	const results = new Array<T>(count);
	let next = 0;
	const width = Math.max(1, Math.min(Math.floor(limit) || 1, count));
	const worker = async () => {
		while (next < count) {
			const index = next++;
			results[index] = await task(index);
		}
	};
	await Promise.all(Array.from({ length: width }, async () => await worker()));
	return results;
}
