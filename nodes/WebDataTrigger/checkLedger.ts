import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../WebData/helpers/objects';
import { isUuid } from '../WebData/helpers/validation';
import { getCheckPage, listChecks, MAX_PAGE_SIZE, type NextPage } from '../shared/monitor/api';
import { defaultDeps, type ApiContext, type TransportDeps } from '../WebData/transport';
import type { Envelope } from './delivery';

/**
 * Which monitor checks a trigger has told its workflow, so that no change is lost to one failed
 * delivery: the service sends each event once but keeps the checks (nodes/FACTS.md "Monitors").
 * Per monitor in the node's static data, newest check last: {id, done: true} or
 * {id, done: false, pages: [url, …], ended?}.
 */
export interface ToldCheck {
	id: string;
	done: boolean;
	pages?: string[];
	/** Open checks: its `monitor.check.completed` was told (its pages may still be missing). */
	ended?: boolean;
}

/** Checks remembered per monitor (the newest ones). */
export const KEEP_CHECKS = 30;
/** Checks listed per catch-up (GET /checks?limit=): the newest ones. */
export const LIST_LIMIT = 25;
/** Missed checks told per catch-up (the oldest first); the rest at the next delivery or poll. */
export const MAX_CHECKS_PER_CATCH_UP = 5;
/** Pages read per catch-up (10 requests of 100); a check not read to its end stays open. */
export const MAX_PAGES_PER_CATCH_UP = 1000;

/** Check statuses after which nothing more happens to a check. */
export const FINISHED_CHECK_STATUSES = ['completed', 'failed', 'partial', 'skipped_overlap', 'skipped_no_credits'];

/** Two short attempts per read, so a delivery is still answered in time. */
export const CATCH_UP_DEPS: TransportDeps = { ...defaultDeps, maxAttempts: 2, budgetMs: 6000 };

/** The static-data key of the ledger: {<monitorId>: ToldCheck[]}. */
const STATIC_KEY = 'toldChecks';
/** The static-data key of the time the trigger started listening (set on activation, which n8n saves). */
const SINCE_KEY = 'listeningSince';

/** The time the trigger started listening, as stored on activation. */
export function listeningSince(staticData: IDataObject): string | undefined {
	return typeof staticData[SINCE_KEY] === 'string' ? staticData[SINCE_KEY] : undefined;
}

/** Activation: remembers when the trigger started listening (kept while it stays active). */
export function startListening(staticData: IDataObject, now: Date = new Date()): void {
	if (listeningSince(staticData) === undefined) staticData[SINCE_KEY] = now.toISOString();
}

function isToldCheck(value: unknown): value is ToldCheck {
	return isPlainObject(value) && typeof value.id === 'string' && typeof value.done === 'boolean';
}

/** The ledger of one monitor as stored (entries that are not ToldCheck are dropped). */
export function storedLedger(staticData: IDataObject, monitorId: string): ToldCheck[] {
	const all = staticData[STATIC_KEY];
	const list = isPlainObject(all) ? all[monitorId] : undefined;
	if (!Array.isArray(list)) return [];
	return list.filter(isToldCheck).map((c) =>
		c.done ? { id: c.id, done: true } : { id: c.id, done: false, pages: Array.isArray(c.pages) ? c.pages.filter((p) => typeof p === 'string') : [], ...(c.ended === true ? { ended: true } : {}) },
	);
}

/** Stores the ledger of one monitor (trimmed to the newest KEEP_CHECKS, page lists only for open checks). */
export function storeLedger(staticData: IDataObject, monitorId: string, ledger: ToldCheck[]): void {
	const all = isPlainObject(staticData[STATIC_KEY]) ? (staticData[STATIC_KEY] as IDataObject) : {};
	all[monitorId] = ledger
		.slice(-KEEP_CHECKS)
		.map((c) => (c.done ? { id: c.id, done: true } : { id: c.id, done: false, pages: [...(c.pages ?? [])], ...(c.ended ? { ended: true } : {}) })) as unknown as IDataObject[];
	staticData[STATIC_KEY] = all;
}

/** Both ledgers in one: a check is done when either says so; told pages are united. */
export function mergeLedgers(a: ToldCheck[], b: ToldCheck[]): ToldCheck[] {
	const out: ToldCheck[] = a.map((c) => ({ ...c, pages: c.pages ? [...c.pages] : undefined }));
	for (const c of b) {
		const mine = out.find((x) => x.id === c.id);
		if (!mine) out.push({ ...c, pages: c.pages ? [...c.pages] : undefined });
		else if (c.done || mine.done) {
			mine.done = true;
			delete mine.pages;
		} else {
			mine.pages = [...new Set([...(mine.pages ?? []), ...(c.pages ?? [])])];
			if (c.ended) mine.ended = true;
		}
	}
	return out;
}

/** The entry of a check, added (open, no pages) when it is not in the ledger yet. */
export function entryOf(ledger: ToldCheck[], checkId: string): ToldCheck {
	let entry = ledger.find((c) => c.id === checkId);
	if (!entry) {
		entry = { id: checkId, done: false, pages: [] };
		ledger.push(entry);
	}
	return entry;
}

/** Marks a page told; false when it was told before (or its check is done). */
export function tellPage(ledger: ToldCheck[], checkId: string, url: string): boolean {
	const entry = entryOf(ledger, checkId);
	if (entry.done) return false;
	entry.pages = entry.pages ?? [];
	if (entry.pages.includes(url)) return false;
	entry.pages.push(url);
	return true;
}

export function markDone(ledger: ToldCheck[], checkId: string): void {
	const entry = entryOf(ledger, checkId);
	entry.done = true;
	delete entry.pages;
}

/** How many `monitor.page` events a check sends. */
export function pagesSent(summary: unknown): number | undefined {
	if (!isPlainObject(summary) || typeof summary.totalPages !== 'number') return undefined;
	return summary.totalPages - (typeof summary.removed === 'number' ? summary.removed : 0);
}

/** The key of a page within its check. */
export function pageKey(page: IDataObject): string {
	return typeof page.url === 'string' ? page.url : JSON.stringify(page);
}

/** A page of a check detail (MonitorCheckPage) as the `monitor.page` envelope the service would have sent. */
export function pageEnvelope(monitorId: string, checkId: string, page: IDataObject): Envelope {
	const judgment = isPlainObject(page.judgment) ? page.judgment : null;
	const envelope: Envelope = {
		success: page.status !== 'error',
		type: 'monitor.page',
		id: checkId,
		webhookId: null,
		data: [
			{
				monitorId,
				checkId,
				url: page.url ?? null,
				status: page.status ?? null,
				previousScrapeId: page.previousScrapeId ?? null,
				currentScrapeId: page.currentScrapeId ?? null,
				error: page.error ?? null,
				isMeaningful: judgment && typeof judgment.meaningful === 'boolean' ? judgment.meaningful : null,
				judgment,
				diff: page.diff ?? null,
			},
		],
		metadata: {},
	};
	if (typeof page.error === 'string' && page.error !== '') envelope.error = page.error;
	return envelope;
}

/** A check record (MonitorCheck) as the `monitor.check.completed` envelope the service would have sent. */
export function checkEnvelope(monitorId: string, check: IDataObject): Envelope {
	const envelope: Envelope = {
		success: check.status === 'completed',
		type: 'monitor.check.completed',
		id: check.id,
		webhookId: null,
		data: [{ monitorId, checkId: check.id, status: check.status ?? null, summary: isPlainObject(check.summary) ? check.summary : null }],
		metadata: {},
	};
	if (typeof check.error === 'string' && check.error !== '') envelope.error = check.error;
	return envelope;
}

export interface CatchUpOptions {
	/** Events the node tells: pages are read only for `monitor.page`. */
	events: string[];
	/** Pages of these statuses only are read (empty: all). */
	statuses?: string[];
	/** Transport settings (tests). */
	deps?: TransportDeps;
}

/** What one read of a check gives: the envelopes not told yet, and whether the check was read to its end. */
interface CheckTelling {
	envelopes: Envelope[];
	complete: boolean;
}

/** A page budget shared by the reads of one catch-up. */
interface Budget {
	pages: number;
}

/**
 * The untold pages of a check (read from the service, within the budget), marked told; `complete`
 * when every page was read.
 */
async function untoldPages(ctx: ApiContext, monitorId: string, checkId: string, ledger: ToldCheck[], options: CatchUpOptions, budget: Budget): Promise<CheckTelling> {
	const envelopes: Envelope[] = [];
	const statuses = (options.statuses ?? []).filter((s) => s !== 'removed');
	const passes: Array<string | undefined> = statuses.length ? statuses : [undefined];
	for (const status of passes) {
		let where: NextPage = { qs: status ? { limit: MAX_PAGE_SIZE, status } : { limit: MAX_PAGE_SIZE } };
		for (;;) {
			if (budget.pages <= 0) return { envelopes, complete: false };
			const read = await getCheckPage(ctx, monitorId, checkId, where, undefined, options.deps ?? CATCH_UP_DEPS);
			budget.pages -= Math.max(read.pages.length, 1);
			for (const page of read.pages) {
				if (page.status === 'removed') continue; // never sent as monitor.page
				if (tellPage(ledger, checkId, pageKey(page))) envelopes.push(pageEnvelope(monitorId, checkId, page));
			}
			if (!read.next || read.pages.length === 0) break;
			where = read.next;
		}
	}
	return { envelopes, complete: true };
}

/** A check's events not told yet; marks them told (and the check done when it was read to its end). */
async function tellCheck(ctx: ApiContext, monitorId: string, check: IDataObject, ledger: ToldCheck[], options: CatchUpOptions, budget: Budget): Promise<CheckTelling> {
	const checkId = String(check.id);
	const entry = entryOf(ledger, checkId);
	const expected = pagesSent(check.summary);
	let telling: CheckTelling = { envelopes: [], complete: true };
	const allTold = expected !== undefined && (entry.pages?.length ?? 0) >= expected;
	if (options.events.includes('monitor.page') && !allTold && expected !== 0) {
		telling = await untoldPages(ctx, monitorId, checkId, ledger, options, budget);
	}
	if (!telling.complete) return telling;
	if (options.events.includes('monitor.check.completed') && !entry.ended) telling.envelopes.push(checkEnvelope(monitorId, check));
	markDone(ledger, checkId);
	return telling;
}

/** Whether the service recorded every webhook of the check as delivered; undefined when it does not say. */
export function deliveredByService(check: IDataObject): boolean | undefined {
	const status = isPlainObject(check.notificationStatus) ? check.notificationStatus.webhook : undefined;
	return isPlainObject(status) && typeof status.success === 'boolean' ? status.success : undefined;
}

/** Where a walk back through the checks ends: the trigger started listening then (ISO time), if known. */
export interface Floor {
	since?: string;
}

/**
 * The checks finished before `beforeCheckId` (or all, for a poll) not told to their end, oldest
 * first, back to the oldest remembered check or `floor.since`. An unknown check counts as missed
 * unless the service recorded it delivered: the ledger may lack told checks (nodes/FACTS.md "Monitors").
 */
export function missedChecks(listed: IDataObject[], ledger: ToldCheck[], beforeCheckId?: string, floor: Floor = {}): IDataObject[] {
	if (ledger.length === 0 && floor.since === undefined) return [];
	const start = beforeCheckId === undefined ? 0 : listed.findIndex((c) => c.id === beforeCheckId) + 1;
	const oldest = ledger[0]?.id;
	const missed: IDataObject[] = [];
	for (const check of listed.slice(start)) {
		if (!isUuid(check.id) || check.id === beforeCheckId) continue;
		if (floor.since !== undefined && typeof check.createdAt === 'string' && check.createdAt < floor.since) break;
		const known = ledger.find((c) => c.id === check.id);
		const finished = FINISHED_CHECK_STATUSES.includes(String(check.status));
		if (finished && (known ? !known.done : deliveredByService(check) !== true)) missed.push(check);
		if (check.id === oldest) break;
	}
	return missed.reverse();
}

export interface CatchUp {
	/** The envelopes to tell, oldest check first (each check's pages, then its completion). */
	envelopes: Envelope[];
	/** Checks read (for the log). */
	checks: string[];
}

/** Reads the checks since the last one told and returns what was not told, marking it told; within the per-call budgets. */
export async function catchUp(
	ctx: ApiContext,
	monitorId: string,
	ledger: ToldCheck[],
	options: CatchUpOptions,
	beforeCheckId?: string,
	listed?: IDataObject[],
	floor: Floor = {},
): Promise<CatchUp> {
	if (ledger.length === 0 && floor.since === undefined) return { envelopes: [], checks: [] };
	const deps = options.deps ?? CATCH_UP_DEPS;
	listed ??= await listChecks(ctx, monitorId, { limit: LIST_LIMIT, offset: 0 }, undefined, deps);
	const missed = missedChecks(listed, ledger, beforeCheckId, floor).slice(0, MAX_CHECKS_PER_CATCH_UP);
	const budget: Budget = { pages: MAX_PAGES_PER_CATCH_UP };
	const envelopes: Envelope[] = [];
	const checks: string[] = [];
	for (const check of missed) {
		const telling = await tellCheck(ctx, monitorId, check, ledger, options, budget);
		envelopes.push(...telling.envelopes);
		checks.push(String(check.id));
		if (!telling.complete) break; // the budget is spent: the rest next time, in order
	}
	return { envelopes, checks };
}

/**
 * The check of a `monitor.check.completed` delivery at hand: its pages not told yet (lost
 * `monitor.page` deliveries), read when the count told is short of the summary's.
 */
export async function untoldPagesOfEndedCheck(
	ctx: ApiContext,
	monitorId: string,
	checkId: string,
	summary: unknown,
	ledger: ToldCheck[],
	options: CatchUpOptions,
): Promise<CheckTelling> {
	const entry = entryOf(ledger, checkId);
	if (entry.done) return { envelopes: [], complete: true };
	const expected = pagesSent(summary);
	if (!options.events.includes('monitor.page') || expected === undefined || (entry.pages?.length ?? 0) >= expected) {
		return { envelopes: [], complete: true };
	}
	return await untoldPages(ctx, monitorId, checkId, ledger, options, { pages: MAX_PAGES_PER_CATCH_UP });
}

/**
 * Runs `fn` for one key after the previous call for it ended: deliveries of one monitor arrive in
 * parallel (one per page), and their catch-ups must not tell the same check twice.
 */
export class KeyedQueue {
	private readonly tails = new Map<string, Promise<unknown>>();

	async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
		const before = this.tails.get(key) ?? Promise.resolve();
		const mine = before.then(fn, fn);
		const tail = mine.catch(() => undefined);
		this.tails.set(key, tail);
		try {
			return await mine;
		} finally {
			if (this.tails.get(key) === tail) this.tails.delete(key);
		}
	}
}

/** The ledgers of this process, beside the static data, which parallel deliveries do not see in time (nodes/FACTS.md "Monitors"). */
export class LedgerMemory {
	private readonly ledgers = new Map<string, ToldCheck[]>();

	/** The ledger of one monitor: this process's and the stored one, merged. */
	load(key: string, staticData: IDataObject, monitorId: string): ToldCheck[] {
		const stored = storedLedger(staticData, monitorId);
		const mine = this.ledgers.get(key);
		return mine ? mergeLedgers(mine, stored) : stored;
	}

	/** Forgets the ledgers of one trigger node (deactivation: a new activation starts afresh). */
	forget(scope: string, staticData: IDataObject): void {
		for (const key of [...this.ledgers.keys()]) if (key.startsWith(`${scope}|`)) this.ledgers.delete(key);
		delete staticData[STATIC_KEY];
		delete staticData[SINCE_KEY];
	}

	save(key: string, staticData: IDataObject, monitorId: string, ledger: ToldCheck[]): void {
		const kept = ledger.slice(-KEEP_CHECKS);
		this.ledgers.set(key, kept);
		if (this.ledgers.size > 1000) this.ledgers.delete(this.ledgers.keys().next().value as string);
		storeLedger(staticData, monitorId, kept);
	}
}
