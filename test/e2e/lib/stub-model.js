'use strict';
/*
 * A stub language model with an OpenAI-compatible API, for n8n's OpenAI Chat Model node (its
 * credential's Base URL points here). It does not think: each proof scripts the turns.
 *
 *   const model = await startStubModel();          // model.url = http://127.0.0.1:<port>/v1
 *   model.script([{ calls: [{ args: { url: 'https://…' } }] }, { content: 'Done.' }]);
 *   … run the workflow …
 *   model.requests   // every POST /v1/chat/completions body, in order
 *   model.tools()    // the tools of the last request: [{name, description, parameters}]
 *   model.toolResults()  // every tool message received: [{name, callId, content}]
 *
 * Routes: GET /v1/models (the credential test and the model list); POST /v1/chat/completions,
 * streamed (SSE chunks) when the body asks for `stream: true`, else one JSON answer; POST
 * /v1/embeddings (n8n's Embeddings OpenAI node): deterministic vectors of EMBEDDING_DIMENSIONS
 * numbers, a bag of hashed words (texts sharing words are near each other, so a similarity search
 * finds the page a question's words come from), as floats or base64 as `encoding_format` asks;
 * every call is kept in `model.embeddingCalls` ([{input: [texts], model}], in order). The turn to
 * play is the number of assistant messages already in the conversation: turn 0 answers the user's
 * task, turn 1 answers the first tool results, and so on. A turn (or a function of the request
 * that returns one) is either
 *   { calls: [{ name?, args }] | (request) => [...] }  tool calls (name defaults to the first tool
 *                                  offered; a function sees the request, e.g. the last tool result), or
 *   { content: 'text' | (request) => 'text' }  the final answer.
 * Past the script's end it answers "Done." so a run always ends.
 */
const crypto = require('node:crypto');
const http = require('node:http');

const EMBEDDING_DIMENSIONS = 64;

/** A unit vector for a text: each lower-cased word adds 1 at a position given by its hash. */
function embed(text) {
	const v = new Array(EMBEDDING_DIMENSIONS).fill(0);
	for (const word of String(text).toLowerCase().match(/[a-z0-9]+/g) ?? []) {
		v[crypto.createHash('sha256').update(word).digest().readUInt32BE(0) % EMBEDDING_DIMENSIONS] += 1;
	}
	const norm = Math.hypot(...v);
	if (norm === 0) return v.map(() => 1 / Math.sqrt(EMBEDDING_DIMENSIONS)); // no words: still a unit vector
	return v.map((x) => x / norm);
}

function startStubModel() {
	let turns = [];
	const requests = [];
	const embeddingCalls = [];
	let seq = 0;

	function toolsOf(body) {
		return (body?.tools ?? []).map((t) => ({ name: t.function?.name, description: t.function?.description, parameters: t.function?.parameters }));
	}

	function answer(body) {
		const messages = Array.isArray(body.messages) ? body.messages : [];
		const turn = messages.filter((m) => m.role === 'assistant').length;
		const planned = turns[turn] ?? { content: 'Done.' };
		const step = typeof planned === 'function' ? planned(body) : planned;
		const id = `chatcmpl-stub-${++seq}`;
		if (step.calls) {
			const first = toolsOf(body)[0]?.name ?? 'tool';
			const calls = typeof step.calls === 'function' ? step.calls(body) : step.calls;
			const toolCalls = calls.map((c, k) => ({
				id: `call_${seq}_${k}`,
				type: 'function',
				function: { name: c.name ?? first, arguments: JSON.stringify(c.args ?? {}) },
			}));
			return { id, message: { role: 'assistant', content: null, tool_calls: toolCalls }, finish: 'tool_calls' };
		}
		const content = typeof step.content === 'function' ? step.content(body) : String(step.content ?? 'Done.');
		return { id, message: { role: 'assistant', content }, finish: 'stop' };
	}

	const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

	function send(res, status, value) {
		res.writeHead(status, { 'content-type': 'application/json' });
		res.end(JSON.stringify(value));
	}

	function stream(res, body, out) {
		res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
		const base = { id: out.id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: body.model };
		const chunk = (delta, finish = null) => res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
		chunk({ role: 'assistant', content: out.message.content === null ? null : '' });
		if (out.message.tool_calls) {
			out.message.tool_calls.forEach((c, index) => chunk({ tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.function.name, arguments: c.function.arguments } }] }));
		} else {
			chunk({ content: out.message.content });
		}
		chunk({}, out.finish);
		if (body.stream_options?.include_usage) res.write(`data: ${JSON.stringify({ ...base, choices: [], usage })}\n\n`);
		res.end('data: [DONE]\n\n');
	}

	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', () => {
			const path = req.url.replace(/\?.*$/, '');
			if (req.method === 'GET' && /\/models$/.test(path)) {
				return send(res, 200, { object: 'list', data: [{ id: 'stub-model', object: 'model', created: 0, owned_by: 'webdata-e2e' }] });
			}
			if (req.method === 'POST' && /\/chat\/completions$/.test(path)) {
				let body;
				try {
					body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
				} catch {
					return send(res, 400, { error: { message: 'not JSON', type: 'invalid_request_error' } });
				}
				requests.push(body);
				const out = answer(body);
				if (body.stream) return stream(res, body, out);
				return send(res, 200, {
					id: out.id,
					object: 'chat.completion',
					created: Math.floor(Date.now() / 1000),
					model: body.model,
					choices: [{ index: 0, message: out.message, finish_reason: out.finish, logprobs: null }],
					usage,
				});
			}
			if (req.method === 'POST' && /\/embeddings$/.test(path)) {
				let body;
				try {
					body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
				} catch {
					return send(res, 400, { error: { message: 'not JSON', type: 'invalid_request_error' } });
				}
				const input = Array.isArray(body.input) ? body.input.map(String) : [String(body.input ?? '')];
				embeddingCalls.push({ input, model: body.model });
				const data = input.map((text, index) => {
					const vector = embed(text);
					// The OpenAI SDK asks for base64 (little-endian float32) unless told otherwise.
					const embedding = body.encoding_format === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
					return { object: 'embedding', index, embedding };
				});
				const tokens = input.reduce((n, t) => n + t.split(/\s+/).length, 0);
				return send(res, 200, { object: 'list', data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } });
			}
			send(res, 404, { error: { message: `the stub model has no ${req.method} ${path}`, type: 'invalid_request_error' } });
		});
	});

	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			resolve({
				url: `http://127.0.0.1:${port}/v1`,
				requests,
				/** Every POST /v1/embeddings: [{input: [texts], model}], in order (clear with `.length = 0`). */
				embeddingCalls,
				/** Sets the turns of the next conversation and forgets earlier requests. */
				script(list) {
					turns = list;
					requests.length = 0;
				},
				tools: () => toolsOf(requests.at(-1)),
				/** Every tool result the model received (the last request holds the whole conversation). */
				toolResults() {
					const messages = requests.at(-1)?.messages ?? [];
					const names = new Map();
					for (const m of messages) for (const c of m.tool_calls ?? []) names.set(c.id, c.function?.name);
					return messages.filter((m) => m.role === 'tool').map((m) => ({ name: names.get(m.tool_call_id), callId: m.tool_call_id, content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content) }));
				},
				close: () => new Promise((r) => server.close(() => r())),
			});
		});
	});
}

module.exports = { startStubModel, embed, EMBEDDING_DIMENSIONS };
