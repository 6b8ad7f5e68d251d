/**
 * The Base URL of the credential, checked before anything is sent: the service's http(s) root,
 * optionally under a path prefix or with /v2; anything that would send the key elsewhere is refused.
 */
export const DEFAULT_BASE_URL = 'https://api.firecrawl.dev';

export type BaseUrlCheck = { ok: true; url: string } | { ok: false; problem: string; fix: string };

export function checkBaseUrl(raw: unknown): BaseUrlCheck {
	const text = String(raw ?? '').trim();
	if (text === '') return { ok: true, url: DEFAULT_BASE_URL };
	const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text);
	if (!scheme) {
		const host = text.replace(/^\/+/, '');
		return {
			ok: false,
			problem: `Base URL "${text}" has no scheme`,
			fix: `Enter it with https:// in front (https://${host}), or http:// for a local self-hosted service.`,
		};
	}
	if (!['http', 'https'].includes(scheme[1].toLowerCase())) {
		return {
			ok: false,
			problem: `Base URL "${text}" uses ${scheme[1]}://, not http:// or https://`,
			fix: `Enter the service's web address, for example ${DEFAULT_BASE_URL}.`,
		};
	}
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return {
			ok: false,
			problem: `Base URL "${text}" is not a valid address`,
			fix: `Enter the service's address only, for example ${DEFAULT_BASE_URL} or http://localhost:3002.`,
		};
	}
	if (url.username || url.password) {
		return {
			ok: false,
			problem: 'Base URL contains a user name or password',
			fix: 'Remove "user:password@" from it: the API key field is how the node signs in.',
		};
	}
	if (url.search || url.hash) {
		return {
			ok: false,
			problem: `Base URL "${text}" has a query or fragment (${url.search}${url.hash})`,
			fix: `Enter the address without "?…" or "#…", for example ${url.origin}.`,
		};
	}
	const path = url.pathname.replace(/\/+$/, '').replace(/\/v2$/i, '');
	if (/\/v\d+(\/|$)/i.test(path)) {
		return {
			ok: false,
			problem: `Base URL "${text}" points at an API path (${url.pathname})`,
			fix: `Enter the service's address without the path, for example ${url.origin}: the node adds /v2/<endpoint> itself.`,
		};
	}
	return { ok: true, url: `${url.origin}${path}` };
}

/** The check as one sentence, for error messages and the credential test. */
export function baseUrlMessage(check: Extract<BaseUrlCheck, { ok: false }>): string {
	return `${check.problem}. ${check.fix}`;
}
