import type {
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { baseUrlMessage, checkBaseUrl } from '../transport/baseUrl';

/** The free request of the credential's Test (spec: GET /v2/team/credit-usage costs no credits). */
export const TEST_PATH = '/v2/team/credit-usage';

/** How long the Test waits for an answer. */
export const TEST_TIMEOUT_MS = 10_000;

interface Answer {
	statusCode: number;
	body: unknown;
}

function errorText(body: unknown): string {
	if (body !== null && typeof body === 'object') {
		const b = body as IDataObject;
		if (typeof b.error === 'string') return b.error;
		if (typeof b.message === 'string') return b.message;
	}
	return '';
}

function isJson(body: unknown): boolean {
	if (body !== null && typeof body === 'object') return true;
	if (typeof body !== 'string') return false;
	try {
		JSON.parse(body);
		return true;
	} catch {
		return false;
	}
}

/** What a failed connection means, and what to do, in words. */
export function describeConnectionError(code: string | undefined, url: string, timeoutMs: number): string {
	const where = new URL(url);
	const https = where.protocol === 'https:';
	const address = `${where.protocol}//${where.host}`;
	if (code === 'ECONNREFUSED')
		return `Nothing answers at ${address} (connection refused). Check the host and port in Base URL, and that the service is running.`;
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
		return `The host ${where.hostname} was not found (${code}). Check the spelling of Base URL.`;
	if (code === 'ECONNABORTED' || code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT')
		return `${address} did not answer within ${Math.round(timeoutMs / 1000)} s. Check Base URL, and that this n8n can reach it (firewall, proxy).`;
	if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'EPROTO' || (code !== undefined && /SSL|TLS|WRONG_VERSION/i.test(code)))
		return https
			? `The TLS (https) connection to ${address} failed (${code}): the server may speak plain http there. Try http:// in Base URL for a local self-hosted service.`
			: `The connection to ${address} was dropped (${code}). If the service uses https, enter https:// in Base URL.`;
	if (code !== undefined && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|DEPTH_ZERO/i.test(code))
		return `The TLS certificate of ${address} is not trusted (${code}). Use a trusted certificate, or http:// for a local self-hosted service.`;
	return `Could not connect to ${address}${code ? ` (${code})` : ''}. Check Base URL, and that this n8n can reach it.`;
}

/** What an HTTP answer to the Test means, and what to do. */
export function describeAnswer(answer: Answer, base: string): INodeCredentialTestResult {
	const { statusCode: status, body } = answer;
	const text = errorText(body);
	if (status >= 200 && status < 300) {
		if (!isJson(body))
			return {
				status: 'Error',
				message: `${base} answered, but not as the Web Data API (the answer is not JSON). Check Base URL: the address of the API, not of the dashboard or a web page.`,
			};
		return { status: 'OK', message: 'Connection successful: the service accepted the API key.' };
	}
	const said = text ? ` The service said: "${text.slice(0, 200)}".` : '';
	if (status === 401)
		return {
			status: 'Error',
			message: `The service refused the API key (401).${said} Copy the key again from the dashboard (it starts with fc-) into API Key.`,
		};
	if (status === 402)
		return {
			status: 'Error',
			message: `The API key is valid, but the team has no credits left (402).${said} Add credits or upgrade the plan in the dashboard; until then every request fails.`,
		};
	if (status === 403)
		return { status: 'Error', message: `The API key may not use this service (403).${said} Ask an administrator of your team.` };
	if (status === 404 || status === 405)
		return {
			status: 'Error',
			message: `${base} answered ${status} to GET ${TEST_PATH}: no Web Data API v2 there. Check Base URL (for the public service: https://api.firecrawl.dev).`,
		};
	if (status === 429)
		return { status: 'Error', message: `The service is rate limiting this key (429).${said} The key itself works; test again in a minute.` };
	if (status >= 500)
		return { status: 'Error', message: `The service failed (${status}).${said} Try the Test again later.` };
	if (!isJson(body))
		return {
			status: 'Error',
			message: `${base} answered ${status} with something that is not the Web Data API. Check Base URL, also http:// versus https://.`,
		};
	return { status: 'Error', message: `The service answered ${status}.${said} Check API Key and Base URL.` };
}

/**
 * The Test button of the Web Data API credential (the node's `testedBy`): checks Base URL first
 * (nothing is sent when it is invalid), then GET /v2/team/credit-usage with the key, one attempt,
 * and says what is wrong and what to do.
 */
export async function webDataApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = (credential.data ?? {}) as IDataObject;
	const checked = checkBaseUrl(data.baseUrl);
	if (!checked.ok) return { status: 'Error', message: baseUrlMessage(checked) };
	const apiKey = typeof data.apiKey === 'string' ? data.apiKey.trim() : '';
	if (apiKey === '') return { status: 'Error', message: 'API Key is empty. Copy the key from the dashboard (it starts with fc-).' };
	const url = `${checked.url}${TEST_PATH}`;
	try {
		// n8n 2.41's credential-test context (ICredentialTestFunctions) offers only `request`: there is
		// no httpRequest to use instead. `simple: false` returns 4xx/5xx answers instead of throwing.
		// eslint-disable-next-line @n8n/community-nodes/no-deprecated-workflow-functions
		const answer = (await this.helpers.request({
			method: 'GET',
			uri: url,
			headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' },
			json: true,
			timeout: TEST_TIMEOUT_MS,
			resolveWithFullResponse: true,
			simple: false,
		})) as Answer;
		return describeAnswer(answer, checked.url);
	} catch (error) {
		const e = error as { code?: unknown; cause?: { code?: unknown } };
		const code = typeof e.code === 'string' ? e.code : typeof e.cause?.code === 'string' ? e.cause.code : undefined;
		return { status: 'Error', message: describeConnectionError(code, url, TEST_TIMEOUT_MS) };
	}
}
