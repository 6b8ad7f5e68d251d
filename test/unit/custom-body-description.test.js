'use strict';
// "Custom Body Fields" in the node's description: one option, in a collection of every
// operation that sends a JSON body and of no other, shown in the regular node and not in the tool
// variant a model uses (n8n-workflow's own displayParameter, as the editor evaluates `@tool`).
const { NodeHelpers } = require('n8n-workflow');
const { WebData } = require('../../dist/nodes/WebData/WebData.node');
const { customBodyOption } = require('../../dist/nodes/WebData/fields/customBody');

const regular = new WebData().description;
const tool = { ...JSON.parse(JSON.stringify(regular)), name: 'webDataTool', displayName: 'Web Data Tool' };

/** Operations that send a JSON body (issue 24.1). */
const JSON_BODY = [
	'scrape.scrapeUrl',
	'search.search',
	'map.mapUrl',
	'crawl.start',
	'crawl.runAndWait',
	'batchScrape.start',
	'batchScrape.runAndWait',
	'extract.start',
	'extract.runAndWait',
	'agent.start',
	'agent.runAndWait',
	'monitor.create',
	'monitor.update',
	'interact.start',
	'interact.execute',
];

/** Every operation of the node as "resource.operation". */
function operations(description) {
	const resources = description.properties.find((p) => p.name === 'resource').options.map((o) => o.value);
	return resources.flatMap((resource) => {
		const selector = description.properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource));
		return selector.options.map((o) => `${resource}.${o.value}`);
	});
}

/** The collections of an operation that offer the option. */
function holders(description, key) {
	const [resource, operation] = key.split('.');
	return description.properties.filter(
		(p) =>
			p.type === 'collection' &&
			p.displayOptions?.show?.resource?.includes(resource) &&
			p.displayOptions?.show?.operation?.includes(operation) &&
			p.options.some((o) => o.name === 'customBody'),
	);
}

test('every operation that sends a JSON body offers it in one of its collections, and no other operation does', () => {
	const all = operations(regular);
	for (const key of JSON_BODY) expect(all).toContain(key);
	for (const key of all) {
		const offered = holders(regular, key).length > 0;
		expect({ key, offered }).toEqual({ key, offered: JSON_BODY.includes(key) });
	}
});

test('it is ONE option (the same definition everywhere): a json field with the name users see', () => {
	let checked = 0;
	for (const key of JSON_BODY) {
		for (const collection of holders(regular, key)) {
			const option = collection.options.find((o) => o.name === 'customBody');
			expect(option).toEqual(customBodyOption);
			checked++;
		}
	}
	expect(checked).toBeGreaterThanOrEqual(JSON_BODY.length);
	expect(customBodyOption).toMatchObject({ displayName: 'Custom Body Fields', type: 'json', default: '{}' });
});

test('the regular node shows it; the tool variant does not offer it (so a model never fills it)', () => {
	const node = { name: 'Web Data', type: 'n8n-nodes-webdata.webData', typeVersion: 1, parameters: {}, position: [0, 0] };
	let checked = 0;
	for (const key of JSON_BODY) {
		const [resource, operation] = key.split('.');
		for (const collection of holders(regular, key)) {
			const option = collection.options.find((o) => o.name === 'customBody');
			const values = { resource, operation };
			expect({ key, regular: NodeHelpers.displayParameter(values, option, node, regular) }).toEqual({ key, regular: true });
			expect({ key, tool: NodeHelpers.displayParameter(values, option, { ...node, type: 'n8n-nodes-webdata.webDataTool' }, tool) }).toEqual({ key, tool: false });
			checked++;
		}
	}
	expect(checked).toBeGreaterThanOrEqual(JSON_BODY.length);
});
