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

/** Query values that may be secrets, and a URL's password: what a message shows as [hidden]. */
const SECRET_PARAM = /([?&][^=&#]*(?:token|secret|signature|key|password|auth)[^=&#]*=)[^&#]*/gi;

export function hideSecrets(text: string): string {
	return text.replace(SECRET_PARAM, '$1[hidden]').replace(/(\/\/[^/?#@:]*:)[^/?#@]*@/, '$1[hidden]@');
}

/** Also 100.64/10 (shared address space), 198.18/15 (benchmarking), 224/4 multicast and 240/4 reserved. */
function isPrivateIpv4(parts: number[]): boolean {
	const [a, b] = parts;
	return (
		a === 0 || a === 10 || a === 127 || a >= 224 ||
		(a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) ||
		(a === 100 && b >= 64 && b <= 127) || (a === 198 && (b === 18 || b === 19))
	);
}

function ipv4Parts(host: string): number[] | undefined {
	const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
	const parts = m?.slice(1).map(Number);
	return parts && parts.every((n) => n <= 255) ? parts : undefined;
}

/** Eight 16-bit groups; a dotted IPv4 tail allowed. */
function ipv6Groups(host: string): number[] | undefined {
	let text = host;
	const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
	if (tail) {
		const v4 = ipv4Parts(tail[1]);
		if (!v4) return undefined;
		text = `${text.slice(0, -tail[1].length)}${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
	}
	const halves = text.split('::');
	if (halves.length > 2) return undefined;
	const read = (part: string) => (part === '' ? [] : part.split(':'));
	const head = read(halves[0]);
	const rest = halves.length === 2 ? read(halves[1]) : [];
	const missing = 8 - head.length - rest.length;
	if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
	const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
	if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
	return groups.map((g) => parseInt(g, 16));
}

function isPrivateIpv6(g: number[]): boolean {
	const embedded = [g[6] >> 8, g[6] & 255, g[7] >> 8, g[7] & 255];
	const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
	// ::, ::1 and IPv4-compatible (deprecated), IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d)
	if (zeros(6)) return true;
	if (zeros(5) && g[5] === 0xffff) return isPrivateIpv4(embedded);
	if (zeros(4) && g[4] === 0xffff && g[5] === 0) return isPrivateIpv4(embedded);
	if (g[0] === 0x64 && g[1] === 0xff9b) return g.slice(2, 6).some((x) => x !== 0) || isPrivateIpv4(embedded); // NAT64: only 64:ff9b::/96 is public
	return (g[0] & 0xfe00) === 0xfc00 || (g[0] & 0xffc0) === 0xfe80 || (g[0] & 0xffc0) === 0xfec0 || (g[0] & 0xff00) === 0xff00;
}

/** Loopback, private, link-local or bare host names are not reachable from the internet; any spelling the URL parser may give. */
export function isPrivateHost(hostname: string): boolean {
	const host = hostname.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.+$/, '');
	if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) return true;
	const v4 = ipv4Parts(host);
	if (v4) return isPrivateIpv4(v4);
	if (host.includes(':')) {
		const v6 = ipv6Groups(host);
		return v6 === undefined || isPrivateIpv6(v6); // not an address the service could call either
	}
	return !host.includes('.'); // a container or LAN name
}

function hostOf(url: string): string | undefined {
	try {
		return new URL(url).hostname;
	} catch {
		return undefined;
	}
}

/** The service does not call private addresses; a self-hosted one (itself on a private host) may. FACTS.md "Trigger". */
export function unreachableByService(serviceBaseUrl: string, url: string): boolean {
	const service = hostOf(serviceBaseUrl);
	const target = hostOf(url);
	return service !== undefined && target !== undefined && !isPrivateHost(service) && isPrivateHost(target);
}

/** For a URL that leaves n8n for the service to call. */
export function refuseUnreachable(node: INode, field: string, url: string, serviceBaseUrl: string, itemIndex?: number): void {
	if (!unreachableByService(serviceBaseUrl, url)) return;
	throw invalid(
		node,
		field,
		hideSecrets(url),
		`it points to "${hostOf(url)}", a local or private address, and the service at ${hostOf(serviceBaseUrl)} does not call such addresses. Give an address the service can reach from the internet (for this n8n: its public URL, set in WEBHOOK_URL)`,
		itemIndex,
	);
}
