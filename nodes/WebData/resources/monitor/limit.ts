import type { IExecuteFunctions } from 'n8n-workflow';

import { invalid } from '../../helpers/validation';

/** Return All / Limit as a number (Infinity for Return All), checked. */
export function readLimit(ctx: IExecuteFunctions, i: number): number {
	if (ctx.getNodeParameter('returnAll', i, false) === true) return Infinity;
	const raw = ctx.getNodeParameter('limit', i, 50);
	const limit = Number(raw);
	if (typeof raw === 'boolean' || !Number.isInteger(limit) || limit < 1) {
		throw invalid(ctx.getNode(), 'Limit', raw, 'it must be a whole number of 1 or more', i);
	}
	return limit;
}
