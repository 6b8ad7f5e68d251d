import type { Resource } from '../../types';
import { getActivity } from './getActivity';
import { getCreditUsage } from './getCreditUsage';
import { getCreditUsageHistory } from './getCreditUsageHistory';
import { getQueueStatus } from './getQueueStatus';
import { getTokenUsage } from './getTokenUsage';
import { getTokenUsageHistory } from './getTokenUsageHistory';

export const account: Resource = {
	operationProperty: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		default: 'getCreditUsage',
		options: [
			{
				name: 'Get Credit Usage',
				value: 'getCreditUsage',
				action: 'Get team credit usage',
				description: 'Get the remaining credits, the credits of the plan and the current billing period',
			},
			{
				name: 'Get Credit Usage History',
				value: 'getCreditUsageHistory',
				action: 'Get team credit usage history',
				description: 'Get the credits used in each past billing period, one item per period',
			},
			{
				name: 'Get Many Recent Jobs',
				value: 'getActivity',
				action: 'Get many recent team jobs',
				description: 'Get the jobs of the last 24 hours (scrapes, crawls, searches, agent runs…) with their IDs, newest first, one item each',
			},
			{
				name: 'Get Queue Status',
				value: 'getQueueStatus',
				action: 'Get team scrape queue status',
				description: 'Get how many jobs are queued, active and waiting, and the concurrency limit of the plan',
			},
			{
				name: 'Get Token Usage',
				value: 'getTokenUsage',
				action: 'Get team token usage',
				description: 'Get the remaining tokens and the tokens of the plan (tokens are counted for the extract endpoint only)',
			},
			{
				name: 'Get Token Usage History',
				value: 'getTokenUsageHistory',
				action: 'Get team token usage history',
				description: 'Get the tokens used in each past billing period, one item per period',
			},
		],
	},
	operations: { getActivity, getCreditUsage, getCreditUsageHistory, getQueueStatus, getTokenUsage, getTokenUsageHistory },
};
