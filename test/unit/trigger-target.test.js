'use strict';
// "Send Events to Web Data Trigger" and Run Metadata (issue 18.2): the `webhook` object a Crawl,
// Batch Scrape or Agent start sends, and every check before sending. Build first.
const { buildEventWebhook, readTriggerTarget, readRunMetadata, triggerTargetOptions, webhookFieldOf, refuseEventWebhookWithResume, sendsNoToken, assertTriggerVerifiable } = require('../../dist/nodes/WebData/jobs/triggerTarget');
const { buildWebhook } = require('../../dist/nodes/WebData/resources/crawl/fields');
const { refuseOwnWebhook } = require('../../dist/nodes/WebData/resources/crawl/crawlAndBatch');
const { buildStartBody } = require('../../dist/nodes/WebData/resources/agent/startRequest');
const { TRIGGER_TOKEN_HEADER: TOKEN_HEADER } = require('../../dist/nodes/shared/signature');

const node = { id: 'n', name: 'Web Data', type: 'n8n-nodes-webdata.webData', typeVersion: 1, position: [0, 0], parameters: {} };
const URL_ = 'https://n8n.example.com/webhook/8c1d5e2f-3a7b-4c9d-b0e1-6f2a4d8c7b35/webhook';
const TOKEN = 'tok-0123456789';
const target = (trigger) => ({ sendToTrigger: { trigger } });
const meta = (...pairs) => ({ runMetadata: { values: pairs.map(([name, value]) => ({ name, value })) } });
const crawlWebhook = (options) => buildEventWebhook(node, options, 'crawl', 0, (o) => buildWebhook(node, o, 0));

test('the token header is the one the trigger reads', () => {
	expect(TOKEN_HEADER).toBe('X-WebData-Trigger-Token');
});

describe('building the webhook', () => {
	test('URL, token in the trigger header, events and Run Metadata become the webhook object', () => {
		const webhook = crawlWebhook({ ...target({ url: ` ${URL_} `, token: ` ${TOKEN} `, events: ['page', 'completed'] }), ...meta(['run', 'nightly-7'], ['count', 3], ['dry', false]) });
		expect(webhook).toEqual({ url: URL_, headers: { [TOKEN_HEADER]: TOKEN }, events: ['page', 'completed'], metadata: { run: 'nightly-7', count: '3', dry: 'false' } });
		expect(webhookFieldOf(webhook)).toBe('Send Events to Web Data Trigger');
	});

	test('a token already in the pasted URL (?token=) is kept there, no header; no events chosen = all (none sent)', () => {
		const withToken = `${URL_}?token=${TOKEN}`;
		expect(crawlWebhook(target({ url: withToken, token: '', events: [] }))).toEqual({ url: withToken });
		expect(crawlWebhook(target({ url: withToken, token: TOKEN }))).toEqual({ url: withToken });
	});

	test('no token: built without a header and marked, so the sender can demand the signing secret', async () => {
		const webhook = crawlWebhook(target({ url: URL_, token: '  ' }));
		expect(webhook).toEqual({ url: URL_ });
		expect(webhook.headers).toBeUndefined();
		expect(sendsNoToken(webhook)).toBe(true);
		expect(sendsNoToken(crawlWebhook(target({ url: URL_, token: TOKEN })))).toBe(false);
		expect(sendsNoToken(crawlWebhook(target({ url: `${URL_}?token=${TOKEN}` })))).toBe(false);
		const ctx = (credentials) => ({ getNode: () => node, getCredentials: async () => credentials });
		await expect(assertTriggerVerifiable(ctx({ apiKey: 'k', webhookSecret: ' ' }), webhook, 0)).rejects.toThrow(
			/^Trigger Token "" is not valid: it is required: enter the Token set on the receiving Web Data Trigger \(or put your team's Webhook Signing Secret/,
		);
		await expect(assertTriggerVerifiable(ctx({ apiKey: 'k', webhookSecret: 'whsec' }), webhook, 0)).resolves.toBeUndefined();
		// A webhook with a token (or none at all) never reads the credential.
		const reads = { n: 0 };
		const counting = { getNode: () => node, getCredentials: async () => (reads.n++, {}) };
		await assertTriggerVerifiable(counting, crawlWebhook(target({ url: URL_, token: TOKEN })), 0);
		await assertTriggerVerifiable(counting, undefined, 0);
		expect(reads.n).toBe(0);
	});

	test('agent events are the agent short names', () => {
		expect(buildEventWebhook(node, target({ url: URL_, token: TOKEN, events: ['action', 'cancelled'] }), 'agent', 0)).toEqual({ url: URL_, headers: { [TOKEN_HEADER]: TOKEN }, events: ['action', 'cancelled', 'completed'] });
		expect(() => buildEventWebhook(node, target({ url: URL_, token: TOKEN, events: ['page'] }), 'agent', 0)).toThrow(/Send Events to Web Data Trigger → Events "page" is not valid: choose from action, cancelled, completed, failed, started/);
	});

	test('issue 29: a chosen Failed or Cancelled also asks for Completed (the open-source server announces every end as completed and drops events not asked for)', () => {
		const asked = (job, events) => buildEventWebhook(node, target({ url: URL_, token: TOKEN, events }), job, 0).events;
		expect(asked('crawl', ['failed'])).toEqual(['failed', 'completed']);
		expect(asked('batch', ['page', 'failed'])).toEqual(['page', 'failed', 'completed']);
		expect(asked('agent', ['failed', 'cancelled'])).toEqual(['failed', 'cancelled', 'completed']);
		// Completed already asked, or no end event chosen: the list is the user's.
		expect(asked('crawl', ['completed', 'failed'])).toEqual(['completed', 'failed']);
		expect(asked('crawl', ['page', 'started'])).toEqual(['page', 'started']);
		// None chosen: all events (no filter sent).
		expect(buildEventWebhook(node, target({ url: URL_, token: TOKEN, events: [] }), 'crawl', 0)).not.toHaveProperty('events');
	});

	test('nothing set → no webhook; the older Webhook options work as before', () => {
		expect(crawlWebhook({})).toBeUndefined();
		expect(crawlWebhook({ sendToTrigger: {} })).toBeUndefined();
		expect(crawlWebhook({ webhookUrl: 'https://h.example.com/x', webhookEvents: ['page'], webhookMetadata: '{"a":"1"}' })).toEqual({ url: 'https://h.example.com/x', events: ['page'], metadata: { a: '1' } });
	});

	test('Run Metadata with a Webhook URL merges into its metadata', () => {
		expect(crawlWebhook({ webhookUrl: 'https://h.example.com/x', webhookMetadata: '{"a":"1"}', ...meta(['run', 'r1']) })).toEqual({ url: 'https://h.example.com/x', metadata: { a: '1', run: 'r1' } });
	});

	test.each([
		[target({ url: '', token: TOKEN }), /Trigger Production URL "" is not valid: it is required: copy the Production URL/],
		[target({ url: 'n8n.example.com/webhook/x/webhook', token: TOKEN }), /Trigger Production URL "n8n.example.com\/webhook\/x\/webhook" is not valid: it must be an absolute http or https URL/],
		[target({ url: 'ftp://n8n.example.com/webhook/x/webhook', token: TOKEN }), /Trigger Production URL/],
		[target({ url: 'https://n8n.example.com/webhook-test/8c1d/webhook', token: TOKEN }), /Trigger Production URL .* is not valid: it is the trigger's Test URL/],
		[target({ url: `${URL_}?token=a`, token: 'b' }), /Trigger Token "\[hidden\]" is not valid: it differs from the \?token= in Trigger Production URL/],
		[target({ url: `${URL_}?token=a&token=a`, token: '' }), /Trigger Production URL "\[hidden\]" is not valid: it has \?token= twice/],
		[target({ url: URL_, token: 'two words' }), /Trigger Token "\[hidden\]" is not valid: it must not contain spaces/],
		[target({ url: URL_, token: TOKEN, events: ['done'] }), /Send Events to Web Data Trigger → Events "done" is not valid: choose from completed, failed, page, started/],
		[target({ url: URL_, token: TOKEN, events: 'page' }), /Send Events to Web Data Trigger → Events/],
		[{ ...target({ url: URL_, token: TOKEN }), webhookUrl: 'https://h.example.com/x' }, /Webhook URL "https:\/\/h.example.com\/x" is not valid: a job sends its events to one place/],
		[{ ...target({ url: URL_, token: TOKEN }), webhookEvents: ['page'] }, /Webhook Events .* is not valid: a job sends its events to one place/],
		[{ ...target({ url: URL_, token: TOKEN }), webhookMetadata: '{"a":"1"}' }, /Webhook Metadata .* is not valid: a job sends its events to one place/],
		[meta(['run', 'r1']), /Run Metadata .* is not valid: it is sent with the job's events: set Send Events to Web Data Trigger \(or a Webhook URL\)/],
		[{ ...target({ url: URL_, token: TOKEN }), ...meta(['', 'x']) }, /Run Metadata → Name "" is not valid: every value needs a name/],
		[{ ...target({ url: URL_, token: TOKEN }), ...meta(['a', '1'], [' a ', '2']) }, /Run Metadata → Name "a" is not valid: each name may appear once/],
		[{ ...target({ url: URL_, token: TOKEN }), ...meta(['a', { deep: 1 }]) }, /Run Metadata → a .* is not valid: the value must be text/],
		[{ webhookUrl: 'https://h.example.com/x', webhookMetadata: '{"run":"1"}', ...meta(['run', '2']) }, /Run Metadata → run "2" is not valid: the same name is in Webhook Metadata/],
	])('refused before sending: %j', (options, pattern) => {
		expect(() => crawlWebhook(options)).toThrow(pattern);
	});

	test('the token never appears in an error message', () => {
		for (const options of [target({ url: `${URL_}?token=secret-a`, token: 'secret-b' }), target({ url: URL_, token: 'secret a' })]) {
			let message = '';
			try {
				crawlWebhook(options);
			} catch (error) {
				message = `${error.message} ${error.description}`;
			}
			expect(message).toMatch(/Trigger Token/);
			expect(message).not.toMatch(/secret/);
		}
	});

	test('readRunMetadata / readTriggerTarget alone', () => {
		expect(readRunMetadata(node, {}, 0)).toBeUndefined();
		expect(readRunMetadata(node, { runMetadata: { values: [] } }, 0)).toBeUndefined();
		expect(readTriggerTarget(node, {}, 'batch', 0)).toBeUndefined();
	});
});

describe('with "Resume on Completion Webhook"', () => {
	test('Crawl / Batch Scrape Run and Wait name the field that set the webhook', () => {
		const body = { url: 'https://example.com', webhook: crawlWebhook(target({ url: URL_, token: TOKEN })) };
		expect(() => refuseOwnWebhook(node, body, 0)).toThrow(/^Send Events to Web Data Trigger ".*" is not valid: it cannot be used with Wait Method "Resume on Completion Webhook"/);
		const plain = { url: 'https://example.com', webhook: crawlWebhook({ webhookUrl: 'https://h.example.com/x' }) };
		expect(() => refuseOwnWebhook(node, plain, 0)).toThrow(/^Webhook URL "https:\/\/h.example.com\/x" is not valid: it cannot be used/);
		expect(() => refuseOwnWebhook(node, { url: 'x' }, 0)).not.toThrow();
	});

	test('Agent: a webhook from the options is refused; none passes', () => {
		const webhook = buildEventWebhook(node, target({ url: URL_, token: TOKEN }), 'agent', 0);
		expect(() => refuseEventWebhookWithResume(node, webhook, 0)).toThrow(/^Send Events to Web Data Trigger ".*" is not valid: it cannot be used with Wait Method "Resume on Completion Webhook"/);
		expect(() => refuseEventWebhookWithResume(node, undefined, 0)).not.toThrow();
	});
});

describe('Agent start body', () => {
	const params = (options) => ({ prompt: 'Find prices', urls: '', strictConstrainToURLs: false, outputShape: 'free', options });
	test('the trigger choice becomes `webhook` with agent events and metadata', () => {
		const body = buildStartBody(node, params({ ...target({ url: URL_, token: TOKEN, events: ['completed'] }), ...meta(['ask', 'prices']) }), 0);
		expect(body).toEqual({ prompt: 'Find prices', webhook: { url: URL_, headers: { [TOKEN_HEADER]: TOKEN }, events: ['completed'], metadata: { ask: 'prices' } } });
	});
	test('Run Metadata alone is refused (Agent has no Webhook URL option)', () => {
		expect(() => buildStartBody(node, params(meta(['ask', 'prices'])), 0)).toThrow(/Run Metadata .* is not valid: it is sent with the job's events: set Send Events to Web Data Trigger, or remove it/);
	});
});

describe('the options in the editor', () => {
	test.each(['crawl', 'batch', 'agent'])('%s: Run Metadata and Send Events to Web Data Trigger, with the job\'s events and defaults', (job) => {
		const [metadata, send] = triggerTargetOptions(job);
		expect([metadata.name, metadata.displayName, send.name, send.displayName]).toEqual(['runMetadata', 'Run Metadata', 'sendToTrigger', 'Send Events to Web Data Trigger']);
		const fields = send.options[0].values;
		expect(fields.map((f) => [f.name, f.displayName])).toEqual([
			['url', 'Trigger Production URL'],
			['token', 'Trigger Token'],
			['events', 'Events'],
		]);
		expect(fields[1].typeOptions).toEqual({ password: true });
		const events = fields[2];
		expect(events.options.map((o) => o.value)).toEqual(job === 'agent' ? ['action', 'cancelled', 'completed', 'failed', 'started'] : ['completed', 'failed', 'page', 'started']);
		expect(events.default).toEqual(job === 'agent' ? ['completed', 'failed', 'cancelled'] : ['page', 'completed', 'failed']);
	});
});
