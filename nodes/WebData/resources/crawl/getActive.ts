import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Operation, RunContext } from '../../types';
import { apiRequest, defaultDeps } from '../../transport';
import { jobHints } from './crawlAndBatch';

/** Crawl → Get Many Running: the team's running crawls, one item each. */
export const getActive: Operation = {
	properties: [],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const body = await apiRequest<IDataObject>(
			this,
			{ method: 'GET', path: '/crawl/active', itemIndex: i, hints: jobHints('crawl') },
			run?.transportDeps ?? defaultDeps,
		);
		const crawls = Array.isArray(body.crawls) ? (body.crawls as IDataObject[]) : [];
		return crawls.map((c) => ({ json: c }));
	},
};
