'use strict';
/**
 * A stand-in for n8n's webhook context on a resume call of a waiting Run and Wait ("Resume on
 * Completion Webhook"): the waiting execution's stack entry (as n8n-core's WebhookContext holds it),
 * the request (exact raw bytes), a recording response, and the node's requests sent to the fake API.
 * Shared by test/integration/agent-resume.test.js and crawl-resume.test.js.
 *
 *   const api = useSigningFakeApi(secret);     // at the top of a test file
 *   const call = resumeCaller({ api, apiKey });
 *   const { returned, response, warnings } = await call({ node, entry, stack?, query?, executionId, raw, headers, credentials });
 * `stack`: the execution's node stack (entry first, then e.g. the waiting node's check entry); `query`: the URL's query.
 */
const { record } = require('./canary');
const { useFakeApi } = require('./resource-suite');

function parsedBody(rawBody) {
	try {
		return rawBody ? JSON.parse(rawBody.toString()) : {};
	} catch {
		return rawBody.toString();
	}
}

function resumeContext({ api, apiKey, node, entry, stack, query = {}, executionId, body, headers = {}, raw, credentials: creds }) {
	const rawBody = raw ?? (body === undefined ? undefined : Buffer.from(JSON.stringify(body)));
	const response = { status: undefined, body: undefined };
	const warnings = [];
	const ctx = {
		executeData: entry,
		// n8n-core's WebhookContext holds the execution's state; its stack starts with the paused entry.
		runExecutionData: stack ? { executionData: { nodeExecutionStack: stack } } : null,
		getQueryData: () => query,
		getNode: () => node,
		getWorkflow: () => ({ id: 'wf-1' }),
		getExecutionId: () => executionId,
		getNodeParameter: (name, fallback) => (node.parameters[name] === undefined ? fallback : node.parameters[name]),
		getCredentials: async () => ({ apiKey, baseUrl: api.url, webhookSecret: '', ...creds }),
		getRequestObject: () => ({ headers, rawBody, body: parsedBody(rawBody) }),
		getHeaderData: () => headers,
		getBodyData: () => ({}),
		getResponseObject: () => ({
			status(code) {
				response.status = code;
				return this;
			},
			json(value) {
				response.body = value;
			},
		}),
		logger: { warn: (m) => warnings.push(m), info() {}, debug() {}, error() {} },
		helpers: {
			async httpRequestWithAuthentication(_type, options) {
				const url = new URL(options.url);
				for (const [k, v] of Object.entries(options.qs ?? {})) url.searchParams.set(k, String(v)); // as n8n's helper sends qs
				const res = await fetch(url, { method: options.method, headers: { authorization: `Bearer ${apiKey}` } });
				const text = await res.text();
				return { statusCode: res.status, body: text ? JSON.parse(text) : undefined, headers: Object.fromEntries(res.headers) };
			},
		},
	};
	return { ctx, response, warnings };
}

/** Calls WebData.webhook() as n8n does on a resume call; returns what it returned and answered. */
function resumeCaller({ api, apiKey }) {
	return async (options) => {
		const { ctx, response, warnings } = resumeContext({ api, apiKey, ...options });
		const { WebData } = require('../../dist/nodes/WebData/WebData.node'); // the build (loaded only when called)
		const returned = await new WebData().webhook.call(ctx);
		record(returned);
		return { returned, response, warnings };
	};
}

/**
 * The strict fake API for a test file, signing its deliveries with `secret`: started before the
 * file's tests, reset before each, closed after. Returns a stand-in that forwards to it once started.
 */
function useSigningFakeApi(secret) {
	return useFakeApi({ webhookSigningSecret: secret });
}

module.exports = { resumeCaller, useSigningFakeApi };
