'use strict';
/*
 * The site → vector store pair (examples/rag/, issue 24.2) in the real `n8n start` of the trigger
 * phase. n8n's Simple Vector Store lives in the memory of ONE n8n process, so both workflows must
 * run in the same process: `n8n execute` (a new process per run) cannot show it.
 *
 *   index  = examples/rag/<item>.json (Schedule Trigger → Crawl with change tracking → the store),
 *            run as "Execute workflow" does in the editor (POST /rest/workflows/:id/run from its
 *            Schedule Trigger), as often as its check asks, in the same n8n;
 *   answer = examples/rag/<check.trigger.vectorStore.answer>.json (Chat Trigger → AI Agent with the
 *            store's retrieve tool), its Chat Trigger replaced by a Webhook (POST {chatInput}) so that
 *            it runs headless, activated, and asked through that webhook.
 * Both OpenAI credentials point at the stub model (./stub-model.js): chat completions play the
 * check's turns, /v1/embeddings returns deterministic vectors and counts the calls.
 *
 * The check module (test/e2e/checks/<item>.js) exports trigger = {vectorStore: {answer: '<base>'}}
 * and an async function that receives {step, fake, model, runIndex, ask, index, answer} and records
 * one line per proof through step(name, fn). The answer workflow's own check exports
 * trigger = {partOf: '<index base>'}: it runs here, not on its own.
 */
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const { startStubModel } = require('./stub-model');

const CHAT_TRIGGER = '@n8n/n8n-nodes-langchain.chatTrigger';
const SCHEDULE_TRIGGER = 'n8n-nodes-base.scheduleTrigger';

/** Every node's output items of an execution read through the public API: {status, nodes: {name: [json]}}. */
function outputs(execution) {
	const nodes = {};
	for (const [name, runs] of Object.entries(execution.data?.resultData?.runData ?? {})) {
		nodes[name] = runs.flatMap((r) => (r.data?.main?.[0] ?? []).map((i) => i.json));
	}
	return { id: execution.id, status: execution.status, error: execution.data?.resultData?.error, nodes };
}

async function runVectorStore(phase, item) {
	const label = item.name;
	const answerBase = item.check.trigger.vectorStore.answer;
	const dir = path.dirname(item.file);
	const answerItem = { base: answerBase, text: fs.readFileSync(path.join(dir, `${answerBase}.json`), 'utf8') };
	let model;
	try {
		await phase.step(`${label}: set-up (stub model with /v1/embeddings, OpenAI credential, both workflows in one n8n; the answer workflow active behind a webhook)`, async () => {
			model = await startStubModel();
			const c = await phase.api('POST', '/credentials', { name: 'Stub model (vector store)', type: 'openAiApi', data: { apiKey: 'sk-stub-model', url: model.url, header: false } });
			const openAi = { id: c.id, name: 'Stub model (vector store)' };
			const withOpenAi = (wf) => {
				for (const node of wf.nodes) if (node.credentials?.openAiApi) node.credentials.openAiApi = openAi;
			};
			phase.vs = { openAi };
			phase.vs.index = await phase.createWorkflow(item, {}, phase.credentials.tokenOnly, { prepare: withOpenAi });
			const hookPath = `site-answer-${crypto.randomBytes(6).toString('hex')}`;
			phase.vs.answer = await phase.createWorkflow(answerItem, {}, phase.credentials.tokenOnly, {
				prepare: (wf) => {
					withOpenAi(wf);
					const chat = wf.nodes.find((n) => n.type === CHAT_TRIGGER);
					assert.ok(chat, 'the answer workflow starts with a Chat Trigger');
					Object.assign(chat, { type: 'n8n-nodes-base.webhook', typeVersion: 2, webhookId: crypto.randomUUID(), parameters: { httpMethod: 'POST', path: hookPath, responseMode: 'lastNode', options: {} } });
					// The Chat Trigger gives {chatInput}; the Webhook gives {body: {chatInput}}.
					for (const n of wf.nodes) if (n.parameters?.text === '={{ $json.chatInput }}') n.parameters.text = '={{ $json.body.chatInput }}';
					// A check may raise the retrieve tool's Limit to see the whole store in one tool result.
					const topK = item.check.trigger.vectorStore.topK;
					if (topK) for (const n of wf.nodes) if (n.parameters?.mode === 'retrieve-as-tool') n.parameters.topK = topK;
				},
			});
			phase.vs.answer.url = `${phase.base}/webhook/${hookPath}`;
			await phase.api('POST', `/workflows/${phase.vs.answer.id}/activate`);
			model.script([{ content: 'Ready.' }]);
			await phase.until(async () => (await fetch(phase.vs.answer.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"chatInput":"probe"}' })).status !== 404, 'the answer webhook to be served');
			await phase.until(async () => {
				const list = await phase.api('GET', `/executions?workflowId=${phase.vs.answer.id}&limit=10`);
				return (list.data ?? []).some((e) => ['success', 'error', 'crashed'].includes(e.status));
			}, 'the probe execution to end');
			return `stub model at ${model.url}`;
		});
		if (!phase.vs?.answer) return;

		const finished = async (workflowId, before) => {
			const e = await phase.until(async () => {
				const list = await phase.api('GET', `/executions?workflowId=${workflowId}&limit=50`);
				return (list.data ?? []).find((x) => !before.has(x.id) && ['success', 'error', 'crashed', 'canceled'].includes(x.status));
			}, `a new execution of workflow ${workflowId} to end`, 120000);
			const full = await phase.api('GET', `/executions/${e.id}?includeData=true`);
			phase.captured.push({ source: `execution ${e.id} (public API)`, text: JSON.stringify(full) });
			return outputs(full);
		};
		const executionIds = async (workflowId) => new Set(((await phase.api('GET', `/executions?workflowId=${workflowId}&limit=250`)).data ?? []).map((e) => e.id));

		/** One scheduled run of the index workflow, started as "Execute workflow" from its Schedule Trigger. */
		const runIndex = async () => {
			const { index } = phase.vs;
			const trigger = index.wf.nodes.find((n) => n.type === SCHEDULE_TRIGGER);
			const before = await executionIds(index.id);
			model.embeddingCalls.length = 0;
			const ran = await phase.rest('POST', `/rest/workflows/${index.id}/run`, { triggerToStartFrom: { name: trigger.name } }, { cookie: phase.cookie });
			assert.equal(ran.status, 200, `POST /rest/workflows/:id/run answered ${ran.status}: ${phase.oneLine(JSON.stringify(ran.json))}`);
			const run = await finished(index.id, before);
			return { ...run, embedded: model.embeddingCalls.map((c) => c.input) };
		};

		/** Asks the answer workflow one question with the model's scripted turns. */
		const ask = async (question, turns) => {
			const { answer } = phase.vs;
			const before = await executionIds(answer.id);
			model.script(turns);
			model.embeddingCalls.length = 0;
			const res = await fetch(answer.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ chatInput: question }) });
			await res.text();
			const run = await finished(answer.id, before);
			phase.captured.push({ source: 'stub model requests (vector store)', text: JSON.stringify(model.requests) });
			fs.writeFileSync(path.join(phase.tmp, `vector-store-model-requests-${run.id}.json`), JSON.stringify(model.requests, null, 2));
			return { ...run, embedded: model.embeddingCalls.map((c) => c.input), toolResults: model.toolResults(), tools: model.tools() };
		};

		await item.check({ step: (name, fn) => phase.step(`${label}: ${name}`, fn), fake: phase.fake, model, runIndex, ask, index: phase.vs.index, answer: phase.vs.answer });
	} finally {
		if (model) await model.close();
		if (phase.vs?.answer) await phase.api('POST', `/workflows/${phase.vs.answer.id}/deactivate`).catch(() => {});
	}
}

module.exports = { runVectorStore };
