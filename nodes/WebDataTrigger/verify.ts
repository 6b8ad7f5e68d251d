import { randomBytes } from 'crypto';

import { type HeaderBag, headerValue, verifyDelivery } from '../shared/signature';

// The checks themselves are shared with Agent's resume calls; the trigger's modules import them from here.
export { headerValue, type HeaderBag, safeEqual, SIGNATURE_HEADER, signatureMatches, signBody } from '../shared/signature';

/**
 * Delivery authentication (secret token, signature) and de-duplication of the Web Data Trigger,
 * pure so they test without n8n. De-duplication comes after authentication, so a forged request
 * never marks a real delivery as seen. The service's side: nodes/FACTS.md "Webhook deliveries".
 */
/** Header that carries the per-activation secret token. */
export const TOKEN_HEADER = 'X-WebData-Trigger-Token';

/** A fresh secret token: 32 random bytes as 64 hex characters. */
export function newSecretToken(): string {
	return randomBytes(32).toString('hex');
}

export interface AuthInput {
	headers: HeaderBag | undefined;
	/** The exact bytes received; needed only when a signing secret is set. */
	rawBody: Buffer | string | undefined;
	/** The token the delivery must carry, or undefined when none is required. */
	expectedToken?: string;
	/** The signing secret of the credential, or undefined/empty when none is set. */
	signingSecret?: string;
}

export type AuthResult =
	| { ok: true; verifiedBy: Array<'token' | 'signature'> }
	| { ok: false; reason: string; /** the secret token was missing or wrong (the signature was not looked at) */ tokenFailed?: boolean };

/**
 * Authenticates one delivery. Every check whose secret is set must pass; with no secret at all the
 * delivery is accepted with `verifiedBy: []` (the caller allows that only in manual mode).
 * `reason` is for logs only: it never contains a secret.
 */
export function authenticateDelivery(input: AuthInput): AuthResult {
	const verdict = verifyDelivery({ ...input, tokenHeader: TOKEN_HEADER });
	if (verdict.ok) return verdict;
	return verdict.failed === 'token' ? { ok: false, reason: verdict.reason, tokenFailed: true } : { ok: false, reason: verdict.reason };
}

/** Accepted `webhookId`s per trigger node, so a retried delivery starts no second execution; bounded by age, per node and node count. */
export class DeliveryDeduper {
	private readonly scopes = new Map<string, Map<string, number>>();

	// Sized for the service's retries: nodes/FACTS.md "Webhook deliveries".
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

		// Ids are kept in the order they were recorded, so expired ones are at the front.
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

	/** Forgets everything of one scope (used when a registration ends). */
	forget(scope: string): void {
		this.scopes.delete(scope);
	}

	/** Number of ids held, over all scopes (for tests and diagnostics). */
	size(): number {
		let n = 0;
		for (const ids of this.scopes.values()) n += ids.size;
		return n;
	}

	scopeCount(): number {
		return this.scopes.size;
	}
}

/** Query parameter that may carry the Job Events token (`<production URL>?token=<token>`). */
export const TOKEN_QUERY = 'token';

export interface JobAuthInput {
	headers: HeaderBag | undefined;
	/** The request's query (n8n's `getQueryData()`). */
	query: unknown;
	rawBody: Buffer | string | undefined;
	/** The trigger's Token, or undefined/empty when none is set. */
	expectedToken?: string;
	signingSecret?: string;
}

/** Authenticates a job-event delivery: token in the URL or header, signature; at least one secret must be set. */
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
			// Exactly one string; a repeated ?token= is refused like a repeated header.
			if (typeof inQuery !== 'string') return { ok: false, reason: `the ${TOKEN_QUERY} query parameter is repeated`, tokenFailed: true };
			headers = { ...(headers ?? {}), [TOKEN_HEADER]: inQuery };
		}
	}
	return authenticateDelivery({ headers, rawBody: input.rawBody, expectedToken: input.expectedToken, signingSecret: input.signingSecret });
}
