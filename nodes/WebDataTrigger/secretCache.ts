/**
 * The credential's webhook signing secret, kept per trigger node for a short while.
 *
 * Why: reading a credential in n8n 2.41 is a database query plus a fresh expression isolate to
 * resolve the credential's fields — per delivery, that was most of the trigger's cost beside n8n's
 * own Webhook node (test/bench/trigger-throughput.js). The secret is read once and reused by the
 * deliveries that follow.
 *
 * When a cached value can be stale, and what happens then:
 *  - every registration (activation, re-registration, "Listen for test event") and deactivation
 *    forgets the node's entry, so a new activation always starts from the credential;
 *  - entries expire after `ttlMs` (n8n may serve webhooks in other processes than the one that
 *    activates workflows, e.g. queue mode webhook processes, where no activation clears them);
 *  - a delivery whose signature fails against a cached secret is checked once more against a fresh
 *    read (the secret may just have been changed in the credential), at most once per `retryMs`
 *    per node, so forged requests cannot turn every request into a credential read.
 * Memory is bounded: at most `maxEntries` nodes, least recently used dropped first.
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
