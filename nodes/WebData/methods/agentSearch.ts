import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { fetchAgentPage, type AgentPage } from '../resources/agent/getMany';

/** Recent agent runs, newest first, 20 per page (GET /v2/agent?before=…). */
export async function searchAgentRuns(
	this: ILoadOptionsFunctions,
	_filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	let cursor: AgentPage['next'];
	if (paginationToken) cursor = /^\d+$/.test(paginationToken) ? { before: paginationToken } : { link: paginationToken };
	const page = await fetchAgentPage(this, cursor);
	return {
		results: page.agents.map((run) => {
			const options = (run.options ?? {}) as { prompt?: unknown };
			const prompt = typeof options.prompt === 'string' ? options.prompt : '';
			const label = prompt.length > 60 ? `${prompt.slice(0, 57)}…` : prompt;
			return {
				name: `${label || String(run.id)} (${String(run.status ?? 'unknown')})`,
				value: String(run.id),
			};
		}),
		paginationToken: page.next ? ('before' in page.next ? page.next.before : page.next.link) : undefined,
	};
}
