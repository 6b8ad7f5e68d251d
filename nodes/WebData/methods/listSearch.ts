import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { apiRequest } from '../transport';

/** Recent agent runs, newest first, 20 per page (GET /v2/agent?before=…). */
export async function searchAgentRuns(
	this: ILoadOptionsFunctions,
	_filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const body = await apiRequest<IDataObject>(this, {
		method: 'GET',
		path: paginationToken ?? '/agent',
	});
	const agents = Array.isArray(body.agents) ? (body.agents as IDataObject[]) : [];
	return {
		results: agents.map((run) => {
			const options = (run.options ?? {}) as IDataObject;
			const prompt = typeof options.prompt === 'string' ? options.prompt : '';
			const label = prompt.length > 60 ? `${prompt.slice(0, 57)}…` : prompt;
			return {
				name: `${label || String(run.id)} (${String(run.status ?? 'unknown')})`,
				value: String(run.id),
			};
		}),
		paginationToken: typeof body.next === 'string' ? body.next : undefined,
	};
}
