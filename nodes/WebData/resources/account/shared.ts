import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { withoutEnvelope } from '../../helpers/objects';
import type { Operation, RunContext } from '../../types';
import { invalid } from '../../helpers/validation';
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

/** The `data` object of a current-usage answer (credits or tokens), as one item. */
export function currentUsage(path: string): Operation {
	return {
		properties: [],
		async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
			const body = await getTeam(this, path, i, run);
			const data = body.data;
			const json =
				data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as IDataObject) : withoutEnvelope(body);
			return [{ json }];
		},
	};
}

function byApiKeyField(unit: string): INodeProperties {
	return {
		displayName: 'Split by API Key',
		name: 'byApiKey',
		type: 'boolean',
		default: false,
		description: `Whether to get one item per billing period and API key (with the key's name in "apiKey") instead of one item per billing period with the ${unit} of all keys`,
	};
}

/** One item per period of GET /v2/team/{credit|token}-usage/historical. */
export function usageHistory(path: string, unit: string): Operation {
	return {
		properties: [byApiKeyField(unit)],
		async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
			const byApiKey = this.getNodeParameter('byApiKey', i, false);
			if (typeof byApiKey !== 'boolean') {
				throw invalid(this.getNode(), 'Split by API Key', byApiKey, 'it must be true or false', i);
			}
			// false is the service's default: only a "true" the user chose is sent.
			const body = await getTeam(this, path, i, run, byApiKey ? { byApiKey: true } : undefined);
			const periods = Array.isArray(body.periods) ? (body.periods as IDataObject[]) : [];
			return periods.map((period) => ({ json: period }));
		},
	};
}
