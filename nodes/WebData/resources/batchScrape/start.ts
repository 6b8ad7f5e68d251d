import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Operation, RunContext } from '../../types';
import { jobFailure, pairedAll, prepare, startBatch, startFields } from './shared';

/** Batch Scrape → Start: one job with the URL of every input item; its ID at once. */
export const start: Operation = {
	spends: true,
	properties: startFields,
	async executeAll(this: IExecuteFunctions, items: INodeExecutionData[], run: RunContext): Promise<INodeExecutionData[]> {
		const p = prepare(this, items);
		if (p.urls.length === 0) return p.errors;
		try {
			const started = await startBatch(this, p.body, run);
			return [...p.errors, { json: { ...started, urls: p.urls.length }, pairedItem: pairedAll(p.indexes) }];
		} catch (error) {
			return [...p.errors, ...jobFailure(this, error, p.indexes)];
		}
	},
};
