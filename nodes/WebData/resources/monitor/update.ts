import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { applyCustomBody, customBodyOption } from '../../fields/customBody';
import type { Operation, RunContext } from '../../types';
import { getMonitor, readMonitorId, updateMonitor } from '../../../shared/monitor/api';
import { buildMonitorBody, refuseUnreachableWebhook } from '../../../shared/monitor/body';
import { dailyCeiling, maxCreditsPerDayField, monitorDailyEstimate, withinDailyLimit } from '../../../shared/monitor/estimate';
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

const updateOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			...maxCreditsPerDayField,
			description:
				'Do not change the monitor when, after the change, its schedule and targets may cost more credits a day than this (0: no limit), by the service\'s monitor estimate: each check visits every page, 1 credit a page (5 with a JSON format), twice when judged against a Goal. The monitor is read once first.',
		},
	],
};

/**
 * Monitor → Update: PATCH /v2/monitor/{id} with only the fields added (at least one). Pause and
 * resume through Status. New targets replace all targets.
 */
export const update: Operation = {
	tool: { description: `Changes the page monitor set in this node as the node says. ${NOT_FOR_MODEL} Call it only when the user asks for this change.` },
	bodyKeys: { schedule: ['scheduleText', 'cron', 'timezone'], notification: ['emailNotification'], targets: ['targetsJson'] },
	properties: [monitorIdField, updateFields, updateOptions],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const monitorId = readMonitorId(this, i);
		const body = applyCustomBody(this, i, update, buildMonitorBody(this.getNode(), readUpdateInput(this, i), 'update', i));
		const ceiling = dailyCeiling(this.getNode(), (this.getNodeParameter('options', i, {}) as IDataObject).maxCreditsPerDay, i);
		await refuseUnreachableWebhook(this, body, i);
		if (ceiling > 0) {
			// The monitor as the change leaves it (a patch replaces each field it has whole); a paused one costs nothing.
			const after = { ...(await getMonitor(this, monitorId, i, run?.transportDeps)), ...body };
			if (after.status !== 'paused') withinDailyLimit(this.getNode(), after, ceiling, i, 'It was not changed: nothing was sent but one read of the monitor.');
		}
		const monitor = await updateMonitor(this, monitorId, body, i, run?.transportDeps);
		const daily = monitor.status === 'paused' ? undefined : monitorDailyEstimate(monitor);
		return [{ json: daily ? { ...monitor, dailyEstimate: daily } : monitor }];
	},
};
