import type { Resource } from '../../types';
import { create } from './create';
import { deleteOperation } from './delete';
import { get } from './get';
import { getCheck } from './getCheck';
import { getMany } from './getMany';
import { getManyChecks } from './getManyChecks';
import { runCheck } from './runCheck';
import { update } from './update';

export const monitor: Resource = {
	operationProperty: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		default: 'create',
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create monitor',
				description: 'Watch pages, a site or web searches on a schedule and report changes (each check costs credits, one per page)',
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete monitor',
				description: 'Stop and remove a monitor',
			},
			{
				name: 'Get',
				value: 'get',
				action: 'Get monitor',
				description: 'Get a monitor with its schedule, targets and last check summary',
			},
			{
				name: 'Get Check',
				value: 'getCheck',
				action: 'Get monitor check',
				description: 'Get one check with its pages: status, diff and judgment of each page',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				action: 'Get many monitors',
				description: 'Get the monitors of your team, one item each',
			},
			{
				name: 'Get Many Checks',
				value: 'getManyChecks',
				action: 'Get many monitor checks',
				description: 'Get the checks of a monitor, newest first, one item each',
			},
			{
				name: 'Run Check Now',
				value: 'runCheck',
				action: 'Run monitor check now',
				description: 'Start a check at once (costs credits, one per watched page), and optionally wait for its pages',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update monitor',
				description: 'Change some fields of a monitor, or pause and resume it',
			},
		],
	},
	operations: {
		create,
		delete: deleteOperation,
		get,
		getCheck,
		getMany,
		getManyChecks,
		runCheck,
		update,
	},
};
