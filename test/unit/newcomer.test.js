'use strict';
// Issue 30: what a newcomer meets in the first ten minutes, held in the node descriptions. The editor
// side (the same panels in n8n 2.41.1) is checked by test/e2e/lib/editor.js.
const { NodeHelpers, Workflow } = require('n8n-workflow');
const { WebData } = require('../../dist/nodes/WebData/WebData.node');
const { WebDataTrigger } = require('../../dist/nodes/WebDataTrigger/WebDataTrigger.node');
const { WebDataApi } = require('../../dist/credentials/WebDataApi.credentials');
const { customBodyOption } = require('../../dist/nodes/WebData/fields/customBody');

const webData = new WebData().description;
const trigger = new WebDataTrigger().description;

/** The node as the editor holds it right after it is added: its shown parameters with their defaults. */
function added(description, set = {}) {
	const node = { name: 'N', type: `n8n-nodes-webdata.${description.name}`, typeVersion: 1, parameters: {}, position: [0, 0] };
	node.parameters = NodeHelpers.getNodeParameters(description.properties, set, true, false, node, description);
	const shown = description.properties.filter((p) => NodeHelpers.displayParameter(node.parameters, p, node, description));
	return { node, shown };
}

/** The canvas subtitle, evaluated by n8n's own expression code for a node with these parameters. */
function subtitle(type, parameters) {
	const description = type.description;
	const { node } = added(description, parameters);
	const nodeTypes = { getByName: () => type, getByNameAndVersion: () => type, getKnownTypes: () => ({}) };
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	return workflow.expression.getSimpleParameterValue(node, description.subtitle, 'internal', {});
}

test('a new Web Data node, and its AI Agent tool, opens on Scrape URL (Parse needs a file a tool call never has)', () => {
	const { node, shown } = added(webData);
	expect([node.parameters.resource, node.parameters.operation]).toEqual(['scrape', 'scrapeUrl']);
	expect(shown.map((p) => p.name)).toContain('url');
	expect(shown.map((p) => p.name)).not.toContain('binaryPropertyName');
});

test('canvas subtitles read like the panel, in title case: "Scrape URL", "Agent: Run and Wait", the chosen events by name', () => {
	expect(subtitle(new WebData(), { resource: 'scrape', operation: 'scrapeUrl' })).toBe('Scrape URL');
	expect(subtitle(new WebData(), { resource: 'agent', operation: 'runAndWait' })).toBe('Agent: Run and Wait');
	expect(subtitle(new WebData(), { resource: 'parse', operation: 'parseFile' })).toBe('Parse File');
	expect(subtitle(new WebData(), { resource: 'crawl', operation: 'runAndWait' })).toBe('Crawl: Run and Wait');
	expect(subtitle(new WebDataTrigger(), { source: 'monitor', events: ['monitor.page', 'monitor.check.completed'] })).toBe('Page Checked, Check Completed');
	expect(subtitle(new WebDataTrigger(), { source: 'jobs', jobEvents: ['crawl.page', 'agent.completed'] })).toBe('Crawl Page, Agent Completed');
	// every operation has a subtitle made of the names the panel shows; none shows an internal value
	for (const resource of webData.properties.find((p) => p.name === 'resource').options) {
		const selector = webData.properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource.value));
		for (const op of selector.options) {
			const text = subtitle(new WebData(), { resource: resource.value, operation: op.value });
			const want = selector.options.length === 1 ? op.name : `${resource.name}: ${op.name}`;
			expect({ op: `${resource.value}.${op.value}`, text }).toEqual({ op: `${resource.value}.${op.value}`, text: want });
			expect({ op: `${resource.value}.${op.value}`, text }).toEqual({ op: `${resource.value}.${op.value}`, text: expect.stringMatching(/^[A-Z][A-Za-z]*( [A-Z][A-Za-z]*)*(: [A-Z][A-Za-z]*( [A-Za-z(),]+)*)?$/) });
			expect({ op: op.value, camelCase: /\b[a-z]+[A-Z]/.test(text) }).toEqual({ op: op.value, camelCase: false });
		}
	}
});

test('the node creator finds Web Data for "parse" and "parse pdf" (codex alias)', () => {
	const codex = require('../../dist/nodes/WebData/WebData.node.json');
	const aliases = codex.alias.map((a) => a.toLowerCase());
	expect(aliases).toEqual(expect.arrayContaining(['parse', 'parse pdf']));
});

test('required fields come filled in: Monitor Name (trigger) and Monitor Create\'s Name and Schedule; the same schedule in both', () => {
	const create = added(webData, { resource: 'monitor', operation: 'create' });
	const listening = added(trigger, { source: 'monitor', connection: 'create' });
	expect(create.node.parameters.name).toBe('={{ $workflow.name }}');
	expect(listening.node.parameters.monitorName).toBe('={{ $workflow.name }}');
	expect(create.node.parameters.scheduleText).toBe('every 30 minutes');
	expect(create.node.parameters.scheduleText).toBe(listening.node.parameters.scheduleText);
	const cron = added(webData, { resource: 'monitor', operation: 'create', scheduleMode: 'cron' });
	const cronTrigger = added(trigger, { source: 'monitor', connection: 'create', scheduleType: 'cron' });
	expect(cron.node.parameters.cron).toBe(cronTrigger.node.parameters.cron);
	// the one required field left empty (URLs) is named in the panel, since n8n marks none
	expect(listening.shown.filter((p) => p.type === 'notice').map((p) => p.displayName)).toContain('Add the pages to watch in URLs below: the test button stays greyed out until then');
	const filled = added(trigger, { source: 'monitor', connection: 'create', urls: 'https://example.com/pricing' });
	expect(filled.shown.map((p) => p.name)).not.toContain('urlsMissingNotice');
	for (const { node, shown } of [create, listening]) {
		for (const p of shown.filter((f) => f.required && f.type === 'string')) {
			if (['urls'].includes(p.name)) continue; // what to watch is the user's choice
			expect({ field: p.name, value: node.parameters[p.name] }).toEqual({ field: p.name, value: expect.stringMatching(/\S/) });
		}
	}
});

test('trying the trigger says when the first event comes: beside the fields and in n8n\'s trigger panel', () => {
	for (const connection of ['create', 'attach']) {
		const notice = added(trigger, { source: 'monitor', connection }).shown.find((p) => p.type === 'notice');
		expect(notice.displayName).toMatch(/first event comes at the (monitor's )?next scheduled check, or at once with Run a Check Now/);
	}
	expect(trigger.triggerPanel.header).toMatch(/test/i);
	for (const text of Object.values(trigger.triggerPanel.executionsHelp)) expect(text).toMatch(/next scheduled check.*30 minutes.*Run a Check Now When Listening/);
	const run = trigger.properties.find((p) => p.name === 'runCheckWhenListening');
	expect(run.hint).toMatch(/^Off: a test waits for the next scheduled check/);
});

test('the credential\'s fields explain themselves under the field (hint), not only on hover', () => {
	for (const property of new WebDataApi().properties) {
		expect({ field: property.name, hint: property.hint }).toEqual({ field: property.name, hint: expect.stringMatching(/\w/) });
	}
	// n8n's credential Test shows only its network code for an unreachable Base URL; the hint says what it means
	expect(new WebDataApi().properties.find((p) => p.name === 'baseUrl').hint).toMatch(/ECONNREFUSED .*nothing answers at this address/);
});

test('Parse File shows Options, PDF Options and Advanced Options; no Per-Page Output beside Output\'s "One Item per Page"', () => {
	const { shown } = added(webData, { resource: 'parse', operation: 'parseFile' });
	expect(shown.filter((p) => p.type === 'collection').map((p) => p.displayName)).toEqual(['PDF Options', 'Options', 'Advanced Options']);
	const pdf = shown.find((p) => p.name === 'pdfOptions');
	expect(pdf.options.map((o) => o.displayName)).not.toContain('Per-Page Output');
	expect(shown.find((p) => p.name === 'output').options.map((o) => o.name)).toContain('One Item per Page');
});

test('Custom Body Fields: a label n8n does not cut, and a hint true for every operation', () => {
	expect(customBodyOption.displayName.length).toBeLessThanOrEqual(20);
	expect(customBodyOption.hint).not.toMatch(/scrapeOptions/);
});

test('Resume on Completion Webhook: a short notice, and a Max Wait hint without n8n Cloud\'s 300 s (the execution is paused)', () => {
	for (const resource of ['agent', 'crawl', 'batchScrape']) {
		const poll = added(webData, { resource, operation: 'runAndWait', waitMethod: 'poll' }).shown;
		const webhook = added(webData, { resource, operation: 'runAndWait', waitMethod: 'completionWebhook' }).shown;
		expect({ resource, hint: poll.find((p) => p.name === 'maxWait').hint }).toEqual({ resource, hint: expect.stringMatching(/300/) });
		expect({ resource, hint: webhook.find((p) => p.name === 'maxWait').hint }).toEqual({ resource, hint: expect.stringMatching(/paused.*does not apply/) });
		const notice = webhook.find((p) => p.name === 'completionWebhookNotice');
		expect({ resource, short: notice.displayName.length <= 220 }).toEqual({ resource, short: true });
	}
});

test('a first Search or Crawl is cheap, and n8n\'s "Limit of N items reached … tweak Return All or Limit" never shows under them', () => {
	// n8n 2.41's editor adds that hint under any node whose parameter `limit` equals its output count
	// (workflows.store: parameters.limit && items.length === parameters.limit); these have no Return All.
	const fields = (resource, operation) => added(webData, { resource, operation }).shown;
	for (const [resource, operation] of [['search', 'search'], ['crawl', 'start'], ['crawl', 'runAndWait']]) {
		expect({ resource, operation, limit: fields(resource, operation).some((p) => p.name === 'limit') }).toEqual({ resource, operation, limit: false });
	}
	const search = fields('search', 'search').find((p) => p.name === 'maxResults');
	expect([search.displayName, search.default]).toEqual(['Limit', 5]);
	const crawl = fields('crawl', 'runAndWait').find((p) => p.name === 'pageLimit');
	expect([crawl.displayName, crawl.default]).toEqual(['Page Limit', 10]);
	expect(crawl.hint).toMatch(/costs credits/);
});

test('action names in the node creator read like n8n\'s short commands, without articles ("Scrape URL", not "Scrape a URL")', () => {
	const actions = webData.properties.filter((p) => p.name === 'operation').flatMap((p) => p.options.map((o) => o.action));
	expect(actions.length).toBeGreaterThan(40);
	for (const action of actions) expect({ action, article: /\b(a|an|the)\b/i.test(action) }).toEqual({ action, article: false });
	expect(actions).toEqual(expect.arrayContaining(['Scrape URL', 'Parse file', 'Create monitor', 'Run agent and wait for result']));
});

// Issue 36.4: the frictions a walk of the editor found in the triggers.
describe('triggers, as a newcomer meets them', () => {
	const { WebDataPollTrigger } = require('../../dist/nodes/WebDataPollTrigger/WebDataPollTrigger.node');
	const poll = new WebDataPollTrigger().description;

	test('the Poll Trigger\'s canvas subtitle names the chosen events, not their internal values', () => {
		expect(subtitle(new WebDataPollTrigger(), { events: ['monitor.check.completed'] })).toBe('Check Completed');
		expect(subtitle(new WebDataPollTrigger(), { events: ['monitor.page', 'monitor.check.completed'] })).toBe('Page Checked, Check Completed');
	});

	test('the Poll Trigger\'s Monitor list says how to get a monitor when there is none', () => {
		const monitor = poll.properties.find((p) => p.name === 'monitor');
		expect(monitor.hint).toMatch(/No monitor in the list\? Create one with a Web Data node \(Monitor → Create\)/);
	});

	test('job events: the test says which URL a job sends to while testing, and no notice says a test registers anything', () => {
		expect(trigger.triggerPanel.header).toBe('A test waits for one event from the service');
		expect(trigger.triggerPanel.executionsHelp.inactive).toContain("this trigger's <b>Test URL</b>");
		const notice = trigger.properties.find((p) => p.name === 'jobsNotice');
		expect(notice.displayName).toContain('Test URL while testing, Production once published');
		expect(notice.displayName).not.toMatch(/with this Production URL/);
	});
});

// Issue 36.4: one vendor-neutral wording where the package speaks of the service; a short Base URL hint.
test('the credential names no vendor key prefix or site, and its Base URL hint fits two lines', () => {
	const credential = new WebDataApi();
	const text = JSON.stringify({ properties: credential.properties, test: credential.test, doc: credential.documentationUrl });
	expect(text).not.toMatch(/\bfc-/);
	expect(credential.documentationUrl).not.toMatch(/firecrawl/);
	expect(credential.documentationUrl).toMatch(/#get-an-api-key-and-add-the-credential$/);
	const base = credential.properties.find((p) => p.name === 'baseUrl');
	expect(base.hint.length).toBeLessThanOrEqual(140);
});

test('every node\'s credential documentation is the package\'s own credential section', () => {
	for (const file of ['WebData/WebData.node.json', 'WebDataTrigger/WebDataTrigger.node.json', 'WebDataPollTrigger/WebDataPollTrigger.node.json']) {
		const codex = require(`../../dist/nodes/${file}`);
		expect({ file, urls: codex.resources.credentialDocumentation.map((d) => d.url) }).toEqual({ file, urls: [new WebDataApi().documentationUrl] });
	}
});
