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
	 * body, delayMs, drop, malformed, times, every. Returns the rule id.
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
		this.rules.push(rule);
		return rule.id;
	}

	clear() {
		this.rules = [];
	}

	list() {
		return this.rules.map(({ regex, ...r }) => r);
	}

	/** Returns the action for this request ({status?, body?, headers, delayMs, drop, malformed}) or null. */
	match(method, path) {
		for (const rule of this.rules) {
			if (rule.method && rule.method.toUpperCase() !== method) continue;
			if (rule.path && !path.startsWith(rule.path)) continue;
			if (rule.regex && !rule.regex.test(path)) continue;
			if (rule.times !== undefined && rule.applied >= rule.times) continue;
			rule.seen++;
			if (rule.every && rule.seen % rule.every !== 0) continue;
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

module.exports = { FaultSet, errorBody };
