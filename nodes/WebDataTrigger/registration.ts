import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IHookFunctions } from 'n8n-workflow';

import { hideSecrets, requireUuid, unreachableByService } from '../WebData/helpers/validation';
import { apiRequest, type ApiRequest, normalizeBaseUrl } from '../WebData/transport';
import { timezoneOrWorkflowZone } from '../shared/monitor/schedule';
import { MONITOR_EVENTS } from './delivery';
import { monitorCreateBody, type MonitorFields } from './monitorBody';
import { withinDailyLimit } from '../shared/monitor/estimate';
import { headerValue, safeEqual, SIGNATURE_HEADER, TRIGGER_TOKEN_HEADER as TOKEN_HEADER, type HeaderBag } from '../shared/signature';
import { newSecretToken } from './verify';
import { isPlainObject } from '../WebData/helpers/objects';

/** Registration with the service, kept in static data; delete() trusts the stored `connection` (FACTS.md "Trigger"). */
export interface Registration {
	connection?: 'create' | 'attach';
	monitorId?: string;
	secretToken?: string;
	webhookUrl?: string;
	previousWebhook?: IDataObject | null;
	dailyEstimate?: IDataObject;
}

export type Connection = 'create' | 'attach' | 'manual';

const MONITOR_HINTS: Record<string, string> = {
	'404': 'No monitor has this ID for your team (it may have been deleted). Pick the monitor from the list.',
	'text:zero data retention':
		'Your team has zero data retention switched on, and monitors are not available for such teams.',
	'text:Monitor is paused': 'The monitor is paused. Resume it in the dashboard to run a check.',
};

const REGISTRATION_KEYS: Array<keyof Registration> = [
	'connection',
	'dailyEstimate',
	'monitorId',
	'secretToken',
	'webhookUrl',
	'previousWebhook',
];

export function registrationOf(ctx: Pick<IHookFunctions, 'getWorkflowStaticData'>): Registration & IDataObject {
	return ctx.getWorkflowStaticData('node') as Registration & IDataObject;
}

function forget(reg: Registration & IDataObject): void {
	for (const key of REGISTRATION_KEYS) delete reg[key];
}

/** So a caller can act on a 404 and pass every other failure on. */
type Settled<T> = { ok: true; value: T } | { ok: false; error: Error };

async function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
	try {
		return { ok: true, value: await promise };
	} catch (error) {
		return { ok: false, error: error as Error };
	}
}

/** A route-level 404: no monitor endpoints (FACTS.md "Trigger"). */
function isMissingEndpoint(error: unknown): boolean {
	return (error as { context?: { missingEndpoint?: unknown } })?.context?.missingEndpoint === true;
}

/** The API's JSON 404: the monitor is deleted or another team's. */
function isNotFound(error: unknown): boolean {
	const e = error as { httpCode?: unknown; context?: { httpStatus?: unknown } };
	return (e?.httpCode === '404' || e?.context?.httpStatus === 404) && !isMissingEndpoint(error);
}

const NO_MONITOR_ENDPOINTS_HINT =
	'The Web Data Trigger registers its webhook through the monitor endpoints (/v2/monitor), and the server at the Base URL answers them with "no such endpoint": self-hosted servers of the open-source edition (as of 2025-08) have no monitor endpoints. ' +
	'Use the hosted service (Base URL https://api.firecrawl.dev in the Web Data API credential) or a server that has monitor endpoints; ' +
	'or, without monitors, set Source to "Job Events" to receive the events of crawls and batch scrapes, which need no monitor. ' +
	'Nothing was dropped: the registration stays stored until the monitor endpoints answer again.';

async function monitorRequest<T = IDataObject>(ctx: IHookFunctions, request: ApiRequest): Promise<T> {
	const answer = await settle(apiRequest<T>(ctx, request));
	if (answer.ok) return answer.value;
	if (!isMissingEndpoint(answer.error)) throw answer.error;
	const failed = new NodeOperationError(ctx.getNode(), 'The server at the Base URL has no monitor endpoints, which this trigger needs', {
		description: `${NO_MONITOR_ENDPOINTS_HINT} (${answer.error.message})`,
	});
	failed.context.missingEndpoint = true;
	throw failed;
}

export function selectedEvents(ctx: IHookFunctions): string[] {
	const events = ctx.getNodeParameter('events', []) as string[];
	const known = events.filter((e) => (MONITOR_EVENTS as readonly string[]).includes(e));
	if (known.length === 0) {
		throw new NodeOperationError(ctx.getNode(), 'Choose at least one event', {
			description: 'Pick "Page Checked", "Check Completed" or both under Events.',
		});
	}
	return known;
}

function attachedMonitorId(ctx: IHookFunctions): string {
	const raw = ctx.getNodeParameter('monitor', '', { extractValue: true });
	return requireUuid(ctx.getNode(), 'Monitor', raw);
}

export function isTestRegistration(ctx: IHookFunctions): boolean {
	return ctx.getActivationMode() === 'manual' || ctx.getMode() === 'manual';
}

/** The service skips private addresses: say so at activation rather than wait forever (the one rule: FACTS.md "Trigger"). */
async function assertReachable(ctx: IHookFunctions, webhookUrl: string): Promise<void> {
	const credentials = await ctx.getCredentials('webDataApi');
	const base = normalizeBaseUrl(credentials.baseUrl);
	let target: URL;
	try {
		target = new URL(webhookUrl);
	} catch {
		throw new NodeOperationError(ctx.getNode(), `n8n gave this node an invalid webhook URL: ${hideSecrets(webhookUrl)}`);
	}
	if (unreachableByService(base, webhookUrl)) {
		throw new NodeOperationError(ctx.getNode(), `The service at ${new URL(base).host} cannot reach ${target.origin}`, {
			description:
				'The webhook URL of this n8n is a local or private address, and the service does not deliver to such addresses. Run n8n at a public address (or behind a tunnel) and set WEBHOOK_URL to it, or use the Manual connection with a URL the service can reach.',
			level: 'warning',
		});
	}
}

/** `<webhookId>/<path>`: the same for a webhook URL's test and production forms. */
function nodePathOf(url: unknown): string | undefined {
	if (typeof url !== 'string') return undefined;
	try {
		return new URL(url).pathname.replace(/\/+$/, '').split('/').slice(-2).join('/');
	} catch {
		return undefined;
	}
}

function sameEvents(registered: unknown, wanted: string[]): boolean {
	const list = Array.isArray(registered) && registered.length > 0 ? registered.map(String) : [...MONITOR_EVENTS];
	return list.length === wanted.length && wanted.every((e) => list.includes(e));
}

async function getMonitor(ctx: IHookFunctions, monitorId: string): Promise<IDataObject> {
	const body = await monitorRequest<IDataObject>(ctx, { method: 'GET', path: `/monitor/${monitorId}`, hints: MONITOR_HINTS });
	return isPlainObject(body.data) ? body.data : {};
}

function restorableWebhook(previous: IDataObject): IDataObject {
	const webhook: IDataObject = { url: String(previous.url) };
	const strings = (value: unknown, drop?: string): IDataObject | undefined => {
		if (!isPlainObject(value)) return undefined;
		const out: IDataObject = {};
		for (const [k, v] of Object.entries(value)) {
			if (v === undefined || v === null) continue;
			if (drop && k.toLowerCase() === drop.toLowerCase()) continue;
			out[k] = typeof v === 'string' ? v : JSON.stringify(v);
		}
		return Object.keys(out).length ? out : undefined;
	};
	const headers = strings(previous.headers, SIGNATURE_HEADER);
	if (headers) webhook.headers = headers;
	const metadata = strings(previous.metadata);
	if (metadata) webhook.metadata = metadata;
	if (Array.isArray(previous.events) && previous.events.length) webhook.events = previous.events.map(String);
	return webhook;
}

function ourWebhook(url: string, secretToken: string, events: string[], metadata?: unknown): IDataObject {
	const webhook: IDataObject = { url, headers: { [TOKEN_HEADER]: secretToken }, events };
	if (isPlainObject(metadata) && Object.keys(metadata).length) {
		webhook.metadata = restorableWebhook({ url, metadata }).metadata as IDataObject;
	}
	return webhook;
}

function monitorFields(ctx: IHookFunctions): MonitorFields {
	return {
		name: ctx.getNodeParameter('monitorName', '') as string,
		urls: ctx.getNodeParameter('urls', '') as string | string[],
		scheduleType: ctx.getNodeParameter('scheduleType', 'text') as 'text' | 'cron',
		scheduleText: ctx.getNodeParameter('scheduleText', '') as string,
		cron: ctx.getNodeParameter('cron', '') as string,
		timezone: timezoneOrWorkflowZone(ctx.getNodeParameter('timezone', ''), () => ctx.getTimezone()) as string,
		goal: ctx.getNodeParameter('goal', '') as string,
	};
}

export async function checkExists(ctx: IHookFunctions): Promise<boolean> {
	const connection = ctx.getNodeParameter('connection', 'create') as Connection;
	if (connection === 'manual') return true;
	const reg = registrationOf(ctx);
	// Same test as webhook(): a lost or blank secret means re-register.
	if (!reg.secretToken || !reg.monitorId || reg.connection !== connection) return false;
	if (connection === 'attach' && reg.monitorId !== attachedMonitorId(ctx)) return false;

	const found = await settle(getMonitor(ctx, reg.monitorId));
	if (!found.ok) {
		if (!isNotFound(found.error)) throw found.error;
		forget(reg); // gone: nothing to clean up or restore
		return false;
	}
	const monitor = found.value;
	const webhook = isPlainObject(monitor.webhook) ? monitor.webhook : undefined;
	if (!webhook || webhook.url !== ctx.getNodeWebhookUrl('default')) return false;
	const token = headerValue(webhook.headers as HeaderBag | undefined, TOKEN_HEADER);
	if (token !== undefined && !safeEqual(token, reg.secretToken)) return false;
	return sameEvents(webhook.events, selectedEvents(ctx));
}

export async function create(ctx: IHookFunctions): Promise<boolean> {
	const connection = ctx.getNodeParameter('connection', 'create') as Connection;
	if (connection === 'manual') return true;
	const url = ctx.getNodeWebhookUrl('default');
	if (!url) throw new NodeOperationError(ctx.getNode(), 'n8n gave this node no webhook URL');
	const events = selectedEvents(ctx);
	const test = isTestRegistration(ctx);
	await assertReachable(ctx, url);
	const reg = registrationOf(ctx);
	const secretToken = newSecretToken();
	let monitorId: string;
	let dailyEstimate: IDataObject | undefined;

	if (connection === 'create') {
		const body = monitorCreateBody(ctx.getNode(), monitorFields(ctx));
		dailyEstimate = withinDailyLimit(ctx.getNode(), body, (ctx.getNodeParameter('options', {}) as IDataObject).maxCreditsPerDay);
		if (test) body.name = `[n8n test] ${String(body.name)}`.slice(0, 256);
		body.webhook = ourWebhook(url, secretToken, events);
		let reused: string | undefined;
		if (reg.connection === 'create' && reg.monitorId) {
			// Ours from an earlier registration: bring it in line rather than create a second one.
			const patched = await settle(
				monitorRequest(ctx, { method: 'PATCH', path: `/monitor/${reg.monitorId}`, body, hints: MONITOR_HINTS }),
			);
			if (patched.ok) reused = reg.monitorId;
			else if (!isNotFound(patched.error)) throw patched.error;
		}
		if (reused) {
			monitorId = reused;
		} else {
			const answer = await monitorRequest<IDataObject>(ctx, { method: 'POST', path: '/monitor', body, hints: MONITOR_HINTS });
			const data = isPlainObject(answer.data) ? answer.data : {};
			if (typeof data.id !== 'string' || data.id === '') {
				throw new NodeOperationError(ctx.getNode(), 'The service created the monitor but returned no monitor id', {
					description: 'Check the monitors in the dashboard and delete a stray one if needed.',
				});
			}
			monitorId = data.id;
		}
		forget(reg);
		reg.previousWebhook = null;
	} else {
		monitorId = attachedMonitorId(ctx);
		const monitor = await getMonitor(ctx, monitorId);
		const found = isPlainObject(monitor.webhook) && typeof monitor.webhook.url === 'string' ? monitor.webhook : null;
		const current = isInert(found) ? null : found;
		const sameRegistration = reg.connection === 'attach' && reg.monitorId === monitorId && 'previousWebhook' in reg;
		let previous: IDataObject | null;
		if (current && current.url === url) {
			previous = sameRegistration ? (reg.previousWebhook ?? null) : null;
		} else if (current && !test && nodePathOf(current.url) === nodePathOf(url)) {
			// This node's test URL: not worth restoring.
			previous = sameRegistration ? (reg.previousWebhook ?? null) : null;
		} else {
			previous = current ? restorableWebhook(current) : null;
		}
		await monitorRequest(ctx, {
			method: 'PATCH',
			path: `/monitor/${monitorId}`,
			body: { webhook: ourWebhook(url, secretToken, events, current?.metadata) },
			hints: MONITOR_HINTS,
		});
		forget(reg);
		reg.previousWebhook = previous;
	}

	reg.connection = connection;
	if (dailyEstimate) reg.dailyEstimate = dailyEstimate;
	reg.monitorId = monitorId;
	reg.secretToken = secretToken;
	reg.webhookUrl = url;

	// Off by default: a test spends no credits unless asked.
	if (test && ctx.getNodeParameter('runCheckWhenListening', false)) {
		try {
			await monitorRequest(ctx, { method: 'POST', path: `/monitor/${monitorId}/run`, body: {}, hints: MONITOR_HINTS });
		} catch (error) {
			// A running check (409) delivers anyway.
			ctx.logger.warn(
				`Web Data Trigger "${ctx.getNode().name}" could not start a check now: ${(error as Error).message}. The monitor checks on its schedule.`,
			);
		}
	}
	return true;
}

export async function remove(ctx: IHookFunctions): Promise<boolean> {
	const reg = registrationOf(ctx);
	if (!reg.monitorId || !reg.connection) {
		forget(reg);
		return true;
	}
	const done =
		reg.connection === 'create'
			? await settle(monitorRequest(ctx, { method: 'DELETE', path: `/monitor/${reg.monitorId}` }))
			: await settle(restoreWebhook(ctx, reg));
	if (!done.ok && !isNotFound(done.error)) {
		// Kept: the next activation finds the monitor again.
		ctx.logger.warn(
			`Web Data Trigger "${ctx.getNode().name}" could not unregister from monitor ${reg.monitorId}: ${done.error.message}`,
			{ workflowId: ctx.getWorkflow().id },
		);
		return false;
	}
	forget(reg);
	return true;
}

async function restoreWebhook(ctx: IHookFunctions, reg: Registration): Promise<void> {
	const monitorId = reg.monitorId as string;
	const found = await settle(getMonitor(ctx, monitorId));
	if (!found.ok) {
		if (isNotFound(found.error)) return; // deleted meanwhile
		throw found.error;
	}
	const monitor = found.value;
	const current = isPlainObject(monitor.webhook) ? monitor.webhook : undefined;
	if (current && reg.webhookUrl && current.url !== reg.webhookUrl) return; // someone else took it over since
	const previous = reg.previousWebhook;
	if (isPlainObject(previous) && typeof previous.url === 'string' && previous.url !== '') {
		await monitorRequest(ctx, {
			method: 'PATCH',
			path: `/monitor/${monitorId}`,
			body: { webhook: restorableWebhook(previous) },
			hints: MONITOR_HINTS,
		});
		return;
	}
	// The API cannot remove a webhook (FACTS.md "Trigger").
	await disarmWebhook(ctx, monitorId, reg);
}

export const INERT_WEBHOOK_URL = 'http://127.0.0.1:9/web-data-trigger-deactivated';

function isInert(webhook: IDataObject | null | undefined): boolean {
	return isPlainObject(webhook) && webhook.url === INERT_WEBHOOK_URL;
}

async function disarmWebhook(ctx: IHookFunctions, monitorId: string, reg: Registration): Promise<void> {
	const patch = (webhook: IDataObject) =>
		settle(monitorRequest(ctx, { method: 'PATCH', path: `/monitor/${monitorId}`, body: { webhook }, hints: MONITOR_HINTS }));
	const refusedByService = (error: Error): boolean => {
		const status = (error as { context?: { httpStatus?: unknown } }).context?.httpStatus;
		return typeof status === 'number' && status >= 400 && status < 500 && status !== 404;
	};
	const inert = await patch({ url: INERT_WEBHOOK_URL, events: ['monitor.check.completed'] });
	if (inert.ok || isNotFound(inert.error)) return;
	if (!refusedByService(inert.error)) throw inert.error;
	// Refused: a token nobody holds, so every delivery is refused with 401, even after a later activation.
	const rotated = await patch({
		url: reg.webhookUrl ?? INERT_WEBHOOK_URL,
		headers: { [TOKEN_HEADER]: newSecretToken() },
		events: ['monitor.check.completed'],
	});
	if (rotated.ok || isNotFound(rotated.error)) {
		ctx.logger.warn(
			`Web Data Trigger "${ctx.getNode().name}": monitor ${monitorId} had no webhook before and the service refused the inert address (${inert.error.message}); its webhook still points to ${reg.webhookUrl} with a token no activation accepts. Remove the webhook in the dashboard if you like.`,
		);
		return;
	}
	if (!refusedByService(rotated.error)) throw rotated.error;
	ctx.logger.warn(
		`Web Data Trigger "${ctx.getNode().name}": monitor ${monitorId} had no webhook before, and the service refused every replacement (${rotated.error.message}), so it still points to ${reg.webhookUrl}. The token it sends is forgotten, so deliveries are refused; remove the webhook in the dashboard.`,
	);
}
