import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

import { invalid, requireUuid } from '../../WebData/helpers/validation';
import { apiRequest, defaultDeps, type ApiContext, type TransportDeps } from '../../WebData/transport';
import { PAGE_STATUSES } from './fields';
import { SCHEDULE_TEXT_HELP } from './schedule';

/** Hints for monitor calls (api-facts 2), keyed by status or by a part of the service's error text. */
export const MONITOR_HINTS: Record<string, string> = {
	'404': 'No monitor or check has this ID for your team (it may have been deleted). Pick it from the list or check the ID.',
	'text:Monitor not found': 'No monitor has this ID for your team (it may have been deleted). Pick it from the list or check the ID.',
	'text:Check not found': 'The monitor has no check with this ID. Pick it from the list of the monitor\'s checks (Get Many Checks).',
	'text:Monitor is paused':
		'The monitor is paused, so no check was started. Resume it with Monitor → Update (Update Fields → Status: Active), then run the check again.',
	'text:already running':
		'A check of this monitor is still running, so no new one was started. Wait for it to finish (Get Check reads it), then run again.',
	'text:zero data retention':
		'Monitoring keeps snapshots and diffs, so it is not available to teams with zero data retention. Ask the service operator.',
	'text:Update body cannot be empty': 'Add at least one field to change under Update Fields.',
	'text:search target requires a non-empty goal':
		'A search target needs a goal to judge new results against. Write a Goal, or switch "Judge Changes Against Goal" off.',
	'text:Invalid cron': 'The cron expression was refused. Use five fields (minute hour day-of-month month day-of-week), at least 5 minutes apart.',
	'text:Invalid timezone': 'The time zone was refused. Use an IANA name such as "UTC" or "Europe/Berlin".',
	'text:Unsupported schedule text':
		'The schedule text was not understood. Use a form such as "every 30 minutes", "hourly", "every 2 hours", "daily at 9am" or "weekly", or a cron expression.',
	// The service's own schedule messages (nodes/FACTS.md "Monitor schedules").
	'text:Cron expression': 'The cron expression was refused. Use five fields with numbers only (minute hour day-of-month month day-of-week), with a run within a year.',
	'text:more often than every 5 minutes': 'The schedule runs more often than every 5 minutes. Choose a longer interval, e.g. "every 5 minutes" or "*/5 * * * *".',
	'text:schedule timezone': 'The time zone was refused. Use an IANA name such as "UTC" or "Europe/Berlin".',
	'text:interval must': `The schedule text was refused. ${SCHEDULE_TEXT_HELP}`,
	'text:Daily schedule': `The schedule text was refused. ${SCHEDULE_TEXT_HELP}`,
	'text:start minute': `The schedule text was refused. ${SCHEDULE_TEXT_HELP}`,
};

/** The body's `data`, or the body itself when the service sent no envelope. */
function dataOf(body: IDataObject): IDataObject {
	return body.data !== null && typeof body.data === 'object' && !Array.isArray(body.data) ? (body.data as IDataObject) : body;
}

function listOf(body: IDataObject): IDataObject[] {
	return Array.isArray(body.data) ? (body.data as IDataObject[]) : [];
}

export function readMonitorId(ctx: IExecuteFunctions, i: number): string {
	const raw = ctx.getNodeParameter('monitorId', i, '', { extractValue: true });
	return requireUuid(ctx.getNode(), 'Monitor', raw, i);
}

export function readCheckId(ctx: IExecuteFunctions, i: number): string {
	const raw = ctx.getNodeParameter('checkId', i, '', { extractValue: true });
	return requireUuid(ctx.getNode(), 'Check', raw, i);
}

export async function createMonitor(ctx: ApiContext, body: IDataObject, i?: number, deps: TransportDeps = defaultDeps): Promise<IDataObject> {
	const answer = await apiRequest<IDataObject>(ctx, { method: 'POST', path: '/monitor', body, itemIndex: i, hints: MONITOR_HINTS }, deps);
	return dataOf(answer);
}

export async function getMonitor(ctx: ApiContext, monitorId: string, i?: number, deps: TransportDeps = defaultDeps): Promise<IDataObject> {
	const answer = await apiRequest<IDataObject>(ctx, { method: 'GET', path: `/monitor/${monitorId}`, itemIndex: i, hints: MONITOR_HINTS }, deps);
	return dataOf(answer);
}

export async function updateMonitor(
	ctx: ApiContext,
	monitorId: string,
	body: IDataObject,
	i?: number,
	deps: TransportDeps = defaultDeps,
): Promise<IDataObject> {
	const answer = await apiRequest<IDataObject>(
		ctx,
		{ method: 'PATCH', path: `/monitor/${monitorId}`, body, itemIndex: i, hints: MONITOR_HINTS },
		deps,
	);
	return dataOf(answer);
}

export async function deleteMonitor(ctx: ApiContext, monitorId: string, i?: number, deps: TransportDeps = defaultDeps): Promise<IDataObject> {
	return await apiRequest<IDataObject>(ctx, { method: 'DELETE', path: `/monitor/${monitorId}`, itemIndex: i, hints: MONITOR_HINTS }, deps);
}

/** The most the service returns per list page (api-facts 2: limit 1..100). */
export const MAX_PAGE_SIZE = 100;

/** One page of GET /v2/monitor (newest first). */
export async function listMonitors(
	ctx: ApiContext,
	page: { limit: number; offset: number },
	i?: number,
	deps: TransportDeps = defaultDeps,
): Promise<IDataObject[]> {
	const answer = await apiRequest<IDataObject>(
		ctx,
		{ method: 'GET', path: '/monitor', qs: { limit: page.limit, offset: page.offset }, itemIndex: i, hints: MONITOR_HINTS },
		deps,
	);
	return listOf(answer);
}

/** One page of GET /v2/monitor/{id}/checks, optionally only checks of one status. */
export async function listChecks(
	ctx: ApiContext,
	monitorId: string,
	page: { limit: number; offset: number; status?: string },
	i?: number,
	deps: TransportDeps = defaultDeps,
): Promise<IDataObject[]> {
	const qs: IDataObject = { limit: page.limit, offset: page.offset };
	if (page.status) qs.status = page.status;
	const answer = await apiRequest<IDataObject>(
		ctx,
		{ method: 'GET', path: `/monitor/${monitorId}/checks`, qs, itemIndex: i, hints: MONITOR_HINTS },
		deps,
	);
	return listOf(answer);
}

/**
 * Offset paging shared by Get Many and Get Many Checks: pages of up to 100 until the limit, a short
 * page, or a page with nothing new (so a service that repeats itself never loops forever).
 */
export async function collectPages(
	fetchPage: (page: { limit: number; offset: number }) => Promise<IDataObject[]>,
	limit: number,
): Promise<IDataObject[]> {
	const out: IDataObject[] = [];
	const seen = new Set<string>();
	let offset = 0;
	for (;;) {
		const size = Math.min(MAX_PAGE_SIZE, limit - out.length);
		const page = await fetchPage({ limit: size, offset });
		let fresh = 0;
		for (const entry of page) {
			const key = typeof entry.id === 'string' ? entry.id : JSON.stringify(entry);
			if (seen.has(key)) continue;
			seen.add(key);
			fresh++;
			out.push(entry);
			if (out.length >= limit) break;
		}
		if (out.length >= limit || page.length < size || fresh === 0) return out;
		offset += page.length;
	}
}

/** POST /v2/monitor/{id}/run (no body): the check that was queued. */
export async function runMonitorCheck(ctx: IExecuteFunctions, monitorId: string, i: number, deps: TransportDeps = defaultDeps): Promise<IDataObject> {
	const answer = await apiRequest<IDataObject>(
		ctx,
		{ method: 'POST', path: `/monitor/${monitorId}/run`, itemIndex: i, hints: MONITOR_HINTS },
		deps,
	);
	const check = dataOf(answer);
	const id = typeof answer.id === 'string' ? answer.id : check.id;
	if (typeof id !== 'string' || id === '') {
		throw new NodeOperationError(ctx.getNode(), 'The service started a check but returned no check ID', {
			itemIndex: i,
			description: 'The check may be running. Look at the monitor\'s checks (Monitor → Get Many Checks) before running it again.',
		});
	}
	return { ...check, id };
}

/**
 * Where the next page of a check is: the `next` link's query (skip, limit, status), asked of our own
 * path so the key goes only to the configured base URL (also behind a proxy); a link without a
 * query is followed as it is (the transport accepts it only on the service's own origin).
 */
export type NextPage = { qs: IDataObject } | { link: string };

export function nextPage(next: unknown): NextPage | undefined {
	if (typeof next !== 'string' || next.trim() === '') return undefined;
	try {
		const url = new URL(next, 'http://relative.invalid');
		const qs: IDataObject = {};
		url.searchParams.forEach((value, key) => {
			qs[key] = value;
		});
		if (Object.keys(qs).length) return { qs };
	} catch {
		// not a URL: let the transport judge the link
	}
	return { link: next };
}

/** One page of a check's results: GET /v2/monitor/{id}/checks/{checkId} with limit/skip/status, or a `next` link. */
export async function getCheckPage(
	ctx: ApiContext,
	monitorId: string,
	checkId: string,
	where: NextPage,
	i?: number,
	deps: TransportDeps = defaultDeps,
): Promise<{ check: IDataObject; pages: IDataObject[]; next?: NextPage }> {
	const answer = await apiRequest<IDataObject>(
		ctx,
		{
			method: 'GET',
			path: 'link' in where ? where.link : `/monitor/${monitorId}/checks/${checkId}`,
			qs: 'qs' in where ? where.qs : undefined,
			itemIndex: i,
			hints: MONITOR_HINTS,
		},
		deps,
	);
	const data = dataOf(answer);
	const { pages, next: innerNext, ...check } = data;
	return {
		check,
		pages: Array.isArray(pages) ? (pages as IDataObject[]) : [],
		next: nextPage(answer.next ?? innerNext),
	};
}

/**
 * A check with all its pages: follows the `next` links until the last page. With `statuses`, only
 * pages of those statuses are read (one pass per status, in the order same, new, changed, removed,
 * error).
 */
export async function readCheck(
	ctx: ApiContext,
	monitorId: string,
	checkId: string,
	statuses: string[],
	i?: number,
	deps: TransportDeps = defaultDeps,
): Promise<{ check: IDataObject; pages: IDataObject[] }> {
	const passes = statuses.length ? PAGE_STATUSES.filter((s) => statuses.includes(s)) : [undefined];
	let check: IDataObject = {};
	const pages: IDataObject[] = [];
	for (const status of passes) {
		let where: NextPage = { qs: status ? { limit: MAX_PAGE_SIZE, status } : { limit: MAX_PAGE_SIZE } };
		const seen = new Set<string>();
		for (;;) {
			const page = await getCheckPage(ctx, monitorId, checkId, where, i, deps);
			check = page.check;
			let fresh = 0;
			for (const p of page.pages) {
				const key = typeof p.id === 'string' ? p.id : JSON.stringify(p);
				if (seen.has(key)) continue;
				seen.add(key);
				fresh++;
				pages.push(p);
			}
			if (!page.next || fresh === 0) break;
			where = page.next;
		}
	}
	return { check, pages };
}

/** Output of a check: one item with all pages, or one item per page (with monitorId and checkId). */
export function checkItems(check: IDataObject, pages: IDataObject[], onePerPage: boolean, monitorId: string): IDataObject[] {
	if (!onePerPage) return [{ ...check, pages }];
	const checkId = check.id;
	return pages.map((page) => ({ ...page, monitorId: check.monitorId ?? monitorId, checkId }));
}

/** Reads Options → One Item per Page and Page Statuses, checking them. */
export function readPageOptions(node: INode, options: IDataObject, i: number): { onePerPage: boolean; statuses: string[] } {
	const raw = options.pageStatuses;
	const statuses = raw === undefined || raw === null || raw === '' ? [] : Array.isArray(raw) ? raw : [raw];
	const bad = statuses.find((s) => !PAGE_STATUSES.includes(s as string));
	if (bad !== undefined) throw invalid(node, 'Page Statuses', bad, `choose from ${PAGE_STATUSES.join(', ')}`, i);
	return { onePerPage: options.onePerPage === true, statuses: statuses as string[] };
}
