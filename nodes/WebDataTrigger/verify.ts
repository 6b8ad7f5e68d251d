import { randomBytes } from 'crypto';

import { type HeaderBag, headerValue, verifyDelivery } from '../shared/signature';

// The checks themselves are shared with Agent's resume calls; the trigger's modules import them from here.
export { headerValue, type HeaderBag, safeEqual, SIGNATURE_HEADER, signatureMatches, signBody } from '../shared/signature';

/**
 * Delivery authentication and de-duplication of the Web Data Trigger. Pure functions and one small
 * class, so they can be tested without n8n.
 *
 * Two independent checks, each applied when its secret exists:
 *  - the secret token: a random value the trigger puts into the monitor's `webhook.headers` when it
 *    registers itself (spec 2.9: those headers are sent with every delivery), or that the user typed
 *    in manual mode. A delivery must carry it exactly.
 *  - the signature: when the credential holds the team's webhook signing secret, the service sends
 *    `X-Firecrawl-Signature: sha256=<hex HMAC-SHA256(secret, raw body)>` (api-facts 3). It must match
 *    the bytes received.
 * Both comparisons take constant time. De-duplication comes after authentication, so a forged
 * request can never mark a real delivery's `webhookId` as seen.
 */

/** Header that carries the per-activation secret token (sent by the service from `webhook.headers`). */
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

/**
 * Remembers accepted `webhookId`s per scope (one scope = one trigger node of one workflow), so a
 * retried delivery (the service retries after 1, 5 and 15 minutes with the same id) starts no
 * second execution. Memory is bounded three ways: ids expire after `ttlMs`, each scope keeps at
 * most `maxPerScope` ids (oldest dropped first), and at most `maxScopes` scopes are kept (least
 * recently used dropped first).
 */
export class DeliveryDeduper {
	private readonly scopes = new Map<string, Map<string, number>>();

	// Defaults: the service retries for about 21 minutes (1 + 5 + 15); 2 hours covers that with room,
	// and 1000 ids per node cover a busy monitor (50 pages every 5 minutes) for well over an hour.
	// Worst case 200 × 1000 ids, about 25 MB; in practice a few kilobytes per active trigger.
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

/**
 * Authenticates a job-event delivery (crawl, batch scrape, agent). Unlike monitor deliveries there
 * is no registration that could put a token into the webhook's headers, so the token may come in
 * the URL (`?token=`, which Crawl's and Batch Scrape's Webhook URL keep) or in TOKEN_HEADER. At
 * least one secret must be set: an unverifiable job delivery is refused. Every secret set must pass
 * (the same rule as authenticateDelivery).
 */
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
