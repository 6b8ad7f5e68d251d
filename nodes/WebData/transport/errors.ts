import { NodeApiError } from 'n8n-workflow';
import type { INode, JsonObject } from 'n8n-workflow';

import { isRetryableStatus } from './retry';

export interface ApiFailure {
	method: string;
	path: string;
	/** Undefined when no answer arrived. */
	status?: number;
	body?: unknown;
	/** Never shown as it is. */
	rawText?: string;
	/** When no answer arrived. */
	networkCode?: string;
	/** For failures that are not HTTP answers. */
	reason?: string;
	attempts: number;
	retryAfterMs?: number;
	/** Keyed by status ("404") or API code. */
	hints?: Record<string, string>;
	baseUrl?: string;
	elapsedMs?: number;
	/** Tool use: the wait the next attempt needed when only the time budget stopped the retries. */
	budgetStopWaitMs?: number;
	budgetMs?: number;
}

const CODE_HINTS: Record<string, string> = {
	SCRAPE_PROMPT_INJECTION_DETECTED:
		'The content looks like a prompt-injection attempt, so processing stopped. The check cost 4 credits. Review the file, or turn off "Check for Prompt Injection" if you trust it.',
	THIRD_PARTY_DATA_NOT_ENABLED:
		'This data provider is not enabled for your organization. An organization administrator must enable it in the dashboard; then run again.',
	THIRD_PARTY_DATA_ENRICHMENT_NOT_ENABLED:
		'Enrichment for this kind of page is switched off. An organization administrator must enable it in the enrichment settings (the link is in the message); then run again.',
	THIRD_PARTY_DATA_TERMS_REQUIRED:
		"A data provider needs your organization to accept its terms first. An organization administrator must accept them at the address given (requiresActionUrl); then run the same request again. Workflows must not accept terms on the administrator's behalf.",
	THIRD_PARTY_DATA_UNSUPPORTED_URL:
		'The provider for this site serves only the record\'s own page, not sub-pages. Use the record\'s main URL.',
	THIRD_PARTY_DATA_UNSUPPORTED_OPTION:
		'Only a third-party provider can serve this URL, and it cannot honour one of the options set (named in the message). Remove that option.',
	THIRD_PARTY_DATA_NOT_FOUND:
		'The providers serving this URL have no record of it. Nothing was charged.',
	UNSUPPORTED_SITE: 'The service does not support this site.',
	UNSUPPORTED_FILE_TYPE:
		'The service does not accept this kind of file. Use PDF, Word, Excel, PowerPoint, OpenDocument, RTF, EPUB, CSV or HTML.',
	PARSE_UNSUPPORTED_OPTIONS: 'One of the options is not supported for parsing files. Remove it and run again.',
};

const STATUS_HINTS: Record<number, string> = {
	400: 'The service rejected the request as invalid. Check the fields named in the message.',
	401: 'The service did not accept the API key. Check the API key in the Web Data API credential.',
	402: 'Your account is out of credits (or billing is not set up). Add credits or upgrade the plan in the dashboard, then run again.',
	403: 'The API key has no permission for this. Ask an administrator of your organization.',
	404: 'Nothing exists with this id (or it belongs to another team). Check the id.',
	408: 'The service ran out of time. Raise the Timeout option, or send less work per request.',
	409: 'The current state of the resource does not allow this (for example it has already finished or was deleted).',
	413: 'The request is too large for the service. Files must be at most 50 MB.',
	422: 'The JSON Schema is not valid, or the model could not produce a result that fits it. Simplify the schema or the prompt.',
	429: 'The rate limit of your plan was reached. Lower the Concurrency option or space out executions, then run again.',
	500: 'The service failed with an internal error. Try again later; if it keeps failing, contact the service with the error text.',
	502: 'The service had a temporary gateway problem. Try again later.',
	503: 'The service is temporarily unavailable. Try again later.',
	504: 'The service gateway timed out. Try again later, or send less work per request.',
};

/** Every other path segment is an id (FACTS.md "Server request rules"). */
const PATH_WORDS = new Set([
	'active', 'activity', 'agent', 'ask', 'batch', 'checks', 'crawl', 'credit-usage', 'developer',
	'docs-search', 'errors', 'execute', 'extract', 'feedback', 'historical', 'interact', 'map', 'monitor',
	'ongoing', 'papers', 'params-preview', 'parse', 'queue-status', 'research', 'run', 'scrape', 'search',
	'similar', 'snapshots', 'support', 'team', 'threat-protection', 'token-usage', 'trace',
]);

export function apiPath(path: string): string {
	const withoutOrigin = path.replace(/^https?:\/\/[^/?#]*/i, '');
	const pathname = withoutOrigin.split(/[?#]/)[0];
	const below = pathname.replace(/^\/*v2(?=\/|$)/i, '');
	return `/${below.replace(/^\/+/, '')}`;
}

export function pathHasId(path: string): boolean {
	return apiPath(path)
		.split('/')
		.filter((segment) => segment !== '')
		.some((segment) => !PATH_WORDS.has(segment.toLowerCase()));
}

/** Anything else came from a server without this endpoint, or a proxy. */
function isApiErrorBody(body: unknown): boolean {
	return body !== null && typeof body === 'object' && !Array.isArray(body) && typeof (body as JsonObject).error === 'string';
}

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };

/** Short and without markup (`&lt;` stays escaped). */
export function pageText(raw: string, max = 160): string {
	let text = raw
		.replace(/<!--[\s\S]*?(-->|$)/g, ' ')
		.replace(/<(head|script|style|title)\b[\s\S]*?(<\/\1\s*>|$)/gi, ' ')
		.replace(/<[^>]*(>|$)/g, ' ')
		.replace(/[<>]/g, ' ')
		.replace(/&(amp|quot|#39|apos|nbsp);/g, (_m, name: string) => ENTITIES[name])
		.replace(/\s+/g, ' ')
		.trim();
	if (text.length > max) text = `${text.slice(0, max - 1).trimEnd()}…`;
	return text;
}

const HOSTED_BASE_URL = 'https://api.firecrawl.dev';

/** Self-hosted servers lack some endpoints (FACTS.md "Server request rules"). */
const MISSING_ENDPOINT_HINT =
	'The server at the Base URL has no such endpoint. Self-hosted servers of the open-source edition (as of 2025-08) have no parse, agent, monitor, interact, team activity, queue status or usage history endpoints. ' +
	`For this operation use the hosted service (Base URL ${HOSTED_BASE_URL} in the Web Data API credential), or a newer self-hosted server that has this endpoint. ` +
	'If the Base URL is not the address of the Web Data service, correct it.';

function asObject(value: unknown): JsonObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value)
		? (value as JsonObject)
		: {};
}

export function redact(text: string, secret: string | undefined): string {
	if (!secret || secret.length < 4) return text;
	return text.split(secret).join('[redacted]');
}

function redactDeep(value: unknown, secret: string | undefined): unknown {
	if (!secret) return value;
	if (typeof value === 'string') return redact(value, secret);
	if (Array.isArray(value)) return value.map((v) => redactDeep(v, secret));
	if (value !== null && typeof value === 'object') {
		const out: JsonObject = {};
		for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v, secret) as JsonObject[string];
		return out;
	}
	return value;
}

function describeDetails(details: unknown): string | undefined {
	if (!Array.isArray(details) || details.length === 0) return undefined;
	const parts = details.slice(0, 5).map((d) => {
		const item = asObject(d);
		const path = Array.isArray(item.path) ? item.path.join('.') : undefined;
		const message = typeof item.message === 'string' ? item.message : JSON.stringify(d);
		return path ? `${path}: ${message}` : message;
	});
	return parts.join('; ');
}

/** The operation's, then the API code's, then the status's; a 404 hint only when the path holds an id. */
function hintFor(failure: ApiFailure, code: string | undefined, serverText: string): string {
	const { status, hints } = failure;
	const statusHintApplies = status !== 404 || pathHasId(failure.path);
	if (hints) {
		if (code && hints[code]) return hints[code];
		const byText = Object.keys(hints).find((k) => k.startsWith('text:') && serverText.includes(k.slice(5)));
		if (byText) return hints[byText];
		if (status !== undefined && statusHintApplies && hints[String(status)]) return hints[String(status)];
	}
	if (code && CODE_HINTS[code]) return CODE_HINTS[code];
	if (status === 404 && !statusHintApplies) return MISSING_ENDPOINT_HINT;
	if (status !== undefined && STATUS_HINTS[status]) return STATUS_HINTS[status];
	return 'The service answered with an unexpected error.';
}

/** A body that is not the API's JSON error (an HTML page, a proxy's text). */
function foreignAnswer(failure: ApiFailure & { status: number }): { message: string; hint: string; text: string } {
	const raw = failure.rawText;
	let text = '';
	let what = 'an empty body';
	if (raw !== undefined) {
		text = pageText(raw);
		what = /<[a-z!/]/i.test(raw) ? 'an HTML page' : 'plain text';
	} else if (failure.body !== undefined) {
		text = pageText(JSON.stringify(failure.body));
		what = "JSON that is not the service's error";
	}
	const request = `${failure.method.toUpperCase()} /v2${apiPath(failure.path)}`;
	const page = text ? ` The server's answer reads: "${text}".` : '';
	if (failure.status === 404) {
		return {
			message: `The server${failure.baseUrl ? ` at ${failure.baseUrl}` : ''} has no endpoint ${request} (HTTP 404)`,
			hint: `${MISSING_ENDPOINT_HINT}${page}`,
			text: `No endpoint ${request}`,
		};
	}
	const statusHint = STATUS_HINTS[failure.status] ? `${STATUS_HINTS[failure.status]} ` : '';
	return {
		message: `The server answered HTTP ${failure.status} with ${what} instead of the service's JSON`,
		hint:
			`${statusHint}The answer did not come from the Web Data API itself but from something in front of it (a proxy or gateway) or from a server that is not the service. ` +
			`If it lasts, check the Base URL in the Web Data API credential and the proxy in front of the service.${page}`,
		text: text || `HTTP ${failure.status}`,
	};
}

/** Endpoints the service has retired (410 Gone), with the date and what replaces them (nodes/FACTS.md "Extract after /extract"). */
const RETIRED: Array<{ prefix: string; since: string; instead: string }> = [
	{
		prefix: '/extract',
		since: 'Thursday 2026-12-10, 15:00 UTC',
		instead:
			'Use Scrape with the JSON format (a prompt and a JSON Schema) for one known page, Batch Scrape with the JSON format for several known pages, or Agent (URLs, prompt, schema) for pages to be found (a /* URL, no URLs, web search). A job started with /extract before then can no longer be read.',
	},
];

const retiredEntry = (path: string) => RETIRED.find((r) => path === r.prefix || path.startsWith(`${r.prefix}/`));

/** A 410 of a known retired endpoint (`known`), or one not from the service's JSON. */
function retiredAnswer(method: string, path: string, known: (typeof RETIRED)[number] | undefined): { message: string; hint: string; text: string } {
	const request = `${method.toUpperCase()} /v2${path}`;
	if (known) {
		return {
			message: `The service retired the endpoint ${request} on ${known.since} (HTTP 410 Gone)`,
			hint: `${known.instead} Retrying does not help.`,
			text: `The endpoint ${request} was retired on ${known.since}`,
		};
	}
	return {
		message: `The service retired the endpoint ${request} (HTTP 410 Gone)`,
		hint: 'The service no longer offers this endpoint; retrying does not help. Update n8n-nodes-webdata to its newest version, and see the service\'s changelog for what replaces it.',
		text: `The endpoint ${request} was retired`,
	};
}

/** The API key is removed from every text. */
export function toNodeApiError(
	node: INode,
	failure: ApiFailure,
	secret: string | undefined,
	itemIndex?: number,
): NodeApiError {
	const body = asObject(failure.body);
	const code = typeof body.code === 'string' ? body.code : undefined;
	const retryable = isRetryableStatus(failure.status);
	let serverText = typeof body.error === 'string' ? body.error : '';
	if (!serverText && typeof body.message === 'string') serverText = body.message;
	const requiresActionUrl =
		typeof asObject(body.requiresAction).url === 'string'
			? (asObject(body.requiresAction).url as string)
			: undefined;

	let message: string;
	let hint: string;
	let baseHint: string | undefined;
	let missingEndpoint = false;
	const serviceAnswer = failure.status !== undefined && isApiErrorBody(failure.body);
	// A 410 the service words itself elsewhere (an ended session) keeps its hints.
	const retiredPath = failure.status === 410 ? apiPath(failure.path) : undefined;
	const retiredKnown = retiredPath !== undefined ? retiredEntry(retiredPath) : undefined;
	if (retiredPath !== undefined && (retiredKnown || !serviceAnswer)) {
		const retired = retiredAnswer(failure.method, retiredPath, retiredKnown);
		message = retired.message;
		hint = retired.hint;
		baseHint = hint;
		serverText = retired.text;
	} else if (failure.status === undefined) {
		const where = failure.baseUrl ? ` at ${failure.baseUrl}` : '';
		message = failure.reason
			? failure.reason
			: `Could not reach the Web Data service${where}${failure.networkCode ? ` (${failure.networkCode})` : ''}`;
		hint = failure.reason
			? 'The service answered with something that is not JSON. Check the Base URL in the credential; try again later.'
			: 'Check the Base URL in the Web Data API credential and that this n8n can reach it; then run again.';
	} else if (!serviceAnswer) {
		const foreign = foreignAnswer({ ...failure, status: failure.status });
		message = foreign.message;
		hint = foreign.hint;
		serverText = foreign.text;
		// Unlike the API's own 404 for an unknown id.
		missingEndpoint = failure.status === 404;
	} else {
		message = serverText || `The service answered HTTP ${failure.status}`;
		hint = hintFor(failure, code, serverText);
		baseHint = hint;
		if (failure.status === 429 && failure.retryAfterMs !== undefined && failure.attempts === 1) {
			hint += ` The service asked to wait ${Math.ceil(failure.retryAfterMs / 1000)} s before trying again.`;
		}
	}
	const detailText = describeDetails(body.details);
	const facts = [
		failure.status !== undefined ? `HTTP ${failure.status}` : undefined,
		code ? `code ${code}` : undefined,
		failure.attempts > 1 ? `after ${failure.attempts} attempts` : undefined,
		`${failure.method} ${failure.path}`,
	]
		.filter(Boolean)
		.join(', ');
	const description = [
		hint,
		detailText ? `Details: ${detailText}` : undefined,
		requiresActionUrl ? `Action required: ${requiresActionUrl}` : undefined,
		`(${facts})`,
	]
		.filter(Boolean)
		.join(' ');

	const errorResponse: JsonObject = {
		httpCode: failure.status !== undefined ? String(failure.status) : null,
		code: code ?? failure.networkCode ?? null,
		error: serverText || message,
		retryable,
	};
	if (body.details !== undefined) errorResponse.details = body.details;
	if (requiresActionUrl) errorResponse.requiresActionUrl = requiresActionUrl;

	const error = new NodeApiError(node, redactDeep(errorResponse, secret) as JsonObject, {
		message: redact(message, secret),
		description: redact(description, secret),
		httpCode: failure.status !== undefined ? String(failure.status) : undefined,
		itemIndex,
	});
	// NodeApiError rewrites some messages (FACTS.md "n8n editor behaviour").
	error.message = redact(message, secret);
	error.context.httpStatus = failure.status ?? null;
	error.context.apiCode = code ?? null;
	error.context.retryable = retryable;
	error.context.attempts = failure.attempts;
	if (missingEndpoint) error.context.missingEndpoint = true;
	// The service's own JSON error, not a proxy's or a CDN's page.
	error.context.serviceAnswer = serviceAnswer;
	// In tool use n8n hands the model the message only (tool/toolError.ts).
	error.context.hint = redact(baseHint ?? hint, secret);
	error.context.serverText = redact(serverText || message, secret);
	if (failure.networkCode !== undefined) error.context.networkCode = failure.networkCode;
	if (failure.retryAfterMs !== undefined) error.context.retryAfterMs = failure.retryAfterMs;
	if (failure.elapsedMs !== undefined) error.context.elapsedMs = failure.elapsedMs;
	if (failure.budgetStopWaitMs !== undefined) error.context.budgetStopWaitMs = failure.budgetStopWaitMs;
	if (failure.budgetMs !== undefined) error.context.budgetMs = failure.budgetMs;
	if (body.details !== undefined) error.context.details = redactDeep(body.details, secret) as JsonObject;
	if (requiresActionUrl) error.context.requiresActionUrl = requiresActionUrl;
	if (typeof body.checkId === 'string' && body.checkId !== '') error.context.checkId = body.checkId;
	return error;
}
