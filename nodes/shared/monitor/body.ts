import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

import { HEADER_NAME, isReservedWebhookHeader, RESERVED_WEBHOOK_HEADER_RULE } from '../../WebData/fields/serverRules';
import { hideSecrets, invalid, isHttpUrl, refuseUnreachable } from '../../WebData/helpers/validation';
import { serviceBaseUrl } from '../../WebData/transport';
import { buildSchedule, type ScheduleInput } from './schedule';
import { checkBoolean, checkTargets, hasSearchTarget, splitList, type Fail, type TargetLabeler } from './targets';
import { isPlainObject } from '../../WebData/helpers/objects';

/** Monitor body blocks, each checked before anything is sent (the trigger reuses `buildWebhook`). */

export const MAX_NAME_LENGTH = 256;
export const MAX_GOAL_LENGTH = 2000;
export const MIN_RETENTION_DAYS = 1;
export const MAX_RETENTION_DAYS = 365;
export const MAX_EMAIL_RECIPIENTS = 25;
export const WEBHOOK_EVENTS = ['monitor.page', 'monitor.check.completed'];
export const MONITOR_STATUSES = ['active', 'paused'];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** As the node's form shows them. */
export const FIELD = {
	name: 'Name',
	goal: 'Goal',
	judgeEnabled: 'Judge Changes Against Goal',
	retentionDays: 'Retention Days',
	webhookUrl: 'Webhook URL',
	webhookEvents: 'Webhook Events',
	webhookHeaders: 'Webhook Headers',
	webhookMetadata: 'Webhook Metadata',
	emailRecipients: 'E-Mail Recipients',
	emailEnabled: 'E-Mail Notification → Enabled',
	emailIncludeDiffs: 'E-Mail Notification → Include Diffs',
	status: 'Status',
};

function text(value: unknown): string {
	if (value === undefined || value === null) return '';
	return typeof value === 'string' ? value : String(value);
}

export function checkName(node: INode, value: unknown, itemIndex?: number, field = FIELD.name): string {
	const name = text(value).trim();
	if (name === '') throw invalid(node, field, value ?? '', 'it is required; give the monitor a name', itemIndex);
	if (name.length > MAX_NAME_LENGTH) {
		throw invalid(node, field, name, `it has ${name.length} characters; at most ${MAX_NAME_LENGTH} are allowed`, itemIndex);
	}
	return name;
}

/** '' when blank. */
export function checkGoal(node: INode, value: unknown, itemIndex?: number, field = FIELD.goal): string {
	const goal = text(value).trim();
	if (goal.length > MAX_GOAL_LENGTH) {
		throw invalid(node, field, goal, `it has ${goal.length} characters; at most ${MAX_GOAL_LENGTH} are allowed. Shorten it.`, itemIndex);
	}
	return goal;
}

export function checkRetentionDays(node: INode, value: unknown, itemIndex?: number, field = FIELD.retentionDays): number {
	const days = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof days !== 'number' || !Number.isInteger(days) || days < MIN_RETENTION_DAYS || days > MAX_RETENTION_DAYS) {
		throw invalid(node, field, value, `it must be a whole number of days from ${MIN_RETENTION_DAYS} to ${MAX_RETENTION_DAYS}`, itemIndex);
	}
	return days;
}

/** Fails as `invalid` does, for the field named. */
function failAt(node: INode, itemIndex?: number): Fail {
	return (field, value, rule) => invalid(node, field, value, rule, itemIndex);
}

/** An object, or a list of {name, value} / {key, value} entries. */
function pairs(value: unknown): Array<[string, unknown]> {
	if (value === undefined || value === null || value === '') return [];
	if (Array.isArray(value)) {
		return value.map((entry: IDataObject) => [text(entry?.name ?? entry?.key).trim(), entry?.value]);
	}
	if (isPlainObject(value)) return Object.entries(value).map(([k, v]) => [k.trim(), v]);
	return [['', value]];
}

export interface WebhookInput {
	url: unknown;
	/** Undefined sends none; the service then sends both kinds. */
	events?: unknown;
	headers?: unknown;
	/** Sent as strings. */
	metadata?: unknown;
}

/** The service accepts strings only. */
export function metadataValue(value: unknown): string {
	if (typeof value === 'string') return value;
	if (value === undefined || value === null) return '';
	if (typeof value === 'object') return JSON.stringify(value);
	return String(value);
}

/** Never the service's own headers. */
export function buildWebhook(node: INode, input: WebhookInput, itemIndex?: number): IDataObject {
	const url = text(input.url).trim();
	if (!isHttpUrl(url)) {
		throw invalid(node, FIELD.webhookUrl, hideSecrets(url), 'it must be an absolute URL that starts with http:// or https://', itemIndex);
	}
	const webhook: IDataObject = { url };

	if (input.events !== undefined && input.events !== null) {
		const events = typeof input.events === 'string' ? splitList(input.events) : input.events;
		if (!Array.isArray(events) || events.length === 0) {
			throw invalid(node, FIELD.webhookEvents, input.events, `choose at least one of ${WEBHOOK_EVENTS.join(', ')}`, itemIndex);
		}
		const unknown = events.find((e) => !WEBHOOK_EVENTS.includes(e as string));
		if (unknown !== undefined) {
			throw invalid(node, FIELD.webhookEvents, unknown, `monitor webhooks send only ${WEBHOOK_EVENTS.join(' and ')}`, itemIndex);
		}
		webhook.events = WEBHOOK_EVENTS.filter((e) => events.includes(e));
	}

	const headerPairs = pairs(input.headers);
	if (headerPairs.length) {
		const headers: IDataObject = {};
		const seen = new Set<string>();
		for (const [name, value] of headerPairs) {
			if (!HEADER_NAME.test(name)) {
				throw invalid(node, FIELD.webhookHeaders, name, 'each header needs a name made of letters, digits and - (e.g. "Authorization")', itemIndex);
			}
			if (isReservedWebhookHeader(name)) throw invalid(node, FIELD.webhookHeaders, name, RESERVED_WEBHOOK_HEADER_RULE, itemIndex);
			if (seen.has(name.toLowerCase())) throw invalid(node, FIELD.webhookHeaders, name, 'each header name may appear only once', itemIndex);
			seen.add(name.toLowerCase());
			if (value !== null && typeof value === 'object') {
				throw invalid(node, FIELD.webhookHeaders, '[hidden]', `the value of header "${name}" must be text`, itemIndex);
			}
			headers[name] = metadataValue(value);
		}
		webhook.headers = headers;
	}

	const metadataPairs = pairs(input.metadata);
	if (metadataPairs.length) {
		const metadata: IDataObject = {};
		for (const [key, value] of metadataPairs) {
			if (key === '') throw invalid(node, FIELD.webhookMetadata, value, 'each metadata entry needs a key', itemIndex);
			if (key in metadata) throw invalid(node, FIELD.webhookMetadata, key, 'each metadata key may appear only once', itemIndex);
			metadata[key] = metadataValue(value);
		}
		webhook.metadata = metadata;
	}
	return webhook;
}

/** The service does not call private addresses: checked against the credential's Base URL (FACTS.md "Trigger"). */
export async function refuseUnreachableWebhook(ctx: IExecuteFunctions, body: IDataObject, itemIndex: number): Promise<void> {
	const url = isPlainObject(body.webhook) ? body.webhook.url : undefined;
	if (typeof url === 'string') refuseUnreachable(ctx.getNode(), FIELD.webhookUrl, url, await serviceBaseUrl(ctx, itemIndex), itemIndex);
}

export interface EmailInput {
	enabled?: unknown;
	includeDiffs?: unknown;
	/** A list, or text separated by commas, semicolons or new lines; empty: the team's members. */
	recipients?: unknown;
}

/** Spec 2.9. */
export function buildNotification(node: INode, email: EmailInput, itemIndex?: number): IDataObject {
	const out: IDataObject = {};
	if (email.enabled !== undefined) out.enabled = checkBoolean(failAt(node, itemIndex), FIELD.emailEnabled, email.enabled);
	if (email.includeDiffs !== undefined) out.includeDiffs = checkBoolean(failAt(node, itemIndex), FIELD.emailIncludeDiffs, email.includeDiffs);
	const recipients = splitList(email.recipients, /[\s,;]+/);
	if (recipients.length) {
		const bad = recipients.find((r) => !EMAIL.test(r));
		if (bad !== undefined) throw invalid(node, FIELD.emailRecipients, bad, 'each recipient must be an e-mail address such as ana@example.com', itemIndex);
		const unique = recipients.filter((r, n) => recipients.findIndex((o) => o.toLowerCase() === r.toLowerCase()) === n);
		if (unique.length > MAX_EMAIL_RECIPIENTS) {
			throw invalid(node, FIELD.emailRecipients, `${unique.length} addresses`, `at most ${MAX_EMAIL_RECIPIENTS} recipients are allowed`, itemIndex);
		}
		out.recipients = unique;
	}
	return { email: out };
}

/** `undefined` means "not given". */
export interface MonitorInput {
	name?: unknown;
	goal?: unknown;
	judgeEnabled?: unknown;
	schedule?: ScheduleInput;
	scheduleLabels?: Parameters<typeof buildSchedule>[3];
	targets?: { list: unknown; label: TargetLabeler; field: string };
	retentionDays?: unknown;
	webhook?: WebhookInput;
	email?: EmailInput;
	/** Update only. */
	status?: unknown;
}

/** Update sends only what is given; a blank goal clears. */
export function buildMonitorBody(node: INode, input: MonitorInput, mode: 'create' | 'update', itemIndex?: number): IDataObject {
	const body: IDataObject = {};
	const create = mode === 'create';

	if (create || input.name !== undefined) body.name = checkName(node, input.name, itemIndex);

	let goal: string | undefined;
	if (input.goal !== undefined) {
		goal = checkGoal(node, input.goal, itemIndex);
		if (goal !== '') body.goal = goal;
		else if (!create) body.goal = null;
	}

	if (input.judgeEnabled !== undefined) {
		const judge = checkBoolean(failAt(node, itemIndex), FIELD.judgeEnabled, input.judgeEnabled);
		if (judge && goal === '') {
			throw invalid(node, FIELD.judgeEnabled, true, 'judging compares changes with the goal, so it needs a non-empty Goal; write a goal or switch judging off', itemIndex);
		}
		body.judgeEnabled = judge;
	}

	if (create || input.schedule !== undefined) {
		body.schedule = buildSchedule(node, input.schedule ?? {}, itemIndex, input.scheduleLabels);
	}

	if (create || input.targets !== undefined) {
		const t = input.targets ?? { list: [], label: () => 'Targets', field: 'Targets' };
		body.targets = checkTargets(node, t.list, t.label, t.field, itemIndex);
		// Spec 2.9: on update without a goal, the service checks the goal it has.
		if (hasSearchTarget(body.targets) && (create || goal !== undefined) && !goal && body.judgeEnabled !== false) {
			const n = (body.targets as IDataObject[]).findIndex((x) => x.type === 'search');
			throw invalid(
				node,
				FIELD.goal,
				goal ?? '',
				// Create shows the judging switch only with a Goal, so only Update can offer switching it off.
				`a search target (${t.label(n, 'search', '')}) needs a goal to judge new results against (the service refuses it without one); write a Goal${create ? '' : `, or switch "${FIELD.judgeEnabled}" off`}`,
				itemIndex,
			);
		}
	}

	if (input.retentionDays !== undefined) body.retentionDays = checkRetentionDays(node, input.retentionDays, itemIndex);
	if (input.webhook !== undefined) body.webhook = buildWebhook(node, input.webhook, itemIndex);
	if (input.email !== undefined) body.notification = buildNotification(node, input.email, itemIndex);

	if (input.status !== undefined) {
		if (create) throw invalid(node, FIELD.status, input.status, 'a new monitor always starts active; pause it with Update', itemIndex);
		if (typeof input.status !== 'string' || !MONITOR_STATUSES.includes(input.status)) {
			throw invalid(node, FIELD.status, input.status, `it must be ${MONITOR_STATUSES.join(' or ')}`, itemIndex);
		}
		body.status = input.status;
	}

	if (!create && Object.keys(body).length === 0) {
		throw invalid(node, 'Update Fields', {}, 'add at least one field to change (the service refuses an empty update)', itemIndex);
	}
	return body;
}
