import type { Resource } from '../../helpers/types';
import { get } from './get';

export const agent: Resource = {
	operationProperty: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		default: 'get',
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get an agent run',
				description: 'Get the status and, when finished, the result of an agent run',
			},
		],
	},
	operations: { get },
};
