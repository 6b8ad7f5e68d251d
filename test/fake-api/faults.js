'use strict';
// Programmable faults: injected statuses, delays, dropped sockets and malformed bodies.

const GENERAL_ERRORS = {
	400: 'Bad Request',
	401: 'Unauthorized: Invalid token',
	402: 'Payment Required: Insufficient credits',
	403: 'Forbidden',
	404: 'Not Found',
	408: 'Request Timeout',
	409: 'Conflict',
	413: 'Payload Too Large',
	422: 'Unprocessable Entity',
	429: 'Rate limit exceeded',
	500: 'Internal Server Error',
	502: 'Bad Gateway',
	503: 'Service Unavailable',
	504: 'Gateway Timeout',
};

/** The body the real service sends for `status` on `path` (spec 7.1, parse shapes of 4.1). */
function errorBody(status, path) {
	const error = GENERAL_ERRORS[status] || `HTTP ${status}`;
	if (path === '/v2/parse') {
		if (status === 400) return { success: false, code: 'BAD_REQUEST', error };
		if (status === 402) return { error: 'Insufficient credits to perform this request.' };
		if (status === 429) return { error };
		if (status === 408) return { success: false, code: 'SCRAPE_TIMEOUT', error };
		if (status === 500) return { success: false, code: 'UNKNOWN_ERROR', error: `${error} (error id: fake-0001)` };
	}
	return { success: false, error };
}

class FaultSet {
	constructor() {
		this.rules = [];
		this.nextId = 1;
	}

	/**
	 * Adds a rule. Fields: method, path (prefix), re (regex source), statuses | status, retryAfter,
	 * body, delayMs, drop, malformed, times, every, notTwiceInARow. Returns the rule id.
	 */
	add(input) {
		const rule = { ...input };
		if (rule.status !== undefined && rule.statuses === undefined) rule.statuses = [rule.status];
		delete rule.status;
		if (rule.statuses !== undefined && (!Array.isArray(rule.statuses) || !rule.statuses.every(Number.isInteger)))
			throw new Error('fault.statuses must be an array of integers');
		if (rule.times === undefined && !rule.every) rule.times = rule.statuses?.length || 1;
		rule.id = `f${this.nextId++}`;
		rule.seen = 0; // matching requests seen
		rule.applied = 0; // requests the rule acted on
		rule.regex = rule.re ? new RegExp(rule.re) : null;
		rule.lastFaulted = new Set(); // request keys (see requestKey) whose latest request this rule acted on
		this.rules.push(rule);
		return rule.id;
	}

	clear() {
		this.rules = [];
	}

	list() {
		return this.rules.map(({ regex, lastFaulted, ...r }) => r);
	}

	/**
	 * Returns the action for this request ({status?, body?, headers, delayMs, drop, malformed}) or null.
	 * `body` is the request's logged body (it names the request for `notTwiceInARow`).
	 */
	match(method, path, body) {
		const key = requestKey(method, path, body);
		for (const rule of this.rules) {
			if (rule.method && rule.method.toUpperCase() !== method) continue;
			if (rule.path && !path.startsWith(rule.path)) continue;
			if (rule.regex && !rule.regex.test(path)) continue;
			if (rule.times !== undefined && rule.applied >= rule.times) continue;
			if (rule.notTwiceInARow && rule.lastFaulted.delete(key)) continue; // the retry of a faulted request passes, uncounted
			rule.seen++;
			if (rule.every && rule.seen % rule.every !== 0) continue;
			if (rule.notTwiceInARow) rule.lastFaulted.add(key);
			const index = rule.applied++;
			const status = rule.statuses?.length ? rule.statuses[index % rule.statuses.length] : undefined;
			const headers = {};
			if (status !== undefined && rule.retryAfter !== undefined) headers['Retry-After'] = String(rule.retryAfter);
			return {
				ruleId: rule.id,
				status,
				body: status !== undefined ? rule.body || errorBody(status, path) : undefined,
				headers,
				delayMs: rule.delayMs || 0,
				drop: !!rule.drop,
				malformed: !!rule.malformed,
			};
		}
		return null;
	}
}

/**
 * What makes two requests "the same request" for `notTwiceInARow`: the uploaded file's name for a
 * multipart upload (POST /v2/parse), else the method, path and body.
 */
function requestKey(method, path, body) {
	const file = body && Array.isArray(body.parts) ? body.parts.find((p) => p.filename !== null && p.filename !== undefined) : undefined;
	if (file) return `${method} ${path} file:${file.filename}`;
	return `${method} ${path} ${JSON.stringify(body ?? null)}`;
}

module.exports = { FaultSet, errorBody };

/**
 * A sliding-window rate limit like a plan's "requests per minute": at most `limit` accepted
 * requests in any `windowMs`. A request over the limit gets 429 with `Retry-After` in whole seconds:
 * by default the honest wait until a slot frees up (rounded up), or the fixed `retryAfter` given.
 * `path` (prefix) limits it to some routes. Rejected requests do not use up slots.
 */
class RateLimiter {
	constructor({ limit, windowMs = 1000, retryAfter, path } = {}) {
		if (!Number.isInteger(limit) || limit < 1) throw new Error('rateLimit.limit must be a whole number of 1 or more');
		if (!(windowMs > 0)) throw new Error('rateLimit.windowMs must be positive');
		this.limit = limit;
		this.windowMs = windowMs;
		this.retryAfter = retryAfter;
		this.path = path;
		this.accepted = []; // times of accepted requests in the window
		this.rejected = 0;
	}

	/** null when the request may pass, else the 429 answer. */
	check(path, now = Date.now()) {
		if (this.path && !path.startsWith(this.path)) return null;
		while (this.accepted.length && this.accepted[0] <= now - this.windowMs) this.accepted.shift();
		if (this.accepted.length < this.limit) {
			this.accepted.push(now);
			return null;
		}
		this.rejected++;
		const honest = Math.max(1, Math.ceil((this.accepted[0] + this.windowMs - now) / 1000));
		const seconds = this.retryAfter ?? honest;
		return { status: 429, body: errorBody(429, path), headers: { 'Retry-After': String(seconds) }, retryAfterMs: seconds * 1000 };
	}

	describe() {
		return { limit: this.limit, windowMs: this.windowMs, retryAfter: this.retryAfter, path: this.path, rejected: this.rejected };
	}
}

module.exports.RateLimiter = RateLimiter;
