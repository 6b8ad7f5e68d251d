'use strict';
/**
 * Stand-in node types for the in-process workflow runner (./workflow-runner.js).
 *
 * No built-in n8n nodes are installed here (n8n-nodes-base is not a dependency), so workflows used
 * in tests start from these small look-alikes:
 *
 * - `n8n-nodes-base.manualTrigger` ("When clicking 'Execute workflow'"): emits one empty item,
 *   through the same trigger/emit path as the real node, so workflows exported from n8n run as is.
 * - `n8n-nodes-base.set`, `.convertToFile` (toBinary), `.wait` (time interval), `.stickyNote`:
 *   look-alikes of what the examples use, so examples/*.json also run here (demo, integration).
 * - `test.items` ("Test Items"): outputs the items given in its `items` parameter, a JSON array of
 *   `{ json, binary?: { <property>: { path, fileName?, mimeType? } } }`. Each binary file is read
 *   from disk as a stream and stored with `this.helpers.prepareBinaryData(stream, …)`, so in
 *   filesystem binary mode a large file goes straight to the binary store and is never held in
 *   memory as a whole.
 */
const fs = require('fs');
const path = require('path');
const { NodeConnectionTypes, NodeOperationError } = require('n8n-workflow');

class ManualTrigger {
	constructor() {
		this.description = {
			displayName: 'Manual Trigger',
			name: 'manualTrigger',
			icon: 'fa:mouse-pointer',
			group: ['trigger', 'input'],
			version: 1,
			description: 'Runs the flow on clicking a button in n8n',
			eventTriggerDescription: '',
			maxNodes: 1,
			defaults: { name: "When clicking 'Execute workflow'" },
			inputs: [],
			outputs: [NodeConnectionTypes.Main],
			properties: [],
		};
	}

	async trigger() {
		// In manual mode n8n calls manualTriggerFunction and waits for the first emit().
		const manualTriggerFunction = async () => {
			this.emit([this.helpers.returnJsonArray([{}])]);
		};
		return { manualTriggerFunction };
	}
}

class TestItems {
	constructor() {
		this.description = {
			displayName: 'Test Items',
			name: 'items',
			group: ['input'],
			version: 1,
			description: 'Outputs fixed items, optionally with binary files read from disk',
			defaults: { name: 'Test Items' },
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			properties: [
				{
					displayName: 'Items',
					name: 'items',
					type: 'json',
					default: '[]',
					description:
						'JSON array of {json, binary?: {<property>: {path, fileName?, mimeType?}}}',
				},
			],
		};
	}

	async execute() {
		const node = this.getNode();
		let entries = this.getNodeParameter('items', 0, '[]');
		if (typeof entries === 'string') {
			try {
				entries = JSON.parse(entries);
			} catch (error) {
				throw new NodeOperationError(node, `Items is not valid JSON: ${error.message}`);
			}
		}
		if (!Array.isArray(entries)) {
			throw new NodeOperationError(node, 'Items must be a JSON array');
		}

		const out = [];
		for (const [index, entry] of entries.entries()) {
			const item = { json: { ...(entry && entry.json) } };
			const binaries = (entry && entry.binary) || {};
			for (const [property, spec] of Object.entries(binaries)) {
				if (!spec || typeof spec.path !== 'string') {
					throw new NodeOperationError(node, `Item ${index}: binary "${property}" needs a "path"`);
				}
				// Fail early with a clear message instead of an ENOENT from inside the stream.
				await fs.promises.access(spec.path, fs.constants.R_OK).catch(() => {
					throw new NodeOperationError(node, `Item ${index}: cannot read file ${spec.path}`);
				});
				const stream = fs.createReadStream(spec.path);
				item.binary = item.binary || {};
				item.binary[property] = await this.helpers.prepareBinaryData(
					stream,
					spec.fileName !== undefined ? spec.fileName : path.basename(spec.path),
					spec.mimeType,
				);
			}
			out.push(item);
		}
		return [out];
	}
}

/**
 * Look-alikes of the few n8n base nodes the examples use, so `npm run demo` and the integration
 * tests can run examples/*.json without the full n8n. Each supports only what the examples use;
 * anything else fails loudly. The real nodes run in the e2e suite.
 */
function baseNode(name, displayName, inputs, outputs, execute, properties = []) {
	return {
		description: {
			displayName,
			name,
			group: ['transform'],
			version: [1, 1.1, 2, 3, 3.1, 3.2, 3.3, 3.4, 3.5],
			description: `Stand-in for n8n's ${displayName} node`,
			defaults: { name: displayName },
			inputs,
			outputs,
			// n8n keeps only declared parameters, so each stand-in declares what the examples set.
			properties,
		},
		execute,
	};
}

const main = [NodeConnectionTypes.Main];

/** Edit Fields (Set) with manual assignments: adds the assigned fields to each item. */
const SetStandIn = baseNode('set', 'Edit Fields (Set)', main, main, async function () {
	const out = [];
	for (const [i, item] of this.getInputData().entries()) {
		const assignments = this.getNodeParameter('assignments.assignments', i, []);
		const json = { ...item.json };
		for (const a of assignments) {
			json[a.name] = a.type === 'number' ? Number(a.value) : a.type === 'boolean' ? a.value === true || a.value === 'true' : a.value;
		}
		out.push({ json, binary: item.binary, pairedItem: { item: i } });
	}
	return [out];
}, [
	{ displayName: 'Fields to Set', name: 'assignments', type: 'assignmentCollection', default: {} },
	{ displayName: 'Options', name: 'options', type: 'collection', default: {}, options: [] },
]);

/** Convert to File, operation "Move Base64 String to File" (toBinary). */
const ConvertToFileStandIn = baseNode('convertToFile', 'Convert to File', main, main, async function () {
	const out = [];
	for (const [i, item] of this.getInputData().entries()) {
		const operation = this.getNodeParameter('operation', i);
		if (operation !== 'toBinary') throw new NodeOperationError(this.getNode(), `stand-in supports only toBinary, not ${operation}`);
		const source = this.getNodeParameter('sourceProperty', i);
		const target = this.getNodeParameter('binaryPropertyName', i, 'data');
		const options = this.getNodeParameter('options', i, {});
		const bytes = Buffer.from(String(item.json[source]), 'base64');
		const binary = await this.helpers.prepareBinaryData(bytes, options.fileName || 'file', options.mimeType || undefined);
		out.push({ json: {}, binary: { [target]: binary }, pairedItem: { item: i } });
	}
	return [out];
}, [
	{ displayName: 'Operation', name: 'operation', type: 'options', default: 'toBinary', options: [{ name: 'Move Base64 String to File', value: 'toBinary' }] },
	{ displayName: 'Base64 Input Field', name: 'sourceProperty', type: 'string', default: '' },
	{ displayName: 'Put Output File in Field', name: 'binaryPropertyName', type: 'string', default: 'data' },
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		default: {},
		options: [
			{ displayName: 'File Name', name: 'fileName', type: 'string', default: '' },
			{ displayName: 'MIME Type', name: 'mimeType', type: 'string', default: '' },
		],
	},
]);

/** Wait, "After Time Interval" (resume: timeInterval): waits in place, then passes items on. */
const WaitStandIn = baseNode('wait', 'Wait', main, main, async function () {
	const amount = Number(this.getNodeParameter('amount', 0, 1));
	const unit = this.getNodeParameter('unit', 0, 'seconds');
	const ms = amount * ({ seconds: 1000, minutes: 60000, hours: 3600000, days: 86400000 }[unit] ?? 1000);
	await new Promise((resolve) => setTimeout(resolve, ms));
	return [this.getInputData().map((item, i) => ({ ...item, pairedItem: { item: i } }))];
}, [
	{ displayName: 'Resume', name: 'resume', type: 'options', default: 'timeInterval', options: [{ name: 'After Time Interval', value: 'timeInterval' }] },
	{ displayName: 'Wait Amount', name: 'amount', type: 'number', default: 1 },
	{
		displayName: 'Wait Unit',
		name: 'unit',
		type: 'options',
		default: 'seconds',
		options: ['seconds', 'minutes', 'hours', 'days'].map((v) => ({ name: v, value: v })),
	},
]);

/** Sticky Note: no inputs, no outputs, never runs. */
const StickyNoteStandIn = baseNode('stickyNote', 'Sticky Note', [], [], async function () {
	return [];
});

/** Stand-ins by the node type name that workflows use (`node.type`). */
const testNodeTypes = {
	'n8n-nodes-base.manualTrigger': new ManualTrigger(),
	'n8n-nodes-base.set': SetStandIn,
	'n8n-nodes-base.convertToFile': ConvertToFileStandIn,
	'n8n-nodes-base.wait': WaitStandIn,
	'n8n-nodes-base.stickyNote': StickyNoteStandIn,
	'test.items': new TestItems(),
};

module.exports = { ManualTrigger, TestItems, testNodeTypes };
