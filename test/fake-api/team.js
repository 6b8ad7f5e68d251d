'use strict';
// Team (account) endpoints of the OpenAPI: GET /v2/team/credit-usage (also the credential test),
// /v2/team/credit-usage/historical, /v2/team/token-usage, /v2/team/token-usage/historical and
// /v2/team/queue-status and /v2/team/activity. Query strings are strict: an unknown parameter or a `byApiKey` that is not
// "true"/"false" answers 400 BAD_REQUEST like a zod query schema.
//
// Values come from state.team (api.setTeam / POST /__fake/team): remainingCredits, planCredits
// (both reset to 1000), and optionally remainingTokens, planTokens, billingPeriodStart,
// billingPeriodEnd, queue ({jobsInQueue, activeJobsInQueue, waitingJobsInQueue, maxConcurrency,
// mostRecentSuccess}), creditHistory and tokenHistory (arrays of periods as the API returns them
// with byApiKey=true: {startDate, endDate, apiKey, totalCredits|totalTokens}), and activity (the
// job list of GET /v2/team/activity, newest first: {id, endpoint, api_version, created_at, target};
// default: 7 jobs of several endpoints). Activity pages: ?endpoint=<enum>&limit=1-100 (50)&cursor=<from
// the previous page>; an unknown cursor → 400.
const { badRequest, uuidFrom } = require('./util');

const ACTIVITY_ENDPOINTS = ['scrape', 'crawl', 'batch_scrape', 'search', 'extract', 'llmstxt', 'deep_research', 'map', 'agent', 'browser', 'interact'];

function defaultActivity() {
	const rows = [
		['scrape', 'https://example.com/pricing'],
		['search', 'robotics start-ups'],
		['crawl', 'https://example.com'],
		['scrape', 'https://example.org/blog'],
		['interact', null],
		['map', 'https://example.net'],
		['agent', 'Find robotics start-ups founded after 2018'],
	];
	const start = Date.parse('2026-11-21T12:00:00.000Z');
	return rows.map(([endpoint, target], n) => ({
		id: uuidFrom('activity', String(n)),
		endpoint,
		api_version: 'v2',
		created_at: new Date(start - n * 60000).toISOString(),
		target,
	}));
}

const queryIssue = (path, message, extra = {}) => badRequest('Bad Request', [{ code: 'invalid_query', path, message, ...extra }]);

/** Three monthly periods, two API keys each (what byApiKey=true returns). */
function defaultHistory(totalKey) {
	const periods = [];
	const months = [
		['2026-09-01T00:00:00.000Z', '2026-09-30T23:59:59.999Z'],
		['2026-10-01T00:00:00.000Z', '2026-10-31T23:59:59.999Z'],
		['2026-11-01T00:00:00.000Z', '2026-11-30T23:59:59.999Z'],
	];
	months.forEach(([startDate, endDate], n) => {
		periods.push({ startDate, endDate, apiKey: 'Default', [totalKey]: 100 * (n + 1) });
		periods.push({ startDate, endDate, apiKey: 'n8n', [totalKey]: 10 * (n + 1) });
	});
	return periods;
}

/** Rejects query parameters the endpoint does not take; returns byApiKey as a boolean. */
function readQuery(query, allowed) {
	const unknown = Object.keys(query).filter((k) => !allowed.includes(k));
	if (unknown.length) {
		throw badRequest('Bad Request', [
			{ code: 'unrecognized_keys', path: [], keys: unknown, message: `Unrecognized query parameter(s): ${unknown.join(', ')}` },
		]);
	}
	for (const [k, v] of Object.entries(query)) if (Array.isArray(v)) throw queryIssue([k], `${k} may be given once`);
	if (query.byApiKey === undefined) return false;
	if (query.byApiKey !== 'true' && query.byApiKey !== 'false') {
		throw badRequest('Bad Request', [
			{ code: 'invalid_enum_value', path: ['byApiKey'], options: ['true', 'false'], received: query.byApiKey, message: "Invalid enum value. Expected 'true' | 'false'" },
		]);
	}
	return query.byApiKey === 'true';
}

/** byApiKey=false sums the keys of each period and reports apiKey null (OpenAPI). */
function history(periods, totalKey, byApiKey) {
	if (byApiKey) return periods.map((p) => ({ ...p }));
	const merged = new Map();
	for (const p of periods) {
		const key = `${p.startDate}|${p.endDate}`;
		const m = merged.get(key) ?? { startDate: p.startDate, endDate: p.endDate, apiKey: null, [totalKey]: 0 };
		m[totalKey] += p[totalKey] ?? 0;
		merged.set(key, m);
	}
	return [...merged.values()];
}

function routes(state) {
	const period = () => ({ billingPeriodStart: state.team.billingPeriodStart ?? null, billingPeriodEnd: state.team.billingPeriodEnd ?? null });
	return [
		[
			'GET',
			/^\/v2\/team\/credit-usage$/,
			(ctx) => {
				readQuery(ctx.query, []);
				return {
					status: 200,
					body: { success: true, data: { remainingCredits: state.team.remainingCredits, planCredits: state.team.planCredits, ...period() } },
				};
			},
		],
		[
			'GET',
			/^\/v2\/team\/credit-usage\/historical$/,
			(ctx) => {
				const byApiKey = readQuery(ctx.query, ['byApiKey']);
				const periods = history(state.team.creditHistory ?? defaultHistory('totalCredits'), 'totalCredits', byApiKey);
				return { status: 200, body: { success: true, periods } };
			},
		],
		[
			'GET',
			/^\/v2\/team\/token-usage$/,
			(ctx) => {
				readQuery(ctx.query, []);
				return {
					status: 200,
					body: { success: true, data: { remainingTokens: state.team.remainingTokens ?? 250000, planTokens: state.team.planTokens ?? 500000, ...period() } },
				};
			},
		],
		[
			'GET',
			/^\/v2\/team\/token-usage\/historical$/,
			(ctx) => {
				const byApiKey = readQuery(ctx.query, ['byApiKey']);
				const periods = history(state.team.tokenHistory ?? defaultHistory('totalTokens'), 'totalTokens', byApiKey);
				return { status: 200, body: { success: true, periods } };
			},
		],
		[
			'GET',
			/^\/v2\/team\/queue-status$/,
			(ctx) => {
				readQuery(ctx.query, []);
				const queue = { jobsInQueue: 3, activeJobsInQueue: 2, waitingJobsInQueue: 1, maxConcurrency: 5, mostRecentSuccess: '2026-11-21T12:00:00.000Z', ...state.team.queue };
				return { status: 200, body: { success: true, ...queue } };
			},
		],
		[
			'GET',
			/^\/v2\/team\/activity$/,
			(ctx) => {
				readQuery(ctx.query, ['endpoint', 'limit', 'cursor']);
				const { endpoint, limit: rawLimit, cursor } = ctx.query;
				if (endpoint !== undefined && !ACTIVITY_ENDPOINTS.includes(endpoint))
					throw badRequest('Bad Request', [
						{ code: 'invalid_enum_value', path: ['endpoint'], options: ACTIVITY_ENDPOINTS, received: endpoint, message: 'Invalid enum value' },
					]);
				const limit = rawLimit === undefined ? 50 : Number(rawLimit);
				if (!/^\d+$/.test(String(rawLimit ?? '50')) || limit < 1 || limit > 100) throw queryIssue(['limit'], 'limit must be an integer between 1 and 100');
				let offset = 0;
				if (cursor !== undefined) {
					const m = /^fake-cursor-(\d+)$/.exec(cursor);
					if (!m) throw queryIssue(['cursor'], 'Invalid cursor');
					offset = Number(m[1]);
				}
				const all = (state.team.activity ?? defaultActivity()).filter((a) => endpoint === undefined || a.endpoint === endpoint);
				const data = all.slice(offset, offset + limit);
				const more = offset + limit < all.length;
				return { status: 200, body: { success: true, data, cursor: more ? `fake-cursor-${offset + limit}` : null, has_more: more } };
			},
		],
	];
}

module.exports = { routes };
