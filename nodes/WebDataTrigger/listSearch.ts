import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { apiRequest } from '../WebData/transport';

const PAGE = 100;

/** The team's monitors for the "Monitor" picker: GET /v2/monitor?limit&offset (api-facts 2), filtered by name. */
export async function searchMonitors(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const offset = paginationToken && /^\d+$/.test(paginationToken) ? Number(paginationToken) : 0;
	const answer = await apiRequest<IDataObject>(this, { method: 'GET', path: '/monitor', qs: { limit: PAGE, offset } });
	const monitors = (Array.isArray(answer.data) ? answer.data : []) as IDataObject[];
	const wanted = (filter ?? '').trim().toLowerCase();
	const results = monitors
		.filter((m) => typeof m.id === 'string')
		.map((m) => {
			const name = typeof m.name === 'string' && m.name !== '' ? m.name : String(m.id);
			const status = typeof m.status === 'string' && m.status !== 'active' ? ` (${m.status})` : '';
			return { name: `${name}${status}`, value: String(m.id) };
		})
		.filter((r) => wanted === '' || r.name.toLowerCase().includes(wanted) || r.value.includes(wanted));
	return {
		results,
		paginationToken: monitors.length === PAGE ? String(offset + PAGE) : undefined,
	};
}
