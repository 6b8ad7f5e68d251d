'use strict';
// "Resume on Completion Webhook" of Agent, Crawl and Batch Scrape → Run and Wait: one field (same
// name, values and default for saved workflows), one mechanism (jobs/resume.ts) with one waiter
// per job kind, and what each waiter asks the service for. Build first.
const { WebData } = require('../../dist/nodes/WebData/WebData.node');
// Each Run and Wait names its own waiter (the operation's `waiter`).
const WAITERS = {
	agent: require('../../dist/nodes/WebData/resources/agent/runAndWait').runAndWait.waiter,
	crawl: require('../../dist/nodes/WebData/resources/crawl/runAndWait').runAndWait.waiter,
	batchScrape: require('../../dist/nodes/WebData/resources/batchScrape/runAndWait').runAndWait.waiter,
};
const { refuseOwnWebhook } = require('../../dist/nodes/WebData/resources/crawl/crawlAndBatch');

const properties = new WebData().description.properties;
const node = { id: 'n', name: 'Web Data', type: 'n8n-nodes-webdata.webData', typeVersion: 1, position: [0, 0], parameters: {} };

test('Agent, Crawl and Batch Scrape → Run and Wait show the same Wait Method field (default Poll) and a notice under the webhook choice', () => {
	for (const resource of ['agent', 'crawl', 'batchScrape']) {
		const shown = (p) => p.displayOptions?.show?.resource?.includes(resource) && p.displayOptions.show.operation?.includes('runAndWait');
		const field = properties.find((p) => p.name === 'waitMethod' && shown(p));
		expect([resource, field?.default, field?.options.map((o) => o.value)]).toEqual([resource, 'poll', ['poll', 'completionWebhook']]);
		const notice = properties.find((p) => p.name === 'completionWebhookNotice' && shown(p));
		expect([resource, notice?.type, notice?.displayOptions.show.waitMethod]).toEqual([resource, 'notice', ['completionWebhook']]);
	}
	// Only Run and Wait of those three has it.
	const others = properties.filter((p) => p.name === 'waitMethod' && !(p.displayOptions.show.operation ?? []).includes('runAndWait'));
	expect(others).toEqual([]);
});

test('one waiter per Run and Wait that can wait for a webhook, and no other operation has one; crawl and batch ask for their end events only (completed, failed) and accept the end types of their own prefix', () => {
	expect(Object.keys(WAITERS).sort()).toEqual(['agent', 'batchScrape', 'crawl']);
	expect(WAITERS.agent.events).toEqual(['completed', 'failed', 'cancelled']);
	expect(WAITERS.crawl).toMatchObject({ noun: 'crawl', runningStatus: 'scraping', events: ['completed', 'failed'], endEventTypes: ['crawl.completed', 'crawl.failed', 'crawl.cancelled'] });
	expect(WAITERS.batchScrape).toMatchObject({ noun: 'batch scrape', runningStatus: 'scraping', events: ['completed', 'failed'], endEventTypes: ['batch_scrape.completed', 'batch_scrape.failed', 'batch_scrape.cancelled'] });
	for (const waiter of Object.values(WAITERS)) expect(waiter.events).not.toContain('page');
	const withWaiter = [];
	for (const name of require('fs').readdirSync(require('path').join(__dirname, '../../dist/nodes/WebData/resources'))) {
		const dir = require('path').join(__dirname, '../../dist/nodes/WebData/resources', name);
		if (!require('fs').statSync(dir).isDirectory()) continue;
		const resource = Object.values(require(dir)).find((v) => v && typeof v === 'object' && v.operations);
		for (const [op, operation] of Object.entries(resource.operations)) if (operation.waiter) withWaiter.push(`${name}.${op}`);
	}
	expect(withWaiter.sort()).toEqual(['agent.runAndWait', 'batchScrape.runAndWait', 'crawl.runAndWait']);
});

test('an own Webhook URL cannot go with the resume webhook: refused naming the field', () => {
	expect(() => refuseOwnWebhook(node, { url: 'https://example.com' }, 0)).not.toThrow();
	expect(() => refuseOwnWebhook(node, { webhook: { url: 'https://hooks.example.com/x' } }, 0)).toThrow(
		/^Webhook URL "https:\/\/hooks.example.com\/x" is not valid: it cannot be used with Wait Method "Resume on Completion Webhook"/,
	);
});
