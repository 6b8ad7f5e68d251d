import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { limitField, readLimit, returnAllField } from '../../fields/fields';
import type { Operation, RunContext } from '../../types';
import { apiRequest, defaultDeps, type ApiContext, type TransportDeps } from '../../transport';
import { AGENT_HINTS } from './shared';

export interface AgentPage {
	agents: IDataObject[];
	/** Where the next (older) page is: a `before` cursor or, failing that, the `next` link itself. */
	next?: { before: string } | { link: string };
}

/** Reads the `before` cursor (unix ms) out of a `next` link, so the next page is asked of our own base URL. */
export function nextCursor(next: unknown): AgentPage['next'] {
	if (typeof next !== 'string' || next === '') return undefined;
	try {
		const before = new URL(next).searchParams.get('before');
		if (before !== null && /^\d+$/.test(before)) return { before };
	} catch {
		// not an absolute URL: fall through and let the transport judge the link
	}
	return { link: next };
}

/** One page of GET /v2/agent (20 runs, newest first). */
export async function fetchAgentPage(
	ctx: ApiContext,
	cursor?: AgentPage['next'],
	itemIndex?: number,
	deps: TransportDeps = defaultDeps,
): Promise<AgentPage> {
	const body = await apiRequest<IDataObject>(
		ctx,
		{
			method: 'GET',
			path: cursor && 'link' in cursor ? cursor.link : '/agent',
			qs: cursor && 'before' in cursor ? { before: cursor.before } : undefined,
			itemIndex,
			hints: AGENT_HINTS,
		},
		deps,
	);
	const agents = Array.isArray(body.agents) ? (body.agents as IDataObject[]) : [];
	return { agents, next: nextCursor(body.next) };
}

/** Agent → Get Many: the team's recent runs, newest first, following the service's paging. */
export const getMany: Operation = {
	properties: [returnAllField, limitField],

	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const limit = readLimit(this, i);
		const runs: IDataObject[] = [];
		const seen = new Set<string>();
		let cursor: AgentPage['next'];
		for (;;) {
			const page = await fetchAgentPage(this, cursor, i, run?.transportDeps);
			let fresh = 0;
			for (const agent of page.agents) {
				const key = String(agent.id);
				if (seen.has(key)) continue;
				seen.add(key);
				fresh++;
				runs.push(agent);
				if (runs.length >= limit) break;
			}
			// Stop at the end, at the limit, or if the service repeats a page (never loop forever).
			if (runs.length >= limit || !page.next || fresh === 0) break;
			cursor = page.next;
		}
		return runs.map((agent) => ({ json: agent }));
	},
};
