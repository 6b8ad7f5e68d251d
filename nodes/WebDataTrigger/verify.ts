import { createHash, createHmac, randomBytes, timingSafeEqual } from 'crypto';

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
/** The service's HMAC signature header (api-facts 3). */
export const SIGNATURE_HEADER = 'X-Firecrawl-Signature';

/** A fresh secret token: 32 random bytes as 64 hex characters. */
export function newSecretToken(): string {
	return randomBytes(32).toString('hex');
}

/** Constant-time equality of two strings of any length (their SHA-256 digests are compared). */
export function safeEqual(a: string, b: string): boolean {
	const left = createHash('sha256').update(a, 'utf8').digest();
	const right = createHash('sha256').update(b, 'utf8').digest();
	return timingSafeEqual(left, right);
}

export type HeaderBag = Record<string, string | string[] | undefined>;

/** One header's value, case-insensitively; undefined when absent or sent more than once. */
export function headerValue(headers: HeaderBag | undefined, name: string): string | undefined {
	if (!headers) return undefined;
	const wanted = name.toLowerCase();
	const values: string[] = [];
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() !== wanted || value === undefined) continue;
		if (Array.isArray(value)) values.push(...value);
		else values.push(String(value));
	}
	return values.length === 1 ? values[0] : undefined;
}

/** HMAC-SHA256 of the raw body as lower-case hex (what the service puts after "sha256="). */
export function signBody(secret: string, rawBody: Buffer | string): string {
	return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/** Whether `header` is "sha256=<hex>" and the hex equals HMAC-SHA256(secret, rawBody), in constant time. */
export function signatureMatches(secret: string, rawBody: Buffer | string, header: string | undefined): boolean {
	if (typeof header !== 'string') return false;
	const match = /^\s*sha256=([0-9a-fA-F]{64})\s*$/.exec(header);
	if (!match) return false;
	const expected = createHmac('sha256', secret).update(rawBody).digest();
	const given = Buffer.from(match[1], 'hex');
	return given.length === expected.length && timingSafeEqual(given, expected);
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
	const verifiedBy: Array<'token' | 'signature'> = [];
	if (input.expectedToken) {
		const given = headerValue(input.headers, TOKEN_HEADER);
		if (given === undefined) return { ok: false, reason: `the ${TOKEN_HEADER} header is missing`, tokenFailed: true };
		if (!safeEqual(given, input.expectedToken)) return { ok: false, reason: `the ${TOKEN_HEADER} header is wrong`, tokenFailed: true };
		verifiedBy.push('token');
	}
	if (input.signingSecret) {
		const header = headerValue(input.headers, SIGNATURE_HEADER);
		if (header === undefined) return { ok: false, reason: `the ${SIGNATURE_HEADER} header is missing` };
		if (input.rawBody === undefined) return { ok: false, reason: 'the raw request body is not available to check the signature' };
		if (!signatureMatches(input.signingSecret, input.rawBody, header)) {
			return { ok: false, reason: `the ${SIGNATURE_HEADER} header does not match the body` };
		}
		verifiedBy.push('signature');
	}
	return { ok: true, verifiedBy };
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
