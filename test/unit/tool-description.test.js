'use strict';
// What a model reads about the Web Data Tool: the description n8n sends for the chosen operation
// and the described $fromAI parameters — computed with n8n-workflow's own functions, as n8n does
// when it builds the tool (n8n-core create-node-as-tool.js: getToolDescriptionForNode; the Workflow
// fills parameter defaults with NodeHelpers.getNodeParameters).
const { NodeHelpers } = require('n8n-workflow');
const { WebData } = require('../../dist/nodes/WebData/WebData.node');
// What each operation is for a model is the operation's own `tool` (one place per operation).
const TOOL_DESCRIPTIONS = {
	'scrape.scrapeUrl': require('../../dist/nodes/WebData/resources/scrape/scrapeUrl').scrapeUrl.tool.description,
	'search.search': require('../../dist/nodes/WebData/resources/search/search').search.tool.description,
	'map.mapUrl': require('../../dist/nodes/WebData/resources/map/mapUrl').mapUrl.tool.description,
	'crawl.runAndWait': require('../../dist/nodes/WebData/resources/crawl/runAndWait').runAndWait.tool.description,
	'agent.runAndWait': require('../../dist/nodes/WebData/resources/agent/runAndWait').runAndWait.tool.description,
};

const regular = new WebData().description;
/** The tool variant as n8n makes it: the type name + "Tool" (which turns `@tool` on). */
const tool = { ...JSON.parse(JSON.stringify(regular)), name: 'webDataTool', displayName: 'Web Data Tool' };

function parametersOf(type, saved) {
	const node = { name: 'Web Data', type: `n8n-nodes-webdata.${type.name}`, typeVersion: 1, parameters: saved, position: [0, 0] };
	node.parameters = NodeHelpers.getNodeParameters(type.properties, saved, true, false, node, type);
	return node;
}

const describeTool = (saved) => {
	const node = parametersOf(tool, saved);
	return NodeHelpers.getToolDescriptionForNode(node, { description: tool });
};

test('each operation tells the model what comes back, what it costs and when to pick it (not "Scrape URL in Web Data")', () => {
	expect(describeTool({ resource: 'scrape', operation: 'scrapeUrl' })).toBe(TOOL_DESCRIPTIONS['scrape.scrapeUrl']);
	expect(describeTool({ resource: 'scrape', operation: 'scrapeUrl' })).toMatch(/ONE web page.*Costs one scrape.*use search when you do not know the page, map to list the URLs of a site, crawl to read many pages/);
	expect(describeTool({ resource: 'search', operation: 'search' })).toBe(TOOL_DESCRIPTIONS['search.search']);
	expect(describeTool({ resource: 'map', operation: 'mapUrl' })).toBe(TOOL_DESCRIPTIONS['map.mapUrl']);
	expect(describeTool({ resource: 'crawl', operation: 'runAndWait' })).toBe(TOOL_DESCRIPTIONS['crawl.runAndWait']);
	expect(describeTool({ resource: 'agent', operation: 'runAndWait' })).toBe(TOOL_DESCRIPTIONS['agent.runAndWait']);
});

test('every operation has a description of its own, more than its action name', () => {
	const resources = regular.properties.find((p) => p.name === 'resource').options.map((o) => o.value);
	for (const resource of resources) {
		const selector = regular.properties.find((p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource));
		for (const option of selector.options) {
			const text = describeTool({ resource, operation: option.value });
			expect({ resource, operation: option.value, long: text.length > option.action.length + 15 }).toEqual({ resource, operation: option.value, long: true });
		}
	}
});

test('the user can still write the description, or keep n8n\'s short one', () => {
	expect(describeTool({ resource: 'scrape', operation: 'scrapeUrl', descriptionType: 'manual', toolDescription: 'Reads our docs' })).toBe('Reads our docs');
	expect(describeTool({ resource: 'scrape', operation: 'scrapeUrl', descriptionType: 'auto' })).toBe('Scrape URL in Web Data');
});

test('the tool variant gets described $fromAI parameters; the regular node keeps its fields and shows no tool field', () => {
	const toolNode = parametersOf(tool, { resource: 'scrape', operation: 'scrapeUrl' });
	expect(toolNode.parameters.url).toBe("={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('url', 'An absolute https URL of the one page to read, e.g. https://example.com/pricing', 'string') }}");
	expect(toolNode.parameters.toolResultBudget).toBe(16000);
	expect(toolNode.parameters.toolOffset).toMatch(/^=\{\{ \/\*n8n-auto-generated-fromAI-override\*\/ \$fromAI\('offset', /);
	expect(toolNode.parameters.toolPage).toBeUndefined(); // one page: nothing to pick
	const searchNode = parametersOf(tool, { resource: 'search', operation: 'search' });
	expect(searchNode.parameters.query).toMatch(/^=\{\{ \/\*n8n-auto-generated-fromAI-override\*\/ \$fromAI\('query', 'What to search for, at most 500 characters/);
	expect(searchNode.parameters.maxResults).toMatch(/^=\{\{ \/\*n8n-auto-generated-fromAI-override\*\/ \$fromAI\('limit', 'How many results, 1 to 10/);
	expect(searchNode.parameters.toolPage).toMatch(/^=\{\{ \/\*n8n-auto-generated-fromAI-override\*\/ \$fromAI\('page', /);

	const regularNode = parametersOf(regular, { resource: 'scrape', operation: 'scrapeUrl' });
	expect(regularNode.parameters.url).toBe('');
	for (const name of ['descriptionType', 'toolDescription', 'toolResultBudget', 'toolOffset', 'toolPage', 'toolJobId']) {
		expect({ name, value: regularNode.parameters[name] }).toEqual({ name, value: undefined });
	}
	expect(parametersOf(regular, { resource: 'search', operation: 'search' }).parameters.maxResults).toBe(5);
});

test('Continue From (Offset) and Page to Read hold the model\'s $fromAI expression as text (a number field may not default to an expression); the model is still asked for a number', () => {
	for (const name of ['toolOffset', 'toolPage']) {
		const field = tool.properties.find((p) => p.name === name);
		expect({ name, type: field.type }).toEqual({ name, type: 'string' });
		expect(field.default).toMatch(/^=\{\{ \/\*n8n-auto-generated-fromAI-override\*\/ \$fromAI\('(offset|page)', '[^']+', 'number', 0\) \}\}$/);
	}
});
