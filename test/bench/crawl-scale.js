#!/usr/bin/env node
'use strict';
/**
 * Crawl at scale (a script, not a test; issue 18 point 4): a crawl of N pages of realistic size from
 * the fake API, taken three ways, each in its own fresh child process (crawl-scale-child.js):
 *   poll    Crawl → Run and Wait, Wait Method "Poll": one n8n-core run (workflow-runner) from the
 *           start until the last page is read;
 *   resume  Crawl → Run and Wait, "Resume on Completion Webhook": the n8n-core run until it waits,
 *           then the job's signed crawl.completed delivery into WebData.webhook() in n8n-core's
 *           WebhookContext with the waiting execution's run data (pages read once, following `next`);
 *   events  the crawl reports to the Web Data Trigger (Source "Job Events"): every crawl.page /
 *           crawl.completed delivery goes through an HTTP receiver into the trigger's webhook() in
 *           n8n-core's WebhookContext, as n8n's /webhook endpoint does.
 *
 *   npm run bench:crawl-scale                      (builds; 10,000 pages, 30 s crawl, 3 rounds)
 *   node test/bench/crawl-scale.js --pages 1000 --rounds 1 --crawl-s 10 --chars 10000
 *
 * The fake API runs in its own process (time scale 1); its crawl URL carries fake-pages-<N> (N
 * pages, status pages cut at 10 MiB as the service does), fake-long-<chars> (about that much
 * Markdown per page) and fake-duration-<ms>. Per child: a small warm-up of the same path, GC, then
 * the measured run. Memory = peak RSS (VmHWM, reset after the warm-up) minus the RSS then; the heap
 * still used after a GC (with the output items held). Requests = what the fake API logged under /v2.
 * Worker time: poll = the whole run; resume = the start until "waiting" + webhook(); events = the sum
 * of the webhook() calls. Latency: poll = job end (start + crawl duration) → node output; resume = the
 * fake's send of crawl.completed → webhook() returned the items; events = the last page delivery's
 * arrival → its webhook() returned (the execution's items). n8n's own work around an execution
 * (saving it, starting it) is not in these numbers.
 * Rounds alternate the order of the three; the table shows medians.
 */
const { spawn, execFileSync } = require('child_process');
const os = require('os');
const path = require('path');

const args = process.argv.slice(2);
const opt = (name, fallback) => {
	const i = args.indexOf(name);
	return i >= 0 ? args[i + 1] : fallback;
};
const PAGES = Number(opt('--pages', 10000));
const ROUNDS = Number(opt('--rounds', 3));
const CRAWL_S = Number(opt('--crawl-s', 30));
const CHARS = Number(opt('--chars', 10000));
const MODES = (opt('--modes', 'poll,resume,events') || '').split(',');
if (!(PAGES >= 1 && PAGES <= 10000 && ROUNDS >= 1 && ROUNDS <= 10 && CRAWL_S > 0 && CHARS >= 100 && CHARS <= 2_000_000)) {
	console.error('bounds: 1 ≤ --pages ≤ 10000 (the crawl limit), 1 ≤ --rounds ≤ 10, --crawl-s > 0, 100 ≤ --chars ≤ 2000000');
	process.exit(2);
}
const KEY = `bench-crawl-scale-${process.pid}`;
const SECRET = 'bench-crawl-scale-signing-secret';

function startFake() {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [path.join(__dirname, '..', 'fake-api', 'server.js'), '--port', '0', '--key', KEY, '--signing-secret', SECRET], { stdio: ['ignore', 'pipe', 'inherit'] });
		child.stdout.on('data', (d) => {
			const m = /FAKE_API_URL=(\S+)/.exec(String(d));
			if (m) resolve({ child, url: m[1] });
		});
		child.on('exit', (code) => reject(new Error(`fake API exited with ${code}`)));
	});
}

function measure(mode, url) {
	const out = execFileSync(process.execPath, ['--expose-gc', path.join(__dirname, 'crawl-scale-child.js'), mode, url, KEY, SECRET, String(PAGES), String(CHARS), String(CRAWL_S * 1000)], {
		encoding: 'utf8',
		maxBuffer: 1 << 24,
	});
	return JSON.parse(out.trim().split('\n').pop());
}

const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const mb = (x) => (Math.round(x * 10) / 10).toFixed(1);

(async () => {
	const fake = await startFake();
	try {
		console.log(`# crawl of ${PAGES} pages (~${CHARS} chars of Markdown each) over ${CRAWL_S} s; node ${process.version}; ${os.cpus().length} cores; ${ROUNDS} round(s)`);
		const results = Object.fromEntries(MODES.map((m) => [m, []]));
		for (let round = 0; round < ROUNDS; round++) {
			const order = MODES.map((_, k) => MODES[(k + round) % MODES.length]);
			for (const mode of order) {
				await fetch(`${fake.url}/__fake/reset`, { method: 'POST' });
				const r = measure(mode, fake.url);
				results[mode].push(r);
				console.log(`round ${round + 1} ${mode.padEnd(6)} ${JSON.stringify(r)}`);
			}
		}
		const m = (mode, f) => median(results[mode].map(f));
		console.log('');
		for (const mode of MODES.filter((x) => x !== 'events'))
			console.log(`# ${mode}: peak V8 heap in use over baseline ${mb(m(mode, (r) => r.peakHeapMb))} MB (${m(mode, (r) => r.peakHeapMb / (r.outputBytes / 1048576)).toFixed(2)}× the output), peak Buffer memory ${mb(m(mode, (r) => r.peakBuffersMb))} MB (HTTP response bodies not yet collected)`);
		console.log('');
		console.log(`| ${PAGES} pages, ${CRAWL_S} s crawl | requests (status reads) | peak RSS over baseline | heap held after GC | output items (JSON) | peak / output | worker time held | last page → output |`);
		console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
		for (const mode of MODES.filter((x) => x !== 'events')) {
			const label = mode === 'poll' ? '(a) Run and Wait, Poll' : '(b) Run and Wait, Resume on Completion Webhook';
			console.log(
				`| ${label} | ${m(mode, (r) => r.requests)} (${m(mode, (r) => r.statusRequests)}) | ${mb(m(mode, (r) => r.peakExtraMb))} MB | ${mb(m(mode, (r) => r.retainedHeapMb))} MB | ${mb(m(mode, (r) => r.outputBytes / 1048576))} MB (${m(mode, (r) => r.items)} items) | ${m(mode, (r) => r.peakExtraMb / (r.outputBytes / 1048576)).toFixed(2)}× | ${(m(mode, (r) => r.workerMs) / 1000).toFixed(2)} s | ${m(mode, (r) => r.latencyMs)} ms |`,
			);
		}
		if (results.events) {
			const e = (f) => m('events', f);
			console.log(
				`| (c) Job Events → Web Data Trigger (${e((r) => r.executions)} executions) | ${e((r) => r.requests)} (${e((r) => r.statusRequests)}) | ${mb(e((r) => r.peakExtraMb))} MB | ${mb(e((r) => r.retainedHeapMb))} MB | ${(e((r) => r.pageItemBytes) / 1024).toFixed(1)} KB per execution (1 item) | — | ${(e((r) => r.workerMs) / 1000).toFixed(2)} s | ${e((r) => r.latencyMs).toFixed(1)} ms |`,
			);
			console.log('');
			console.log(`# events: largest page delivery ${(e((r) => r.pageBodyBytes) / 1024).toFixed(1)} KB, its item ${(e((r) => r.pageItemBytes) / 1024).toFixed(1)} KB; deliveries in flight at once (max): ${e((r) => r.maxInFlight)}`);
			console.log(`# events: heap held after GC per execution: ${(e((r) => (r.retainedHeapMb * 1048576) / r.executions)).toFixed(0)} bytes; peak V8 heap in use over baseline ${mb(e((r) => r.peakHeapMb))} MB (garbage V8 had not collected yet: after a GC ${mb(e((r) => r.retainedHeapMb))} MB is left)`);
			console.log(`# events RSS samples every 500 executions (last round): ${results.events.at(-1).rssSamplesMb.join(' ')} MB`);
		}
	} finally {
		fake.child.kill('SIGTERM');
	}
})().catch((error) => {
	console.error(error);
	process.exit(1);
});
