'use strict';
// Shared helpers of the fake API: errors, ids, time, small value utilities.
const crypto = require('crypto');

/** An HTTP answer thrown from deep inside a handler; the dispatcher turns it into the response. */
class HttpError extends Error {
	constructor(status, body, headers) {
		super(typeof body?.error === 'string' ? body.error : `HTTP ${status}`);
		this.status = status;
		this.body = body;
		this.headers = headers;
	}
}

/** Spec 2.10 error body: {success:false, error, code?, details?}. */
const fail = (status, error, extra = {}) => new HttpError(status, { success: false, error, ...extra });
/** A validation error (400, code BAD_REQUEST). */
const badRequest = (error, details) =>
	fail(400, error, { code: 'BAD_REQUEST', ...(details !== undefined ? { details } : {}) });
/** Trace/snapshot passthrough bodies carry no `success` key (spec 7.2). */
const passthrough = (status, error) => new HttpError(status, { error });

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const isUuid = (s) => typeof s === 'string' && UUID_RE.test(s);

function formatUuid(b) {
	const h = b.toString('hex');
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** UUID v7 (time ordered), like the real service's job and monitor ids. */
function uuidv7(ms = Date.now()) {
	const b = crypto.randomBytes(16);
	b.writeUIntBE(ms, 0, 6);
	b[6] = (b[6] & 0x0f) | 0x70;
	b[8] = (b[8] & 0x3f) | 0x80;
	return formatUuid(b);
}

/** Deterministic UUID (v4 layout) derived from arbitrary seed text. */
function uuidFrom(...seed) {
	const b = crypto.createHash('sha256').update(seed.join('\u0000')).digest().subarray(0, 16);
	b[6] = (b[6] & 0x0f) | 0x40;
	b[8] = (b[8] & 0x3f) | 0x80;
	return formatUuid(b);
}

const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const iso = (ms = Date.now()) => new Date(ms).toISOString();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function isHttpUrl(s) {
	if (typeof s !== 'string') return false;
	try {
		const u = new URL(s);
		return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
	} catch {
		return false;
	}
}

/** Origin used for absolute `next` links: the Host the client used, else our own URL. */
const baseUrlOf = (req, fallback) => (req.headers.host ? `http://${req.headers.host}` : fallback);

/** Parses a non-negative integer query parameter; throws 400 when invalid. */
function intQuery(query, name, { def, min, max }) {
	const raw = query[name];
	if (raw === undefined || raw === '') return def;
	const n = Number(raw);
	if (!Number.isInteger(n) || n < min || (max !== undefined && n > max)) {
		throw badRequest('Bad Request', [
			{ code: 'invalid_query', path: [name], message: `${name} must be an integer between ${min} and ${max ?? '∞'}` },
		]);
	}
	return n;
}

/** Builds a plausible JSON value from a JSON Schema (used for agent `data` and parse `json`). */
function sampleFromSchema(schema, hint = {}, name = 'value', depth = 0) {
	if (!isPlainObject(schema) || depth > 6) return null;
	if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
	if ('const' in schema) return schema.const;
	const types = Array.isArray(schema.type) ? schema.type : [schema.type];
	const type = types.find((t) => t && t !== 'null') || (schema.properties ? 'object' : schema.items ? 'array' : 'string');
	switch (type) {
		case 'object': {
			const out = {};
			for (const [k, s] of Object.entries(schema.properties || {})) out[k] = sampleFromSchema(s, hint, k, depth + 1);
			return out;
		}
		case 'array':
			return [sampleFromSchema(schema.items || { type: 'string' }, hint, name, depth + 1)];
		case 'integer':
		case 'number':
			return hint.number ?? 1;
		case 'boolean':
			return true;
		default:
			if (/title|name/i.test(name) && hint.title) return hint.title;
			if (/url|link/i.test(name)) return 'https://example.com/';
			return `${name} from ${hint.source || 'fake'}`;
	}
}

/** setTimeout kept in `timers` (cleared by a module's reset), unref'd, removed once it has run. */
function later(timers, ms, fn) {
	const t = setTimeout(() => {
		timers.delete(t);
		fn();
	}, Math.max(0, ms));
	t.unref?.();
	timers.add(t);
	return t;
}

module.exports = {
	later,
	HttpError,
	fail,
	badRequest,
	passthrough,
	isUuid,
	uuidv7,
	uuidFrom,
	isPlainObject,
	isHttpUrl,
	iso,
	sleep,
	baseUrlOf,
	intQuery,
	sampleFromSchema,
};
