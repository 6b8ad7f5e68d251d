/** Keys remembered for a fixed time each; older ones are forgotten at the next look. */
export class RecentKeys {
	private readonly seen = new Map<string, number>();

	constructor(private readonly keepMs: number) {}

	/** Whether `key` was remembered within the last `keepMs` before `now`. */
	has(key: string, now = Date.now()): boolean {
		for (const [k, at] of this.seen) if (now - at > this.keepMs) this.seen.delete(k);
		return this.seen.has(key);
	}

	remember(key: string, now = Date.now()): void {
		this.seen.set(key, now);
	}
}
