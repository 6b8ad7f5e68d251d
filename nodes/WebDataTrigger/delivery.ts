import { createHash } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../WebData/helpers/objects';
import { SIGNATURE_HEADER, TRIGGER_TOKEN_HEADER, type HeaderBag } from '../shared/signature';

export const MONITOR_EVENTS = ['monitor.page', 'monitor.check.completed'] as const;
export type MonitorEvent = (typeof MONITOR_EVENTS)[number];

export const PAGE_STATUSES = ['same', 'new', 'changed', 'error'] as const;

/** FACTS.md "Webhook deliveries". */
export interface Envelope {
	type: string;
	id?: unknown;
	webhookId?: unknown;
	success?: unknown;
	data: unknown[];
	error?: unknown;
	metadata?: unknown;
}

export type ParseResult = { ok: true; envelope: Envelope } | { ok: false; reason: string };

/** From the exact bytes received (the signed material), else n8n's parsed body; undefined → 400. */
export function parseDelivery(rawBody: Buffer | string | undefined, parsedBody: unknown): ParseResult {
	let value: unknown;
	if (rawBody !== undefined && rawBody.length > 0) {
		const text = (typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8')).replace(/^\uFEFF/, '');
		try {
			value = JSON.parse(text);
		} catch {
			return { ok: false, reason: 'The body is not valid JSON' };
		}
	} else if (typeof parsedBody === 'string') {
		try {
			value = JSON.parse(parsedBody);
		} catch {
			return { ok: false, reason: 'The body is not valid JSON' };
		}
	} else {
		value = parsedBody;
	}
	if (!isPlainObject(value) || Object.keys(value).length === 0) {
		return { ok: false, reason: 'The body must be a JSON object with "type" and "data"' };
	}
	if (typeof value.type !== 'string' || value.type.trim() === '') {
		return { ok: false, reason: 'The body has no event "type"' };
	}
	let data: unknown[];
	if (Array.isArray(value.data)) data = value.data;
	else if (isPlainObject(value.data)) data = [value.data];
	else return { ok: false, reason: 'The body has no "data" list' };
	return { ok: true, envelope: { ...value, type: value.type, data } };
}

export interface OutputOptions {
	events: string[];
	/** Empty = all. */
	statuses?: string[];
	onlyMeaningful?: boolean;
	passUnknownEvents?: boolean;
	/** Already redacted. */
	headers?: IDataObject;
}

export type Decision =
	| { run: true; items: IDataObject[] }
	| { run: false; reason: 'event not selected' | 'unknown event' | 'no entry left after the filters' | 'already told' | 'waits behind older checks' };

const isKnown = (type: string): type is MonitorEvent => (MONITOR_EVENTS as readonly string[]).includes(type);

const digest = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 32);

/**
 * The same for one page or completion of one check whether it came by delivery or by catch-up, and
 * for each copy of it (README "Scaling"); check IDs are unique across monitors.
 */
export function dedupeKey(type: string, checkId: unknown, entry: Record<string, unknown>, envelope: Envelope, index: number): string {
	if (typeof checkId === 'string' && checkId !== '') {
		if (type === 'monitor.page') return `${type}:${checkId}:${digest(typeof entry.url === 'string' ? entry.url : JSON.stringify(entry))}`;
		if (type === 'monitor.check.completed') return `${type}:${checkId}`;
	}
	const delivery = typeof envelope.webhookId === 'string' && envelope.webhookId !== '' ? envelope.webhookId : JSON.stringify(envelope.data);
	return `${type}:${digest(`${delivery}\n${index}`)}`;
}

/** One item per `data[]` entry, the envelope fields beside (and winning). */
export function itemsForDelivery(envelope: Envelope, options: OutputOptions): Decision {
	const { type } = envelope;
	if (isKnown(type)) {
		if (!options.events.includes(type)) return { run: false, reason: 'event not selected' };
	} else if (!options.passUnknownEvents) {
		return { run: false, reason: 'unknown event' };
	}

	const entries: Array<Record<string, unknown>> = (envelope.data.length ? envelope.data : [{}]).map((entry) =>
		isPlainObject(entry) ? entry : { value: entry as IDataObject[string] },
	);
	const kept = entries.filter((entry) => {
		if (type !== 'monitor.page') return true;
		if (options.statuses?.length && !options.statuses.includes(String(entry.status))) return false;
		if (options.onlyMeaningful && entry.isMeaningful !== true) return false;
		return true;
	});
	if (kept.length === 0) return { run: false, reason: 'no entry left after the filters' };

	const items = kept.map((entry, index) => {
		const { checkId: entryCheckId, error: entryError, ...rest } = entry;
		const checkId = envelope.id ?? entryCheckId ?? null;
		const beside: IDataObject = {
			event: type,
			checkId: checkId as IDataObject[string],
			webhookId: (envelope.webhookId ?? null) as IDataObject[string],
			success: (envelope.success ?? null) as IDataObject[string],
			error: (envelope.error ?? entryError ?? null) as IDataObject[string],
			metadata: (isPlainObject(envelope.metadata) ? envelope.metadata : {}) as IDataObject,
			dedupeKey: dedupeKey(type, checkId, entry, envelope, index),
		};
		const item: IDataObject = { ...beside, ...(rest as IDataObject), ...beside };
		if (options.headers) item.headers = options.headers;
		return item;
	});
	return { run: true, items };
}

export function redactedHeaders(headers: HeaderBag | undefined): IDataObject {
	const secretNames = [TRIGGER_TOKEN_HEADER.toLowerCase(), SIGNATURE_HEADER.toLowerCase(), 'authorization', 'cookie'];
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(headers ?? {})) {
		if (value === undefined) continue;
		out[key] = secretNames.includes(key.toLowerCase()) ? '[redacted]' : (value as IDataObject[string]);
	}
	return out;
}

/** Why the end is read, not trusted: FACTS.md "Webhook deliveries". */
export const JOB_EVENTS = [
	'crawl.started',
	'crawl.page',
	'crawl.completed',
	'crawl.failed',
	'crawl.cancelled',
	'batch_scrape.started',
	'batch_scrape.page',
	'batch_scrape.completed',
	'batch_scrape.failed',
	'batch_scrape.cancelled',
	'agent.started',
	'agent.action',
	'agent.completed',
	'agent.failed',
	'agent.cancelled',
] as const;

/** One item per page. */
const PAGE_EVENTS = ['crawl.page', 'batch_scrape.page'];

export const END_EVENT_KINDS = ['completed', 'failed', 'cancelled'];

export type JobPrefix = 'crawl' | 'batch_scrape' | 'agent';

export function jobEndAnnouncement(type: string): { prefix: JobPrefix; announced: string } | undefined {
	const match = /^(crawl|batch_scrape|agent)\.(\w+)$/.exec(type);
	if (!match || !END_EVENT_KINDS.includes(match[2])) return undefined;
	return { prefix: match[1] as JobPrefix, announced: match[2] };
}

/** An end event of a job kind with a chosen end event. */
export function needsJobEndRead(type: string, events: string[]): boolean {
	const end = jobEndAnnouncement(type);
	if (!end) return false;
	return END_EVENT_KINDS.some((kind) => events.includes(`${end.prefix}.${kind}`));
}

/** `<prefix>.<status>` when the read status is an end, else the announced one. */
export function realEndEvent(type: string, end: JobEnd | undefined): string {
	const announcement = jobEndAnnouncement(type);
	if (!announcement || !end || !('status' in end) || !END_EVENT_KINDS.includes(end.status)) return type;
	return `${announcement.prefix}.${end.status}`;
}

export type JobEnd = { status: string; total?: number; completed?: number; creditsUsed?: number } | { readError: string };

export function jobEndOf(body: IDataObject): JobEnd {
	if (typeof body.status !== 'string') return { readError: 'the status answer has no "status"' };
	const end: JobEnd = { status: body.status };
	for (const key of ['total', 'completed', 'creditsUsed'] as const) {
		if (typeof body[key] === 'number') end[key] = body[key];
	}
	return end;
}

export interface JobOutputOptions {
	events: string[];
	/** It decides the event. */
	end?: JobEnd;
	/** crawl.*, batch_scrape.*, agent.* only. */
	passUnknownEvents?: boolean;
	/** Already redacted. */
	headers?: IDataObject;
}

const isJobEvent = (type: string): boolean => (JOB_EVENTS as readonly string[]).includes(type);
const jobTypeOf = (type: string): string => type.split('.')[0];
const READ_OPERATION: Record<string, string> = { crawl: 'Crawl → Get Status', batch_scrape: 'Batch Scrape → Get Status', agent: 'Agent → Get' };

/** One item per page for `*.page` events, else one summary item; an end item carries the real end beside the announced one. */
export function jobItemsForDelivery(envelope: Envelope, options: JobOutputOptions): Decision {
	const { type } = envelope;
	const announcement = jobEndAnnouncement(type);
	const end = announcement ? options.end : undefined;
	// Ends may all be announced as completed (FACTS.md "Webhook deliveries").
	const event = realEndEvent(type, end);
	if (isJobEvent(type)) {
		// Failed hears a cancelled job unless Cancelled is chosen.
		const heard = options.events.includes(event) || (event.endsWith('.cancelled') && options.events.includes(event.replace(/cancelled$/, 'failed')));
		if (!heard) return { run: false, reason: 'event not selected' };
	} else if (!options.passUnknownEvents || !/^(crawl|batch_scrape|agent)\./.test(type)) {
		return { run: false, reason: isKnown(type) ? 'event not selected' : 'unknown event' };
	}
	const beside: IDataObject = {
		event,
		jobType: jobTypeOf(type),
		jobId: (envelope.id ?? (envelope as { jobId?: unknown }).jobId ?? null) as IDataObject[string],
		webhookId: (envelope.webhookId ?? null) as IDataObject[string],
		success: (envelope.success ?? null) as IDataObject[string],
		error: (envelope.error ?? null) as IDataObject[string],
		webhookMetadata: (isPlainObject(envelope.metadata) ? envelope.metadata : {}) as IDataObject,
	};
	const entries = envelope.data;
	let bodies: IDataObject[];
	if (PAGE_EVENTS.includes(type)) {
		bodies = entries.length ? entries.map((e) => (isPlainObject(e) ? (e as IDataObject) : { value: e as IDataObject[string] })) : [{}];
	} else if (entries.length === 1 && isPlainObject(entries[0])) {
		bodies = [entries[0] as IDataObject];
	} else {
		bodies = [entries.length ? { data: entries as IDataObject[] } : {}];
	}
	if (end) {
		beside.announcedEvent = type;
		beside.announcedSuccess = (envelope.success ?? null) as IDataObject[string];
		if ('status' in end) {
			beside.status = end.status;
			for (const key of ['total', 'completed', 'creditsUsed'] as const) {
				if (end[key] !== undefined) beside[key] = end[key];
			}
		} else {
			beside.status = null;
			beside.statusReadError = end.readError;
		}
		if ('status' in end && END_EVENT_KINDS.includes(end.status)) beside.success = end.status === 'completed';
		else {
			// Never a success the status did not confirm (a failure announced stays one).
			if (beside.success === true) beside.success = null;
			beside.statusUnconfirmed = `The service announced ${type}, but the job's status ${'status' in end ? `still read "${end.status}"` : 'could not be read'}, so how it ended is not confirmed. Read it with ${READ_OPERATION[jobTypeOf(type)] ?? 'Get Status'} (ID ${String(beside.jobId)}).`;
		}
	}
	const items = bodies.map((body) => {
		// A page's own `error` is kept when the envelope has none.
		const own = { ...beside, error: (beside.error ?? body.error ?? null) as IDataObject[string] };
		const item: IDataObject = { ...own, ...body, ...own };
		if (options.headers) item.headers = options.headers;
		return item;
	});
	return { run: true, items };
}
