import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INodeCredentialsDetails,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { Cost, CreditBudget } from '../budget';
import { baseUrlMessage, checkBaseUrl } from './baseUrl';

import { type ApiFailure, toNodeApiError } from './errors';
import type { Pace, PaceTicket } from './pace';
import { MAX_ATTEMPTS, nextRetryDelay, parseRetryAfter } from './retry';
import { cancellableSleep, cancelledError } from './sleep';

export const CREDENTIAL_TYPE = 'webDataApi';

export type ApiContext = IExecuteFunctions | ILoadOptionsFunctions | IHookFunctions | IWebhookFunctions | IPollFunctions;

/** Importing 'stream' is not allowed on n8n Cloud. */
export type BinaryStream = Awaited<ReturnType<IExecuteFunctions['helpers']['getBinaryStream']>>;

/** Opened anew for every attempt. */
export interface UploadBody {
	body: BinaryStream | Buffer;
	headers: Record<string, string>;
}

export interface ApiRequest {
	method: IHttpRequestMethods;
	/** Below /v2, or an absolute URL on the service's own origin. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	/** Called once per attempt so a retry re-reads the source. */
	openUpload?: () => Promise<UploadBody>;
	timeoutMs?: number;
	itemIndex?: number;
	/** Keyed by status ("404"), API code, or "text:<part of the error text>". */
	hints?: Record<string, string>;
	/** One short attempt, so the editor says at once why it cannot load. Default: on for load-options contexts. */
	editorList?: boolean;
	/** What it spends: reserved from the execution's credit budget before it is sent (budget/index.ts). */
	cost?: Cost;
}

export const EDITOR_LIST_TIMEOUT_MS = 5000;

function isLoadOptionsContext(ctx: ApiContext): boolean {
	return 'getCurrentNodeParameter' in ctx && !('getInputData' in ctx);
}

function unreachableReason(code: string | undefined, timeoutMs: number): string {
	if (code === 'ECONNREFUSED') return 'connection refused: nothing answers at that address and port';
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name was not found';
	if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT')
		return `no answer within ${Math.round(timeoutMs / 1000)} s`;
	if (code === 'ERR_INVALID_URL') return 'the Base URL is not a valid http(s) address';
	if (code && /^(EPROTO|ERR_SSL|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO)/.test(code))
		return `the TLS connection failed (${code}): check http vs https in the Base URL`;
	return code ? `connection failed (${code})` : 'connection failed';
}

/** Tests replace both. */
export interface TransportDeps {
	sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
	random: () => number;
	now: () => number;
	maxAttempts: number;
	onRetry?: (info: { attempt: number; status?: number; delayMs: number }) => void;
	/** FACTS.md "Pace". */
	pace?: Pace;
	/** Tool use: a model hears back in time. */
	budgetMs?: number;
	/** The execution's credit budget: requests with a `cost` reserve and settle there. */
	budget?: CreditBudget;
}

export const defaultDeps: TransportDeps = {
	sleep: async (ms, signal) => await cancellableSleep(ms, signal),
	random: Math.random,
	now: Date.now,
	maxAttempts: MAX_ATTEMPTS,
};

/** Trailing slashes and a trailing /v2 are dropped. */
export function normalizeBaseUrl(raw: unknown): string {
	let url = String(raw ?? '').trim();
	if (url === '') url = 'https://api.firecrawl.dev';
	url = url.replace(/\/+$/, '');
	url = url.replace(/\/v2$/i, '');
	return url.replace(/\/+$/, '');
}

/** The credential's Base URL as requests use it. */
export async function serviceBaseUrl(ctx: IExecuteFunctions, itemIndex?: number): Promise<string> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE, itemIndex);
	return normalizeBaseUrl(credentials.baseUrl);
}

interface HttpAnswer {
	status: number;
	body: unknown;
	headers: Record<string, unknown>;
}

function parseBody(raw: unknown): { ok: true; value: unknown } | { ok: false } {
	if (typeof raw !== 'string') return { ok: true, value: raw };
	if (raw.trim() === '') return { ok: true, value: undefined };
	try {
		return { ok: true, value: JSON.parse(raw) };
	} catch {
		return { ok: false };
	}
}

function cancelSignal(ctx: ApiContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
}

/** The one request function: auth, base URL, retries (spec 7.3) and error mapping (spec 7). */
export async function apiRequest<T = IDataObject>(
	ctx: ApiContext,
	request: ApiRequest,
	deps: TransportDeps = defaultDeps,
): Promise<T> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
	const credentialRef = ctx.getNode().credentials?.[CREDENTIAL_TYPE];
	const checkedBase = checkBaseUrl(credentials.baseUrl);
	if (!checkedBase.ok) {
		throw new NodeOperationError(ctx.getNode(), baseUrlMessage(checkedBase), {
			description: 'Fix Base URL in the Web Data API credential, then press Test there.',
			itemIndex: request.itemIndex,
		});
	}
	const budget = request.cost ? deps.budget : undefined;
	if (!budget || !request.cost) return await send<T>(ctx, request, deps, credentials, credentialRef);
	budget.setCredentialLimit(credentials.creditBudget);
	// Refused here, nothing is sent; no await between this check and the request's first turn.
	const hold = budget.reserve(request.cost, request.itemIndex);
	const outcome = await send<T>(ctx, request, deps, credentials, credentialRef).then(
		(answer) => ({ answer, failed: false as const }),
		(error: unknown) => ({ error, failed: true as const }),
	);
	if (outcome.failed) {
		// The service's error spent nothing (spec 7); one without an answer counts, to be cautious.
		if (mayHaveBeenBilled(outcome.error)) {
			budget.settle(hold, request.cost.credits, request.itemIndex);
			budget.note(request.itemIndex ?? 0, { unconfirmed: UNCONFIRMED(request.cost.credits) });
		} else budget.release(hold, request.itemIndex);
		throw outcome.error;
	}
	const reported = request.cost.reported?.(outcome.answer as IDataObject);
	budget.settle(hold, reported ?? request.cost.credits, request.itemIndex);
	return outcome.answer;
}

const NOT_SENT = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ERR_INVALID_URL'];

/** No answer, or a gateway's 502/504: it may have been done. */
function mayHaveBeenBilled(error: unknown): boolean {
	const context = (error as { context?: Record<string, unknown> })?.context;
	if (!context || context.serviceAnswer === true) return false;
	const status = context.httpStatus;
	if (status === 502 || status === 504) return true;
	const code = context.networkCode;
	return (status === null || status === undefined) && !(typeof code === 'string' && NOT_SENT.includes(code));
}

const UNCONFIRMED = (credits: number): string =>
	`No answer from the service confirmed this request (a timeout, a cut connection or a gateway's 502/504); it may still have been done and billed, so the budget counts its ${credits} credit${credits === 1 ? '' : 's'}.`;

async function send<T>(
	ctx: ApiContext,
	request: ApiRequest,
	deps: TransportDeps,
	credentials: ICredentialDataDecryptedObject,
	credentialRef: INodeCredentialsDetails | undefined,
): Promise<T> {
	const baseUrl = normalizeBaseUrl(credentials.baseUrl);
	const secret = typeof credentials.apiKey === 'string' ? credentials.apiKey : undefined;
	const url = resolveUrl(baseUrl, request.path);
	const signal = cancelSignal(ctx);
	const editorList = request.editorList ?? isLoadOptionsContext(ctx);
	const timeoutMs = editorList ? Math.min(request.timeoutMs ?? EDITOR_LIST_TIMEOUT_MS, EDITOR_LIST_TIMEOUT_MS) : request.timeoutMs;

	let attempt = 0;
	const startedAt = deps.now();
	let waitedMs = 0;
	// Fixed-clock tests: the sum of waits.
	const elapsed = (): number => Math.max(deps.now() - startedAt, waitedMs);
	for (;;) {
		attempt++;
		if (signal?.aborted) throw cancelledError();
		// Opened before the turn, so the request goes out the moment its turn comes.
		const upload = request.openUpload ? await request.openUpload() : undefined;
		let ticket: PaceTicket | undefined;
		// Tool use: a hold past this call's budget is not waited for.
		const holdMs = deps.pace && deps.budgetMs !== undefined ? deps.pace.state.resumeAt - deps.now() : 0;
		if (holdMs > 0 && deps.budgetMs !== undefined && elapsed() + holdMs > deps.budgetMs) {
			discardUpload(upload);
			throw toNodeApiError(
				ctx.getNode(),
				{
					method: request.method,
					path: request.path,
					status: 429,
					// Another call of the execution got this 429.
					body: { success: false, error: 'Rate limit: the service asked this execution to wait (Retry-After)' },
					attempts: attempt - 1,
					retryAfterMs: holdMs,
					budgetStopWaitMs: holdMs,
					budgetMs: deps.budgetMs,
					elapsedMs: elapsed(),
					hints: request.hints,
					baseUrl,
				},
				secret,
				request.itemIndex,
			);
		}
		if (deps.pace) {
			try {
				ticket = await deps.pace.turn(signal);
			} catch {
				discardUpload(upload);
				throw cancelledError();
			}
		}
		const options: IHttpRequestOptions = {
			method: request.method,
			url,
			qs: request.qs,
			json: true,
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: timeoutMs,
		};
		if (upload) {
			options.body = upload.body as unknown as IDataObject;
			options.headers = upload.headers;
			// The API does not redirect uploads; following would buffer the whole upload.
			options.disableFollowRedirect = true;
		} else if (request.body !== undefined) {
			options.body = request.body;
			options.headers = { 'Content-Type': 'application/json' };
		}

		let answer: HttpAnswer | undefined;
		let failure: ApiFailure | undefined;
		try {
			// The credential read above is handed over, so n8n's helper sends at once: left to itself it
			// reads the credential again (a database read in n8n) after the turn, and a 429 answered in
			// the meantime would not stop this request (issue 37; FACTS.md "Pace").
			const response = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, options, {
				credentialsDecrypted: { id: credentialRef?.id ?? '', name: credentialRef?.name ?? '', type: CREDENTIAL_TYPE, data: { ...credentials } },
			})) as { statusCode: number; body: unknown; headers: Record<string, unknown> };
			answer = { status: response.statusCode, body: response.body, headers: response.headers ?? {} };
		} catch (error) {
			if (signal?.aborted) throw cancelledError();
			const cause = (error as { cause?: { code?: string } }).cause;
			const networkCode = (error as { code?: string }).code ?? cause?.code;
			failure = {
				method: request.method,
				path: request.path,
				networkCode: typeof networkCode === 'string' ? networkCode : undefined,
				attempts: attempt,
				hints: request.hints,
				baseUrl,
			};
		}

		if (answer) {
			const parsed = parseBody(answer.body);
			if (answer.status >= 200 && answer.status < 300) {
				deps.pace?.succeeded();
				if (!parsed.ok) {
					failure = {
						method: request.method,
						path: request.path,
						reason: `The service answered HTTP ${answer.status} with a body that is not valid JSON`,
						attempts: attempt,
						baseUrl,
					};
				} else {
					return (parsed.value ?? {}) as T;
				}
			} else {
				failure = {
					method: request.method,
					path: request.path,
					status: answer.status,
					body: parsed.ok ? parsed.value : undefined,
					// Not JSON: kept for its readable text only.
					rawText: parsed.ok ? undefined : String(answer.body).slice(0, 4000),
					attempts: attempt,
					retryAfterMs: parseRetryAfter(headerValue(answer.headers, 'retry-after'), deps.now()),
					hints: request.hints,
					baseUrl,
				};
			}
		}

		const current = failure as ApiFailure;
		if (editorList) {
			const error = toNodeApiError(ctx.getNode(), current, secret, request.itemIndex);
			if (current.status === undefined && !current.reason) {
				// FACTS.md "n8n editor behaviour".
				error.message = `The Web Data service cannot be reached (${unreachableReason(current.networkCode, timeoutMs ?? EDITOR_LIST_TIMEOUT_MS)})`;
				error.description = `Address: ${baseUrl}. Check the Base URL in the credential and that this n8n can reach it, then open the list again.`;
				error.httpCode = null;
			}
			throw error;
		}
		const delay = retryDelayFor(request.method, current, attempt, deps);
		// Every 429 holds the whole run, also when this request gives up.
		if (current.status === 429) deps.pace?.rateLimited(delay ?? current.retryAfterMs ?? 0, ticket);
		current.elapsedMs = elapsed();
		if (deps.budgetMs !== undefined) current.budgetMs = deps.budgetMs;
		if (delay === undefined) throw toNodeApiError(ctx.getNode(), current, secret, request.itemIndex);
		if (deps.budgetMs !== undefined && current.elapsedMs + delay > deps.budgetMs) {
			current.budgetStopWaitMs = delay;
			throw toNodeApiError(ctx.getNode(), current, secret, request.itemIndex);
		}
		deps.onRetry?.({ attempt, status: current.status, delayMs: delay });
		try {
			await deps.sleep(delay, signal);
		} catch {
			throw cancelledError();
		}
		waitedMs += delay;
	}
}

function discardUpload(upload: UploadBody | undefined): void {
	const body = upload?.body as { destroy?: () => void } | undefined;
	if (body && !Buffer.isBuffer(body) && typeof body.destroy === 'function') body.destroy();
}

/** Connection failures are retried only for requests that are safe to repeat. */
const IDEMPOTENT: readonly string[] = ['GET', 'DELETE', 'HEAD', 'PUT'];

function retryDelayFor(
	method: string,
	failure: ApiFailure,
	attempt: number,
	deps: TransportDeps,
): number | undefined {
	if (failure.status === undefined) {
		if (!IDEMPOTENT.includes(method.toUpperCase())) return undefined;
		return nextRetryDelay(attempt, 503, undefined, deps.random, deps.maxAttempts);
	}
	return nextRetryDelay(attempt, failure.status, failure.retryAfterMs, deps.random, deps.maxAttempts);
}

function headerValue(headers: Record<string, unknown>, name: string): unknown {
	const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
	return key === undefined ? undefined : headers[key];
}

/** An absolute URL (a `next` link) only on the service's own origin, so the API key goes nowhere else. */
export function resolveUrl(baseUrl: string, path: string): string {
	if (/^https?:\/\//i.test(path)) {
		const target = new URL(path);
		const base = new URL(baseUrl);
		if (target.origin !== base.origin) {
			throw new Error(
				`Refusing to follow a link to ${target.origin}: it is not the service's address (${base.origin})`,
			);
		}
		return target.toString();
	}
	return `${baseUrl}/v2${path.startsWith('/') ? path : `/${path}`}`;
}
