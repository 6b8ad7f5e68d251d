'use strict';
/**
 * Stand-in node types for the in-process workflow runner (./workflow-runner.js).
 *
 * No built-in n8n nodes are installed here (n8n-nodes-base is not a dependency), so workflows used
 * in tests start from these small look-alikes:
 *
 * - `n8n-nodes-base.manualTrigger` ("When clicking 'Execute workflow'"): emits one empty item,
 *   through the same trigger/emit path as the real node, so workflows exported from n8n run as is.
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

/** Stand-ins by the node type name that workflows use (`node.type`). */
const testNodeTypes = {
	'n8n-nodes-base.manualTrigger': new ManualTrigger(),
	'test.items': new TestItems(),
};

module.exports = { ManualTrigger, TestItems, testNodeTypes };
