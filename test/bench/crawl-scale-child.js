'use strict';
// One measurement of the crawl scale benchmark (run by crawl-scale.js in a fresh process).
//   node --expose-gc crawl-scale-child.js <poll|resume|events> <fake url> <api key> <signing secret> <pages> <chars> <crawl ms>
// Prints one JSON line (see the end). Memory: the kernel's RSS high-water mark (VmHWM), reset after a
// warm-up of the same path (/proc/self/clear_refs), minus the RSS then; plus V8's heap after a GC.
// The fake API runs in its own process; this process holds only what n8n would hold.
const crypto = require('crypto');
const fs = require('fs');
const http = require('http');

process.env.N8N_LOG_LEVEL = 'silent';
const { runWorkflow, nodeTypes, makeAdditionalData } = require('../helpers/workflow-runner'); // n8n-core's environment first
const core = require('n8n-core');
const workflowLib = require('n8n-workflow');

const [mode, url, apiKey, secret, pagesArg, charsArg, crawlMsArg] = process.argv.slice(2);
const PAGES = Number(pagesArg);
const CHARS = Number(charsArg);
const CRAWL_MS = Number(crawlMsArg);
const WEB_DATA = 'Web Data';
const TRIGGER_TYPE = 'n8n-nodes-webdata.webDataTrigger';
const JOB_TOKEN = 'bench-job-token-0123456789abcdef';
const credentials = { webDataApi: { apiKey, baseUrl: url, webhookSecret: secret } };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const kb = (field) => {
	const line = fs.readFileSync('/proc/self/status', 'utf8').split('\n').find((l) => l.startsWith(field + ':'));
	return Number(line.replace(/\D+/g, '')); // kB
};
const resetPeak = () => fs.writeFileSync('/proc/self/clear_refs', '5');
const settle = () => {
	global.gc();
	global.gc();
};
const crawlUrl = (pages, ms) => `https://docs.example.com/fake-pages-${pages}/fake-long-${CHARS}/fake-duration-${ms}`;
const control = async (p, method = 'GET') => await (await fetch(`${url}${p}`, { method })).json();
const jsonBytes = (items) => items.reduce((s, i) => s + Buffer.byteLength(JSON.stringify(i.json)), 0);

function crawlWorkflow(pages, ms, waitMethod) {
	return {
		nodes: [
			{ id: 'n1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{
				id: 'crawl-node',
				name: WEB_DATA,
				type: 'n8n-nodes-webdata.webData',
				typeVersion: 1,
				position: [200, 0],
				parameters: { resource: 'crawl', operation: 'runAndWait', url: crawlUrl(pages, ms), pageLimit: pages, waitMethod, maxWait: 600 },
				credentials: { webDataApi: { id: 'c1', name: 'Web Data account' } },
			},
		],
		connections: { Start: { main: [[{ node: WEB_DATA, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

// ---- (a) Run and Wait, Poll: one n8n-core run from start to the last page read ----------------------
async function poll(pages, ms) {
	const t0 = Date.now();
	const result = await runWorkflow(crawlWorkflow(pages, ms, 'poll'), { credentials });
	if (result.status !== 'success') throw new Error(`poll run: ${result.status} ${result.error?.message}`);
	return { result, workerMs: Date.now() - t0, endedAt: Date.now() };
}

// ---- (b) Run and Wait, Resume: run until waiting; the job's end delivery into WebData.webhook() ------
// n8n-core's WebhookContext with the waiting execution's run data, as n8n's waiting-webhook endpoint
// builds it; the node's reads go through n8n-core's own HTTP helper (the runner's credentials helper).
async function resume(pages, ms) {
	const t0 = Date.now();
	const waiting = await runWorkflow(crawlWorkflow(pages, ms, 'completionWebhook'), { credentials, mode: 'webhook' });
	if (waiting.status !== 'waiting') throw new Error(`resume run: ${waiting.status} ${waiting.error?.message}`);
	const startMs = Date.now() - t0;
	const jobId = waiting.json(WEB_DATA)[0].id;
	// The fake POSTs the end to the runner's resume URL, where nothing listens: take it from the fake.
	let delivery;
	while (!delivery) {
		await sleep(10);
		delivery = (await control('/__fake/deliveries')).find((d) => d.jobId === jobId && d.type === 'crawl.completed');
	}
	const runData = waiting.run.data;
	const wf = crawlWorkflow(pages, ms, 'completionWebhook');
	const workflow = new workflowLib.Workflow({ id: 'bench', name: 'bench', nodes: wf.nodes, connections: wf.connections, nodeTypes, settings: wf.settings, active: true });
	const node = workflow.getNode(WEB_DATA);
	const headers = Object.fromEntries(Object.entries(delivery.headers).map(([k, v]) => [k.toLowerCase(), v]));
	const rawBody = Buffer.from(delivery.rawBody);
	const response = { status: () => response, json: () => response, end: () => response, setHeader: () => response };
	const start = (await control('/__fake/log')).filter((x) => x.method === 'POST' && x.path === '/v2/crawl').pop();
	const executionId = new URL(start.body.webhook.url).pathname.split('/')[2];
	const additionalData = {
		...makeAdditionalData(credentials, undefined, executionId),
		httpRequest: { headers, body: JSON.parse(delivery.rawBody), rawBody, params: {}, query: {}, method: 'POST' },
		httpResponse: response,
	};
	const webhookData = { httpMethod: 'POST', node: WEB_DATA, path: '', webhookDescription: nodeTypes.getByNameAndVersion('n8n-nodes-webdata.webData', 1).description.webhooks[0], workflowId: 'bench', isTest: false };
	const r0 = Date.now();
	const context = new core.WebhookContext(workflow, node, additionalData, 'webhook', webhookData, [], runData);
	const returned = await nodeTypes.getByNameAndVersion('n8n-nodes-webdata.webData', 1).webhook.call(context);
	if (!returned.workflowData) throw new Error(`resume: no workflowData (${JSON.stringify(returned).slice(0, 300)})`);
	const items = returned.workflowData[0];
	return { items, workerMs: startMs + (Date.now() - r0), latencyMs: Date.now() - delivery.at, jobId };
}

// ---- (c) Job events into the Web Data Trigger: one WebhookContext + webhook() per delivery -----------
async function events(pages, ms, measure) {
	const triggerType = nodeTypes.getByNameAndVersion(TRIGGER_TYPE, 1);
	const webhookId = crypto.randomUUID();
	const node = {
		id: 'trigger-node',
		name: 'Web Data Trigger',
		type: TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		webhookId,
		parameters: { source: 'jobs', jobEvents: ['crawl.page', 'crawl.completed'], jobToken: JOB_TOKEN },
		credentials: { webDataApi: { id: 'c1', name: 'Web Data account' } },
	};
	const stats = { executions: 0, pageItems: 0, inFlight: 0, maxInFlight: 0, workerMs: 0, maxItemBytes: 0, maxBodyBytes: 0, lastPageLatencyMs: 0, completed: false, rss: [] };
	const server = http.createServer(async (req, res) => {
		const arrived = performance.now();
		stats.inFlight++;
		stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
		try {
			const chunks = [];
			for await (const c of req) chunks.push(c);
			const started = performance.now();
			const rawBody = Buffer.concat(chunks);
			const body = JSON.parse(rawBody.toString('utf8')); // n8n's JSON body parser
			const query = Object.fromEntries(new URL(req.url, 'http://x').searchParams);
			const response = {
				status(code) {
					res.statusCode = code;
					return response;
				},
				json(value) {
					res.setHeader('content-type', 'application/json');
					res.end(JSON.stringify(value));
					return response;
				},
			};
			const workflow = new workflowLib.Workflow({ id: 'bench-events', name: 'bench', nodes: [structuredClone(node)], connections: {}, nodeTypes, staticData: {}, settings: { executionOrder: 'v1' }, active: true });
			const additionalData = { ...makeAdditionalData(credentials, undefined, 'events'), httpRequest: { headers: req.headers, body, rawBody, params: {}, query, method: 'POST' }, httpResponse: response };
			const webhookData = { httpMethod: 'POST', node: node.name, path: `${webhookId}/webhook`, webhookDescription: triggerType.description.webhooks[0], workflowId: 'bench-events', isTest: false };
			const context = new core.WebhookContext(workflow, workflow.getNode(node.name), additionalData, 'webhook', webhookData, [], null);
			const result = await triggerType.webhook.call(context);
			if (!res.writableEnded) {
				res.statusCode = 200;
				res.end(JSON.stringify(result.webhookResponse ?? {}));
			}
			stats.workerMs += performance.now() - started;
			if (measure && stats.executions % 500 === 0) stats.rss.push(kb('VmRSS'));
			if (result.workflowData) {
				stats.executions++;
				const items = result.workflowData[0];
				const event = items[0]?.json?.event;
				if (event === 'crawl.page') {
					stats.pageItems += items.length;
					if (measure) {
						stats.maxItemBytes = Math.max(stats.maxItemBytes, jsonBytes(items));
						stats.maxBodyBytes = Math.max(stats.maxBodyBytes, rawBody.length);
					}
					if (stats.pageItems === pages) stats.lastPageLatencyMs = performance.now() - arrived;
				}
				if (event === 'crawl.completed') stats.completed = true;
			}
		} catch (error) {
			res.statusCode = 500;
			res.end(String(error?.stack));
			stats.error = String(error?.stack);
		} finally {
			stats.inFlight--;
		}
	});
	await new Promise((r) => server.listen(0, '127.0.0.1', r));
	try {
		const hook = `http://127.0.0.1:${server.address().port}/webhook/${webhookId}/webhook?token=${JOB_TOKEN}`;
		const res = await fetch(`${url}/v2/crawl`, {
			method: 'POST',
			headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
			body: JSON.stringify({ url: crawlUrl(pages, ms), limit: pages, scrapeOptions: { formats: ['markdown'] }, webhook: { url: hook, events: ['page', 'completed'] } }),
		});
		const started = await res.json();
		if (!started.success) throw new Error(JSON.stringify(started));
		const until = Date.now() + ms + 120000;
		while (!(stats.completed && stats.pageItems === pages)) {
			if (stats.error) throw new Error(stats.error);
			if (Date.now() > until) throw new Error(`events: ${stats.pageItems} of ${pages} pages`);
			await sleep(20);
		}
		return stats;
	} finally {
		server.closeAllConnections?.();
		await new Promise((r) => server.close(r));
	}
}

(async () => {
	const warmPages = 30;
	const warmMs = 300;
	// Warm-up: the same path, small, so code loading and JIT are not counted.
	if (mode === 'poll') await poll(warmPages, warmMs);
	else if (mode === 'resume') await resume(warmPages, warmMs);
	else await events(warmPages, warmMs, false);
	await control('/__fake/reset', 'POST');
	settle();
	const baselineKb = kb('VmRSS');
	const baselineHeap = process.memoryUsage().heapUsed;
	resetPeak();
	// V8's own view beside the kernel's: the highest heap in use and the highest Buffer memory, sampled.
	const v8Peak = { heap: 0, buffers: 0 };
	const sampler = setInterval(() => {
		const u = process.memoryUsage();
		v8Peak.heap = Math.max(v8Peak.heap, u.heapUsed - baselineHeap);
		v8Peak.buffers = Math.max(v8Peak.buffers, u.arrayBuffers);
	}, 10);
	const t0 = Date.now();
	const out = { mode, pages: PAGES };
	if (mode === 'poll' || mode === 'resume') {
		const r = mode === 'poll' ? await poll(PAGES, CRAWL_MS) : await resume(PAGES, CRAWL_MS);
		out.peakKb = kb('VmHWM');
		const items = mode === 'poll' ? r.result.json(WEB_DATA).map((json) => ({ json })) : r.items;
		out.items = items.length;
		settle();
		out.retainedHeapMb = (process.memoryUsage().heapUsed - baselineHeap) / 1048576; // with the output still held
		out.outputBytes = jsonBytes(items);
		out.workerMs = r.workerMs;
		if (mode === 'poll') {
			const log = await control('/__fake/log');
			const startAt = log.find((x) => x.method === 'POST' && x.path === '/v2/crawl').at;
			out.latencyMs = r.endedAt - (startAt + CRAWL_MS); // the job's last page → the node's output
		} else out.latencyMs = r.latencyMs;
	} else {
		const s = await events(PAGES, CRAWL_MS, true);
		out.peakKb = kb('VmHWM');
		settle();
		out.retainedHeapMb = (process.memoryUsage().heapUsed - baselineHeap) / 1048576;
		Object.assign(out, { executions: s.executions, items: s.pageItems, workerMs: s.workerMs, latencyMs: s.lastPageLatencyMs, maxInFlight: s.maxInFlight, pageItemBytes: s.maxItemBytes, pageBodyBytes: s.maxBodyBytes });
		out.rssSamplesMb = s.rss.map((x) => Math.round(x / 102.4) / 10);
	}
	out.wallMs = Date.now() - t0;
	clearInterval(sampler);
	out.peakHeapMb = v8Peak.heap / 1048576;
	out.peakBuffersMb = v8Peak.buffers / 1048576;
	const log = await control('/__fake/log');
	const api = log.filter((x) => x.path.startsWith('/v2/'));
	out.requests = api.length;
	out.statusRequests = api.filter((x) => x.method === 'GET' && x.path.startsWith('/v2/crawl/')).length;
	out.baselineMb = baselineKb / 1024;
	out.peakExtraMb = (out.peakKb - baselineKb) / 1024;
	process.stdout.write(JSON.stringify(out) + '\n');
	process.exit(0);
})().catch((error) => {
	process.stderr.write(`${error.stack}\n`);
	process.exit(1);
});
