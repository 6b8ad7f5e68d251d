'use strict';
/**
 * Interact's parameters as n8n shows them: for every Browser / Execute With combination, exactly the
 * right fields are displayed (Code and Language exist twice with their own display rules, so a
 * left-over Execute With never hides the code of a session). Uses n8n-workflow's own display logic.
 * Build first: `npm run build`.
 */
const { NodeHelpers } = require('n8n-workflow');
const { WebData } = require('../../dist/nodes/WebData/WebData.node');

const { properties } = new WebData().description;

/** Names of the parameters n8n displays for these node values (defaults filled in like the editor). */
function shown(values) {
	const all = NodeHelpers.getNodeParameters(properties, values, true, false, null, null) || {};
	return properties.filter((p) => NodeHelpers.displayParameter(all, p, null, null)).map((p) => p.name);
}

const base = { resource: 'interact', operation: 'execute' };

test.each([
	[{ target: 'session' }, ['target', 'sessionId', 'language', 'code', 'options'], ['scrapeJobId', 'executeWith', 'prompt']],
	[{ target: 'session', executeWith: 'prompt' }, ['sessionId', 'language', 'code'], ['prompt', 'executeWith']],
	[{ target: 'scrapeJob' }, ['scrapeJobId', 'executeWith', 'language', 'code'], ['sessionId', 'prompt']],
	[{ target: 'scrapeJob', executeWith: 'prompt' }, ['scrapeJobId', 'executeWith', 'prompt', 'options'], ['sessionId', 'language', 'code']],
])('execute %j', (values, visible, hidden) => {
	const names = shown({ ...base, ...values });
	for (const name of visible) expect(names.filter((n) => n === name)).toHaveLength(1);
	for (const name of hidden) expect(names).not.toContain(name);
});

test.each([
	['start', ['options'], ['target', 'sessionId', 'code']],
	['stop', ['target', 'sessionId', 'ignoreStopped'], ['code', 'scrapeJobId']],
	['getMany', ['status', 'returnAll', 'limit'], ['target']],
])('%s shows its own fields', (operation, visible, hidden) => {
	const names = shown({ resource: 'interact', operation });
	for (const name of visible) expect(names).toContain(name);
	for (const name of hidden) expect(names).not.toContain(name);
});

test('Interact and Account default to an operation they have', () => {
	const selectors = properties.filter((p) => p.name === 'operation' && ['interact', 'account'].includes(p.displayOptions.show.resource[0]));
	// Interact has one selector per node version (1: Execute, 2: Start Session), Account one.
	expect(selectors).toHaveLength(3);
	expect(selectors.filter((s) => s.displayOptions.show.resource[0] === 'interact').map((s) => s.default)).toEqual(['execute', 'start']);
	for (const s of selectors) expect(s.options.map((o) => o.value)).toContain(s.default);
});
