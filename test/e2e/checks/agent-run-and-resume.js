'use strict';
// test/e2e/workflows/agent-run-and-resume.json: Manual Trigger → Web Data (Agent → Run and Wait,
// Wait Method "Resume on Completion Webhook") under `n8n execute`. The CLI cannot serve the resume
// URL, so this proves the waiting half: the run starts with its webhook on the execution's resume
// URL, the execution is stored as "waiting" until its first check (the CLI process ends: nothing
// holds it), with the check entry queued behind the paused one, and no status was read. The resume itself (webhook, forged
// calls, restart, Max Wait expiry) is proven under `n8n start` by `npm run test:e2e:agent-resume`.
const assert = require('node:assert/strict');
const { hostProfile } = require('../lib/hosts');
const { nodeItems } = require('../lib/output');

const TOKEN_HEADER = 'X-WebData-Resume-Token';

async function check({ output, exitCode, fake, apiKey }) {
	assert.equal(exitCode, 0, 'n8n execute ends without error');
	assert.equal(output.status, 'waiting', `the execution waits (status ${output.status})`);
	const waitTill = Date.parse(output.waitTill ?? output.data?.waitTill);
	const items = nodeItems(output, 'Run agent');
	assert.equal(items.length, 1);
	const waiting = items[0].json;
	assert.equal(waiting.status, 'processing');
	assert.equal(waiting.waitMethod, 'completionWebhook');

	const log = await fake.log();
	const trail = log.map((r) => `${r.method} ${r.path} ${r.status}`);
	assert.deepEqual(trail, ['POST /v2/agent 200'], `one request, the start; no status read (requests: ${trail.join(', ')})`);
	const start = log[0];
	assert.equal(start.headers.authorization, `Bearer ${apiKey}`);
	const { webhook, ...rest } = start.body;
	assert.deepEqual(rest, { prompt: 'Find three robotics start-ups founded after 2018 FAKE_DURATION_MS=3000', maxCredits: 300 });
	const url = new URL(webhook.url);
	const agentNode = require('../workflows/agent-run-and-resume.json').nodes.find((n) => n.type === 'n8n-nodes-webdata.webData');
	assert.match(url.pathname, new RegExp(`^/webhook-waiting/\\d+/webdata-${agentNode.id}$`), "n8n's resume URL of the execution, with the node's path suffix");
	if (hostProfile(process.env.E2E_N8N).major === 1) {
		// n8n 1.x's resume URLs carry no token of n8n's: the node's own token header (below) is the check.
		assert.equal(url.searchParams.get('signature'), null);
	} else {
		assert.match(url.searchParams.get('signature') ?? '', /^[0-9a-f]{64}$/, "with n8n's resume token");
	}
	assert.deepEqual(Object.keys(webhook.headers), [TOKEN_HEADER]);
	assert.match(webhook.headers[TOKEN_HEADER], /^[0-9a-f]{64}$/);
	assert.deepEqual(webhook.events, ['completed', 'failed', 'cancelled']);
	assert.equal(url.searchParams.get('webdataToken'), webhook.headers[TOKEN_HEADER], 'the node token in the URL too');
	const until = Date.parse(waiting.waitingUntil);
	assert.equal(until - start.at > 115000 && until - start.at < 125000, true, 'Max Wait 120 s from the start');
	assert.equal(waitTill - start.at > 75000 && waitTill - start.at < 85000, true, 'n8n resumes it at its first check, 80 s after the start');

	// The stack n8n saved: the paused entry (passes nothing on when the time comes), then its check entry.
	const [entry, checkEntry] = output.data.executionData.nodeExecutionStack;
	assert.equal(entry.node.name, 'Run agent');
	assert.deepEqual(entry.data, { main: [] });
	assert.equal(entry.metadata?.resumeError, undefined);
	assert.equal(checkEntry.node.name, 'Run agent');
	assert.equal(checkEntry.metadata.webDataResume.wait.phase, 'check');
	assert.equal(checkEntry.metadata.webDataResume.wait.jobId, waiting.id);

	const internal = await fake.agent(waiting.id);
	assert.equal(internal.polls, 0, 'the fake counted no status read');
	assert.equal(internal.webhook.url, webhook.url);
}

module.exports = check;
