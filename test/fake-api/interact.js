'use strict';
// Interact endpoints of the OpenAPI (browser sessions that run code or an AI prompt):
//   POST   /v2/interact                     create a session {ttl 30-3600, activityTtl 10-3600, streamWebView, profile{name 1-128, saveChanges}}
//   GET    /v2/interact[?status=active|destroyed]   list sessions, newest first
//   POST   /v2/interact/{sessionId}/execute {code 1-100000 (required), language node|python|bash, timeout 1-300}
//   DELETE /v2/interact/{sessionId}         stop: {sessionDurationMs, creditsBilled}
//   POST   /v2/scrape/{jobId}/interact      {code XOR prompt (1-10000), language, timeout 1-300, origin}; the
//                                           first call opens the scrape's browser session
//   DELETE /v2/scrape/{jobId}/interact      stop that session
// Bodies are strict (unknown key → 400). Session and job ids are UUIDs; an id that is not one, or
// is unknown, answers 404. A stopped (or expired) session answers 410 "Browser session has been
// destroyed." to execute and stop. A scrape job exists when state.scrapes (a Map keyed by scrape id,
// shared with scrape.js) has it: POST /v2/scrape records every scrape there, and
// api.seedScrapeJob / POST /__fake/scrape-job adds one directly.
//
// Code execution is simulated: stdout collects the string literals printed by console.log("…"),
// print("…") or `echo …` lines; FAKE_EXIT_1 in the code → exitCode 1 with stderr and error;
// FAKE_KILLED → killed (timeout) with exitCode 137. A prompt answers `output`
// ("Done: <prompt>") and the same text in stdout/result.
const { fail, isUuid, uuidv7, iso } = require('./util');
const { str, int, bool, obj, assertValid } = require('./validate');

const LANGUAGES = ['python', 'node', 'bash'];

const createBody = obj({
	ttl: int({ min: 30, max: 3600 }),
	activityTtl: int({ min: 10, max: 3600 }),
	streamWebView: bool(),
	profile: obj({ name: str({ min: 1, max: 128 }), saveChanges: bool() }, { required: ['name'] }),
});

const executeBody = obj(
	{ code: str({ min: 1, max: 100000 }), language: str({ enum: LANGUAGES }), timeout: int({ min: 1, max: 300 }) },
	{ required: ['code'] },
);

const scrapeInteractBody = obj(
	{
		code: str({ min: 1, max: 100000 }),
		prompt: str({ min: 1, max: 10000 }),
		language: str({ enum: LANGUAGES }),
		timeout: int({ min: 1, max: 300 }),
		origin: str(),
	},
	{
		refine: (v, p, out) => {
			const has = (k) => v[k] !== undefined;
			if (has('code') === has('prompt'))
				out.push({ code: 'custom', path: [...p, has('code') ? 'prompt' : 'code'], message: 'Either code or prompt must be provided, not both' });
		},
	},
);

/** What the sandbox "prints" for a piece of code. */
function runCode(code, language) {
	const printed = [];
	const call = /(?:console\.log|print)\(\s*(['"`])((?:(?!\1).)*)\1\s*\)/g;
	for (const m of code.matchAll(call)) printed.push(m[2]);
	if (language === 'bash') for (const m of code.matchAll(/^\s*echo\s+(['"]?)(.*?)\1\s*$/gm)) printed.push(m[2]);
	const stdout = printed.length ? `${printed.join('\n')}\n` : '';
	if (code.includes('FAKE_KILLED')) {
		return { stdout, result: stdout, stderr: '', exitCode: 137, killed: true, error: 'Execution timed out' };
	}
	if (code.includes('FAKE_EXIT_1')) {
		const error = 'Error: FAKE_EXIT_1 raised by the code';
		return { stdout, result: stdout, stderr: `${error}\n`, exitCode: 1, killed: false, error };
	}
	return { stdout, result: stdout, stderr: '', exitCode: 0, killed: false, error: null };
}

function routes(state) {
	// state.scrapes is shared with the scrape route: keep an existing Map.
	if (!(state.scrapes instanceof Map)) state.scrapes = new Map();
	const sessions = new Map(); // id → session record
	const scrapeSessions = new Map(); // scrape job id → {id, status, startedAt, executions}
	state.interact = { sessions, scrapeSessions };
	state.resetHooks.push(() => {
		sessions.clear();
		scrapeSessions.clear();
		state.scrapes.clear();
	});

	const originOf = (ctx) => (ctx.req.headers.host ? `http://${ctx.req.headers.host}` : state.url);
	const links = (ctx, id) => {
		const origin = originOf(ctx);
		return {
			cdpUrl: `${origin.replace(/^http/, 'ws')}/fake-cdp/${id}`,
			liveViewUrl: `${origin}/fake-live/${id}`,
			interactiveLiveViewUrl: `${origin}/fake-live/${id}?interactive=true`,
		};
	};
	const requireCredits = () => {
		if (state.team.remainingCredits <= 0) throw fail(402, 'Payment Required: Insufficient credits');
	};
	/** A session past its TTL or idle timeout is destroyed (checked lazily on every access). */
	const expire = (s, now = Date.now()) => {
		if (s.status !== 'active') return;
		if (now >= s.expiresAtMs || now - s.lastActivityMs >= s.activityTtl * 1000) {
			s.status = 'destroyed';
			s.destroyedAtMs = Math.min(now, s.expiresAtMs);
		}
	};
	const sessionOf = (id) => {
		const s = isUuid(id) ? sessions.get(id) : undefined;
		if (!s) throw fail(404, 'Session not found.');
		expire(s);
		return s;
	};
	const destroyed = () => fail(410, 'Browser session has been destroyed.');
	const view = (s) => ({
		id: s.id,
		status: s.status,
		...s.links,
		streamWebView: s.streamWebView,
		createdAt: iso(s.createdAtMs),
		lastActivity: iso(s.lastActivityMs),
	});
	// Issue 35: a code-only browser session bills 120 credits an hour, rounded up, at least 2 (the
	// server's calculateBrowserSessionCredits with BROWSER_CREDITS_PER_HOUR; nodes/FACTS.md "Credits").
	const billed = (ms) => Math.max(2, Math.ceil((ms / 3_600_000) * 120));

	return [
		[
			'POST',
			/^\/v2\/interact$/,
			(ctx) => {
				const body = ctx.json();
				assertValid(createBody, body);
				requireCredits();
				const profile = body.profile;
				if (profile && profile.saveChanges !== false) {
					const saving = [...sessions.values()].find((s) => (expire(s), s.status === 'active') && s.profile && s.profile.name === profile.name && s.profile.saveChanges !== false);
					if (saving) throw fail(409, `Another session is already saving to profile "${profile.name}". Only one saving session is allowed at a time; use saveChanges: false to load it read-only.`);
				}
				const now = Date.now();
				const id = uuidv7(now);
				const ttl = body.ttl ?? 300;
				const s = {
					id,
					status: 'active',
					ttl,
					activityTtl: body.activityTtl ?? ttl,
					streamWebView: body.streamWebView ?? true,
					profile: profile ? { ...profile } : undefined,
					createdAtMs: now,
					lastActivityMs: now,
					expiresAtMs: now + ttl * 1000,
					executions: [],
					links: links(ctx, id),
				};
				sessions.set(id, s);
				return { status: 200, body: { success: true, id, ...s.links, expiresAt: iso(s.expiresAtMs) } };
			},
		],
		[
			'GET',
			/^\/v2\/interact$/,
			(ctx) => {
				const unknown = Object.keys(ctx.query).filter((k) => k !== 'status');
				if (unknown.length)
					throw fail(400, 'Bad Request', { code: 'BAD_REQUEST', details: [{ code: 'unrecognized_keys', path: [], keys: unknown, message: `Unrecognized query parameter(s): ${unknown.join(', ')}` }] });
				const status = ctx.query.status;
				if (status !== undefined && status !== 'active' && status !== 'destroyed')
					throw fail(400, 'Bad Request', {
						code: 'BAD_REQUEST',
						details: [{ code: 'invalid_enum_value', path: ['status'], options: ['active', 'destroyed'], received: status, message: "Invalid enum value. Expected 'active' | 'destroyed'" }],
					});
				const list = [...sessions.values()]
					.map((s) => (expire(s), s))
					.filter((s) => status === undefined || s.status === status)
					.sort((a, b) => b.createdAtMs - a.createdAtMs || (a.id < b.id ? 1 : -1))
					.map(view);
				return { status: 200, body: { success: true, sessions: list } };
			},
		],
		[
			'POST',
			/^\/v2\/interact\/([^/]+)\/execute$/,
			(ctx, id) => {
				const body = ctx.json();
				assertValid(executeBody, body);
				const s = sessionOf(id);
				if (s.status !== 'active') throw destroyed();
				requireCredits();
				s.lastActivityMs = Date.now();
				const language = body.language ?? 'node';
				s.executions.push({ code: body.code, language, timeout: body.timeout ?? null });
				return { status: 200, body: { success: !body.code.includes('FAKE_EXIT_1') && !body.code.includes('FAKE_KILLED'), ...runCode(body.code, language) } };
			},
		],
		[
			'DELETE',
			/^\/v2\/interact\/([^/]+)$/,
			(ctx, id) => {
				const s = sessionOf(id);
				if (s.status !== 'active') throw destroyed();
				const now = Date.now();
				s.status = 'destroyed';
				s.destroyedAtMs = now;
				const sessionDurationMs = now - s.createdAtMs;
				return { status: 200, body: { success: true, sessionDurationMs, creditsBilled: billed(sessionDurationMs) } };
			},
		],
		[
			'POST',
			/^\/v2\/scrape\/([^/]+)\/interact$/,
			(ctx, jobId) => {
				if (!isUuid(jobId)) throw fail(400, 'Invalid job ID format.');
				const body = ctx.json();
				assertValid(scrapeInteractBody, body);
				if (!state.scrapes.has(jobId)) throw fail(404, 'Job not found.');
				requireCredits();
				let s = scrapeSessions.get(jobId);
				if (s && s.status !== 'active') throw destroyed();
				if (!s) {
					s = { id: jobId, status: 'active', startedAtMs: Date.now(), executions: [], links: links(ctx, jobId) };
					scrapeSessions.set(jobId, s);
				}
				s.executions.push({ ...body });
				if (body.prompt !== undefined) {
					const output = `Done: ${body.prompt}`;
					return {
						status: 200,
						body: { success: true, ...s.links, output, stdout: output, result: output, stderr: '', exitCode: 0, killed: false, error: null },
					};
				}
				const ran = runCode(body.code, body.language ?? 'node');
				return { status: 200, body: { success: ran.exitCode === 0, ...s.links, output: null, ...ran } };
			},
		],
		[
			'DELETE',
			/^\/v2\/scrape\/([^/]+)\/interact$/,
			(ctx, jobId) => {
				if (!isUuid(jobId)) throw fail(400, 'Invalid job ID format.');
				const s = scrapeSessions.get(jobId);
				if (!s || s.status !== 'active') throw fail(404, 'Browser session not found.');
				s.status = 'destroyed';
				return { status: 200, body: { success: true } };
			},
		],
	];
}

/** Records a scrape job so interact can use it: {id?, url?} → {id, url, createdAt}. */
function seedScrapeJob(state, props = {}) {
	const id = props.id ?? uuidv7();
	if (!isUuid(id)) throw fail(400, 'id must be a UUID');
	const job = { id, url: props.url ?? 'https://example.com/', createdAt: iso() };
	state.scrapes.set(id, job);
	return job;
}

module.exports = { routes, seedScrapeJob };
