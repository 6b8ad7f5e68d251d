import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Operation, RunContext } from '../../helpers/types';
import { readMonitorId, updateMonitor } from './api';
import { buildMonitorBody } from './body';
import {
	cronField,
	emailField,
	goalField,
	judgeField,
	monitorIdField,
	nameField,
	retentionField,
	scheduleTextField,
	statusField,
	targetsField,
	targetsJsonField,
	timezoneField,
	webhookField,
} from './fields';
import { readUpdateInput } from './form';

/**
 * Monitor → Update: PATCH /v2/monitor/{id} with only the fields added (at least one). Pause and
 * resume through Status. New targets replace all targets.
 */
export const update: Operation = {
	properties: [
		monitorIdField,
		{
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			description: 'The fields to change; anything not added stays as it is',
			options: [
				cronField,
				emailField,
				goalField,
				judgeField,
				nameField,
				retentionField,
				{ ...scheduleTextField, description: `${scheduleTextField.description} Give it or Cron Expression, not both.` },
				statusField,
				{ ...targetsField, description: 'New targets; they replace all current targets (1 to 50 in all)' },
				{ ...targetsJsonField, description: `New targets as JSON; they replace all current targets. ${targetsJsonField.description}` },
				{ ...timezoneField, description: 'The IANA time zone of the new schedule (with Schedule or Cron Expression)' },
				webhookField,
			],
		},
	],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const monitorId = readMonitorId(this, i);
		const body = buildMonitorBody(this.getNode(), readUpdateInput(this, i), 'update', i);
		return [{ json: await updateMonitor(this, monitorId, body, i, run?.transportDeps) }];
	},
};
