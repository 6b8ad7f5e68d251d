// A minimal stand-in for n8n's execute context, for unit tests of the transport: it answers
// httpRequestWithAuthentication from a script of responses and records every request.
const { CANARY_KEY } = require('./canary');

const NODE = {
	id: 'node-1',
	name: 'Web Data',
	type: 'n8n-nodes-webdata.webData',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

function fakeContext({ responses = [], baseUrl = 'http://127.0.0.1:9', apiKey = CANARY_KEY, signal } = {}) {
	const calls = [];
	const script = [...responses];
	const ctx = {
		getCredentials: async () => ({ apiKey, baseUrl, webhookSecret: '' }),
		getNode: () => NODE,
		getExecutionCancelSignal: () => signal,
		helpers: {
			async httpRequestWithAuthentication(type, options) {
				calls.push({ type, ...options });
				const next = script.length > 1 ? script.shift() : script[0];
				if (!next) throw new Error('fake context: no scripted response left');
				if (next instanceof Error) throw next;
				return { statusCode: next.status, body: next.body, headers: next.headers ?? {} };
			},
		},
	};
	return { ctx, calls };
}

/** Transport dependencies that never wait: they record the waits asked for. */
function recordingDeps(overrides = {}) {
	const waits = [];
	return {
		waits,
		deps: {
			sleep: async (ms) => {
				waits.push(ms);
			},
			random: () => 0.5,
			now: () => Date.parse('2026-11-21T12:00:00Z'),
			maxAttempts: 5,
			...overrides,
		},
	};
}

module.exports = { fakeContext, recordingDeps, NODE };
