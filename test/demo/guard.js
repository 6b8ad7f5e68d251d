'use strict';
// The demo's safety net between the example workflows and the service: a small HTTP forwarder on
// 127.0.0.1 that the demo's credential points at.
//
//  - Read-only mode (no --spend): only GET and HEAD pass. Anything else is answered 403 here and never
//    reaches the service, so even an example the demo misjudged cannot spend credits or change the
//    account.
//  - Every 2xx response that created something is recorded (monitors, agent runs, crawls, batch
//    scrapes, browser sessions). cleanup() then undoes what the workflow itself did not: it deletes
//    the monitors, cancels agent runs / crawls / batch scrapes that are still running, and stops
//    browser sessions that are still open. A DELETE of the same thing that passed through (the
//    example's own Stop node, …) counts as already cleaned up.
//
// Plain Node built-ins; the service may be https (the real one) or http (the fake API).
const http = require('http');
const https = require('https');

const TERMINAL = new Set(['completed', 'failed', 'cancelled', 'canceled']);

/** What a successful request created, and how to undo it: {kind, label, path, undo}. */
function createdBy(method, path, body) {
	if (method !== 'POST' || !body || typeof body !== 'object') return undefined;
	const seg = (s) => encodeURIComponent(String(s));
	if (path === '/v2/monitor' && body.data?.id) {
		const id = body.data.id;
		return { kind: 'monitor', label: body.data.name ? `the monitor “${body.data.name}”` : 'a monitor', path: `/v2/monitor/${seg(id)}`, undo: 'delete' };
	}
	if (path === '/v2/agent' && body.id) return { kind: 'agent run', label: 'an agent run', path: `/v2/agent/${seg(body.id)}`, undo: 'cancel' };
	if (path === '/v2/crawl' && body.id) return { kind: 'crawl', label: 'a crawl', path: `/v2/crawl/${seg(body.id)}`, undo: 'cancel' };
	if (path === '/v2/batch/scrape' && body.id) return { kind: 'batch scrape', label: 'a batch scrape', path: `/v2/batch/scrape/${seg(body.id)}`, undo: 'cancel' };
	if (path === '/v2/interact' && body.id) return { kind: 'browser session', label: 'a browser session', path: `/v2/interact/${seg(body.id)}`, undo: 'delete' };
	const page = /^\/v2\/scrape\/([^/]+)\/interact$/.exec(path);
	if (page) return { kind: 'browser session', label: "a scraped page's browser", path, undo: 'delete' };
	return undefined;
}

/** The origin and base path of the service URL (as the credential takes it: with or without `/v2`). */
function upstreamOf(baseUrl) {
	const url = new URL(baseUrl);
	if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`WEBDATA_BASE_URL must be http(s): ${baseUrl}`);
	const basePath = url.pathname.replace(/\/+$/, '').replace(/\/v2$/, '');
	return { url, basePath };
}

/**
 * Starts the forwarder. options: {upstream (service base URL), apiKey (for cleanup requests),
 * allowWrites (false = read-only)}. Resolves {url, requests, blocked, created, cleanup(), close()}.
 */
async function startGuard({ upstream, apiKey, allowWrites }) {
	const { url: target, basePath } = upstreamOf(upstream);
	const lib = target.protocol === 'https:' ? https : http;
	const agent = new lib.Agent({ keepAlive: true });
	const requests = []; // {method, path, status}
	const blocked = []; // {method, path}
	const created = []; // {kind, label, path, undo, done?}
	const removed = new Set();
	const serviceBase = `${target.origin}${basePath}`;
	let ownBase; // set once listening

	/** One request to the service: {status, body (parsed JSON or text)}. Used by cleanup. */
	function send(method, path) {
		return new Promise((resolve, reject) => {
			const req = lib.request(
				{
					protocol: target.protocol,
					hostname: target.hostname,
					port: target.port || undefined,
					method,
					path: basePath + path,
					agent,
					headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
					timeout: 30000,
				},
				(res) => {
					const chunks = [];
					res.on('data', (c) => chunks.push(c));
					res.on('end', () => {
						const text = Buffer.concat(chunks).toString('utf8');
						let body = text;
						try {
							body = JSON.parse(text);
						} catch {
							// not JSON: keep the text
						}
						resolve({ status: res.statusCode, body });
					});
				},
			);
			req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within 30 s`)));
			req.on('error', reject);
			req.end();
		});
	}

	const server = http.createServer((req, res) => {
		const path = new URL(req.url, 'http://guard').pathname;
		if (!allowWrites && req.method !== 'GET' && req.method !== 'HEAD') {
			blocked.push({ method: req.method, path });
			req.resume();
			const body = JSON.stringify({
				success: false,
				error: `npm run demo blocked ${req.method} ${path}: it would spend credits or change your account. Run the demo with --spend to allow it.`,
			});
			res.writeHead(403, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
			res.end(body);
			return;
		}
		// identity: the JSON answers are rewritten below, so they must not come compressed
		const headers = { ...req.headers, host: target.host, 'accept-encoding': 'identity' };
		delete headers.connection;
		const up = lib.request(
			{ protocol: target.protocol, hostname: target.hostname, port: target.port || undefined, method: req.method, path: basePath + req.url, headers, agent },
			(upRes) => {
				const entry = { method: req.method, path, status: upRes.statusCode };
				requests.push(entry);
				const ok = upRes.statusCode >= 200 && upRes.statusCode < 300;
				if (ok && req.method === 'DELETE') removed.add(path);
				const json = /json/i.test(String(upRes.headers['content-type'] ?? ''));
				if (!json) {
					res.writeHead(upRes.statusCode, upRes.headers);
					upRes.pipe(res);
					return;
				}
				// JSON answers hold absolute links to the service's API (`next` pages, job URLs): they
				// are rewritten to this forwarder, so the node follows them here (it refuses links to
				// any other address than its base URL) and they pass the same guard. Only API links
				// (<service>/v2…): other links, such as the fake's screenshot files, stay as the service
				// gave them, like the real service's storage links, so the demo shows the address the
				// service announced.
				const chunks = [];
				upRes.on('data', (c) => chunks.push(c));
				upRes.on('end', () => {
					const text = Buffer.concat(chunks).toString('utf8').split(`${serviceBase}/v2`).join(`${ownBase}/v2`);
					if (ok && req.method === 'POST') {
						try {
							const thing = createdBy(req.method, path, JSON.parse(text));
							if (thing && !created.some((c) => c.path === thing.path)) created.push(thing);
						} catch {
							// not JSON after all: nothing to record
						}
					}
					const out = { ...upRes.headers, 'content-length': Buffer.byteLength(text) };
					delete out['transfer-encoding'];
					res.writeHead(upRes.statusCode, out);
					res.end(text);
				});
			},
		);
		up.on('error', (error) => {
			requests.push({ method: req.method, path, status: 502 });
			if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ success: false, error: `the demo could not reach ${target.origin}: ${error.message}` }));
		});
		req.pipe(up);
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	ownBase = `http://127.0.0.1:${server.address().port}`;

	/** {ok, text, path}: `text` says what was done, or why it failed. */
	function outcome(thing, done, r) {
		if (r.status < 300) return { ok: true, text: done, path: thing.path };
		return { ok: false, text: `${thing.label}: DELETE answered ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`, path: thing.path };
	}

	/**
	 * Undoes what was created and is not undone yet. Resolves one {ok, text, path} per thing it acted
	 * on. Never throws: a failed clean-up is reported, so the user can finish it by hand.
	 */
	async function cleanup() {
		const report = [];
		for (const thing of created) {
			if (thing.done) continue;
			thing.done = true;
			if (removed.has(thing.path)) continue; // the workflow removed it itself
			try {
				if (thing.undo === 'cancel') {
					const now = await send('GET', thing.path);
					const status = now.body && typeof now.body === 'object' ? now.body.status : undefined;
					if (now.status === 404 || TERMINAL.has(status)) continue; // finished: nothing runs on
					const r = await send('DELETE', thing.path);
					report.push(outcome(thing, `cancelled ${thing.label} (it was ${status ?? 'running'})`, r));
				} else {
					const r = await send('DELETE', thing.path);
					if (r.status === 404 && thing.kind === 'browser session') continue; // already closed
					report.push(outcome(thing, `${thing.kind === 'browser session' ? 'stopped' : 'deleted'} ${thing.label}`, r));
				}
			} catch (error) {
				report.push({ ok: false, text: `${thing.label}: ${error.message}`, path: thing.path });
			}
		}
		return report;
	}

	return {
		url: ownBase,
		requests,
		blocked,
		created,
		cleanup,
		close: () =>
			new Promise((resolve) => {
				agent.destroy();
				server.closeAllConnections?.();
				server.close(() => resolve());
			}),
	};
}

module.exports = { startGuard, createdBy, upstreamOf };
