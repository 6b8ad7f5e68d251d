import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { jobHints } from '../resources/crawl/crawlAndBatch';
import { apiRequest } from '../transport';

/** Running crawls of the team (GET /v2/crawl/active) for the "From List" mode of the Crawl ID. */
export async function searchActiveCrawls(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
	const body = await apiRequest<IDataObject>(this, { method: 'GET', path: '/crawl/active', hints: jobHints('crawl') });
	const crawls = Array.isArray(body.crawls) ? (body.crawls as IDataObject[]) : [];
	const needle = (filter ?? '').trim().toLowerCase();
	return {
		results: crawls
			.map((c) => ({ name: typeof c.url === 'string' ? `${c.url} (${String(c.id)})` : String(c.id), value: String(c.id) }))
			.filter((r) => needle === '' || r.name.toLowerCase().includes(needle)),
	};
}
