#!/usr/bin/env node
'use strict';
/**
 * Run and Wait, Wait Method "Resume on Completion Webhook": what a LOST completion delivery costs,
 * and how many status reads the checks make when deliveries do arrive (a script, not a test).
 *
 *   npm run bench:lost-delivery       (= npm run build && node test/bench/lost-delivery.js)
 *
 * For jobs of 5 s to 1 hour (Max Wait 2 hours), with the package's real check schedule
 * (dist/nodes/WebData/jobs/resume.js nextCheckAt) and n8n 2.41's wait tracker as its code does it
 * (n8n/dist/wait-tracker.js: every 60 s it arms a timer for each execution whose waitTill is at
 * most 70 s away; an execution already due is started at once), over the 60 phases (1 s apart) of
 * the tracker's sweep relative to the job's start, and for jobs that end anywhere within ±10 % of
 * the length (21 ends, 1 % apart: lateness depends on where the end falls between two checks):
 *  - delivered: the delivery resumes the execution at the job's end (the real n8n measures about
 *    0.1 s, npm run test:e2e:agent-resume); reads = the checks made before the end + the one read
 *    on the delivery;
 *  - lost: the job ends and no delivery comes; lateness = from the job's end to the check that reads
 *    it ended (n8n's own work for the resume and the read, about 0.1-1 s, is not in this figure;
 *    the e2e suite measures it end to end in the real n8n);
 *  - before (the package until this change): a lost delivery waited until Max Wait.
 * The bound: max(90 s, half the job's run time) after its end.
 *
 * Second table: what ONE check of a crawl that is still running downloads, against the fake API
 * (in this process, time scale 1): a 1,000-page crawl (about 2,000 characters of Markdown a page),
 * read while about half of its pages are done, 5 reads each way, side by side: the query the check
 * sends now (`limit` STATUS_ONLY_LIMIT, dist/nodes/WebData/resources/crawl/jobs.js) and the one it
 * sent before (`limit` 100, READ_PAGE_LIMIT). Bytes = the response body; medians.
 */
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const { nextCheckAt } = require(path.join(ROOT, 'dist/nodes/WebData/jobs/resume'));

const MAX_WAIT_MS = 7_200_000;
const SWEEP_MS = 60_000;
const LOOKAHEAD_MS = 70_000;
const JOBS_S = [5, 10, 30, 60, 90, 120, 300, 600, 1200, 3600];

/** When n8n's wait tracker starts an execution saved at `savedAt` with `waitTill`, sweeping at phase + k × 60 s. */
function trackerStart(savedAt, waitTill, phase) {
	let q = phase + Math.ceil((savedAt - phase) / SWEEP_MS) * SWEEP_MS;
	if (q < savedAt) q += SWEEP_MS;
	while (waitTill - q > LOOKAHEAD_MS) q += SWEEP_MS;
	return Math.max(q, waitTill);
}

/** One job of `lengthMs`: the checks' read times until one finds it ended (or Max Wait). */
function lost(lengthMs, phase) {
	let now = 0;
	const reads = [];
	for (;;) {
		const waitTill = nextCheckAt(0, now, MAX_WAIT_MS);
		const at = trackerStart(now, waitTill, phase);
		reads.push(at);
		if (at >= lengthMs || waitTill >= MAX_WAIT_MS) return { reads: reads.length, endedAt: at };
		now = at;
	}
}

function delivered(lengthMs, phase) {
	let now = 0;
	let reads = 0;
	for (;;) {
		const at = trackerStart(now, nextCheckAt(0, now, MAX_WAIT_MS), phase);
		if (at >= lengthMs) return { reads: reads + 1 }; // the delivery comes first; its read
		reads++;
		now = at;
	}
}

const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (ms) => `${(ms / 1000).toFixed(0)} s`;

const rows = [];
for (const s of JOBS_S) {
	const L = s * 1000;
	const phases = Array.from({ length: 60 }, (_, k) => k * 1000);
	const ends = Array.from({ length: 21 }, (_, k) => Math.round(L * (0.9 + k * 0.01)));
	const l = [];
	const late = [];
	let within = true;
	for (const end of ends) {
		for (const p of phases) {
			const x = lost(end, p);
			l.push(x);
			late.push(x.endedAt - end);
			if (x.endedAt - end > Math.max(90_000, end / 2)) within = false;
		}
	}
	const d = phases.map((p) => delivered(L, p));
	const bound = Math.max(90_000, L / 2);
	rows.push({
		job: `${s} s`,
		deliveredReads: Math.max(...d.map((x) => x.reads)),
		lostReads: Math.max(...l.map((x) => x.reads)),
		lostLateMedian: fmt(median(late)),
		lostLateMax: fmt(Math.max(...late)),
		bound: fmt(bound),
		within: within ? 'yes' : 'NO',
		before: fmt(MAX_WAIT_MS - L),
	});
}

console.log('| job runs (±10 %) | reads, delivered (max) | reads, lost (max) | lost: late by (median) | lost: late by (max) | bound max(90 s, run/2) at this length | every end within its bound | before: late by (Max Wait 2 h) |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.job} | ${r.deliveredReads} | ${r.lostReads} | ${r.lostLateMedian} | ${r.lostLateMax} | ${r.bound} | ${r.within} | ${r.before} |`);
const bad = rows.filter((r) => r.within !== 'yes');
if (bad.length) {
	console.error(`over the bound: ${bad.map((r) => r.job).join(', ')}`);
	process.exitCode = 1;
}

async function checkBytes() {
	const { startFakeApi } = require(path.join(ROOT, 'test/fake-api/server'));
	const { STATUS_ONLY_LIMIT, READ_PAGE_LIMIT } = require(path.join(ROOT, 'dist/nodes/WebData/fields/serverRules'));
	const api = await startFakeApi({ apiKey: 'bench-key' });
	const headers = { authorization: 'Bearer bench-key', 'content-type': 'application/json' };
	try {
		const started = await fetch(`${api.url}/v2/crawl`, { method: 'POST', headers, body: JSON.stringify({ url: 'https://example.com/fake-pages-1000-fake-long-2000-fake-duration-40000', limit: 1000 }) });
		const { id } = await started.json();
		await new Promise((r) => setTimeout(r, 20000));
		const measure = async (limit) => {
			const t = process.hrtime.bigint();
			const res = await fetch(`${api.url}/v2/crawl/${id}?limit=${limit}`, { headers });
			const body = Buffer.from(await res.arrayBuffer());
			const json = JSON.parse(body.toString('utf8'));
			return { bytes: body.length, ms: Number(process.hrtime.bigint() - t) / 1e6, status: json.status, done: json.completed, total: json.total, docs: (json.data ?? []).length };
		};
		const now = [];
		const before = [];
		for (let k = 0; k < 5; k++) {
			now.push(await measure(STATUS_ONLY_LIMIT));
			before.push(await measure(READ_PAGE_LIMIT));
		}
		const row = (label, limit, xs) =>
			`| ${label} | limit=${limit} | ${xs[0].status}, ${median(xs.map((x) => x.done))} of ${xs[0].total} pages done | ${median(xs.map((x) => x.docs))} | ${median(xs.map((x) => x.bytes)).toLocaleString('en-US')} | ${median(xs.map((x) => x.ms)).toFixed(1)} ms |`;
		console.log('');
		console.log('| one check of a running 1,000-page crawl | query | job when read | documents in the answer | bytes read (median of 5) | time (median) |');
		console.log('|---|---|---|---|---|---|');
		console.log(row('now: status first', STATUS_ONLY_LIMIT, now));
		console.log(row('before: a page of documents', READ_PAGE_LIMIT, before));
		const ratio = median(before.map((x) => x.bytes)) / median(now.map((x) => x.bytes));
		console.log(`\nbytes per check, before / now: ${ratio.toFixed(0)}×`);
	} finally {
		await api.close();
	}
}

checkBytes().catch((error) => {
	console.error(error);
	process.exitCode = 1;
});
