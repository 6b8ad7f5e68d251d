import { randomBytes } from 'crypto';

/** Pure, so they test without n8n; de-duplication comes after authentication (shared/signature.ts authenticateDelivery; FACTS.md "Webhook deliveries"). */
/** Per activation. */
export function newSecretToken(): string {
	return randomBytes(32).toString('hex');
}

/** So a retried delivery starts no second execution; bounded by age, per node and node count. */
export class DeliveryDeduper {
	private readonly scopes = new Map<string, Map<string, number>>();

	// FACTS.md "Webhook deliveries".
	constructor(
		readonly maxPerScope = 1000,
		readonly ttlMs = 2 * 60 * 60 * 1000,
		readonly maxScopes = 200,
	) {}

	/** Records `id` in `scope`; true when it had already been recorded (and has not expired). */
	seen(scope: string, id: string, now: number = Date.now()): boolean {
		let ids = this.scopes.get(scope);
		if (ids) {
			this.scopes.delete(scope); // re-inserted below: most recently used last
		} else {
			ids = new Map();
		}
		this.scopes.set(scope, ids);
		while (this.scopes.size > this.maxScopes) {
			const oldest = this.scopes.keys().next().value as string;
			this.scopes.delete(oldest);
		}

		// Kept in order recorded: expired ones are at the front.
		for (const [key, at] of ids) {
			if (now - at < this.ttlMs) break;
			ids.delete(key);
		}
		const at = ids.get(id);
		if (at !== undefined && now - at < this.ttlMs) return true;
		ids.delete(id);
		ids.set(id, now);
		while (ids.size > this.maxPerScope) {
			const oldest = ids.keys().next().value as string;
			ids.delete(oldest);
		}
		return false;
	}

	forget(scope: string): void {
		this.scopes.delete(scope);
	}

	/** For tests and diagnostics. */
	size(): number {
		let n = 0;
		for (const ids of this.scopes.values()) n += ids.size;
		return n;
	}

	scopeCount(): number {
		return this.scopes.size;
	}
}
