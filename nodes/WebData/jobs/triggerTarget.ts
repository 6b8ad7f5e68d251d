import type { IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';

import { hideSecrets, invalid, refuseUnreachable } from '../helpers/validation';
import { requireHttpUrl } from '../fields/scrapeOptions';
import { serviceBaseUrl } from '../transport';
import { credentialSigningSecret, TRIGGER_TOKEN_HEADER, TRIGGER_TOKEN_QUERY as TOKEN_QUERY } from '../../shared/signature';

/** "Send Events to Web Data Trigger": the token goes in a header, never in a URL (FACTS.md "Webhook deliveries"). */

export type EventJob = 'crawl' | 'batch' | 'agent';

const EVENTS: Record<EventJob, Array<{ name: string; value: string; description?: string }>> = {
	crawl: [
		{ name: 'Completed', value: 'completed' },
		{ name: 'Failed', value: 'failed' },
		{ name: 'Page', value: 'page', description: 'One event per page, as it is scraped' },
		{ name: 'Started', value: 'started' },
	],
	batch: [
		{ name: 'Completed', value: 'completed' },
		{ name: 'Failed', value: 'failed' },
		{ name: 'Page', value: 'page', description: 'One event per page, as it is scraped' },
		{ name: 'Started', value: 'started' },
	],
	agent: [
		{ name: 'Action', value: 'action', description: 'The agent did a step (search, scrape, …)' },
		{ name: 'Cancelled', value: 'cancelled' },
		{ name: 'Completed', value: 'completed', description: 'With the result' },
		{ name: 'Failed', value: 'failed' },
		{ name: 'Started', value: 'started' },
	],
};
const DEFAULT_EVENTS: Record<EventJob, string[]> = {
	crawl: ['page', 'completed', 'failed'],
	batch: ['page', 'completed', 'failed'],
	agent: ['completed', 'failed', 'cancelled'],
};
const PREFIX: Record<EventJob, string> = { crawl: 'crawl', batch: 'batch_scrape', agent: 'agent' };
const NOUN: Record<EventJob, string> = { crawl: 'crawl', batch: 'batch scrape', agent: 'agent run' };

export const SEND_TO_TRIGGER = 'Send Events to Web Data Trigger';
export const TRIGGER_URL = 'Trigger Production URL';
export const TRIGGER_TOKEN = 'Trigger Token';
export const RUN_METADATA = 'Run Metadata';

function sendToTriggerDescription(job: EventJob): string {
	const start = `Start another n8n workflow on this ${NOUN[job]}'s events: its Web Data Trigger (Source: Job Events) gets one execution per event (one per page). Activate that workflow first.`;
	if (job === 'agent') return start;
	return `${start} To send events to any other address, use Webhook URL instead (one or the other: a job has one webhook).`;
}

/** An operation's bodyKeys. */
export const TRIGGER_TARGET_BODY_KEYS = { webhook: ['sendToTrigger', 'runMetadata'] } as const;

export function triggerTargetOptions(job: EventJob): INodeProperties[] {
	return [
		{
			displayName: RUN_METADATA,
			name: 'runMetadata',
			type: 'fixedCollection',
			placeholder: 'Add Value',
			typeOptions: { multipleValues: true },
			default: {},
			description: `Names and text values sent with every event of this ${NOUN[job]}, e.g. run = nightly. The receiving workflow finds them in "webhookMetadata". Numbers and true/false are sent as text. Needs ${SEND_TO_TRIGGER}${job === 'agent' ? '' : ' or a Webhook URL'}.`,
			options: [
				{
					displayName: 'Value',
					name: 'values',
					values: [
						{ displayName: 'Name', name: 'name', type: 'string', default: '', placeholder: 'e.g. run' },
						{ displayName: 'Value', name: 'value', type: 'string', default: '', placeholder: 'e.g. nightly' },
					],
				},
			],
		},
		{
			displayName: SEND_TO_TRIGGER,
			name: 'sendToTrigger',
			type: 'fixedCollection',
			placeholder: 'Add Web Data Trigger',
			default: {},
			description: sendToTriggerDescription(job),
			options: [
				{
					displayName: 'Web Data Trigger',
					name: 'trigger',
					values: [
						{
							displayName: TRIGGER_URL,
							name: 'url',
							type: 'string',
							default: '',
							placeholder: 'e.g. https://n8n.example.com/webhook/8c1d5e2f-…/webhook',
							description:
								'The Production URL shown at the top of the Web Data Trigger (Source: Job Events) in the receiving workflow. The service must be able to reach it.',
						},
						{
							displayName: TRIGGER_TOKEN,
							name: 'token',
							type: 'string',
							typeOptions: { password: true },
							default: '',
							description: `The Token set on that Web Data Trigger, sent with every event in the ${TRIGGER_TOKEN_HEADER} header. May stay empty only when this node's credential (and the trigger's) holds your team's Webhook Signing Secret: then the signature is checked.`,
						},
						{
							displayName: 'Events',
							name: 'events',
							type: 'multiOptions',
							default: [...DEFAULT_EVENTS[job]], // a copy per job: no list shared between fields
							description: `Which events to send (they arrive as ${PREFIX[job]}.page, ${PREFIX[job]}.completed, …); choose the same ones under the trigger's Job Events. Failed also asks the service for Completed (some servers announce every end as completed): the trigger reads how the ${NOUN[job]} really ended and starts only for the events it listens to. None chosen: all.`,
							options: EVENTS[job],
						},
					],
				},
			],
		},
	];
}

/** A chosen Failed or Cancelled also asks for Completed (FACTS.md "Webhook deliveries"). */
export function eventsToAsk(chosen: string[]): string[] {
	const asked = [...chosen];
	if ((chosen.includes('failed') || chosen.includes('cancelled')) && !chosen.includes('completed')) asked.push('completed');
	return asked;
}

/** By object identity, for the errors that refuse it. */
const setBy = new WeakMap<object, string>();

/** The field a job's `webhook` comes from; the resume URL's has none (readResumeUrl checks it). */
export function markWebhookField(webhook: IDataObject, field: string): IDataObject {
	setBy.set(webhook, field);
	return webhook;
}

/** Verifiable only by the signature (see assertTriggerVerifiable). */
const withoutToken = new WeakSet<object>();

export function webhookFieldOf(webhook: unknown): string | undefined {
	return webhook !== null && typeof webhook === 'object' ? setBy.get(webhook) : undefined;
}

function isObject(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function readRunMetadata(node: INode, options: IDataObject, i: number): IDataObject | undefined {
	const raw = options.runMetadata;
	if (raw === undefined || raw === null || raw === '') return undefined;
	const list = isObject(raw) ? raw.values : undefined;
	if (list === undefined) return undefined;
	if (!Array.isArray(list)) throw invalid(node, RUN_METADATA, raw, 'a list of names and values', i);
	const metadata: IDataObject = {};
	for (const entry of list) {
		const e = isObject(entry) ? entry : {};
		const name = typeof e.name === 'string' ? e.name.trim() : String(e.name ?? '').trim();
		if (name === '') throw invalid(node, `${RUN_METADATA} → Name`, e.name ?? '', 'every value needs a name', i);
		if (Object.prototype.hasOwnProperty.call(metadata, name)) throw invalid(node, `${RUN_METADATA} → Name`, name, 'each name may appear once', i);
		// The service takes text values only.
		const value = e.value ?? '';
		if (typeof value === 'number' || typeof value === 'boolean') metadata[name] = String(value);
		else if (typeof value === 'string') metadata[name] = value;
		else throw invalid(node, `${RUN_METADATA} → ${name}`, value, 'the value must be text (the service accepts text values only)', i);
	}
	return Object.keys(metadata).length ? metadata : undefined;
}

export function readTriggerTarget(node: INode, options: IDataObject, job: EventJob, i: number): IDataObject | undefined {
	const raw = options.sendToTrigger;
	if (raw === undefined || raw === null || raw === '') return undefined;
	const t = isObject(raw) ? raw.trigger : undefined;
	if (t === undefined) return undefined;
	if (!isObject(t)) throw invalid(node, SEND_TO_TRIGGER, raw, `set ${TRIGGER_URL} and ${TRIGGER_TOKEN}`, i);

	const rawUrl = typeof t.url === 'string' ? t.url.trim() : t.url;
	if (rawUrl === undefined || rawUrl === '') {
		throw invalid(node, TRIGGER_URL, '', "it is required: copy the Production URL shown at the top of the receiving workflow's Web Data Trigger", i);
	}
	const url = requireHttpUrl(node, TRIGGER_URL, rawUrl, i);
	const parsed = new URL(url);
	if (parsed.pathname.includes('/webhook-test/')) {
		throw invalid(
			node,
			TRIGGER_URL,
			hideSecrets(url),
			"it is the trigger's Test URL, which answers only while the editor listens for a test event: use its Production URL and activate the receiving workflow",
			i,
		);
	}

	const inUrl = parsed.searchParams.getAll(TOKEN_QUERY);
	const field = typeof t.token === 'string' ? t.token.trim() : String(t.token ?? '').trim();
	if (inUrl.length > 1) throw invalid(node, TRIGGER_URL, '[hidden]', `it has ?${TOKEN_QUERY}= twice; keep one (or remove it and use ${TRIGGER_TOKEN})`, i);
	if (field !== '' && inUrl.length === 1 && inUrl[0] !== field) {
		throw invalid(node, TRIGGER_TOKEN, '[hidden]', `it differs from the ?${TOKEN_QUERY}= in ${TRIGGER_URL}; remove ?${TOKEN_QUERY}= from the URL or make them equal`, i);
	}
	if (/\s/.test(field)) throw invalid(node, TRIGGER_TOKEN, '[hidden]', 'it must not contain spaces or line breaks', i);

	const webhook: IDataObject = { url };
	// A token typed in the field goes in the header; one pasted with the URL stays there.
	if (field !== '' && inUrl.length === 0) {
		webhook.headers = { [TRIGGER_TOKEN_HEADER]: field };
	}

	const events = t.events;
	const allowed = EVENTS[job].map((e) => e.value);
	if (events !== undefined && !Array.isArray(events)) throw invalid(node, `${SEND_TO_TRIGGER} → Events`, events, `a list of ${allowed.join(', ')}`, i);
	if (Array.isArray(events) && events.length > 0) {
		for (const e of events) {
			if (!allowed.includes(String(e))) throw invalid(node, `${SEND_TO_TRIGGER} → Events`, e, `choose from ${allowed.join(', ')}`, i);
		}
		webhook.events = eventsToAsk(events.map(String));
	}
	setBy.set(webhook, SEND_TO_TRIGGER);
	// No token: allowed only with a signing secret, checked by the sender (assertTriggerVerifiable).
	if (field === '' && inUrl.length === 0) withoutToken.add(webhook);
	return webhook;
}

/** A job has one webhook. */
export function buildEventWebhook(
	node: INode,
	options: IDataObject,
	job: EventJob,
	i: number,
	plain?: (options: IDataObject) => IDataObject | undefined,
): IDataObject | undefined {
	const target = readTriggerTarget(node, options, job, i);
	const metadata = readRunMetadata(node, options, i);
	if (target) {
		const url = typeof options.webhookUrl === 'string' ? options.webhookUrl.trim() : '';
		const events = Array.isArray(options.webhookEvents) ? options.webhookEvents : [];
		const meta = options.webhookMetadata;
		const hasMeta = meta !== undefined && meta !== '' && String(meta).replace(/\s/g, '') !== '{}';
		if (url !== '' || events.length > 0 || hasMeta) {
			const field = url !== '' ? 'Webhook URL' : events.length > 0 ? 'Webhook Events' : 'Webhook Metadata';
			throw invalid(
				node,
				field,
				url !== '' ? hideSecrets(url) : events.length > 0 ? events : meta,
				`a job sends its events to one place: remove it, or remove ${SEND_TO_TRIGGER} (with the trigger, use its Events and ${RUN_METADATA})`,
				i,
			);
		}
		if (metadata) target.metadata = metadata;
		return target;
	}
	const webhook = plain ? plain(options) : undefined;
	if (!metadata) return webhook;
	if (!webhook) {
		throw invalid(node, RUN_METADATA, metadata, `it is sent with the job's events: set ${SEND_TO_TRIGGER}${plain ? ' (or a Webhook URL)' : ''}, or remove it`, i);
	}
	const merged: IDataObject = { ...(isObject(webhook.metadata) ? webhook.metadata : {}) };
	for (const [key, value] of Object.entries(metadata)) {
		if (Object.prototype.hasOwnProperty.call(merged, key)) {
			throw invalid(node, `${RUN_METADATA} → ${key}`, value, 'the same name is in Webhook Metadata; keep it in one of them', i);
		}
		merged[key] = value;
	}
	webhook.metadata = merged;
	return webhook;
}

/** The run's one webhook is the resume URL. */
export function refuseEventWebhookWithResume(node: INode, webhook: unknown, i: number): void {
	if (webhook === undefined) return;
	const field = webhookFieldOf(webhook) ?? RUN_METADATA;
	throw invalid(
		node,
		field,
		isObject(webhook) && typeof webhook.url === 'string' ? hideSecrets(webhook.url) : webhook,
		'it cannot be used with Wait Method "Resume on Completion Webhook": the run has one webhook, and it goes to this execution\'s resume URL. Remove it, use Start (the trigger\'s workflow then gets the events), or set Wait Method to "Poll"',
		i,
	);
}

export function sendsNoToken(webhook: unknown): boolean {
	return webhook !== null && typeof webhook === 'object' && withoutToken.has(webhook);
}

/** Without a token only the signature verifies a delivery; nothing is sent without the signing secret. */
export async function assertTriggerVerifiable(ctx: IExecuteFunctions, webhook: unknown, i: number): Promise<void> {
	if (!sendsNoToken(webhook)) return;
	if ((await credentialSigningSecret(ctx, i)) !== '') return;
	throw invalid(
		ctx.getNode(),
		TRIGGER_TOKEN,
		'',
		"it is required: enter the Token set on the receiving Web Data Trigger (or put your team's Webhook Signing Secret into this node's credential and the trigger's; the trigger refuses events it cannot verify)",
		i,
	);
}

/** Before a job starts: the service must be able to call the URL a field set (FACTS.md "Trigger"), and a trigger without token must be verifiable. */
export async function assertWebhookUsable(ctx: IExecuteFunctions, webhook: unknown, i: number): Promise<void> {
	const field = webhookFieldOf(webhook);
	if (field !== undefined && isObject(webhook) && typeof webhook.url === 'string') {
		refuseUnreachable(ctx.getNode(), field === SEND_TO_TRIGGER ? TRIGGER_URL : field, webhook.url, await serviceBaseUrl(ctx, i), i);
	}
	await assertTriggerVerifiable(ctx, webhook, i);
}
