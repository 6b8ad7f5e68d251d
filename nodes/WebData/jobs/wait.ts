import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { DEFAULT_MAX_WAIT_MS } from './poller';
import { WAIT_METHOD_POLL, WAIT_METHOD_WEBHOOK } from './resume';
import { invalid } from '../helpers/validation';
import type { OnTimeout } from '../types';

export type { OnTimeout };

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
		hint: 'On n8n Cloud keep it under 300: an execution there stops after 300 seconds',
		description: `How long to wait for the ${noun} to finish, in seconds. The status is read 1 s and 4.75 s after the start, then at a growing interval (19.5 % of the time the ${noun} has taken, at most 90 s).`,
		...extra,
	};
}

/**
 * Max Wait of a Run and Wait with a Wait Method: n8n Cloud's 300 s limit matters only while the
 * execution polls; with Resume on Completion Webhook it is paused, so that field says so instead.
 * One parameter name, two fields, one shown per Wait Method.
 */
export function maxWaitFieldsByMethod(noun: string, description?: string): INodeProperties[] {
	const own = description ? { description } : {};
	return [
		maxWaitField(noun, { ...own, displayOptions: { show: { waitMethod: [WAIT_METHOD_POLL] } } }),
		maxWaitField(noun, {
			...own,
			hint: 'The execution is paused while it waits, so it holds no worker and n8n Cloud\'s 300 s limit does not apply',
			displayOptions: { show: { waitMethod: [WAIT_METHOD_WEBHOOK] } },
		}),
	];
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

/** "On Timeout" of a Run and Wait operation (`noun`: the job, `readOp`: the operation that reads it later). */
export function onTimeoutField(noun: string, readOp: string, runningStatus: string): INodeProperties {
	return {
		displayName: 'On Timeout',
		name: 'onTimeout',
		type: 'options',
		default: 'returnStatus',
		description: `What to do when the ${noun} has not finished within Max Wait`,
		options: [
			{
				name: `Cancel the ${noun.charAt(0).toUpperCase()}${noun.slice(1)} and Fail`,
				value: 'cancelAndFail',
				description: `Cancel the ${noun} (so it uses no more credits), then stop with an error`,
			},
			{
				name: 'Fail',
				value: 'fail',
				description: `Stop with an error; the ${noun} goes on and can be read later with ${readOp}`,
			},
			{
				name: 'Return Last Status',
				value: 'returnStatus',
				description: `Output the last status read (status "${runningStatus}", timedOut: true) as the item; read the result later with ${readOp}`,
			},
		],
	};
}

/** On Timeout, checked. */
export function readOnTimeout(ctx: IExecuteFunctions, i: number): OnTimeout {
	const value = ctx.getNodeParameter('onTimeout', i, 'returnStatus');
	if (value !== 'returnStatus' && value !== 'cancelAndFail' && value !== 'fail') {
		throw invalid(ctx.getNode(), 'On Timeout', value, 'choose one of returnStatus, cancelAndFail, fail', i);
	}
	return value;
}

/**
 * How many input items a Run and Wait may run (and wait for) at once, from the Concurrency field:
 * a whole number from 1 on, at most 20; anything else gives the default 3.
 */
export function jobConcurrency(raw: unknown): number {
	const value = Number(raw ?? 3);
	return Number.isInteger(value) && value >= 1 ? Math.min(value, 20) : 3;
}
