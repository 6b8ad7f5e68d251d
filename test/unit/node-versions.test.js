'use strict';
// Issue 17: node version 2 of Web Data and Web Data Trigger, as n8n 2.41 resolves it. n8n fills a
// saved node's parameters with NodeHelpers.getNodeParameters (the Workflow constructor, the editor)
// and decides what the panel shows with NodeHelpers.displayParameter, both by the node's
// typeVersion (`@version` in displayOptions). Saved workflows keep typeVersion 1: its fields, names
// and defaults must stay as they were; new nodes get the highest version, 2.
const { NodeHelpers } = require('n8n-workflow');
const { WebData } = require('../../dist/nodes/WebData/WebData.node');
const { WebDataTrigger } = require('../../dist/nodes/WebDataTrigger/WebDataTrigger.node');

const webData = new WebData().description;
const trigger = new WebDataTrigger().description;

/** The node as n8n holds it after loading `saved` at `typeVersion`: parameters with defaults filled. */
function load(type, saved, typeVersion) {
	const node = { name: 'N', type: `n8n-nodes-webdata.${type.name}`, typeVersion, parameters: {}, position: [0, 0] };
	node.parameters = NodeHelpers.getNodeParameters(type.properties, saved, true, false, node, type);
	return node;
}

/** What n8n saves for `saved` (values equal to their default left out). */
function saveOf(type, saved, typeVersion) {
	const node = { name: 'N', type: `n8n-nodes-webdata.${type.name}`, typeVersion, parameters: {}, position: [0, 0] };
	return NodeHelpers.getNodeParameters(type.properties, saved, false, false, node, type);
}

/** The top-level fields the panel shows for a loaded node, by name (the first shown of each). */
function shown(type, node) {
	const out = {};
	for (const p of type.properties) {
		if (!(p.name in out) && NodeHelpers.displayParameter(node.parameters, p, node, type)) out[p.name] = p;
	}
	return out;
}

const PARSE = { resource: 'parse', operation: 'parseFile' };
const MOVED = ['auditUsername', 'blockAds', 'headers', 'integration', 'origin', 'proxy', 'skipTlsVerification'];
// The Options of version 1 as they were before version 2 existed (names users' workflows hold).
const V1_OPTION_NAMES = [
	'auditUsername',
	'blockAds',
	'checkPromptInjection',
	'concurrency',
	'excludeTags',
	'headers',
	'includeTags',
	'integration',
	'keepInputBinary',
	'markdownBinaryProperty',
	'onlyMainContent',
	'origin',
	'proxy',
	'markdownToBinary',
	'removeBase64Images',
	'skipTlsVerification',
	'timeout',
	'zeroDataRetention',
];

test('both nodes offer versions 1, 2 and 3; a new node gets 3 (the highest, no defaultVersion)', () => {
	expect(webData.version).toEqual([1, 2, 3]);
	expect(trigger.version).toEqual([1, 2, 3]);
	expect(webData.defaultVersion).toBeUndefined();
	expect(trigger.defaultVersion).toBeUndefined();
});

describe('Parse File', () => {
	test('version 1 shows one Options list with every option under its old name, and no Advanced Options', () => {
		const fields = shown(webData, load(webData, PARSE, 1));
		expect(fields.advancedOptions).toBeUndefined();
		expect(fields.options.options.map((o) => o.name)).toEqual(V1_OPTION_NAMES);
		const audit = fields.options.options.find((o) => o.name === 'auditUsername');
		expect(audit.displayName).toBe('Audit Username');
	});

	test('version 2 shows Options without the rarely used ones, and an Advanced Options group with them', () => {
		const fields = shown(webData, load(webData, PARSE, 2));
		const main = fields.options.options.map((o) => o.name);
		const advanced = fields.advancedOptions.options.map((o) => o.name);
		expect(fields.advancedOptions.displayName).toBe('Advanced Options');
		expect(fields.advancedOptions.type).toBe('collection');
		for (const name of MOVED) {
			expect({ name, inMain: main.includes(name), inAdvanced: advanced.includes(name) }).toEqual({ name, inMain: false, inAdvanced: true });
		}
		expect(fields.options.options.map((o) => o.displayName)).not.toContain('Audit Username');
		// what a person parsing a file needs stays in the main list
		expect(main).toEqual(expect.arrayContaining(['timeout', 'onlyMainContent', 'includeTags', 'excludeTags', 'markdownToBinary', 'keepInputBinary', 'concurrency']));
		// every option of version 1 is in exactly one group of version 2, with the same name, type and default
		expect([...main, ...advanced].sort()).toEqual([...V1_OPTION_NAMES].sort());
		const v1 = Object.fromEntries(shown(webData, load(webData, PARSE, 1)).options.options.map((o) => [o.name, o]));
		for (const o of [...fields.options.options, ...fields.advancedOptions.options]) {
			expect({ name: o.name, type: o.type, default: o.default, values: (o.options ?? []).map((x) => x.value ?? x.name) }).toEqual({
				name: o.name,
				type: v1[o.name].type,
				default: v1[o.name].default,
				values: (v1[o.name].options ?? []).map((x) => x.value ?? x.name),
			});
		}
	});

	test('version 2 gives the moved options plain names and says when you would want them', () => {
		const advanced = shown(webData, load(webData, PARSE, 2)).advancedOptions.options;
		const v1 = Object.fromEntries(shown(webData, load(webData, PARSE, 1)).options.options.map((o) => [o.name, o]));
		for (const o of advanced) {
			expect({ name: o.name, renamed: o.displayName !== v1[o.name].displayName }).toEqual({ name: o.name, renamed: true });
			expect({ name: o.name, description: o.description }).toEqual({ name: o.name, description: expect.stringMatching(/when|only|if/i) });
			expect(o.description).not.toMatch(/^Rarely needed/);
		}
		const names = Object.fromEntries(advanced.map((o) => [o.name, o.displayName]));
		expect(names.auditUsername).toBe('User Name for Audit Logs');
		expect(names.skipTlsVerification).toMatch(/Certificate/);
	});

	// Issue 22 point 3: version 3 separates the settings by what they act on.
	test('version 3: Options hold file and output settings only; HTML content, linked web pages and log labels each have their own group', () => {
		const fields = shown(webData, load(webData, PARSE, 3));
		const names = (f) => f.options.map((o) => o.name);
		expect(names(fields.options)).toEqual(['checkPromptInjection', 'concurrency', 'keepInputBinary', 'markdownBinaryProperty', 'markdownToBinary', 'removeBase64Images', 'timeout', 'zeroDataRetention']);
		expect(fields.htmlOptions.displayName).toBe('HTML Content Options');
		expect(names(fields.htmlOptions)).toEqual(['excludeTags', 'includeTags', 'onlyMainContent']);
		expect(fields.linkedPageOptions.displayName).toBe('Linked Web Page Options');
		expect(names(fields.linkedPageOptions)).toEqual(['blockAds', 'headers', 'proxy', 'skipTlsVerification']);
		expect(fields.advancedOptions.displayName).toBe('Advanced Options');
		expect(names(fields.advancedOptions)).toEqual(['integration', 'origin', 'auditUsername']);
		// the linked-page settings read as Scrape's same settings do
		expect(fields.linkedPageOptions.options.map((o) => o.displayName)).toEqual(['Block Ads', 'Headers', 'Proxy', 'Skip Certificate Checks']);
		expect(fields.advancedOptions.options.map((o) => o.displayName)).toEqual(['Integration Label', 'Origin Label', 'User Name for Audit Logs']);
		for (const group of ['options', 'htmlOptions', 'linkedPageOptions', 'advancedOptions']) {
			expect({ group, description: fields[group].description }).toEqual({ group, description: expect.any(String) });
		}
		expect(fields.linkedPageOptions.description).toMatch(/^Only when a file links to web pages/);
		// every option of version 1 is in exactly one group, with the same name, type and default
		const all = ['options', 'htmlOptions', 'linkedPageOptions', 'advancedOptions'].flatMap((g) => fields[g].options);
		expect(all.map((o) => o.name).sort()).toEqual([...V1_OPTION_NAMES].sort());
		const v1 = Object.fromEntries(shown(webData, load(webData, PARSE, 1)).options.options.map((o) => [o.name, o]));
		for (const o of all) expect({ name: o.name, type: o.type, default: o.default }).toEqual({ name: o.name, type: v1[o.name].type, default: v1[o.name].default });
	});

	test('versions 1 and 2 keep their parameter lists: no group of version 3 is shown there', () => {
		for (const v of [1, 2]) {
			const fields = shown(webData, load(webData, PARSE, v));
			expect({ v, html: fields.htmlOptions, linked: fields.linkedPageOptions }).toEqual({ v, html: undefined, linked: undefined });
		}
		expect(shown(webData, load(webData, PARSE, 2)).advancedOptions.options.map((o) => o.name)).toEqual(MOVED.slice().sort((a, b) => ['blockAds', 'headers', 'integration', 'origin', 'proxy', 'skipTlsVerification', 'auditUsername'].indexOf(a) - ['blockAds', 'headers', 'integration', 'origin', 'proxy', 'skipTlsVerification', 'auditUsername'].indexOf(b)));
	});

	test('a saved version 1 workflow keeps every moved option it holds (n8n does not drop them)', () => {
		const saved = { ...PARSE, options: { auditUsername: 'ana', proxy: 'auto', blockAds: false, timeout: 60000 } };
		expect(load(webData, saved, 1).parameters.options).toEqual(saved.options);
		expect(saveOf(webData, saved, 1).options).toEqual(saved.options);
	});

	test('version 2 saves Advanced Options under its own parameter, next to Options', () => {
		const saved = { ...PARSE, options: { timeout: 60000 }, advancedOptions: { auditUsername: 'ana', proxy: 'auto' } };
		const node = load(webData, saved, 2);
		expect(node.parameters.options).toEqual({ timeout: 60000 });
		expect(node.parameters.advancedOptions).toEqual({ auditUsername: 'ana', proxy: 'auto' });
	});
});

// Issue 22 point 3: Monitor → Create says what is judged, marks Targets as required, and shows what an
// empty Time Zone means at the field.
describe('Monitor → Create panel', () => {
	const CREATE = { resource: 'monitor', operation: 'create', name: 'Watch', scheduleText: 'hourly' };

	test('version 3: "Judge Changes Against Goal" shows only once a Goal is written; versions 1 and 2 show it always', () => {
		expect(shown(webData, load(webData, CREATE, 3)).judgeEnabled).toBeUndefined();
		const withGoal = shown(webData, load(webData, { ...CREATE, goal: 'Prices' }, 3));
		expect(withGoal.judgeEnabled.description).toMatch(/against the Goal above/);
		expect(shown(webData, load(webData, CREATE, 3)).goal.description).toMatch(/Empty: nothing is judged/);
		for (const v of [1, 2]) expect({ v, judge: shown(webData, load(webData, CREATE, v)).judgeEnabled?.default }).toEqual({ v, judge: true });
		// a saved version 2 node with judging off and no goal keeps its value (the switch is shown there)
		expect(saveOf(webData, { ...CREATE, judgeEnabled: false }, 2).judgeEnabled).toBe(false);
	});

	test('while Targets is empty a notice asks for one (n8n marks no empty fixedCollection); it goes once a target is added', () => {
		for (const v of [1, 2, 3]) {
			expect({ v, notice: shown(webData, load(webData, CREATE, v)).targetsMissingNotice?.type }).toEqual({ v, notice: 'notice' });
			const withTarget = shown(webData, load(webData, { ...CREATE, targets: { scrape: [{ urls: 'https://example.com' }] } }, v));
			expect({ v, notice: withTarget.targetsMissingNotice }).toEqual({ v, notice: undefined });
			for (const targets of [{ crawl: [{ url: 'https://example.com' }] }, { search: [{ queries: 'acme' }] }]) {
				expect({ v, targets, notice: shown(webData, load(webData, { ...CREATE, targets }, v)).targetsMissingNotice }).toEqual({ v, targets, notice: undefined });
			}
			expect(shown(webData, load(webData, { ...CREATE, targets: { scrape: [] } }, v)).targetsMissingNotice?.type).toBe('notice');
			const json = shown(webData, load(webData, { ...CREATE, targetsSource: 'json' }, v));
			expect({ v, notice: json.targetsMissingNotice }).toEqual({ v, notice: undefined });
		}
		// a notice holds no value: nothing new is saved
		expect(saveOf(webData, CREATE, 3).targetsMissingNotice).toBeUndefined();
	});

	test('Targets is marked required in every version, and the Time Zone\'s hint says what empty means (version 2 on)', () => {
		for (const v of [1, 2, 3]) expect({ v, required: shown(webData, load(webData, CREATE, v)).targets.required }).toEqual({ v, required: true });
		for (const v of [2, 3]) expect(shown(webData, load(webData, CREATE, v)).timezone.hint).toMatch(/^Empty: this workflow's time zone/);
		expect(shown(webData, load(webData, CREATE, 1)).timezone.hint).toBeUndefined(); // its default is "UTC"
	});
});

describe('Time Zone', () => {
	const CREATE = { resource: 'monitor', operation: 'create', name: 'Watch', scheduleText: 'hourly' };
	const TRIGGER = { source: 'monitor', connection: 'create' };

	test('version 1: default "UTC", so saved workflows without a Time Zone keep UTC', () => {
		expect(load(webData, CREATE, 1).parameters.timezone).toBe('UTC');
		expect(load(trigger, TRIGGER, 1).parameters.timezone).toBe('UTC');
		// "UTC" is the default, so n8n leaves it out when saving, and reads it back as UTC
		expect(saveOf(webData, { ...CREATE, timezone: 'UTC' }, 1).timezone).toBeUndefined();
	});

	test('version 2: default empty (the workflow\'s time zone), and the description says so', () => {
		expect(load(webData, CREATE, 2).parameters.timezone).toBe('');
		expect(load(trigger, TRIGGER, 2).parameters.timezone).toBe('');
		for (const [type, node] of [[webData, load(webData, CREATE, 2)], [trigger, load(trigger, TRIGGER, 2)]]) {
			const field = shown(type, node).timezone;
			expect(field.default).toBe('');
			expect(field.description).toMatch(/Empty \(the default\) means this workflow's time zone: the n8n instance's, unless the workflow's settings set one/);
		}
		// a saved version 2 node that chose UTC keeps it (it differs from the default now)
		expect(saveOf(webData, { ...CREATE, timezone: 'UTC' }, 2).timezone).toBe('UTC');
	});

	test('Monitor → Update: the Time Zone field added under Update Fields starts as "UTC" in version 1, empty in version 2', () => {
		const UPDATE = { resource: 'monitor', operation: 'update', updateFields: { scheduleText: 'hourly' } };
		const zoneIn = (v) => shown(webData, load(webData, UPDATE, v)).updateFields.options.find((o) => o.name === 'timezone');
		expect(zoneIn(1).default).toBe('UTC');
		expect(zoneIn(2).default).toBe('');
		expect(zoneIn(2).description).toMatch(/Empty or not added: this workflow's time zone/);
		// the rest of Update Fields is the same in both versions
		const names = (v) => shown(webData, load(webData, UPDATE, v)).updateFields.options.map((o) => o.name);
		expect(names(2)).toEqual(names(1));
	});
});
