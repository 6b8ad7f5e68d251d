'use strict';
/**
 * The Web Data node's tool variant as n8n makes it for an AI Agent (type name + "Tool"), registered
 * once in the workflow runner's node types, for the integration tests that run the node as a tool.
 */
const { nodeTypes } = require('./workflow-runner');
const { WebData } = require('../../dist/nodes/WebData/WebData.node');

const TOOL_TYPE = 'n8n-nodes-webdata.webDataTool';

/** Registers the tool variant (once per process) and returns its type name. */
function registerToolVariant() {
	if (!nodeTypes.has(TOOL_TYPE)) {
		const variant = new WebData();
		variant.description = { ...JSON.parse(JSON.stringify(variant.description)), name: 'webDataTool', displayName: 'Web Data Tool' };
		nodeTypes.register(TOOL_TYPE, variant);
	}
	return TOOL_TYPE;
}

module.exports = { registerToolVariant, TOOL_TYPE };
