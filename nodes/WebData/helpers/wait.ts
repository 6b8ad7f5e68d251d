import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { DEFAULT_MAX_WAIT_MS } from './poller';
import { invalid } from './validation';

/** The longest Max Wait a user may set (a day); n8n Cloud ends executions after 300 s anyway. */
export const MAX_WAIT_LIMIT_S = 86_400;

/** "Max Wait (Seconds)" for an operation that waits for a job ("run", "check") with the poller. */
export function maxWaitField(noun: string, extra: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Max Wait (Seconds)',
		name: 'maxWait',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: MAX_WAIT_LIMIT_S, numberPrecision: 0 },
		default: 240, // DEFAULT_MAX_WAIT_MS in seconds (a literal: the n8n lint rules read defaults as data)
		hint: 'n8n Cloud stops an execution after 300 s, so keep it below that there',
		description: `How long to wait for the ${noun} to finish, in seconds. The status is read 1 s after the start, then at a growing interval (a quarter of the time the ${noun} has taken, 2 to 45 s).`,
		...extra,
	};
}

/** Max Wait in ms, checked: a number of seconds from 1 to MAX_WAIT_LIMIT_S. */
export function readMaxWaitMs(ctx: IExecuteFunctions, i: number): number {
	const raw = ctx.getNodeParameter('maxWait', i, DEFAULT_MAX_WAIT_MS / 1000);
	const seconds = Number(raw);
	if (typeof raw === 'boolean' || !Number.isFinite(seconds) || seconds < 1 || seconds > MAX_WAIT_LIMIT_S) {
		throw invalid(ctx.getNode(), 'Max Wait (Seconds)', raw, `it must be a number of seconds from 1 to ${MAX_WAIT_LIMIT_S}`, i);
	}
	return Math.round(seconds * 1000);
}
