import { NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a value is an absolute http(s) URL with a host: the one URL rule of the package. */
export function isHttpUrl(value: unknown): value is string {
	if (typeof value !== 'string') return false;
	try {
		const url = new URL(value);
		return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
	} catch {
		return false;
	}
}

export function isUuid(value: unknown): value is string {
	return typeof value === 'string' && UUID.test(value.trim());
}

/** Shows a value in an error message without flooding it. */
export function show(value: unknown): string {
	const text = typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
	return text === undefined ? 'nothing' : text.length > 80 ? `${text.slice(0, 77)}…"` : text;
}

/** Fails with an error that names the field, the value and the rule. */
export function invalid(
	node: INode,
	field: string,
	value: unknown,
	rule: string,
	itemIndex?: number,
): NodeOperationError {
	return new NodeOperationError(node, `${field} ${show(value)} is not valid: ${rule}`, {
		itemIndex,
		description: `Fix the "${field}" field and run again. Nothing was sent to the service.`,
	});
}

export function requireUuid(node: INode, field: string, value: unknown, itemIndex?: number): string {
	if (!isUuid(value)) {
		throw invalid(
			node,
			field,
			value,
			'it must be a UUID such as 0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a (copy it from the output of the operation that created it)',
			itemIndex,
		);
	}
	return value.trim();
}

/** JSON text as a value; text that is no JSON is an error naming the parser's complaint. */
export function parseJsonOrFail(node: INode, field: string, text: string, itemIndex?: number): unknown {
	try {
		return JSON.parse(text);
	} catch (error) {
		throw invalid(node, field, text, `it is not valid JSON (${(error as Error).message})`, itemIndex);
	}
}

/**
 * A JSON field's value: text is parsed, a value an expression gave is kept as it is. Empty text is an
 * error saying what to enter (`expected`, e.g. "a JSON object").
 */
export function parseJsonText(node: INode, field: string, value: unknown, expected: string, itemIndex?: number): unknown {
	if (typeof value !== 'string') return value;
	if (value.trim() === '') throw invalid(node, field, value, `it is empty; enter ${expected}`, itemIndex);
	return parseJsonOrFail(node, field, value, itemIndex);
}

/** Loopback, private, link-local or bare host names are not reachable from the internet. */
export function isPrivateHost(hostname: string): boolean {
	const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
	if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) return true;
	const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
	if (v4) {
		const [a, b] = [Number(v4[1]), Number(v4[2])];
		return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
	}
	if (host.includes(':')) {
		return host === '::1' || host === '::' || /^f[cd]/.test(host) || /^fe[89ab]/.test(host) || host.startsWith('::ffff:127.') || host.startsWith('::ffff:10.') || host.startsWith('::ffff:192.168.');
	}
	return !host.includes('.'); // a container or LAN name
}
