import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { RunContext } from '../../helpers/types';
import { apiRequest, defaultDeps } from '../../transport';

/** Hints for the team endpoints, keyed by status or by a part of the service's error text. */
export const ACCOUNT_HINTS: Record<string, string> = {
	'text:Could not find credit usage':
		'The service has no credit usage record for this team yet (for example a team without a plan). Check the team in the service dashboard.',
	'text:Could not find token usage':
		'The service has no token usage record for this team. Tokens are only counted for the extract endpoint; most teams only use credits (Account → Get Credit Usage).',
};

/** GET of one team endpoint; `qs` holds only what the user set. */
export async function getTeam(
	ctx: IExecuteFunctions,
	path: string,
	i: number,
	run?: RunContext,
	qs?: IDataObject,
): Promise<IDataObject> {
	return await apiRequest<IDataObject>(
		ctx,
		{ method: 'GET', path, qs, itemIndex: i, hints: ACCOUNT_HINTS },
		run?.transportDeps ?? defaultDeps,
	);
}

/** The response without the envelope flag `success`. */
export function withoutEnvelope(body: IDataObject): IDataObject {
	const { success: _success, ...rest } = body;
	void _success;
	return rest;
}
