import { randomBytes } from 'crypto';

import { type HeaderBag, headerValue, verifyDelivery } from '../shared/signature';

/** Pure, so they test without n8n; de-duplication comes after authentication (FACTS.md "Webhook deliveries"). */
/** Per activation. */
export const TOKEN_HEADER = 'X-WebData-Trigger-Token';

export function newSecretToken(): string {
	return randomBytes(32).toString('hex');
}

export interface AuthInput {
	headers: HeaderBag | undefined;
	/** Needed only when a signing secret is set. */
	rawBody: Buffer | string | undefined;
	/** Undefined when none is required. */
	expectedToken?: string;
	signingSecret?: string;
}

export type AuthResult =
	| { ok: true; verifiedBy: Array<'token' | 'signature'> }
	| { ok: false; reason: string; /** the secret token was missing or wrong (the signature was not looked at) */ tokenFailed?: boolean };

/** Every check whose secret is set must pass; with none the caller allows it only in manual mode. `reason` never holds a secret. */
export function authenticateDelivery(input: AuthInput): AuthResult {
	const verdict = verifyDelivery({ ...input, tokenHeader: TOKEN_HEADER });
	if (verdict.ok) return verdict;
	return verdict.failed === 'token' ? { ok: false, reason: verdict.reason, tokenFailed: true } : { ok: false, reason: verdict.reason };
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

/** `<production URL>?token=<token>`. */
export const TOKEN_QUERY = 'token';

export interface JobAuthInput {
	headers: HeaderBag | undefined;
	query: unknown;
	rawBody: Buffer | string | undefined;
	expectedToken?: string;
	signingSecret?: string;
}

/** At least one secret must be set. */
export function authenticateJobDelivery(input: JobAuthInput): AuthResult {
	if (!input.expectedToken && !input.signingSecret) {
		return { ok: false, reason: 'neither a Token nor a signing secret is set, so job events cannot be verified' };
	}
	let headers = input.headers;
	if (input.expectedToken) {
		const query = input.query !== null && typeof input.query === 'object' ? (input.query as Record<string, unknown>) : {};
		const inQuery = query[TOKEN_QUERY];
		const inHeader = headerValue(headers, TOKEN_HEADER);
		if (inHeader === undefined && inQuery !== undefined) {
			// A repeated ?token= is refused like a repeated header.
			if (typeof inQuery !== 'string') return { ok: false, reason: `the ${TOKEN_QUERY} query parameter is repeated`, tokenFailed: true };
			headers = { ...(headers ?? {}), [TOKEN_HEADER]: inQuery };
		}
	}
	return authenticateDelivery({ headers, rawBody: input.rawBody, expectedToken: input.expectedToken, signingSecret: input.signingSecret });
}
