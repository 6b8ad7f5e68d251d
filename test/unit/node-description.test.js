'use strict';
// Whole-node checks of the Web Data description: every list mode is wired, every resource has operations.
const { WebData } = require('../../dist/nodes/WebData/WebData.node');

const node = new WebData();
const properties = node.description.properties;

test('every "From List" mode names a listSearch method the node registers', () => {
	const methods = [];
	for (const property of properties) {
		for (const mode of property.modes ?? []) {
			if (mode.type === 'list') methods.push([property.name, mode.typeOptions?.searchListMethod]);
		}
	}
	expect(methods.length).toBeGreaterThan(0);
	for (const [name, method] of methods) {
		expect({ name, registered: typeof node.methods.listSearch[method] }).toEqual({ name, registered: 'function' });
	}
	expect(methods).toContainEqual(['sessionId', 'searchInteractSessions']);
});

test('every resource offers at least one operation, and its default is one of them', () => {
	// n8n cannot load a node whose operation list is empty (it reads the last option's name).
	const resources = properties.find((p) => p.name === 'resource').options.map((o) => o.value);
	for (const resource of resources) {
		const selector = properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource));
		expect({ resource, count: selector?.options?.length > 0 }).toEqual({ resource, count: true });
		expect(selector.options.map((o) => o.value)).toContain(selector.default);
	}
});

test('the codex puts the node in the regular categories only (an "AI" subcategory hides its actions in the node creator)', () => {
	// Seen in the real editor (n8n 2.41.1): with categories [..., "AI"] and subcategories {AI: ["Tools"]}
	// the "Web Data" entry listed only the trigger's events. n8n makes the AI tool variant by itself
	// because the node is usableAsTool.
	const codex = require('../../dist/nodes/WebData/WebData.node.json');
	expect(codex.categories).not.toContain('AI');
	expect(codex.subcategories).toBeUndefined();
	expect(node.description.usableAsTool).toBe(true);
});

test('the node creator\'s one "Web Data" entry says what the node does: it shows the trigger\'s description', () => {
	// n8n 2.41.1 editor (useActionsGeneration, generateMergedNodesAndActions in n8n-editor-ui's dist):
	// a trigger whose name minus "Trigger" is an action node's name is merged into that node's entry,
	// and the entry's description becomes the trigger's. The e2e screenshots assert the shown text.
	const { WebDataTrigger } = require('../../dist/nodes/WebDataTrigger/WebDataTrigger.node');
	const trigger = new WebDataTrigger().description;
	expect(trigger.name.replace('Trigger', '')).toBe(node.description.name); // so the editor merges them
	const shown = trigger.description;
	for (const what of [/scrape/i, /search/i, /crawl/i, /\bPDF/, /parse/i, /Markdown/, /agent/i, /page changes/i]) {
		expect({ shown, mentions: what.test(shown) }).toEqual({ shown, mentions: true });
	}
	expect(shown.length).toBeLessThanOrEqual(160);
});

// ---- Issue 17 (points 4-6): one vocabulary, the n8n panel order, words for people ----------------
const { WebDataTrigger } = require('../../dist/nodes/WebDataTrigger/WebDataTrigger.node');
const { NodeHelpers } = require('n8n-workflow');

const triggerProperties = new WebDataTrigger().description.properties;

/**
 * Every parameter at any depth: {node, path, property, top}; path like "options.scrapeOptions.maxAge",
 * top the top-level parameter it is in (for its resource).
 */
function walk(props, nodeName, prefix = '', top = undefined) {
	const out = [];
	for (const property of props) {
		const path = prefix ? `${prefix}.${property.name}` : property.name;
		const owner = top ?? property;
		out.push({ node: nodeName, path, property, top: owner });
		if (property.type === 'collection') out.push(...walk(property.options ?? [], nodeName, path, owner));
		if (property.type === 'fixedCollection') {
			for (const group of property.options ?? []) out.push(...walk(group.values ?? [], nodeName, `${path}.${group.name}`, owner));
		}
	}
	return out;
}
const everything = [...walk(properties, 'webData'), ...walk(triggerProperties, 'webDataTrigger')];

/** The operations of the action node, as [resource, operation]. */
function operations() {
	const resources = properties.find((p) => p.name === 'resource').options.map((o) => o.value);
	return resources.flatMap((resource) =>
		properties
			.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource))
			.options.map((o) => [resource, o.value]),
	);
}

/**
 * Top-level fields of one operation in panel order (the regular node; the tool-only fields excluded),
 */
function panel(resource, operation) {
	return properties.filter((p) => {
		const show = p.displayOptions?.show ?? {};
		if (show['@tool'] && !show['@tool'].includes(false)) return false;
		if (p.name === 'resource' || p.name === 'operation') return false;
		return (!show.resource || show.resource.includes(resource)) && (!show.operation || show.operation.includes(operation)) && !!show.resource;
	});
}

test('every "Add Option" button reads the same: each collection\'s placeholder is "Add Option" ("Add Field" / "Add Filter" for those)', () => {
	const collections = everything.filter((e) => e.property.type === 'collection');
	expect(collections.length).toBeGreaterThan(20);
	for (const { node, path, property } of collections) {
		const want = property.name === 'updateFields' ? 'Add Field' : property.name === 'filters' ? 'Add Filter' : 'Add Option';
		expect({ node, path, placeholder: property.placeholder }).toEqual({ node, path, placeholder: want });
	}
});

test('in every operation the option collections come after the plain fields (the n8n panel order)', () => {
	let checked = 0;
	for (const [resource, operation] of operations()) {
		const fields = panel(resource, operation);
		const firstGroup = fields.findIndex((p) => p.type === 'collection');
		if (firstGroup < 0) continue;
		checked++;
		const after = fields.slice(firstGroup).filter((p) => p.type !== 'collection').map((p) => p.name);
		expect({ resource, operation, plainAfterACollection: after }).toEqual({ resource, operation, plainAfterACollection: [] });
	}
	expect(checked).toBeGreaterThan(15);
	// What the issue saw: Crawl put its option groups between Limit, Formats and Max Wait.
	const crawl = panel('crawl', 'runAndWait').map((p) => p.displayName);
	expect(crawl.indexOf('Max Wait (Seconds)')).toBeLessThan(crawl.indexOf('Options'));
	expect(crawl.indexOf('Formats')).toBeLessThan(crawl.indexOf('Options'));
	expect(crawl.slice(-2)).toEqual(['Options', 'Scrape Options']);
	const trigger = triggerProperties.map((p) => p.type);
	expect(trigger.indexOf('collection')).toBe(trigger.length - 1);
});

test('no two option collections of one operation share a display name, and Scrape URL\'s two groups say what sets them apart', () => {
	for (const [resource, operation] of operations()) {
		const names = panel(resource, operation).filter((p) => p.type === 'collection').map((p) => p.displayName);
		expect({ resource, operation, names }).toEqual({ resource, operation, names: [...new Set(names)] });
	}
	const scrape = panel('scrape', 'scrapeUrl').filter((p) => p.type === 'collection');
	expect(scrape.map((p) => p.displayName)).toEqual(['Scrape Options', 'Options']);
	expect(scrape[1].description).toMatch(/Scrape Options/);
});

test('Custom Body Fields sits in the same place in every operation: the collection "Options" ("Update Fields" on an update)', () => {
	const homes = [];
	for (const [resource, operation] of operations()) {
		for (const p of panel(resource, operation)) {
			if (p.type !== 'collection' || !(p.options ?? []).some((o) => o.name === 'customBody')) continue;
			homes.push([`${resource}.${operation}`, p.name, p.displayName]);
		}
	}
	expect(homes.length).toBeGreaterThanOrEqual(15);
	for (const [op, name, displayName] of homes) {
		const update = op.endsWith('.update');
		expect({ op, name, displayName }).toEqual({ op, name: update ? 'updateFields' : 'options', displayName: update ? 'Update Fields' : 'Options' });
	}
});

test('display names carry no abbreviations or bare "(JSON)": no "(Ms)", "(Tbs)"; "(JSON)" only on a field that shows an example', () => {
	for (const { node, path, property } of everything) {
		const name = property.displayName ?? '';
		expect({ node, path, name, abbreviated: /\((Ms|Tbs|Sec|Secs)\)/i.test(name) }).toEqual({ node, path, name, abbreviated: false });
		if (/\(JSON\)/.test(name)) {
			const example = [property.default, property.placeholder, property.hint].some((t) => typeof t === 'string' && /[[{]\s*"/.test(t));
			expect({ node, path, name, example }).toEqual({ node, path, name, example: true });
		}
	}
	// the browser actions show an example under the field
	const actions = everything.filter((e) => e.path.endsWith('scrapeOptions.actions'));
	expect(actions.length).toBeGreaterThan(0);
	for (const { property } of actions) expect(property.hint).toMatch(/\[\{"type": "click"/);
	// millisecond fields say it in words, with a reading aid where the number is large
	const maxAge = everything.filter((e) => e.property.name === 'maxAge');
	expect(maxAge.length).toBeGreaterThan(0);
	for (const { property } of maxAge) {
		expect(property.displayName).toBe('Max Age (Milliseconds)');
		expect(property.hint).toMatch(/= 1 hour/);
	}
});

test('every resource locator with a "From List" mode opens on it (the same for every ID)', () => {
	// The tool variant's copy opens By ID holding the model's $fromAI expression (tool-ready.test.js).
	const forModel = (p) => p.displayOptions?.show?.['@tool']?.includes(true) && /\$fromAI\(/.test(p.default.value);
	const locators = everything.filter((e) => e.property.type === 'resourceLocator' && !forModel(e.top));
	expect(locators.length).toBeGreaterThan(10);
	for (const { node, path, property } of locators) {
		const hasList = property.modes.some((m) => m.type === 'list');
		expect({ node, path, mode: property.default.mode }).toEqual({ node, path, mode: hasList ? 'list' : 'id' });
	}
	expect(everything.find((e) => e.path === 'jobId').property.default.mode).toBe('list'); // Agent Get
});

test('the trigger\'s events read as plain words, and the node creator gets "On …" items from them', () => {
	const events = triggerProperties.find((p) => p.name === 'events');
	const jobEvents = triggerProperties.find((p) => p.name === 'jobEvents');
	for (const option of [...events.options, ...jobEvents.options]) {
		expect({ name: option.name, technical: /[._()]/.test(option.name) }).toEqual({ name: option.name, technical: false });
		// Issue 30: plain words, no service internals (event names, open-source builds)
		expect({ value: option.value, description: option.description }).toEqual({ value: option.value, description: expect.not.stringMatching(/event "|[a-z]\.[a-z]|open-source/) });
	}
	// n8n 2.41 editor (useActionsGeneration): the creator's trigger items come from the first parameter
	// shown as "Event", "Events" or "Trigger On" — its option's `action`, else "On " + the lower-cased
	// name — and an item sets that one parameter. That is Source ("Trigger On"), so job events are
	// findable too (issue 22: before, only the two monitor events were listed).
	const source = triggerProperties.find((p) => p.name === 'source');
	const creator = triggerProperties.find((p) => ['event', 'events', 'trigger on'].includes(p.displayName.toLowerCase()));
	expect(creator).toBe(source);
	expect(source.options.map((o) => o.action)).toEqual(['On monitor page checked or check completed', 'On crawl, batch scrape or agent job event (page scraped, job ended)']);
	// Monitor → Create's webhook offers the same two events under the same names
	const webhookEvents = everything.find((e) => e.path === 'options.webhook.settings.events').property;
	expect(webhookEvents.options.map((o) => [o.value, o.name]).sort()).toEqual(events.options.map((o) => [o.value, o.name]).sort());
});

test('the trigger\'s notices are short (one or two lines), and the costly default says that it costs credits', () => {
	const notices = triggerProperties.filter((p) => p.type === 'notice');
	expect(notices.length).toBeGreaterThan(4);
	for (const n of notices) expect({ name: n.name, length: n.displayName.length <= 180 }).toEqual({ name: n.name, length: true });
	const run = triggerProperties.find((p) => p.name === 'runCheckWhenListening');
	expect(run.default).toBe(false);
	expect(run.hint).toMatch(/costs credits/);
});

test('trigger: "Run a Check Now When Listening" is off, and the panel shows one notice per monitor connection', () => {
	const trig = new WebDataTrigger().description;
	const shownFor = (connection) => {
		const node = { name: 'T', type: 'n8n-nodes-webdata.webDataTrigger', typeVersion: 1, parameters: {}, position: [0, 0] };
		node.parameters = NodeHelpers.getNodeParameters(trig.properties, { source: 'monitor', connection, urls: 'https://example.com/pricing' }, true, false, node, trig);
		return { node, fields: trig.properties.filter((p) => NodeHelpers.displayParameter(node.parameters, p, node, trig)) };
	};
	for (const connection of ['create', 'attach']) {
		const shown = shownFor(connection);
		expect(shown.node.parameters.runCheckWhenListening).toBe(false);
		const notices = shown.fields.filter((p) => p.type === 'notice');
		expect({ connection, notices: notices.length }).toEqual({ connection, notices: 1 });
		expect(notices[0].displayName).toMatch(/test/i);
		const run = shown.fields.find((p) => p.name === 'runCheckWhenListening');
		expect(run.hint).toMatch(/^Off: .*On: .*costs credits/);
	}
});

test('plain words where numbers or codes were shown: Screenshot Quality says what 0 means; Max Wait\'s hint is a sentence; no "(Tbs)"', () => {
	for (const { property } of everything.filter((e) => e.property.name === 'screenshotQuality')) {
		expect(property.default).toBe(0); // unchanged, see the comment at the field
		expect(property.hint).toMatch(/^0 = the service chooses/);
	}
	for (const { property } of everything.filter((e) => e.property.name === 'maxWait')) {
		expect(property.hint ?? '').not.toMatch(/below that there/);
	}
	const tbs = everything.find((e) => e.path === 'options.tbs').property;
	expect(tbs.displayName).toBe('Custom Time Filter');
	expect(tbs.hint).toMatch(/cdr:1,cd_min:/);
});

/**
 * One name per concept across resources and the trigger: each row is a concept, its expected
 * display name, and where it appears (node + parameter path; a path ending in "*" matches any).
 */
const CONCEPTS = [
	['time zone', 'Time Zone', [['webData', 'timezone'], ['webData', 'updateFields.timezone'], ['webDataTrigger', 'timezone']]],
	['schedule in words', 'Schedule', [['webData', 'scheduleText'], ['webData', 'updateFields.scheduleText'], ['webDataTrigger', 'scheduleText']]],
	['cron schedule', 'Cron Expression', [['webData', 'cron'], ['webData', 'updateFields.cron'], ['webDataTrigger', 'cron']]],
	['how the schedule is given', 'Schedule Type', [['webData', 'scheduleMode'], ['webDataTrigger', 'scheduleType']]],
	['pages a crawl reads', 'Page Limit', [['webData', 'pageLimit', 'crawl'], ['webData', 'targets.crawl.pageLimit'], ['webData', 'updateFields.targets.crawl.pageLimit']]],
	['pages to watch', 'URLs', [['webData', 'targets.scrape.urls'], ['webDataTrigger', 'urls']]],
	['monitor events', 'Events', [['webData', 'options.webhook.settings.events'], ['webDataTrigger', 'events']]],
	['result time range', 'Time Range', [['webData', 'options.timeRange'], ['webData', 'targets.search.searchOptions.searchWindow']]],
	['domains to keep', 'Include Domains', [['webData', 'options.includeDomains', 'search'], ['webData', 'targets.search.searchOptions.includeDomains']]],
	['domains to drop', 'Exclude Domains', [['webData', 'options.excludeDomains', 'search'], ['webData', 'targets.search.searchOptions.excludeDomains']]],
	['country pages are read from', 'Location Country', [['webData', 'scrapeOptions.locationCountry'], ['webData', 'targets.scrape.scrapeOptions.country']]],
	['languages pages are read in', 'Location Languages', [['webData', 'scrapeOptions.locationLanguages'], ['webData', 'targets.scrape.scrapeOptions.languages']]],
	['cached copy age', 'Max Age (Milliseconds)', [['webData', 'scrapeOptions.maxAge'], ['webData', 'targets.scrape.scrapeOptions.maxAge']]],
	['page timeout', 'Timeout (Milliseconds)', [['webData', 'scrapeOptions.timeout'], ['webData', 'targets.crawl.scrapeOptions.timeout']]],
	['how long to wait for a job', 'Max Wait (Seconds)', [['webData', 'maxWait']]],
	['the goal of a monitor', 'Goal', [['webData', 'goal', 'monitor'], ['webDataTrigger', 'goal']]],
];

test.each(CONCEPTS)('one name per concept: %s is "%s" everywhere', (_concept, displayName, places) => {
	for (const [node, path, resource] of places) {
		// the path itself, or the same path inside a group (Monitor → Update's Update Fields, …)
		const found = everything.filter(
			(e) =>
				e.node === node &&
				(e.path === path || e.path.endsWith(`.${path}`)) &&
				(!resource || e.top.displayOptions?.show?.resource?.includes(resource)),
		);
		expect({ node, path, found: found.length > 0 }).toEqual({ node, path, found: true });
		for (const e of found) expect({ node, path: e.path, displayName: e.property.displayName }).toEqual({ node, path: e.path, displayName });
	}
	// Schedule Type offers the same choices under the same names in Monitor → Create and the trigger
	if (displayName === 'Schedule Type') {
		const names = places.map(([node, path]) => everything.find((e) => e.node === node && e.path === path).property.options.map((o) => `${o.value}=${o.name}`).sort());
		expect(names[1]).toEqual(names[0]);
	}
});

// ---- Issue 22 point 3: n8n's UX guidelines (operation names, placeholders, one name per setting, order) ----

test('list operations are named the n8n way, "Get Many …" (name and action); their option values are unchanged', () => {
	const selectors = properties.filter((p) => p.name === 'operation');
	const all = selectors.flatMap((s) => s.options.map((o) => ({ resource: s.displayOptions.show.resource[0], ...o })));
	const LISTS = { 'agent.getMany': 'Get Many', 'monitor.getMany': 'Get Many', 'monitor.getManyChecks': 'Get Many Checks', 'interact.getMany': 'Get Many Sessions', 'crawl.getActive': 'Get Many Running', 'account.getActivity': 'Get Many Recent Jobs' };
	for (const [key, name] of Object.entries(LISTS)) {
		const [resource, value] = key.split('.');
		const option = all.find((o) => o.resource === resource && o.value === value);
		expect({ key, name: option?.name, action: option?.action }).toEqual({ key, name, action: expect.stringMatching(/^Get many /) });
	}
	for (const o of all) {
		expect({ name: o.name, listWord: /^(List|Get Active|Get Recent)/.test(o.name) || /^List /.test(o.action ?? '') }).toEqual({ name: o.name, listWord: false });
	}
	// n8n lists an operation selector's options in alphabetical order (its own lint rule)
	for (const s of selectors) {
		const names = s.options.map((o) => o.name);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	}
});

test('every text placeholder is an example that starts with "e.g." (buttons "Add …" aside)', () => {
	let checked = 0;
	for (const { node, path, property } of everything) {
		if (typeof property.placeholder !== 'string' || property.placeholder === '') continue;
		if (['collection', 'fixedCollection'].includes(property.type)) continue;
		checked++;
		expect({ node, path, placeholder: property.placeholder }).toEqual({ node, path, placeholder: expect.stringMatching(/^e\.g\. /) });
	}
	for (const { node, path, property } of everything.filter((e) => e.property.type === 'resourceLocator')) {
		for (const mode of property.modes) {
			if (mode.placeholder) expect({ node, path, mode: mode.name, placeholder: mode.placeholder }).toEqual({ node, path, mode: mode.name, placeholder: expect.stringMatching(/^e\.g\. /) });
		}
	}
	expect(checked).toBeGreaterThan(40);
});

test('one setting, one name: the audit user name, the certificate check and the number of search results read the same everywhere', () => {
	const named = (path, resource) =>
		everything
			.filter((e) => e.node === 'webData' && (e.path === path || e.path.endsWith(`.${path}`)) && (!resource || e.top.displayOptions?.show?.resource?.includes(resource)))
			.map((e) => e.property.displayName);
	expect([...new Set(named('auditUsername', 'agent'))]).toEqual(['User Name for Audit Logs']);
	expect([...new Set(named('auditUsername', 'parse'))]).toEqual(['User Name for Audit Logs']);
	expect([...new Set(named('scrapeOptions.skipTlsVerification', 'scrape'))]).toEqual(['Skip Certificate Checks']);
	// Parse's says which pages it acts on (the file's linked web pages): it sits among Advanced Options
	expect([...new Set(named('skipTlsVerification', 'parse'))]).toEqual(['Skip Certificate Checks on Linked Web Pages']);
	expect([...new Set(named('targets.search.searchOptions.maxResults', 'monitor'))]).toEqual(['Limit']);
	expect([...new Set(named('maxResults', 'search'))]).toEqual(['Limit']);
});

test('Agent\'s options are in alphabetical order (Start and Run and Wait), Concurrency included', () => {
	for (const operation of ['start', 'runAndWait']) {
		const options = panel('agent', operation).find((p) => p.name === 'options').options.map((o) => o.displayName);
		expect({ operation, options }).toEqual({ operation, options: [...options].sort((a, b) => a.localeCompare(b)) });
		expect(options).toContain('User Name for Audit Logs');
	}
});

test('Crawl: the prompt option says what it is for, and the two ways to receive a job\'s events say how they differ', () => {
	for (const operation of ['start', 'runAndWait']) {
		const options = panel('crawl', operation).find((p) => p.name === 'options').options;
		const names = options.map((o) => o.displayName);
		expect(names).not.toContain('Prompt');
		const prompt = options.find((o) => o.name === 'prompt');
		expect(prompt.displayName).toBe('Describe What to Crawl');
		expect(prompt.description).toMatch(/Preview Parameters/);
		expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
	}
	for (const [resource, operation] of [['crawl', 'start'], ['batchScrape', 'start']]) {
		const options = panel(resource, operation).find((p) => p.name === 'options').options;
		const byName = Object.fromEntries(options.map((o) => [o.name, o]));
		expect(byName.sendToTrigger.description).toMatch(/another n8n workflow[\s\S]*any other address, use Webhook URL instead/);
		expect(byName.webhookUrl.description).toMatch(/To start another n8n workflow, use Send Events to Web Data Trigger instead/);
		expect(byName.webhookEvents.description).toMatch(/Send Events to Web Data Trigger has its own Events/);
		expect(byName.webhookMetadata.description).toMatch(/with Send Events to Web Data Trigger, use Run Metadata/);
	}
	// an agent run has no Webhook URL option: its text does not point to one
	const agent = panel('agent', 'start').find((p) => p.name === 'options').options.find((o) => o.name === 'sendToTrigger');
	expect(agent.description).not.toMatch(/Webhook URL/);
});

test('every operation that spends credits says so in the operation list; reading operations do not claim it', () => {
	const SPENDS = ['scrape.scrapeUrl', 'search.search', 'map.mapUrl', 'crawl.runAndWait', 'crawl.start', 'batchScrape.runAndWait', 'batchScrape.start', 'extract.runAndWait', 'extract.start', 'interact.execute', 'interact.start', 'parse.parseFile', 'monitor.create', 'monitor.runCheck', 'agent.runAndWait', 'agent.start'];
	const READS = ['crawl.getStatus', 'crawl.getActive', 'monitor.get', 'monitor.getMany', 'agent.get', 'agent.getMany', 'account.getCreditUsage', 'interact.getMany'];
	const ops = Object.fromEntries(
		properties.filter((p) => p.name === 'operation').flatMap((p) => p.options.map((o) => [`${p.displayOptions.show.resource[0]}.${o.value}`, o.description])),
	);
	for (const key of SPENDS) expect({ key, says: /costs? credits/.test(ops[key]) }).toEqual({ key, says: true });
	for (const key of READS) expect({ key, says: /costs? credits/.test(ops[key]) }).toEqual({ key, says: false });
});

test('every display rule of a top-level field names a top-level field, an "@" value or a "/" root path: n8n 1.x cannot order any other name and refuses the whole node ("Could not resolve parameter dependencies")', () => {
	for (const type of [new WebData().description, new WebDataTrigger().description]) {
		const names = new Set(type.properties.map((p) => p.name));
		const bad = [];
		for (const p of type.properties) {
			for (const rule of Object.values(p.displayOptions ?? {})) {
				for (const key of Object.keys(rule ?? {})) if (!names.has(key) && !key.startsWith('@') && !key.startsWith('/')) bad.push(`${type.name}.${p.name}: ${key}`);
			}
		}
		expect(bad).toEqual([]);
	}
});

test('versions: the trigger has one; the action node has 1 and 2 (new nodes get 2), and only the fields whose default changed with 2 are shown by version', () => {
	const { WebDataTrigger } = require('../../dist/nodes/WebDataTrigger/WebDataTrigger.node');
	const byVersion = [];
	const walk = (list, where) => {
		for (const p of list ?? []) {
			for (const rule of [p.displayOptions?.show, p.displayOptions?.hide]) {
				if (rule && Object.keys(rule).some((key) => key === '@version' || key.endsWith('/@version'))) {
					byVersion.push(`${where}.${p.name}:${rule.resource}${rule['@tool'] ? ' (tool)' : ''}`);
				}
			}
			walk(p.options, `${where}.${p.name}`);
			walk(p.values, `${where}.${p.name}`);
		}
	};
	const trigger = new WebDataTrigger().description;
	expect({ version: trigger.version, defaultVersion: trigger.defaultVersion }).toEqual({ version: 1, defaultVersion: undefined });
	walk(trigger.properties, trigger.name);
	const action = new WebData().description;
	expect({ version: action.version, defaultVersion: action.defaultVersion }).toEqual({ version: [1, 2], defaultVersion: 2 });
	walk(action.properties, action.name);
	// Each of these is in pairs: version 1 keeps its old default, version 2 has the new one.
	expect([...new Set(byVersion)].sort()).toEqual([
		'webData.operation:agent',
		'webData.operation:interact',
		'webData.pageLimit:crawl (tool)',
		'webData.prompt:extract (tool)',
		'webData.urls:extract (tool)',
	]);
	expect(byVersion.length).toBe(2 + 2 + 2 + 2 * 2 * 2); // Crawl Start's Page Limit; Extract: Start and Run and Wait, two fields each
});
