import { createHash, createHmac, timingSafeEqual } from 'crypto';
import type { IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

/** The one authenticator of every webhook delivery (monitor events, job events, resume calls) and its names: FACTS.md "Webhook deliveries". */

export const SIGNATURE_HEADER = 'X-Firecrawl-Signature';

/** The credential's Webhook Signing Secret, the one place it is read; '' when unset. */
export const signingSecret = (credentials: { webhookSecret?: unknown } | undefined): string =>
	typeof credentials?.webhookSecret === 'string' ? credentials.webhookSecret.trim() : '';

/** The same from a context whose credential may be missing (then ''). */
export async function credentialSigningSecret(ctx: { getCredentials(type: string, itemIndex?: number): Promise<object> }, itemIndex?: number): Promise<string> {
	const credentials = await ctx.getCredentials('webDataApi', itemIndex).catch(() => undefined);
	return signingSecret(credentials as { webhookSecret?: unknown } | undefined);
}

/** A Web Data Trigger's token: registration puts it on a monitor's webhook; job events carry the one typed on the trigger. */
export const TRIGGER_TOKEN_HEADER = 'X-WebData-Trigger-Token';
export const TRIGGER_TOKEN_QUERY = 'token';

/** A waiting execution's token; also in the resume URL, for services that drop custom headers. */
export const RESUME_TOKEN_HEADER = 'X-WebData-Resume-Token';
export const RESUME_TOKEN_QUERY = 'webdataToken';

/** Where a delivery may carry its token. */
export interface TokenPlaces {
	header: string;
	query: string;
}

export const TRIGGER_TOKEN: TokenPlaces = { header: TRIGGER_TOKEN_HEADER, query: TRIGGER_TOKEN_QUERY };
export const RESUME_TOKEN: TokenPlaces = { header: RESUME_TOKEN_HEADER, query: RESUME_TOKEN_QUERY };

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

/** Answers the delivery itself (n8n then sends nothing more). */
export function refuse(ctx: IWebhookFunctions, status: number, message: string): IWebhookResponseData {
	const res = ctx.getResponseObject() as unknown as WebhookResponse;
	res.status(status).json({ success: false, error: message });
	return { noWebhookResponse: true };
}

/** Any length: their SHA-256 digests are compared. */
export function safeEqual(a: string, b: string): boolean {
	const left = createHash('sha256').update(a, 'utf8').digest();
	const right = createHash('sha256').update(b, 'utf8').digest();
	return timingSafeEqual(left, right);
}

function headerValues(headers: HeaderBag | undefined, name: string): string[] {
	const wanted = name.toLowerCase();
	const values: string[] = [];
	for (const [key, value] of Object.entries(headers ?? {})) {
		if (key.toLowerCase() !== wanted || value === undefined) continue;
		if (Array.isArray(value)) values.push(...value);
		else values.push(String(value));
	}
	return values;
}

/** Case-insensitive; undefined when absent or sent more than once. */
export function headerValue(headers: HeaderBag | undefined, name: string): string | undefined {
	const values = headerValues(headers, name);
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

export interface Delivery {
	headers: HeaderBag | undefined;
	/** The URL's parsed query (n8n's getQueryData()). */
	query: unknown;
	/** The exact bytes received; needed only when a signing secret is set. */
	rawBody: Buffer | string | undefined;
	places: TokenPlaces;
	/** Blank: no token is asked for. */
	expectedToken?: string;
	/** Blank: no signature is checked. */
	signingSecret?: string;
	/** Only where the user chose to go unverified (the trigger's Manual connection): with nothing set the delivery passes, unverified. */
	allowUnverified?: boolean;
}

export type Proof = 'token' | 'signature';

export type DeliveryVerdict =
	| { ok: true; /** empty: unverified */ verifiedBy: Proof[] }
	| { ok: false; /** never holds a secret */ reason: string; failed: Proof | 'nothing set' };

/** `null`: given more than once, or not as text. */
function queryValue(query: unknown, name: string): string | null | undefined {
	if (query === null || typeof query !== 'object' || !Object.prototype.hasOwnProperty.call(query, name)) return undefined;
	const value = (query as Record<string, unknown>)[name];
	return typeof value === 'string' ? value : null;
}

function tokenProblem(input: Delivery, token: string): string | undefined {
	const { header, query } = input.places;
	const inHeaders = headerValues(input.headers, header);
	if (inHeaders.length > 1) return `the ${header} header is sent more than once`;
	const inUrl = queryValue(input.query, query);
	if (inUrl === null) return `the ${query} URL parameter is given more than once`;
	const given: Array<[string, string]> = inHeaders.map((v) => [`the ${header} header`, v]);
	if (inUrl !== undefined) given.push([`the ${query} URL parameter`, inUrl]);
	if (given.length === 0) return `it carries neither the ${header} header nor the ${query} URL parameter`;
	for (const [where, value] of given) if (!safeEqual(value, token)) return `${where} is wrong`;
	return undefined;
}

/**
 * Every proof that is set must hold: the token (in the header, the URL or both, each copy right and
 * given once) and the signature over the raw bytes. With neither set the delivery is refused, unless
 * `allowUnverified`. FACTS.md "Webhook deliveries".
 */
export function authenticateDelivery(input: Delivery): DeliveryVerdict {
	const token = input.expectedToken ?? '';
	const secret = input.signingSecret?.trim() ?? '';
	if (token === '' && secret === '') {
		if (input.allowUnverified) return { ok: true, verifiedBy: [] };
		return { ok: false, reason: 'neither a token nor a signing secret is set, so nothing can verify it', failed: 'nothing set' };
	}
	const verifiedBy: Proof[] = [];
	if (token !== '') {
		const problem = tokenProblem(input, token);
		if (problem) return { ok: false, reason: problem, failed: 'token' };
		verifiedBy.push('token');
	}
	if (secret !== '') {
		const signatures = headerValues(input.headers, SIGNATURE_HEADER);
		if (signatures.length !== 1) {
			return { ok: false, reason: `the ${SIGNATURE_HEADER} header is ${signatures.length ? 'sent more than once' : 'missing'}`, failed: 'signature' };
		}
		if (input.rawBody === undefined) return { ok: false, reason: 'the raw request body is not available to check the signature', failed: 'signature' };
		if (!signatureMatches(secret, input.rawBody, signatures[0])) {
			return { ok: false, reason: `the ${SIGNATURE_HEADER} header does not match the body`, failed: 'signature' };
		}
		verifiedBy.push('signature');
	}
	return { ok: true, verifiedBy };
}
