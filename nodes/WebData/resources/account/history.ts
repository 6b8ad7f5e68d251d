import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { Operation, RunContext } from '../../helpers/types';
import { invalid } from '../../helpers/validation';
import { getTeam } from './shared';

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
function usageHistory(path: string, unit: string): Operation {
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

/** Account → Get Credit Usage History: one item per billing period (and API key). */
export const getCreditUsageHistory = usageHistory('/team/credit-usage/historical', 'credits');

/** Account → Get Token Usage History: one item per billing period (and API key). */
export const getTokenUsageHistory = usageHistory('/team/token-usage/historical', 'tokens');
