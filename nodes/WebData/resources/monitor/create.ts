import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { applyCustomBody, customBodyOption } from '../../fields/customBody';
import type { Operation, RunContext } from '../../types';
import { buildMonitorBody, refuseUnreachableWebhook } from '../../../shared/monitor/body';
import { createMonitor } from '../../../shared/monitor/api';
import { maxCreditsPerDayField, withinDailyLimit } from '../../../shared/monitor/estimate';
import {
	cronField,
	emailField,
	createGoalField,
	createJudgeField,
	nameField,
	retentionField,
	scheduleTextField,
	targetsField,
	targetsJsonField,
	timezoneField,
	webhookField,
} from '../../../shared/monitor/fields';
import { readCreateInput } from './form';
import { DEFAULT_CRON, DEFAULT_SCHEDULE_TEXT } from '../../../shared/monitor/schedule';
import { NOT_FOR_MODEL } from './toolFields';

const properties: INodeProperties[] = [
	// Required fields come filled in (the workflow's name, the trigger's schedule), so a first run needs only a target.
	{ ...nameField, required: true, default: '={{ $workflow.name }}', description: `${nameField.description}; by default the name of this workflow` },
	// "Judge Changes Against Goal" only once a Goal is written.
	createGoalField,
	{ ...createJudgeField, displayOptions: { hide: { goal: [''] } } },
	{
		displayName: 'Schedule Type',
		name: 'scheduleMode',
		type: 'options',
		default: 'text',
		description: 'How to say when checks run',
		options: [
			{ name: 'Cron Expression', value: 'cron', description: 'A five-field cron expression such as "0 9 * * 1-5"' },
			{ name: 'In Words', value: 'text', description: 'Words such as "every 30 minutes" or "daily at 9am"' },
		],
	},
	{ ...scheduleTextField, required: true, default: DEFAULT_SCHEDULE_TEXT, displayOptions: { show: { scheduleMode: ['text'] } } },
	{ ...cronField, required: true, default: DEFAULT_CRON, displayOptions: { show: { scheduleMode: ['cron'] } } },
	timezoneField,
	{
		displayName: 'Define Targets',
		name: 'targetsSource',
		type: 'options',
		default: 'fields',
		description: 'How to give the pages, crawls and searches to watch',
		options: [
			{ name: 'Using the Form', value: 'fields', description: 'Add scrape, crawl and search targets below' },
			{ name: 'Using JSON', value: 'json', description: 'Give the target list as the API takes it' },
		],
	},
	// n8n marks no empty fixedCollection as missing: nodes/FACTS.md "n8n editor behaviour".
	{
		displayName: 'Add at least one target below: the pages, sites or web searches to watch',
		name: 'targetsMissingNotice',
		type: 'notice',
		default: '',
		displayOptions: {
			show: { targetsSource: ['fields'] },
			// Root paths ('/…'): n8n 1.x cannot order a rule on a dotted name that is no parameter of
			// this level ("Could not resolve parameter dependencies") and refuses every Web Data node.
			hide: { '/targets.scrape': [{ _cnd: { exists: true } }], '/targets.crawl': [{ _cnd: { exists: true } }], '/targets.search': [{ _cnd: { exists: true } }] },
		},
	},
	{ ...targetsField, required: true, displayOptions: { show: { targetsSource: ['fields'] } } },
	{ ...targetsJsonField, displayOptions: { show: { targetsSource: ['json'] } } },
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [customBodyOption, emailField, maxCreditsPerDayField, retentionField, webhookField],
	},
];

/** Monitor → Create: POST /v2/monitor with every rule checked first; outputs the monitor record. */
export const create: Operation = {
	tool: {
		description: `Creates the page monitor set in this node, one more on every call (each of its checks costs credits). ${NOT_FOR_MODEL} Call it only when the user asks for this monitor.`,
	},
	bodyKeys: { schedule: ['scheduleText', 'cron', 'timezone'], notification: ['emailNotification'], targets: ['targetsJson', 'targetsSource'] },
	properties,
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const body = applyCustomBody(this, i, create, buildMonitorBody(this.getNode(), readCreateInput(this, i), 'create', i));
		// Issue 35.5: over the option's ceiling nothing is created.
		const daily = withinDailyLimit(this.getNode(), body, (this.getNodeParameter('options', i, {}) as IDataObject).maxCreditsPerDay, i);
		await refuseUnreachableWebhook(this, body, i);
		const monitor = await createMonitor(this, body, i, run?.transportDeps);
		return [{ json: daily ? { ...monitor, dailyEstimate: daily } : monitor }];
	},
};
