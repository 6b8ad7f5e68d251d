import type { IExecuteFunctions } from 'n8n-workflow';

/** Whether this execution runs the node as an AI Agent's tool (its tool variant, or a tool call). */
export function isToolRun(ctx: IExecuteFunctions): boolean {
	if (ctx.getNode().type.endsWith('Tool')) return true;
	return typeof ctx.isToolExecution === 'function' && ctx.isToolExecution();
}
