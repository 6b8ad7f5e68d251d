/**
 * The credential's webhook signing secret, kept per trigger node for a short while: a credential read
 * per delivery costs most of the trigger's time. Registrations forget it, entries expire, and a failed
 * signature re-reads once (nodes/FACTS.md "Webhook deliveries").
 */
export interface CachedSecret {
	/** The signing secret, or undefined when the credential has none (or there is no credential). */
	secret: string | undefined;
	/** The credential the node used when it was read (a different one is a miss). */
	credentialId: string | undefined;
	readAt: number;
}

export class SigningSecretCache {
	private readonly entries = new Map<string, CachedSecret>();
	private readonly lastRefresh = new Map<string, number>();

	constructor(
		readonly ttlMs = 60 * 1000,
		readonly retryMs = 1000,
		readonly maxEntries = 500,
	) {}

	/** The cached entry of `scope` when it is fresh and for the same credential; otherwise undefined. */
	get(scope: string, credentialId: string | undefined, now: number = Date.now()): CachedSecret | undefined {
		const entry = this.entries.get(scope);
		if (!entry) return undefined;
		if (now - entry.readAt >= this.ttlMs || entry.credentialId !== credentialId) {
			this.entries.delete(scope);
			return undefined;
		}
		this.entries.delete(scope); // re-inserted: most recently used last
		this.entries.set(scope, entry);
		return entry;
	}

	set(scope: string, credentialId: string | undefined, secret: string | undefined, now: number = Date.now()): void {
		this.entries.delete(scope);
		this.entries.set(scope, { secret, credentialId, readAt: now });
		while (this.entries.size > this.maxEntries) {
			const oldest = this.entries.keys().next().value as string;
			this.entries.delete(oldest);
			this.lastRefresh.delete(oldest);
		}
	}

	/** Whether a failed check may re-read the credential now (at most once per `retryMs` per scope). */
	mayRefresh(scope: string, now: number = Date.now()): boolean {
		const last = this.lastRefresh.get(scope);
		if (last !== undefined && now - last < this.retryMs) return false;
		this.lastRefresh.set(scope, now);
		if (this.lastRefresh.size > this.maxEntries) {
			const oldest = this.lastRefresh.keys().next().value as string;
			this.lastRefresh.delete(oldest);
		}
		return true;
	}

	forget(scope: string): void {
		this.entries.delete(scope);
		this.lastRefresh.delete(scope);
	}

	size(): number {
		return this.entries.size;
	}
}
