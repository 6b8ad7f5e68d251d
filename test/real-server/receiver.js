'use strict';
/**
 * What n8n's HTTP side does for the real-server suite, on one port the server must reach:
 *  - POST /webhook/<webhookId>/webhook: the Web Data Trigger's webhook() in n8n-core's WebhookContext
 *    (raw body kept, JSON parsed as n8n does, static data kept like n8n's database); each call that
 *    starts a workflow is recorded as an execution with its items;
 *  - POST /webhook-waiting/<executionId>/<node suffix>?signature=<resume token>: the resume call of a waiting Run and
 *    Wait ("Resume on Completion Webhook"); n8n checks the signature in the URL, then calls the node's
 *    webhook() (here with test/helpers/resume-context.js, the stand-in of the integration tests);
 *  - the trigger's webhook methods (checkExists / create / delete) in n8n-core's HookContext, the way
 *    n8n's WebhookService runs them on activation and deactivation.
 * Requires n8n-core (through test/helpers/workflow-runner.js), so it is loaded only when the suite runs.
 */
const crypto = require('crypto');
const http = require('http');
const { nodeTypes } = require('../helpers/workflow-runner'); // sets up n8n-core's environment first
const core = require('n8n-core');
const workflowLib = require('n8n-workflow');
const { TestCredentialsHelper, instanceData } = require('../helpers/n8n-contexts');
const { resumeCaller } = require('../helpers/resume-context');

const TRIGGER_TYPE = 'n8n-nodes-webdata.webDataTrigger';
const TRIGGER_NAME = 'Web Data Trigger';

/**
 * Starts the receiver.
 *   port       local port to listen on (0: any)
 *   host       local address (default 127.0.0.1)
 *   publicBase the URL base at which the server reaches this port (default http://127.0.0.1:<port>)
 *   credential {apiKey, baseUrl, webhookSecret}
 */
async function startReceiver({ port = 0, host = '127.0.0.1', publicBase, credential }) {
	const triggers = new Map(); // webhookId → trigger harness
	const waiting = []; // {signature, resolve}
	const resumeCalls = []; // resume calls that matched no waiting run
	const server = http.createServer((req, res) => {
		handle(req, res).catch((error) => {
			res.statusCode = 500;
			res.end(String(error && error.message));
		});
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, resolve);
	});
	const base = (publicBase || `http://127.0.0.1:${server.address().port}`).replace(/\/+$/, '');

	async function handle(req, res) {
		const url = new URL(req.url, 'http://receiver');
		const chunks = [];
		for await (const c of req) chunks.push(c);
		const rawBody = Buffer.concat(chunks);
		const headers = req.headers;
		const hook = url.pathname.match(/^\/webhook\/([^/]+)\/webhook$/);
		if (req.method === 'POST' && hook && triggers.has(hook[1])) return await triggers.get(hook[1]).receive(url, rawBody, headers, res);
		const wait = url.pathname.match(/^\/webhook-waiting\/([^/]+)(?:\/webdata-[^/]+)?$/); // the node's path suffix
		if (req.method === 'POST' && wait) {
			const call = { executionId: wait[1], signature: url.searchParams.get('signature'), rawBody, headers, at: Date.now() };
			const i = waiting.findIndex((w) => w.signature === call.signature);
			if (i < 0) {
				// n8n answers a resume call without a valid signature with 401 and runs nothing.
				resumeCalls.push(call);
				res.statusCode = 401;
				return res.end('{"message":"Invalid token"}');
			}
			const [w] = waiting.splice(i, 1);
			const outcome = await w.resume(call).catch((error) => ({ error }));
			res.statusCode = outcome.error ? 500 : 200;
			res.setHeader('content-type', 'application/json');
			res.end(JSON.stringify(outcome.error ? { message: String(outcome.error.message) } : (outcome.returned?.webhookResponse ?? {})));
			return w.resolve({ call, ...outcome });
		}
		res.statusCode = 404;
		res.end('{"message":"not registered"}');
	}

	const credentialsHelper = new TestCredentialsHelper(credential, { defaults: { apiKey: '', baseUrl: '', webhookSecret: '' } });
	function additionalData(extra = {}) {
		return instanceData(base, credentialsHelper, extra);
	}

	/** A Web Data Trigger with `parameters` in an active workflow whose webhooks this receiver serves. */
	function trigger(parameters) {
		const webhookId = crypto.randomUUID();
		const node = {
			id: 'trigger-node',
			name: TRIGGER_NAME,
			type: TRIGGER_TYPE,
			typeVersion: 1,
			position: [0, 0],
			webhookId,
			parameters,
			credentials: { webDataApi: { id: 'cred-1', name: 'Web Data account' } },
		};
		const workflowId = `real-${webhookId.slice(0, 8)}`;
		let staticData = '{}';
		const executions = []; // {at, items}
		const answers = []; // {status, at}
		const nodeType = () => nodeTypes.getByNameAndVersion(TRIGGER_TYPE, 1);
		const workflow = () =>
			new workflowLib.Workflow({
				id: workflowId,
				name: 'Real server trigger',
				nodes: [structuredClone(node)],
				connections: {},
				nodeTypes,
				staticData: JSON.parse(staticData),
				settings: { executionOrder: 'v1' },
				active: true,
			});
		const save = (wf) => {
			if (wf.staticData.__dataChanged) staticData = JSON.stringify(wf.staticData);
		};
		const webhookData = (data) => ({
			httpMethod: 'POST',
			node: node.name,
			path: `${webhookId}/webhook`,
			webhookDescription: nodeType().description.webhooks[0],
			workflowId,
			workflowExecuteAdditionalData: data,
			isTest: false,
		});

		async function hook(method) {
			const wf = workflow();
			const data = additionalData();
			const mode = method === 'delete' ? 'internal' : 'trigger';
			const activation = method === 'delete' ? 'update' : 'activate';
			const context = new core.HookContext(wf, wf.getNode(node.name), data, mode, activation, webhookData(data));
			try {
				return await nodeType().webhookMethods.default[method].call(context);
			} finally {
				save(wf);
			}
		}

		async function receive(url, rawBody, headers, res) {
			const contentType = String(headers['content-type'] || '').split(';')[0].trim();
			let body = {};
			if (rawBody.length && contentType === 'application/json') {
				try {
					body = JSON.parse(rawBody.toString('utf8'));
				} catch {
					res.statusCode = 422;
					return res.end('{"message":"Failed to parse request body"}');
				}
			}
			let status = 200;
			const response = {
				status(code) {
					status = code;
					res.statusCode = code;
					return response;
				},
				json(value) {
					res.setHeader('content-type', 'application/json');
					res.end(JSON.stringify(value));
					return response;
				},
			};
			const query = Object.fromEntries(url.searchParams);
			const wf = workflow();
			const data = additionalData({ httpRequest: { headers, body, rawBody, params: {}, query, method: 'POST', contentType }, httpResponse: response });
			const { workflowExecuteAdditionalData: _omit, ...described } = webhookData(data);
			const context = new core.WebhookContext(wf, wf.getNode(node.name), data, 'webhook', described, [], null);
			const result = await nodeType().webhook.call(context);
			save(wf);
			if (result.workflowData) executions.push({ at: Date.now(), items: result.workflowData[0].map((i) => i.json) });
			answers.push({ status, at: Date.now() });
			if (!res.writableEnded) {
				res.setHeader('content-type', 'application/json');
				res.end(JSON.stringify(result.webhookResponse ?? { message: 'Workflow was started' }));
			}
		}

		const harness = {
			node,
			productionUrl: `${base}/webhook/${webhookId}/webhook`,
			executions,
			answers,
			registration: () => JSON.parse(staticData)[`node:${node.name}`] ?? {},
			receive,
			/** n8n's activation: create() only when checkExists() says no. */
			async activate() {
				const exists = await hook('checkExists');
				if (!exists) await hook('create');
				return { existed: exists };
			},
			deactivate: () => hook('delete'),
			/** Resolves once `predicate(executions)` holds, or false after `seconds`. */
			async until(predicate, seconds) {
				const end = Date.now() + seconds * 1000;
				while (Date.now() < end) {
					if (predicate(executions)) return true;
					await new Promise((r) => setTimeout(r, 250));
				}
				return predicate(executions);
			},
			close: () => triggers.delete(webhookId),
		};
		triggers.set(webhookId, harness);
		return harness;
	}

	/**
	 * Waits for the resume call of a waiting run (its resume token from the run data), then calls the
	 * node's webhook() on it. Resolves {call, returned, response} or {call, error}; {timedOut} after `seconds`.
	 */
	function awaitResume({ signature, node, entry, apiKey, seconds }) {
		return new Promise((resolve) => {
			const caller = resumeCaller({ api: { url: credential.baseUrl }, apiKey });
			const w = {
				signature,
				resolve,
				resume: (call) =>
					caller({
						node,
						entry,
						executionId: call.executionId,
						raw: call.rawBody,
						headers: call.headers,
						credentials: { webhookSecret: credential.webhookSecret || '' },
					}),
			};
			waiting.push(w);
			setTimeout(() => {
				const i = waiting.indexOf(w);
				if (i >= 0) {
					waiting.splice(i, 1);
					resolve({ timedOut: true, unmatched: resumeCalls.length });
				}
			}, seconds * 1000).unref();
		});
	}

	return {
		base,
		trigger,
		awaitResume,
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

module.exports = { startReceiver };
