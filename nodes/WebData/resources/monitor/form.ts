import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

import { invalid } from '../../helpers/validation';
import type { EmailInput, MonitorInput, WebhookInput } from '../../../shared/monitor/body';
import { formLabeler, jsonLabeler, parseTargetsJson, targetsFromForm } from '../../../shared/monitor/targets';
import { timezoneOrWorkflowZone } from '../../../shared/monitor/schedule';
import { isPlainObject } from '../../helpers/objects';

/** Turns what the node's form holds into a MonitorInput for buildMonitorBody. */

/** The Webhook fixed collection ({settings: {url, events, headers: {header: []}, metadata: {entry: []}}}). */
export function webhookFromForm(value: unknown): WebhookInput | undefined {
	const settings = isPlainObject(value) ? value.settings : undefined;
	if (!isPlainObject(settings)) return undefined;
	return {
		url: settings.url,
		events: settings.events,
		headers: isPlainObject(settings.headers) ? settings.headers.header : undefined,
		metadata: isPlainObject(settings.metadata) ? settings.metadata.entry : undefined,
	};
}

/** The E-Mail Notification fixed collection ({email: {enabled, includeDiffs, recipients}}). */
export function emailFromForm(value: unknown): EmailInput | undefined {
	const email = isPlainObject(value) ? value.email : undefined;
	if (!isPlainObject(email)) return undefined;
	return { enabled: email.enabled, includeDiffs: email.includeDiffs, recipients: email.recipients };
}

/** Targets from the form's groups or from the JSON field. */
export function targetsFromParameters(node: INode, source: 'fields' | 'json', form: unknown, json: unknown, i: number): MonitorInput['targets'] {
	if (source === 'json') {
		return { list: parseTargetsJson(node, json, 'Targets (JSON)', i), label: jsonLabeler(), field: 'Targets (JSON)' };
	}
	const { targets, numberInGroup } = targetsFromForm(form);
	return { list: targets, label: formLabeler('Targets', numberInGroup), field: 'Targets' };
}

/** Monitor → Create: the form as a MonitorInput. */
export function readCreateInput(ctx: IExecuteFunctions, i: number): MonitorInput {
	const node = ctx.getNode();
	const goal = ctx.getNodeParameter('goal', i, '');
	const judge = ctx.getNodeParameter('judgeEnabled', i, true);
	const mode = ctx.getNodeParameter('scheduleMode', i, 'text');
	if (mode !== 'text' && mode !== 'cron') throw invalid(node, 'Schedule Type', mode, 'choose In Words or Cron Expression', i);
	const source = ctx.getNodeParameter('targetsSource', i, 'fields');
	if (source !== 'fields' && source !== 'json') throw invalid(node, 'Define Targets', source, 'choose Using the Form or Using JSON', i);
	const options = ctx.getNodeParameter('options', i, {}) as IDataObject;

	const input: MonitorInput = {
		name: ctx.getNodeParameter('name', i, ''),
		goal,
		schedule: {
			text: mode === 'text' ? ctx.getNodeParameter('scheduleText', i, '') : undefined,
			cron: mode === 'cron' ? ctx.getNodeParameter('cron', i, '') : undefined,
			// Empty (the default): the workflow's time zone.
			timezone: timezoneOrWorkflowZone(ctx.getNodeParameter('timezone', i, ''), () => ctx.getTimezone()),
		},
		targets: targetsFromParameters(
			node,
			source,
			source === 'fields' ? ctx.getNodeParameter('targets', i, {}) : undefined,
			source === 'json' ? ctx.getNodeParameter('targetsJson', i, '') : undefined,
			i,
		),
	};
	// Judging needs a goal: with no goal, "on" (the default) means nothing to judge, so it is not sent;
	// "off" is sent only when the user set it. Judging is never switched off on the user's behalf: a
	// search target without a goal is refused before sending (buildMonitorBody), as the service does.
	const hasGoal = typeof goal === 'string' ? goal.trim() !== '' : goal !== undefined && goal !== null;
	if (hasGoal || judge !== true) input.judgeEnabled = judge;
	if (options.retentionDays !== undefined) input.retentionDays = options.retentionDays;
	const webhook = webhookFromForm(options.webhook);
	if (webhook) input.webhook = webhook;
	const email = emailFromForm(options.emailNotification);
	if (email) input.email = email;
	return input;
}

/** Monitor → Update: only the fields added under Update Fields. */
export function readUpdateInput(ctx: IExecuteFunctions, i: number): MonitorInput {
	const node = ctx.getNode();
	const f = ctx.getNodeParameter('updateFields', i, {}) as IDataObject;
	const input: MonitorInput = {};
	if (f.name !== undefined) input.name = f.name;
	if (f.goal !== undefined) input.goal = f.goal;
	if (f.judgeEnabled !== undefined) input.judgeEnabled = f.judgeEnabled;
	if (f.status !== undefined) input.status = f.status;
	if (f.scheduleText !== undefined || f.cron !== undefined || f.timezone !== undefined) {
		if (f.scheduleText === undefined && f.cron === undefined) {
			throw invalid(
				node,
				'Time Zone',
				f.timezone,
				'a schedule change needs "Schedule" (text) or "Cron Expression" as well; add one of them with the time zone',
				i,
			);
		}
		// A new schedule without a time zone (empty or not added) is read in the workflow's time zone.
		const timezone = timezoneOrWorkflowZone(f.timezone, () => ctx.getTimezone());
		input.schedule = { text: f.scheduleText, cron: f.cron, timezone };
	}
	const hasForm = isPlainObject(f.targets) && Object.values(f.targets).some((g) => Array.isArray(g) && g.length > 0);
	if (hasForm && f.targetsJson !== undefined) {
		throw invalid(node, 'Targets (JSON)', f.targetsJson, 'give the new targets either with "Targets" or with "Targets (JSON)", not both', i);
	}
	if (f.targetsJson !== undefined) input.targets = targetsFromParameters(node, 'json', undefined, f.targetsJson, i);
	else if (f.targets !== undefined) input.targets = targetsFromParameters(node, 'fields', f.targets, undefined, i);
	if (f.retentionDays !== undefined) input.retentionDays = f.retentionDays;
	if (f.webhook !== undefined) {
		const webhook = webhookFromForm(f.webhook);
		if (webhook) input.webhook = webhook;
	}
	if (f.emailNotification !== undefined) {
		const email = emailFromForm(f.emailNotification);
		if (email) input.email = email;
	}
	return input;
}
