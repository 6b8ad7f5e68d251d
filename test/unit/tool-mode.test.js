'use strict';
// Issue 36.5: the router chooses the mode once (regular node or a model's tool); the mode holds
// what differs — retry time budget, error shaping, the answer of a failed run, the output — so the
// router's path asks nothing more. Build first.
const fs = require('node:fs');
const path = require('node:path');
const { NodeOperationError } = require('n8n-workflow');
const { chooseMode, regularMode, toolMode } = require('../../dist/nodes/WebData/tool/mode');
const { CreditBudgetError } = require('../../dist/nodes/WebData/budget');
const { TOOL_RETRY_BUDGET_MS } = require('../../dist/nodes/WebData/tool/toolError');

const node = (type) => ({ id: 'n', name: 'Web Data', type, typeVersion: 2, position: [0, 0], parameters: {} });
function context(type, parameters = {}) {
	return {
		getNode: () => node(type),
		getNodeParameter: (name, _i, fallback) => (name in parameters ? parameters[name] : fallback),
		getExecutionCancelSignal: () => undefined,
	};
}
const budget = { facts: () => ({ budget: 5, spent: 5, left: 0 }) };
const READS = { properties: [] }; // spends nothing: items keep their json
const SCRAPE_TOOL = { properties: [], tool: {} };
const failure = () => new NodeOperationError(node('x'), 'URL "abc" is not valid', { description: 'Give an absolute URL.' });
const spent = () => new CreditBudgetError(node('x'), 'Credit budget reached: This scrape would cost at least 1 credit, and 0 of 5 are left');

test('the regular node: no retry time budget, errors as they are, a failed run throws, items unchanged', () => {
	const chosen = chooseMode(context('n8n-nodes-webdata.webData'), READS, budget, 'Scrape a URL');
	expect(Object.keys(chosen)).toEqual(['mode']);
	const mode = chosen.mode;
	expect(mode.retryBudgetMs).toBeUndefined();
	expect(mode.endsRun(spent())).toBe(false); // Continue On Fail keeps it as an error item
	expect(mode.itemError(failure(), 0).message).toBe('URL "abc" is not valid');
	expect(() => mode.end(failure())).toThrow(/^URL "abc" is not valid$/);
	expect(() => mode.end(spent())).toThrow(/^Credit budget reached/);
	const items = [{ json: { a: 1 } }, { json: { b: 2 } }];
	expect(mode.output(items, true)).toBe(items);
	expect(mode.output(items, false)).toEqual(items);
});

test('a model\'s tool: retries within the time budget, messages for the model (once), a spent budget answers, one shaped result', () => {
	const chosen = chooseMode(context('n8n-nodes-webdata.webDataTool'), SCRAPE_TOOL, budget, 'Scrape a URL');
	const mode = chosen.mode;
	expect(mode.retryBudgetMs).toBe(TOOL_RETRY_BUDGET_MS);
	expect(mode.endsRun(spent())).toBe(true);
	expect(mode.endsRun(failure())).toBe(false);
	const error = mode.itemError(failure(), 0);
	expect(error.message).toBe('Scrape a URL failed: URL "abc" is not valid. Next step: Give an absolute URL.');
	// An item's error that ends the run passes the mode again: rewritten once only.
	expect(() => mode.end(error)).toThrow(/^Scrape a URL failed: URL "abc" is not valid\. Next step: Give an absolute URL\.$/);
	const [[answer]] = mode.end(spent());
	expect(answer.json).toMatchObject({ creditBudgetReached: true, budget: 5, left: 0 });
	const out = mode.output([{ json: { url: 'https://example.com', markdown: 'Hello' } }], true);
	expect(out).toHaveLength(1);
	expect(out[0].json.content).toMatch(/Hello/);
});

test('before n8n 2.27 a tool\'s failed run is the model\'s answer, not a thrown error', () => {
	const mode = toolMode(context('n8n-nodes-webdata.webDataTool'), budget, { budget: 16000, offset: 0, page: 0 }, 'Scrape a URL', false);
	const [[item]] = mode.end(failure());
	expect(item.json.error).toBe('Scrape a URL failed: URL "abc" is not valid. Next step: Give an absolute URL.');
	expect(regularMode(context('n8n-nodes-webdata.webData'), READS, budget).output([{ json: {} }], true)).toEqual([{ json: {} }]);
});

test('a tool call whose own arguments fail is answered before the mode runs anything (older n8n), or thrown', () => {
	const ctx = context('n8n-nodes-webdata.webDataTool', { toolResultBudget: 10 });
	expect(() => chooseMode(ctx, SCRAPE_TOOL, budget, 'Scrape a URL')).toThrow(/^Tool Result Budget \(Characters\) 10 is not valid/);
});

test('the router asks "is this a tool run?" once: it chooses the mode, and its path holds no tool branch', () => {
	const router = fs.readFileSync(path.join(__dirname, '../../nodes/WebData/WebData.node.ts'), 'utf8');
	const execute = router.slice(router.indexOf('async execute('));
	expect(execute.match(/chooseMode\(/g)).toHaveLength(1);
	expect(execute).not.toMatch(/isToolRun|isToolExecution|\btool\b ?[?&|]|toolOutput|toolErrorAsResult|forModel|budgetToolResult|TOOL_RETRY_BUDGET_MS/);
});
