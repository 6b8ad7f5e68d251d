'use strict';
// Starts the fake Web-Data API (test/fake-api/server.js) as a child process and talks to its
// control API (/__fake/*, no auth).
const fs = require('node:fs');
const path = require('node:path');
const proc = require('./proc');

/** Starts the fake; resolves {url, child, logFile} once it printed FAKE_API_URL=… (`args`: more CLI flags, e.g. --signing-secret). */
function startFake({ root, apiKey, logFile, timeoutMs = 15000, args = [] }) {
	const server = path.join(root, 'test', 'fake-api', 'server.js');
	if (!fs.existsSync(server)) throw new Error(`the fake API is missing: ${server}`);
	return new Promise((resolve, reject) => {
		const child = proc.start(process.execPath, [server, '--port', '0', '--key', apiKey, ...args], { cwd: root });
		const log = fs.createWriteStream(logFile, { flags: 'a' });
		let buffered = '';
		let done = false;
		const finish = (err, value) => {
			if (done) return;
			done = true;
			clearTimeout(timer);
			if (err) {
				proc.killGroup(child, 'SIGKILL');
				reject(err);
			} else resolve(value);
		};
		const timer = setTimeout(() => finish(new Error(`the fake API printed no FAKE_API_URL within ${timeoutMs} ms`)), timeoutMs);
		child.stdout.on('data', (d) => {
			log.write(d);
			buffered += d.toString('utf8');
			const m = /^FAKE_API_URL=(\S+)$/m.exec(buffered);
			if (m) finish(null, { url: m[1], child, logFile });
		});
		child.stderr.on('data', (d) => log.write(d));
		child.once('error', (e) => finish(e));
		child.once('exit', (code, signal) => {
			log.end();
			finish(new Error(`the fake API exited early (code ${code}, signal ${signal}); see ${logFile}`));
		});
	});
}

/** Client of the control API, handed to checks as `fake`. */
function fakeClient(url) {
	async function call(method, route, body) {
		const res = await fetch(url + route, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await res.text();
		let value;
		try {
			value = text === '' ? undefined : JSON.parse(text);
		} catch {
			value = text;
		}
		if (!res.ok) throw new Error(`fake control ${method} ${route} answered ${res.status}: ${text.slice(0, 300)}`);
		return value;
	}
	return {
		url,
		/** The request log: [{seq, method, path, query, headers, body, status, ...}] (API calls only). */
		log: () => call('GET', '/__fake/log'),
		/** Clears log, faults, agent jobs, monitors and webhooks. */
		reset: () => call('POST', '/__fake/reset'),
		/** Adds a fault rule, e.g. {path: '/v2/agent', statuses: [404]}; resolves {id}. */
		fault: (rule) => call('POST', '/__fake/fault', rule),
		/** Pre-creates an agent job ({id?, status?: 'completed'|'failed', data?, prompt?, ...}); resolves the job. */
		createAgent: (props = {}) => call('POST', '/__fake/agent', props),
		/** The fake's internal view of one agent job (polls, status, ...). */
		agent: (id) => call('GET', `/__fake/agent/${encodeURIComponent(id)}`),
		/** Raw access to any other control route. */
		call,
	};
}

module.exports = { startFake, fakeClient };
