import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { requireHttpUrl } from '../../fields/scrapeOptions';
import type { Operation, RunContext } from '../../types';
import { invalid } from '../../helpers/validation';
import { apiRequest, defaultDeps } from '../../transport';
import { jobHints } from './crawlAndBatch';
import { aiValue } from '../../tool/fromAi';

const previewProperties: INodeProperties[] = [
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://example.com',
		description: 'The site the crawl would start from (an absolute http or https URL)',
	},
	{
		displayName: 'Prompt',
		name: 'prompt',
		type: 'string',
		typeOptions: { rows: 3 },
		required: true,
		default: '',
		placeholder: 'e.g. All blog posts, but no tag pages',
		description: 'What to crawl, in words. The output shows the crawl options the service derives from it (nothing is crawled).',
	},
];

/** Crawl → Preview Parameters: the crawl options the service derives from a prompt (nothing is crawled). */
export const previewParams: Operation = {
	tool: {
		description:
			'Preview the crawl settings the service derives from a plain-words prompt for a start URL (which paths, how deep, how many pages), without crawling. Costs nothing.',
		fromAi: {
			url: aiValue('url', 'An absolute https URL where the crawl would start, e.g. https://example.com'),
			prompt: aiValue('prompt', 'What the crawl should read, in plain words, e.g. only the blog posts of 2024'),
		},
	},
	properties: previewProperties,
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const node = this.getNode();
		const url = requireHttpUrl(node, 'URL', this.getNodeParameter('url', i, ''), i);
		const prompt = String(this.getNodeParameter('prompt', i, '') ?? '').trim();
		if (prompt === '' || prompt.length > 10_000) throw invalid(node, 'Prompt', prompt, 'it must hold 1 to 10,000 characters', i);
		const body = await apiRequest<IDataObject>(
			this,
			{ method: 'POST', path: '/crawl/params-preview', body: { url, prompt }, itemIndex: i, hints: jobHints('crawl') },
			run?.transportDeps ?? defaultDeps,
		);
		const data = body.data !== null && typeof body.data === 'object' ? (body.data as IDataObject) : {};
		return [{ json: data }];
	},
};
