import type { Resource } from '../../helpers/types';

// Skeleton: the operations of this resource are being written (see issue 9).
export const interact: Resource = {
	operationProperty: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		default: '',
		options: [],
	},
	operations: {},
};
