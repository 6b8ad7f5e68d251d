import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { applyCustomBody, customBodyOption } from '../../fields/customBody';
import type { Operation, RunContext } from '../../types';
import { readMonitorId, updateMonitor } from '../../../shared/monitor/api';
import { buildMonitorBody, refuseUnreachableWebhook } from '../../../shared/monitor/body';
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
} from '../../../shared/monitor/fields';
import { readUpdateInput } from './form';
import { TIMEZONE_HELP } from '../../../shared/monitor/schedule';
import { NOT_FOR_MODEL } from './toolFields';

/** The Update Fields collection. */
const updateFields: INodeProperties = {
	displayName: 'Update Fields',
	name: 'updateFields',
	type: 'collection',
	placeholder: 'Add Field',
	default: {},
	description: 'The fields to change; anything not added stays as it is',
	options: [
		cronField,
		customBodyOption,
		emailField,
		goalField,
		judgeField,
		nameField,
		retentionField,
		{ ...scheduleTextField, description: `${scheduleTextField.description} Give it or Cron Expression, not both.` },
		statusField,
		{ ...targetsField, description: 'New targets; they replace all current targets (1 to 50 in all)' },
		{ ...targetsJsonField, description: `New targets as JSON; they replace all current targets. ${targetsJsonField.description}` },
		{
			...timezoneField,
			description: `The IANA time zone of the new schedule (with Schedule or Cron Expression). Empty or not added: this workflow's time zone (the n8n instance's, unless the workflow's settings set one), read when the node runs. ${TIMEZONE_HELP}`,
		},
		webhookField,
	],
};

/**
 * Monitor → Update: PATCH /v2/monitor/{id} with only the fields added (at least one). Pause and
 * resume through Status. New targets replace all targets.
 */
export const update: Operation = {
	tool: { description: `Changes the page monitor set in this node as the node says. ${NOT_FOR_MODEL} Call it only when the user asks for this change.` },
	bodyKeys: { schedule: ['scheduleText', 'cron', 'timezone'], notification: ['emailNotification'], targets: ['targetsJson'] },
	properties: [monitorIdField, updateFields],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const monitorId = readMonitorId(this, i);
		const body = applyCustomBody(this, i, update, buildMonitorBody(this.getNode(), readUpdateInput(this, i), 'update', i));
		await refuseUnreachableWebhook(this, body, i);
		return [{ json: await updateMonitor(this, monitorId, body, i, run?.transportDeps) }];
	},
};
