'use strict';
// Child processes of the e2e run: every child is started in its own process group so that it and
// everything it spawns (n8n's task runner) can be stopped together, on success, failure or Ctrl-C.
const { spawn } = require('node:child_process');
const fs = require('node:fs');

const children = new Set();

/** Starts a tracked child in its own process group. */
function start(cmd, args, opts = {}) {
	const child = spawn(cmd, args, { ...opts, detached: true, stdio: opts.stdio || ['ignore', 'pipe', 'pipe'] });
	children.add(child);
	child.once('exit', () => children.delete(child));
	return child;
}

/** Sends `signal` to the process group of one child we started. */
function killGroup(child, signal = 'SIGTERM') {
	if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		try {
			child.kill(signal);
		} catch {
			/* already gone */
		}
	}
}

/** Stops every child still running (SIGTERM, then SIGKILL after graceMs). */
async function stopAll(graceMs = 2000) {
	const running = [...children];
	if (running.length === 0) return;
	for (const c of running) killGroup(c, 'SIGTERM');
	const deadline = Date.now() + graceMs;
	while ([...children].length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
	for (const c of [...children]) killGroup(c, 'SIGKILL');
}

/** Synchronous last resort from an 'exit' handler. */
function killAllSync() {
	for (const c of [...children]) killGroup(c, 'SIGKILL');
}

/**
 * Runs a command to completion. Output is captured (and appended to logFile when given).
 * Resolves {code, signal, stdout, stderr, ms, timedOut}; never rejects for a non-zero exit.
 */
function run(cmd, args, { env, cwd, logFile, timeoutMs = 180000, input } = {}) {
	return new Promise((resolve, reject) => {
		const t0 = Date.now();
		const child = start(cmd, args, { env, cwd, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
		const out = [];
		const err = [];
		const log = logFile ? fs.createWriteStream(logFile, { flags: 'a' }) : null;
		if (log) log.write(`\n$ ${[cmd, ...args].join(' ')}\n`);
		child.stdout.on('data', (d) => {
			out.push(d);
			if (log) log.write(d);
		});
		child.stderr.on('data', (d) => {
			err.push(d);
			if (log) log.write(d);
		});
		if (input !== undefined) child.stdin.end(input);
		let timedOut = false;
		const timer = setTimeout(() => {
			timedOut = true;
			killGroup(child, 'SIGKILL');
		}, timeoutMs);
		child.once('error', (e) => {
			clearTimeout(timer);
			if (log) log.end();
			reject(e);
		});
		child.once('close', (code, signal) => {
			clearTimeout(timer);
			const result = {
				code,
				signal,
				stdout: Buffer.concat(out).toString('utf8'),
				stderr: Buffer.concat(err).toString('utf8'),
				ms: Date.now() - t0,
				timedOut,
			};
			if (log) log.end(`[exit ${code}${signal ? ` ${signal}` : ''} after ${result.ms} ms${timedOut ? ', timed out' : ''}]\n`, () => resolve(result));
			else resolve(result);
		});
	});
}

/** The last `n` lines of a text. */
function tail(text, n = 40) {
	const lines = String(text || '').replace(/\s+$/, '').split('\n');
	return lines.slice(-n).join('\n');
}

module.exports = { start, run, stopAll, killAllSync, killGroup, tail };
