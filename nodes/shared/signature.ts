import { createHash, createHmac, timingSafeEqual } from 'crypto';

/** Token and signature checks (constant time), shared by the trigger and the resume calls (FACTS.md "Webhook deliveries"). */

export const SIGNATURE_HEADER = 'X-Firecrawl-Signature';

export type HeaderBag = Record<string, string | string[] | undefined>;

/** n8n keeps the raw bytes of the body. */
export interface WebhookRequest {
	rawBody?: Buffer;
	body?: unknown;
	headers?: HeaderBag;
	readRawBody?: () => Promise<void>;
}

export interface WebhookResponse {
	status(code: number): WebhookResponse;
	json(body: unknown): unknown;
}

/** Any length: their SHA-256 digests are compared. */
export function safeEqual(a: string, b: string): boolean {
	const left = createHash('sha256').update(a, 'utf8').digest();
	const right = createHash('sha256').update(b, 'utf8').digest();
	return timingSafeEqual(left, right);
}

/** Case-insensitive; undefined when absent or sent more than once. */
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

/** Lower-case hex, as the service sends after "sha256=". */
export function signBody(secret: string, rawBody: Buffer | string): string {
	return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/** "sha256=<hex>", compared in constant time. */
export function signatureMatches(secret: string, rawBody: Buffer | string, header: string | undefined): boolean {
	if (typeof header !== 'string') return false;
	const match = /^\s*sha256=([0-9a-fA-F]{64})\s*$/.exec(header);
	if (!match) return false;
	const expected = createHmac('sha256', secret).update(rawBody).digest();
	const given = Buffer.from(match[1], 'hex');
	return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The same in any process, so nothing is stored. */
export function derivedToken(secret: string, ...parts: string[]): string {
	return createHmac('sha256', secret).update(JSON.stringify(parts)).digest('hex');
}

export interface DeliveryCheck {
	headers: HeaderBag | undefined;
	/** Needed only when a signing secret is set. */
	rawBody: Buffer | string | undefined;
	tokenHeader?: string;
	expectedToken?: string;
	signingSecret?: string;
}

export type DeliveryVerdict =
	| { ok: true; verifiedBy: Array<'token' | 'signature'> }
	| { ok: false; reason: string; /** which check refused it (the token is checked first) */ failed: 'token' | 'signature' };

/** Token first, then signature; every check whose secret is set must pass. `reason` never holds a secret. */
export function verifyDelivery(input: DeliveryCheck): DeliveryVerdict {
	const verifiedBy: Array<'token' | 'signature'> = [];
	if (input.expectedToken) {
		const name = input.tokenHeader ?? '';
		const given = headerValue(input.headers, name);
		if (given === undefined) return { ok: false, reason: `the ${name} header is missing`, failed: 'token' };
		if (!safeEqual(given, input.expectedToken)) return { ok: false, reason: `the ${name} header is wrong`, failed: 'token' };
		verifiedBy.push('token');
	}
	if (input.signingSecret) {
		const header = headerValue(input.headers, SIGNATURE_HEADER);
		if (header === undefined) return { ok: false, reason: `the ${SIGNATURE_HEADER} header is missing`, failed: 'signature' };
		if (input.rawBody === undefined) {
			return { ok: false, reason: 'the raw request body is not available to check the signature', failed: 'signature' };
		}
		if (!signatureMatches(input.signingSecret, input.rawBody, header)) {
			return { ok: false, reason: `the ${SIGNATURE_HEADER} header does not match the body`, failed: 'signature' };
		}
		verifiedBy.push('signature');
	}
	return { ok: true, verifiedBy };
}

export interface ResumeCallCheck {
	headers: HeaderBag | undefined;
	query: Record<string, unknown> | undefined;
	rawBody: Buffer | string | undefined;
	tokenHeader: string;
	tokenQuery: string;
	expectedToken: string;
	signingSecret?: string;
}

export type ResumeCallVerdict =
	| { ok: true; verifiedBy: Array<'header token' | 'URL token' | 'signature'> }
	| { ok: false; reason: string };

/** `null` when sent more than once or not a string. */
function queryValue(query: Record<string, unknown> | undefined, name: string): string | null | undefined {
	if (!query || !Object.prototype.hasOwnProperty.call(query, name)) return undefined;
	const value = query[name];
	return typeof value === 'string' ? value : null;
}

/** At least one proof (header token, URL token, signature) must hold and none be wrong; a signature without a secret counts as absent. */
export function verifyResumeCall(input: ResumeCallCheck): ResumeCallVerdict {
	const verifiedBy: Array<'header token' | 'URL token' | 'signature'> = [];
	const tokenHeaderValue = headerValue(input.headers, input.tokenHeader);
	const hasTokenHeader = Object.keys(input.headers ?? {}).some((k) => k.toLowerCase() === input.tokenHeader.toLowerCase());
	if (hasTokenHeader) {
		if (tokenHeaderValue === undefined || !safeEqual(tokenHeaderValue, input.expectedToken)) return { ok: false, reason: `the ${input.tokenHeader} header is wrong` };
		verifiedBy.push('header token');
	}
	const tokenInUrl = queryValue(input.query, input.tokenQuery);
	if (tokenInUrl !== undefined) {
		if (tokenInUrl === null || !safeEqual(tokenInUrl, input.expectedToken)) return { ok: false, reason: `the ${input.tokenQuery} URL parameter is wrong` };
		verifiedBy.push('URL token');
	}
	const secret = input.signingSecret?.trim();
	const signatureHeader = headerValue(input.headers, SIGNATURE_HEADER);
	if (secret && signatureHeader !== undefined) {
		if (input.rawBody === undefined || !signatureMatches(secret, input.rawBody, signatureHeader)) {
			return { ok: false, reason: `the ${SIGNATURE_HEADER} header does not match the body` };
		}
		verifiedBy.push('signature');
	}
	if (verifiedBy.length === 0) {
		return {
			ok: false,
			reason: secret
				? `it carries neither the ${input.tokenHeader} header, nor the ${input.tokenQuery} URL parameter, nor the ${SIGNATURE_HEADER} header`
				: `it carries neither the ${input.tokenHeader} header nor the ${input.tokenQuery} URL parameter (and the credential has no signing secret to check a signature)`,
		};
	}
	return { ok: true, verifiedBy };
}
