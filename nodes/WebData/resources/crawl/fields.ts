import type { IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';

import { invalid } from '../../helpers/validation';
import { requireHttpUrl } from '../../fields/scrapeOptions';
import { nonTextMetadataKey } from '../../fields/serverRules';
import { buildEventWebhook, markWebhookField, TRIGGER_TARGET_BODY_KEYS } from '../../jobs/triggerTarget';

/** Webhook options shared by Crawl and Batch Scrape (`webhook` object of their bodies). */
/** The job's `webhook`, set by the Webhook options and the trigger target (an operation's bodyKeys). */
export const JOB_WEBHOOK_BODY_KEYS = { webhook: [...TRIGGER_TARGET_BODY_KEYS.webhook, 'webhookUrl', 'webhookEvents', 'webhookMetadata'] } as const;

export function webhookOptions(noun: string, eventPrefix: string): INodeProperties[] {
	// In alphabetical order, as the panel lists them.
	return [
		{
			displayName: 'Webhook Events',
			name: 'webhookEvents',
			type: 'multiOptions',
			default: [],
			description: 'Which events to send to the Webhook URL (none chosen: all). Send Events to Web Data Trigger has its own Events.',
			options: [
				{ name: 'Completed', value: 'completed' },
				{ name: 'Failed', value: 'failed' },
				{ name: 'Page', value: 'page' },
				{ name: 'Started', value: 'started' },
			],
		},
		{
			displayName: 'Webhook Metadata',
			name: 'webhookMetadata',
			type: 'json',
			default: '{}',
			description: 'A JSON object of text values included in every call to the Webhook URL, e.g. {"runId": "42"}. Needs a Webhook URL; with Send Events to Web Data Trigger, use Run Metadata.',
		},
		{
			displayName: 'Webhook URL',
			name: 'webhookUrl',
			type: 'string',
			default: '',
			placeholder: 'e.g. https://example.com/hooks/web-data',
			description: `Any http(s) address outside n8n's Web Data Trigger that the service calls as the ${noun} starts, for each page, and when it ends (events ${eventPrefix}.started, ${eventPrefix}.page, ${eventPrefix}.completed, ${eventPrefix}.failed). To start another n8n workflow, use Send Events to Web Data Trigger instead (one or the other).`,
		},
	];
}

const EVENTS = ['completed', 'failed', 'page', 'started'];

/** The `webhook` object from the webhook options, or undefined when no Webhook URL is set. */
export function buildWebhook(node: INode, options: IDataObject, i: number): IDataObject | undefined {
	const url = typeof options.webhookUrl === 'string' ? options.webhookUrl.trim() : '';
	const events = options.webhookEvents;
	const rawMeta = options.webhookMetadata;
	let metadata: IDataObject | undefined;
	if (rawMeta !== undefined && rawMeta !== '' && rawMeta !== '{}') {
		let parsed: unknown = rawMeta;
		if (typeof rawMeta === 'string') {
			try {
				parsed = JSON.parse(rawMeta);
			} catch {
				throw invalid(node, 'Webhook Metadata', rawMeta, 'it must be a JSON object such as {"source": "n8n"}', i);
			}
		}
		if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
			throw invalid(node, 'Webhook Metadata', rawMeta, 'it must be a JSON object such as {"source": "n8n"}', i);
		}
		// services/webhook/schema.ts (createWebhookSchema): `metadata: z.record(z.string(), z.string())`.
		const key = nonTextMetadataKey(parsed as IDataObject);
		if (key !== undefined) {
			throw invalid(node, `Webhook Metadata → ${key}`, (parsed as IDataObject)[key], 'every value must be text: put it in quotes, e.g. {"runId": "42"}', i);
		}
		if (Object.keys(parsed).length) metadata = parsed as IDataObject;
	}
	const hasEvents = Array.isArray(events) && events.length > 0;
	if (url === '') {
		if (hasEvents || metadata) throw invalid(node, 'Webhook URL', url, 'set it to use Webhook Events or Webhook Metadata', i);
		return undefined;
	}
	const webhook = markWebhookField({ url: requireHttpUrl(node, 'Webhook URL', url, i) }, 'Webhook URL');
	if (events !== undefined && !Array.isArray(events)) throw invalid(node, 'Webhook Events', events, `a list of ${EVENTS.join(', ')}`, i);
	if (hasEvents) {
		for (const e of events) if (!EVENTS.includes(String(e))) throw invalid(node, 'Webhook Events', e, `choose from ${EVENTS.join(', ')}`, i);
		webhook.events = events;
	}
	if (metadata) webhook.metadata = metadata;
	return webhook;
}

/** A whole number in [min, max], or throws naming the field. */
export function checkInt(node: INode, field: string, raw: unknown, min: number, max: number, i: number): number {
	const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
	if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
		throw invalid(node, field, raw, `it must be a whole number from ${min} to ${max}`, i);
	}
	return n;
}

export const maxConcurrencyOption = (noun: string): INodeProperties => ({
	displayName: 'Max Concurrency',
	name: 'maxConcurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 1000, numberPrecision: 0 },
	default: 5,
	description: `How many pages of this ${noun} may be scraped at the same time (default: your plan's limit)`,
});

export const zeroDataRetentionOption: INodeProperties = {
	displayName: 'Zero Data Retention',
	name: 'zeroDataRetention',
	type: 'boolean',
	default: false,
	description: 'Whether the service keeps no copy of the pages (must be enabled for your team by the service)',
};

/** Reads the job-level options that both resources share into `body`. */
export function applySharedOptions(node: INode, options: IDataObject, body: IDataObject, i: number): void {
	if (options.maxConcurrency !== undefined) body.maxConcurrency = checkInt(node, 'Max Concurrency', options.maxConcurrency, 1, 1000, i);
	if (options.zeroDataRetention !== undefined) {
		if (typeof options.zeroDataRetention !== 'boolean') throw invalid(node, 'Zero Data Retention', options.zeroDataRetention, 'true or false', i);
		body.zeroDataRetention = options.zeroDataRetention;
	}
	// Send Events to Web Data Trigger, Run Metadata and the Webhook options (jobs/triggerTarget.ts).
	const webhook = buildEventWebhook(node, options, 'crawl', i, (o) => buildWebhook(node, o, i));
	if (webhook) body.webhook = webhook;
}

/** Reads the `options` collection. */
export function readOptions(ctx: IExecuteFunctions, i: number): IDataObject {
	const options = ctx.getNodeParameter('options', i, {});
	return options !== null && typeof options === 'object' && !Array.isArray(options) ? (options as IDataObject) : {};
}
