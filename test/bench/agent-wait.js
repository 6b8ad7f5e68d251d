#!/usr/bin/env node
'use strict';
/**
 * Agent → Run and Wait, Wait Method "Poll" vs "Resume on Completion Webhook" (a script, not a test):
 * worker slots held and requests sent for 10 agent runs of 5 minutes each, started together.
 *
 *   npm run bench:agent-wait          (= npm run build && node test/bench/agent-wait.js)
 *
 * A "worker slot" is one running execution: what an n8n worker's --concurrency counts (and, in
 * regular mode, what keeps the main process busy). Slot time = how long executions run.
 *
 * Poll — fake clock: each run is waited for by the real poller (nodes/WebData/jobs/poller.ts,
 * default schedule) through the real transport, answered from a virtual clock on which the run
 * lasts exactly 300 s. The execution runs from the start until the poller notices the end, so it
 * holds its slot for that whole time. Requests = the start + every status read.
 *
 * Resume — the real node code in n8n's engine, on the accelerated fake API (time scale 60: a 5-minute
 * run lasts 5 s): 10 workflows run through test/helpers/workflow-runner.js (n8n-core's
 * WorkflowExecute) until each execution is "waiting"; when a run ends, the fake records its signed
 * agent.completed delivery (raw body and headers) and the bench hands it to WebData.webhook() with
 * the waiting execution's stack entry, as n8n's resume endpoint does (the runner serves no HTTP, so
 * the fake's own POST to the runner's resume URL, 127.0.0.1:5678, goes nowhere); webhook() only
 * wakes the execution, and the bench then resumes it in the engine, where its check reads the run.
 * Slot time = the measured time inside the engine (start → waiting) plus the wake (webhook() and the
 * resumed check, delivery → result); while
 * a run is going nothing runs. Requests = what the fake API received (its log), polls = the fake's
 * per-run status-read counter. n8n's own work after the resume (the rest of the workflow) is not in
 * this number: the real-n8n e2e suite (npm run test:e2e:agent-resume) measures the whole resume at
 * about 0.1 s from delivery to finished execution.
 */
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const { waitFor, DEFAULT_POLL_SCHEDULE } = require(path.join(ROOT, 'dist/nodes/WebData/jobs/poller'));
const { apiRequest } = require(path.join(ROOT, 'dist/nodes/WebData/transport'));
const { classifyRun } = require(path.join(ROOT, 'dist/nodes/WebData/resources/agent/outcome'));
const { WebData } = require(path.join(ROOT, 'dist/nodes/WebData/WebData.node'));
const { startFakeApi } = require(path.join(ROOT, 'test/fake-api/server'));
const { runWorkflow } = require(path.join(ROOT, 'test/helpers/workflow-runner'));

const RUNS = 10;
const RUN_S = 300;
const MAX_WAIT_S = 900;
const SCALE = 60;
const JOB_ID = '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a';
const SECRET = 'bench-signing-secret';
const API_KEY = 'bench-key-agent-wait';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---- Poll, fake clock -----------------------------------------------------------------------------
async function pollOneRun() {
	let t = 0;
	let reads = 0;
	const ctx = {
		getCredentials: async () => ({ apiKey: API_KEY, baseUrl: 'http://bench.invalid' }),
		getNode: () => ({ name: 'Web Data', type: 'n8n-nodes-webdata.webData', typeVersion: 1, parameters: {} }),
		getExecutionCancelSignal: () => undefined,
		helpers: {
			httpRequestWithAuthentication: async () => {
				reads++;
				const done = t >= RUN_S * 1000;
				return { statusCode: 200, headers: {}, body: done ? { success: true, status: 'completed', data: { ok: true } } : { success: true, status: 'processing' } };
			},
		},
	};
	const clock = { now: () => t, sleep: async (ms) => void (t += ms) };
	const result = await waitFor({
		read: async (deps) => await apiRequest(ctx, { method: 'GET', path: `/agent/${JOB_ID}` }, deps),
		isTerminal: (job) => classifyRun(job) !== 'running',
		maxWaitMs: MAX_WAIT_S * 1000,
		startedAt: 0,
		clock,
		schedule: { ...DEFAULT_POLL_SCHEDULE },
		transportDeps: { random: () => 0.5, maxAttempts: 5, sleep: async () => {}, now: () => t },
	});
	if (result.outcome !== 'terminal') throw new Error('the run did not finish');
	return { requests: 1 + reads, statusReads: reads, slotMs: t };
}

async function poll() {
	// All 10 start at once on the same clock, so each holds its slot over the same span.
	const runs = [];
	for (let k = 0; k < RUNS; k++) runs.push(await pollOneRun());
	return {
		requests: runs.reduce((s, r) => s + r.requests, 0),
		statusReads: runs.reduce((s, r) => s + r.statusReads, 0),
		slotSeconds: runs.reduce((s, r) => s + r.slotMs, 0) / 1000,
		perRunSlotS: runs[0].slotMs / 1000,
		maxConcurrent: RUNS,
	};
}

// ---- Resume, real node code, accelerated fake API ------------------------------------------------
function workflow(k) {
	return {
		nodes: [
			{ id: 'n1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'agent-node',
				name: 'Run agent',
				type: 'n8n-nodes-webdata.webData',
				typeVersion: 1,
				position: [200, 0],
				parameters: { resource: 'agent', operation: 'runAndWait', prompt: `Bench run ${k} FAKE_DURATION_MS=${RUN_S * 1000}`, waitMethod: 'completionWebhook', maxWait: MAX_WAIT_S },
				credentials: { webDataApi: { id: 'c1', name: 'Web Data account' } },
			},
		],
		connections: { Start: { main: [[{ node: 'Run agent', type: 'main', index: 0 }]] } },
	};
}

/** n8n's webhook context for the resume call, as far as webhook() uses it. */
function resumeContext(api, entry, executionId, delivery, response) {
	const node = { id: 'agent-node', name: 'Run agent', type: 'n8n-nodes-webdata.webData', typeVersion: 1, position: [0, 0], parameters: { resource: 'agent', operation: 'runAndWait', waitMethod: 'completionWebhook' } };
	const headers = Object.fromEntries(Object.entries(delivery.headers).map(([k, v]) => [k.toLowerCase(), v]));
	return {
		executeData: entry,
		getNode: () => node,
		getWorkflow: () => ({ id: 'bench' }),
		getExecutionId: () => executionId,
		getNodeParameter: (name, fallback) => node.parameters[name] ?? fallback,
		getCredentials: async () => ({ apiKey: API_KEY, baseUrl: api.url, webhookSecret: SECRET }),
		getRequestObject: () => ({ headers, rawBody: Buffer.from(delivery.rawBody), body: delivery.body }),
		getHeaderData: () => headers,
		getBodyData: () => delivery.body,
		getResponseObject: () => ({
			status(code) {
				response.status = code;
				return this;
			},
			json() {},
		}),
		logger: { warn: (m) => console.log(`# webhook warning: ${m}`), info() {}, debug() {}, error() {} },
		helpers: {
			async httpRequestWithAuthentication(_type, options) {
				const res = await fetch(options.url, { method: options.method, headers: { authorization: `Bearer ${API_KEY}` } });
				const text = await res.text();
				return { statusCode: res.status, body: text ? JSON.parse(text) : undefined, headers: Object.fromEntries(res.headers) };
			},
		},
	};
}

async function resume() {
	const api = await startFakeApi({ apiKey: API_KEY, webhookSigningSecret: SECRET, timeScale: SCALE });
	const credentials = { webDataApi: { apiKey: API_KEY, baseUrl: api.url, webhookSecret: SECRET } };
	const node = new WebData();
	let active = 0;
	let maxActive = 0;
	const activeSpans = []; // [from, to] of every span where something ran
	const enter = () => {
		active++;
		maxActive = Math.max(maxActive, active);
		return Date.now();
	};
	const leave = (from) => {
		active--;
		activeSpans.push([from, Date.now()]);
	};
	try {
		const t0 = Date.now();
		const waiting = await Promise.all(
			Array.from({ length: RUNS }, async (_, k) => {
				const from = enter();
				const result = await runWorkflow(workflow(k), { credentials, mode: 'webhook' });
				leave(from);
				if (result.status !== 'waiting') throw new Error(`run ${k} did not wait (${result.status}: ${result.error?.message})`);
				const start = api.requests({ method: 'POST', path: '/v2/agent' }).find((r) => r.body.prompt === `Bench run ${k} FAKE_DURATION_MS=${RUN_S * 1000}`);
				const executionId = new URL(start.body.webhook.url).pathname.split('/')[2];
				return { k, executionId, data: result.run.data, entry: result.run.data.executionData.nodeExecutionStack[0], jobId: result.json('Run agent')[0].id, startedMs: Date.now() - t0 };
			}),
		);
		const startSlotMs = activeSpans.reduce((s, [a, b]) => s + (b - a), 0);
		const activeWhileWaiting = [];
		const done = [];
		const handled = new Set();
		const deadline = Date.now() + ((RUN_S * 1000) / SCALE) * 3 + 10000;
		while (done.length < RUNS) {
			if (Date.now() > deadline) throw new Error('not every run resumed in time');
			activeWhileWaiting.push(active);
			for (const d of api.deliveries) {
				if (d.type !== 'agent.completed' || handled.has(d.webhookId)) continue;
				handled.add(d.webhookId);
				const run = waiting.find((w) => w.jobId === d.jobId);
				const response = {};
				const from = enter();
				const returned = await node.webhook.call(resumeContext(api, run.entry, run.executionId, d, response));
				const answeredMs = Date.now() - from;
				if (!Array.isArray(returned.workflowData)) throw new Error(`run ${run.k} was not woken (HTTP ${response.status})`);
				// What n8n then runs: the same execution resumed; its check reads the run and outputs it.
				const checked = await runWorkflow(workflow(run.k), { credentials, mode: 'webhook', resume: run.data });
				leave(from);
				if (checked.status !== 'success') throw new Error(`run ${run.k}: the check ended ${checked.status}`);
				done.push({ ...run, answeredMs, resumeMs: Date.now() - from, latencyMs: Date.now() - d.at, output: checked.json('Run agent')[0] });
			}
			await sleep(5);
		}
		const log = api.log.filter((r) => r.path.startsWith('/v2/agent'));
		const perRun = waiting.map((w) => ({
			requests: log.filter((r) => (r.method === 'POST' && r.body?.prompt?.startsWith(`Bench run ${w.k} `)) || r.path === `/v2/agent/${w.jobId}`).length,
			polls: api.agentPolls(w.jobId),
		}));
		const resumeSlotMs = done.reduce((s, r) => s + r.resumeMs, 0);
		return {
			requests: log.length,
			perRun,
			statusReads: log.filter((r) => r.method === 'GET').length,
			slotSeconds: (startSlotMs + resumeSlotMs) / 1000,
			startSlotMs,
			resumeSlotMs,
			maxConcurrent: maxActive,
			maxActiveWhileWaiting: Math.max(...activeWhileWaiting.slice(1, -1), 0),
			latencyMs: done.map((r) => r.latencyMs).sort((a, b) => a - b),
			answeredMs: done.map((r) => r.answeredMs).sort((a, b) => a - b),
			allCompleted: done.every((r) => r.output.status === 'completed'),
			wallS: (Date.now() - t0) / 1000,
		};
	} finally {
		await api.close();
	}
}

async function main() {
	console.log(`# Agent → Run and Wait: ${RUNS} runs of ${RUN_S} s each, started together (node ${process.version})\n`);
	const p = await poll();
	const r = await resume();
	const fmt = (n) => (Math.round(n * 100) / 100).toString();
	console.log('| wait method | requests to the service | status reads (polls) | slot time, total | slot time per run | slots held at once while the runs go |');
	console.log('|---|---:|---:|---:|---:|---:|');
	console.log(`| Poll (fake clock) | ${p.requests} | ${p.statusReads} | ${fmt(p.slotSeconds)} s | ${fmt(p.perRunSlotS)} s | ${p.maxConcurrent} |`);
	console.log(`| Resume on Completion Webhook (n8n engine, fake API ×${SCALE}) | ${r.requests} | ${r.statusReads} (one per run, by its check after the webhook woke it; reads counted by the fake: ${r.perRun.reduce((s, x) => s + x.polls, 0)}) | ${fmt(r.slotSeconds)} s | ${fmt(r.slotSeconds / RUNS)} s | ${r.maxActiveWhileWaiting} (at most ${r.maxConcurrent} during the starts / resumes) |`);
	console.log('');
	console.log(`# Poll: every run holds a slot ${fmt(p.perRunSlotS)} s (the run's 300 s plus the time until the poller notices) and sends ${p.requests / RUNS} requests (1 start + ${p.statusReads / RUNS} reads).`);
	console.log(`# Resume: per run ${r.perRun.map((x) => x.requests).join('/')} requests (start + one read by the check); slots: ${r.startSlotMs} ms for the 10 starts (run in parallel), ${r.resumeSlotMs} ms in the 10 wakes (webhook() and the check run); nothing runs while the runs go.`);
	console.log(`# Resume: webhook() answered in ${r.answeredMs[0]}–${r.answeredMs[r.answeredMs.length - 1]} ms (median ${r.answeredMs[Math.floor(r.answeredMs.length / 2)]} ms, no read); result out of the check ${r.latencyMs[0]}–${r.latencyMs[r.latencyMs.length - 1]} ms after the delivery (median ${r.latencyMs[Math.floor(r.latencyMs.length / 2)]} ms); all completed: ${r.allCompleted}; wall time ${fmt(r.wallS)} s (5 min runs at ×${SCALE}).`);
	console.log(`# Ratio: ${fmt(p.requests / r.requests)}× fewer requests, ${fmt(p.slotSeconds / r.slotSeconds)}× less slot time with Resume on Completion Webhook.`);
}

main().then(
	() => process.exit(0),
	(e) => {
		console.error(e);
		process.exit(1);
	},
);
