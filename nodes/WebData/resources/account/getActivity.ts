import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { limitField, readLimit, returnAllField } from '../../fields/fields';
import type { Operation, RunContext } from '../../types';
import { invalid } from '../../helpers/validation';
import { getTeam } from './shared';

const ENDPOINTS: Array<[string, string]> = [
	['Agent', 'agent'],
	['Batch Scrape', 'batch_scrape'],
	['Browser', 'browser'],
	['Crawl', 'crawl'],
	['Deep Research', 'deep_research'],
	['Extract', 'extract'],
	['Interact', 'interact'],
	['LLMs.txt', 'llmstxt'],
	['Map', 'map'],
	['Scrape', 'scrape'],
	['Search', 'search'],
];

/** The service's page size limit of GET /v2/team/activity. */
const PAGE_MAX = 100;

/** Account → Get Many Recent Jobs: GET /v2/team/activity (last 24 hours), one item per job, cursor paging. */
export const getActivity: Operation = {
	properties: [
		{
			displayName: 'Endpoint',
			name: 'endpoint',
			type: 'options',
			default: 'all',
			description: 'Only jobs of this kind',
			options: [{ name: 'All', value: 'all' }, ...ENDPOINTS.map(([name, value]) => ({ name, value }))],
		},
		returnAllField,
		limitField,
	],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const endpoint = this.getNodeParameter('endpoint', i, 'all');
		if (endpoint !== 'all' && !ENDPOINTS.some(([, value]) => value === endpoint)) {
			throw invalid(this.getNode(), 'Endpoint', endpoint, `one of all, ${ENDPOINTS.map(([, v]) => v).join(', ')}`, i);
		}
		const limit = readLimit(this, i);
		const jobs: IDataObject[] = [];
		const seen = new Set<string>();
		let cursor: string | undefined;
		for (;;) {
			const qs: IDataObject = { limit: Math.min(PAGE_MAX, limit - jobs.length) };
			if (endpoint !== 'all') qs.endpoint = endpoint;
			if (cursor !== undefined) qs.cursor = cursor;
			const body = await getTeam(this, '/team/activity', i, run, qs);
			const page = Array.isArray(body.data) ? (body.data as IDataObject[]) : [];
			jobs.push(...page.slice(0, limit - jobs.length));
			const next = typeof body.cursor === 'string' && body.cursor !== '' ? body.cursor : undefined;
			// Stop at the end, at the limit, or if the service hands out a cursor twice (never loop forever).
			if (jobs.length >= limit || body.has_more !== true || next === undefined || seen.has(next) || page.length === 0) break;
			seen.add(next);
			cursor = next;
		}
		return jobs.map((job) => ({ json: job }));
	},
};
