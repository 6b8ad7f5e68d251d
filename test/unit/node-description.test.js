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
