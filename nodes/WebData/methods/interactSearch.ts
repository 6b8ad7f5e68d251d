import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { utcLabel } from '../helpers/serviceTime';
import { apiRequest } from '../transport';
import { SESSION_HINTS } from '../resources/interact/shared';

/**
 * The team's active browser sessions for a "From List" mode of the Session ID (GET
 * /v2/interact?status=active), newest first, filtered by the typed text (ID or start time).
 * To be registered in WebData.node.ts methods.listSearch as `searchInteractSessions`.
 */
export async function searchInteractSessions(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const body = await apiRequest<IDataObject>(this, {
		method: 'GET',
		path: '/interact',
		qs: { status: 'active' },
		hints: SESSION_HINTS,
	});
	const sessions = Array.isArray(body.sessions) ? (body.sessions as IDataObject[]) : [];
	const needle = (filter ?? '').trim().toLowerCase();
	return {
		results: sessions
			.map((session) => {
				const id = String(session.id);
				const started = utcLabel(session.createdAt);
				return { name: started ? `${id} (started ${started})` : id, value: id, url: stringOrUndefined(session.liveViewUrl) };
			})
			.filter((r) => needle === '' || r.name.toLowerCase().includes(needle)),
	};
}

function stringOrUndefined(value: unknown): string | undefined {
	return typeof value === 'string' && value !== '' ? value : undefined;
}
