'use strict';
/**
 * Custom Body Fields refuses every body key an operation's own fields set, even when the field is
 * empty in that run (so a custom key cannot smuggle a value past the field's rules). Each operation
 * says which keys its fields set under other names (its `bodyKeys`); this test holds that list
 * against what the operation really sends: every field of every operation is filled (each option
 * collection too, every choice of an options field tried), the bodies the strict fake API receives
 * give the keys, and each key is then sent as a custom key in a run where its field is empty: it
 * must be refused before any request, naming a field. Build first: `npm run build`.
 */
const fs = require('fs');
const path = require('path');
const { useFakeApi, resourceRunner } = require('../helpers/resource-suite');
const { CUSTOM_BODY_LABEL } = require('../../dist/nodes/WebData/fields/customBody');

jest.setTimeout(120000);

const api = useFakeApi({ timeScale: 50 });
const RESOURCES = path.join(__dirname, '../../dist/nodes/WebData/resources');

/** The operations that offer Custom Body Fields, with their resource. */
function operationsWithCustomBody() {
	const found = [];
	for (const name of fs.readdirSync(RESOURCES)) {
		const dir = path.join(RESOURCES, name);
		if (!fs.statSync(dir).isDirectory()) continue;
		const resource = Object.values(require(dir)).find((v) => v && typeof v === 'object' && v.operations);
		for (const [operation, op] of Object.entries(resource.operations)) {
			if (JSON.stringify(op.properties).includes('"customBody"')) found.push({ resource: name, operation, op });
		}
	}
	return found;
}

const SCRAPE_JOB = '00000000-0000-4000-8000-00000000aaaa';

/** What each operation needs to run at all, and values a generic one would get wrong. */
const BASE = {
	'scrape.scrapeUrl': { url: 'https://example.com/a' },
	'search.search': { query: 'vector databases' },
	'map.mapUrl': { url: 'https://example.com' },
	'crawl.start': { url: 'https://example.com' },
	'crawl.runAndWait': { url: 'https://example.com', waitMethod: 'poll', maxWait: 60 },
	'batchScrape.start': { url: 'https://example.com/a' },
	'batchScrape.runAndWait': { url: 'https://example.com/a', waitMethod: 'poll', maxWait: 60 },
	'extract.start': { urls: 'https://example.com/a', prompt: 'The page title' },
	'extract.runAndWait': { urls: 'https://example.com/a', prompt: 'The page title', maxWait: 60 },
	'agent.start': { prompt: 'Find robotics start-ups FAKE_DURATION_MS=300' },
	'agent.runAndWait': { prompt: 'Find robotics start-ups FAKE_DURATION_MS=300', waitMethod: 'poll', maxWait: 60 },
	'monitor.create': { name: 'Prices', scheduleMode: 'text', scheduleText: 'every 30 minutes', targetsSource: 'json', targetsJson: '[{"type": "scrape", "urls": ["https://example.com/pricing"]}]' },
	'monitor.update': { monitorId: '00000000-0000-4000-8000-000000000001', updateFields: { name: 'Renamed' } },
	'interact.start': { target: 'scrapeJob', scrapeJobId: { __rl: true, mode: 'id', value: SCRAPE_JOB } },
	'interact.execute': { target: 'scrapeJob', scrapeJobId: { __rl: true, mode: 'id', value: SCRAPE_JOB }, code: 'return 1' },
};

/** A plausible value for a field, by its name and type (the rules of each field are the node's). */
function sample(property) {
	const byName = {
		url: 'https://example.com/a',
		urls: 'https://example.com/a',
		jsonSchema: '{"type":"object","properties":{"title":{"type":"string"}}}',
		schema: '{"type":"object","properties":{"title":{"type":"string"}}}',
		locationCountry: 'DE',
		locationLanguages: 'de',
		country: 'DE',
		location: 'Berlin,Germany',
		webhookUrl: 'https://hooks.example.com/in',
		timezone: 'Europe/Berlin',
		cron: undefined, // one of Cron Expression and Schedule
		scheduleText: 'every 30 minutes',
		emailNotification: 'ops@example.com',
		includePaths: 'docs/.*',
		excludePaths: 'blog/.*',
		auditUsername: 'ada',
		profileName: 'shop-login',
		prompt: 'The page title',
		formats: ['markdown', 'links'],
		actions: '[{"type": "wait", "milliseconds": 1000}]',
		headers: '{"X-Sample": "1"}',
		targetsJson: '[{"type": "scrape", "urls": ["https://example.com/pricing"]}]',
		downloadScreenshot: false, // needs the Screenshot format
		tbs: 'qdr:d',
		includeDomains: 'example.com',
		excludeDomains: undefined, // one of Include Domains and Exclude Domains
	};
	if (Object.prototype.hasOwnProperty.call(byName, property.name)) return byName[property.name];
	switch (property.type) {
		case 'boolean':
			return !property.default;
		case 'number':
			return property.default || property.typeOptions?.minValue || 1;
		case 'options': {
			const other = (property.options ?? []).find((o) => o.value !== property.default);
			return other ? other.value : property.default;
		}
		case 'multiOptions':
			return (property.options ?? []).slice(0, 1).map((o) => o.value);
		case 'json':
			return '{}';
		case 'string':
			return property.default || 'sample';
		default:
			return undefined;
	}
}

/** Every option of every collection of the operation, filled (Custom Body Fields left out). */
/** Options that only bound what is sent (no body key) left at "no limit"; Extract's endpoint the live one. */
const NO_LIMIT = { maxCreditsPerDay: 0, endpoint: 'replacements' };
/** Extract on known pages (Scrape / Batch Scrape), where the most keys are sent; the agent's are its own test's. */
const PAGES = { enableWebSearch: false, allowExternalLinks: false };
const OVERRIDES = { 'extract.start': PAGES, 'extract.runAndWait': PAGES };

function filled(properties, base) {
	const parameters = { ...base };
	for (const property of properties) {
		if (property.name in parameters || property.type === 'notice' || property.type === 'hidden' || property.name === 'customBody') continue;
		if (property.type === 'collection') {
			const inner = {};
			for (const option of property.options ?? []) {
				if (option.name === 'customBody' || option.type === 'notice') continue;
				if (option.name in NO_LIMIT) {
					inner[option.name] = NO_LIMIT[option.name];
					continue;
				}
				const value = option.type === 'collection' || option.type === 'fixedCollection' ? undefined : sample(option);
				if (value !== undefined) inner[option.name] = value;
			}
			parameters[property.name] = inner;
			continue;
		}
		const value = sample(property);
		if (value !== undefined) parameters[property.name] = value;
	}
	return parameters;
}

const mutating = (r) => ['POST', 'PUT', 'PATCH'].includes(r.method) && !r.path.startsWith('/__fake');

/** The top-level keys (and scrapeOptions keys) of every body the fake received. */
function sentKeys() {
	const keys = new Set();
	for (const r of api.log.filter(mutating)) {
		if (!r.body || typeof r.body !== 'object') continue;
		for (const [key, value] of Object.entries(r.body)) {
			keys.add(key);
			if (key === 'scrapeOptions' && value && typeof value === 'object') for (const inner of Object.keys(value)) keys.add(`scrapeOptions.${inner}`);
		}
	}
	return keys;
}

const customOf = (key) => {
	const [outer, inner] = key.split('.');
	return JSON.stringify(inner ? { [outer]: { [inner]: 1 } } : { [outer]: 1 });
};

describe('every body key an operation sends is refused as a custom key, naming a field', () => {
	const operations = operationsWithCustomBody();

	test('the operations with Custom Body Fields are the ones this test knows', () => {
		expect(operations.map((o) => `${o.resource}.${o.operation}`).sort()).toEqual(Object.keys(BASE).sort());
	});

	test.each(operationsWithCustomBody().map((o) => [`${o.resource}.${o.operation}`, o]))('%s', async (name, { resource, operation, op }) => {
		const run = resourceRunner(resource, api).run;
		const holder = op.properties.find((p) => p.type === 'collection' && (p.options ?? []).some((o) => o.name === 'customBody')).name;
		if (resource === 'monitor' && operation === 'update') await api.seedMonitor({ id: BASE[name].monitorId, name: 'Seeded' });
		if (resource === 'interact') await api.seedScrapeJob({ id: SCRAPE_JOB, url: 'https://example.com' });
		// Every field filled; the fake's log gives what the operation sends with them.
		const all = filled(op.properties, BASE[name]);
		if (OVERRIDES[name]) all[holder] = { ...all[holder], ...OVERRIDES[name] };
		const full = await run({ operation, ...all });
		const keys = sentKeys();
		expect([name, full.status, full.error?.message ?? '', keys.size > 0]).toEqual([name, 'success', '', true]);
		// Each key as a custom key, its field left empty: refused before anything is sent.
		const notRefused = [];
		// scrapeOptions itself is open to new scrape options (one level down, the same rules inside).
		for (const key of [...keys].filter((k) => k !== 'scrapeOptions')) {
			const before = api.log.filter(mutating).length;
			const attempt = await run({ operation, ...BASE[name], [holder]: { ...(BASE[name][holder] ?? {}), customBody: customOf(key) } });
			const message = attempt.error?.message ?? '';
			const sent = api.log.filter(mutating).length - before;
			const refusedByName = message.startsWith(`${CUSTOM_BODY_LABEL}: `) && /: ".+" is set by (the field ".+" of this node|the node itself)$/.test(message);
			if (!refusedByName || sent > 0) notRefused.push(`${key}: ${message || attempt.status} (${sent} sent)`);
		}
		expect(notRefused).toEqual([]);
	});

	test('prototype-named custom keys are ordinary keys: no crash, passed on or refused by name', async () => {
		const run = resourceRunner('scrape', api).run;
		for (const key of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
			const result = await run({ operation: 'scrapeUrl', url: 'https://example.com/a', options: { customBody: `{"${key}": {"x": 1}}` } });
			expect([key, result.error?.message ?? '']).not.toEqual([key, expect.stringMatching(/is not iterable|is not a function|Cannot/)]);
		}
	});
});
