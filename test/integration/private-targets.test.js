'use strict';
/**
 * The private-host rule on every URL that leaves n8n for the service to call (nodes/FACTS.md
 * "Trigger"): Crawl's and Batch Scrape's Webhook URL, the Trigger Production URL of Send Events to
 * Web Data Trigger (Crawl, Batch Scrape, Agent), Monitor Create's and Update's Webhook URL. With a
 * service on a public host, a local or private address in any spelling is refused naming the field,
 * before anything is sent; a self-hosted service (on a private host) may call them. No message
 * shows a token. The service is the strict fake API, reached under a public-looking name
 * (test/helpers/public-host.js). Build first: `npm run build`.
 */
const { runWorkflow } = require('../helpers/workflow-runner');
const { webDataWorkflow, WEB_DATA } = require('../helpers/workflows');
const { useFakeApi } = require('../helpers/resource-suite');
const { publicAlias } = require('../helpers/public-host');
const { CANARY_KEY, record } = require('../helpers/canary');

jest.setTimeout(30000);

const api = useFakeApi();
const TOKEN = 'tok-NEVER-SHOWN-4242';
const MONITOR = '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a';

/**
 * Loopback, each as a user may type it, on a closed port: were one sent (the old rule let the first
 * three through), the fake's deliveries would stay on this machine. Other private spellings: test/unit/private-host.test.js.
 */
const PRIVATE = [
	'http://[::ffff:127.0.0.1]:9/webhook/a/webhook',
	'http://localhost.:9/webhook/a/webhook',
	'http://foo.localhost.:9/hook',
	'http://127.0.0.1.:9/hook',
	'http://[::ffff:7f00:2]:9/hook',
];

async function run(parameters, { baseUrl = publicAlias(api.url), items = [{ json: {} }] } = {}) {
	const result = await runWorkflow(webDataWorkflow(parameters, items), { credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl, webhookSecret: '' } } });
	record(result.error);
	if (result.runData[WEB_DATA]) record(result.items(WEB_DATA));
	return result;
}

const trigger = (url) => ({ sendToTrigger: { trigger: { url, token: TOKEN, events: ['completed'] } } });

/** Field → the node parameters that send `url` for the service to call. */
const FIELDS = [
	['Crawl → Start, Webhook URL', 'Webhook URL', (url) => ({ resource: 'crawl', operation: 'start', url: 'https://docs.example.com/', pageLimit: 1, options: { webhookUrl: url } })],
	['Batch Scrape → Start, Webhook URL', 'Webhook URL', (url) => ({ resource: 'batchScrape', operation: 'start', url: 'https://example.com/a', options: { webhookUrl: url } })],
	['Crawl → Start, Send Events to Web Data Trigger', 'Trigger Production URL', (url) => ({ resource: 'crawl', operation: 'start', url: 'https://docs.example.com/', pageLimit: 1, options: trigger(url) })],
	['Batch Scrape → Start, Send Events to Web Data Trigger', 'Trigger Production URL', (url) => ({ resource: 'batchScrape', operation: 'start', url: 'https://example.com/a', options: trigger(url) })],
	['Agent → Start, Send Events to Web Data Trigger', 'Trigger Production URL', (url) => ({ resource: 'agent', operation: 'start', prompt: 'Find prices', options: trigger(url) })],
	[
		'Monitor → Create, Webhook URL',
		'Webhook URL',
		(url) => ({
			resource: 'monitor',
			operation: 'create',
			name: 'Prices',
			scheduleMode: 'text',
			scheduleText: 'hourly',
			targetsSource: 'fields',
			targets: { scrape: [{ urls: 'https://example.com/pricing' }] },
			options: { webhook: { settings: { url } } },
		}),
	],
	['Monitor → Update, Webhook URL', 'Webhook URL', (url) => ({ resource: 'monitor', operation: 'update', monitorId: { __rl: true, mode: 'id', value: MONITOR }, updateFields: { webhook: { settings: { url } } } })],
];

describe.each(FIELDS)('%s', (_name, field, parameters) => {
	test('a public service is never handed a local or private address, in any spelling: refused naming the field, nothing sent', async () => {
		for (const url of PRIVATE) {
			const result = await run(parameters(url));
			const host = new URL(url).hostname;
			expect([url, result.status]).toEqual([url, 'error']);
			expect(result.error.message).toMatch(new RegExp(`^${field} ".*" is not valid: it points to "${host.replace(/[[\].]/g, '\\$&')}", a local or private address, and the service at ${'api.webdata.invalid'.replace(/\./g, '\\.')} does not call such addresses`));
			expect(result.error.description).toMatch(/Nothing was sent to the service/);
			expect(`${result.error.message}\n${result.error.description}`).not.toContain(TOKEN); // the error object also carries the node's parameters (n8n's)
			expect([url, api.log]).toEqual([url, []]);
		}
	});

	test('the same address goes out to a self-hosted service on a private host, which may reach it', async () => {
		const result = await run(parameters(PRIVATE[1]), { baseUrl: api.url });
		expect(api.log.length).toBeGreaterThan(0);
		expect(api.log[0].method).toMatch(/POST|PATCH/);
		expect(JSON.stringify(api.log[0].body)).toContain('localhost.:9');
		record(result);
	});
});

test('the public-looking Base URL reaches the fake: a public webhook address is sent there', async () => {
	const result = await run(FIELDS[0][2]('http://hooks.webdata.invalid:9/crawl'));
	expect(result.status).toBe('success');
	expect(api.requests({ method: 'POST', path: '/v2/crawl' })[0].body.webhook).toEqual({ url: 'http://hooks.webdata.invalid:9/crawl' });
});

describe('no message shows a token', () => {
	const withToken = `https://n8n.example.com/webhook/a/webhook?token=${TOKEN}`;

	test.each([
		['Crawl → Run and Wait (Resume on Completion Webhook) with a Webhook URL', { resource: 'crawl', operation: 'runAndWait', url: 'https://docs.example.com/', waitMethod: 'completionWebhook', options: { webhookUrl: withToken } }, /^Webhook URL ".*token=\[hidden\]" is not valid: it cannot be used with Wait Method/],
		['Batch Scrape → Run and Wait (Resume) with a Webhook URL', { resource: 'batchScrape', operation: 'runAndWait', url: 'https://example.com/a', waitMethod: 'completionWebhook', options: { webhookUrl: withToken } }, /^Webhook URL ".*token=\[hidden\]" is not valid: it cannot be used with Wait Method/],
		['Crawl → Run and Wait (Resume) sending to a trigger whose URL holds the token', { resource: 'crawl', operation: 'runAndWait', url: 'https://docs.example.com/', waitMethod: 'completionWebhook', options: { sendToTrigger: { trigger: { url: withToken } } } }, /^Send Events to Web Data Trigger ".*token=\[hidden\]" is not valid: it cannot be used with Wait Method/],
		['Agent → Run and Wait (Resume) sending to a trigger whose URL holds the token', { resource: 'agent', operation: 'runAndWait', prompt: 'Find prices', waitMethod: 'completionWebhook', options: { sendToTrigger: { trigger: { url: withToken } } } }, /^Send Events to Web Data Trigger ".*token=\[hidden\]" is not valid: it cannot be used with Wait Method/],
		['a Trigger Production URL without a scheme', { resource: 'crawl', operation: 'start', url: 'https://docs.example.com/', options: { sendToTrigger: { trigger: { url: `n8n.example.com/webhook/a/webhook?token=${TOKEN}` } } } }, /^Trigger Production URL ".*token=\[hidden\]" is not valid: it must be an absolute/],
		['the trigger\'s Test URL with its token', { resource: 'crawl', operation: 'start', url: 'https://docs.example.com/', options: { sendToTrigger: { trigger: { url: `https://n8n.example.com/webhook-test/a/webhook?token=${TOKEN}` } } } }, /^Trigger Production URL ".*token=\[hidden\]" is not valid: it is the trigger's Test URL/],
		['a Webhook URL beside Send Events to Web Data Trigger', { resource: 'crawl', operation: 'start', url: 'https://docs.example.com/', options: { ...trigger('https://n8n.example.com/webhook/b/webhook'), webhookUrl: withToken } }, /^Webhook URL ".*token=\[hidden\]" is not valid: a job sends its events to one place/],
		['Crawl\'s Webhook URL without a scheme', { resource: 'crawl', operation: 'start', url: 'https://docs.example.com/', options: { webhookUrl: `hooks.example.com/x?token=${TOKEN}` } }, /^Webhook URL ".*token=\[hidden\]" is not valid/],
		['Monitor Create\'s Webhook URL without a scheme', { ...FIELDS[5][2](`hooks.example.com/x?secret=${TOKEN}`) }, /^Webhook URL ".*secret=\[hidden\]" is not valid/],
	])('%s', async (_name, parameters, message) => {
		const result = await run(parameters, { baseUrl: api.url });
		expect(result.status).toBe('error');
		expect(result.error.message).toMatch(message);
		expect(`${result.error.message}\n${result.error.description}`).not.toContain(TOKEN); // the error object also carries the node's parameters (n8n's)
		expect(api.log).toEqual([]);
	});
});
