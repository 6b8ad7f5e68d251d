import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../WebData/helpers/objects';
import { serviceTime } from '../WebData/helpers/serviceTime';
import { isUuid } from '../WebData/helpers/validation';
import { getCheckPage, listChecks, MAX_PAGE_SIZE, type NextPage } from '../shared/monitor/api';
import { defaultDeps, type ApiContext, type TransportDeps } from '../WebData/transport';
import type { Envelope } from './delivery';

/** Monitor checks told to the workflow, so no change is lost to one failed delivery (FACTS.md "Monitors"). */
export interface ToldCheck {
	id: string;
	done: boolean;
	pages?: string[];
	/** Its `monitor.check.completed` was told (pages may still be missing). */
	ended?: boolean;
}

export const KEEP_CHECKS = 30;
export const LIST_LIMIT = 25;
/** The oldest first; the rest at the next delivery or poll. */
export const MAX_CHECKS_PER_CATCH_UP = 5;
/** 10 requests of 100; a check not read to its end stays open. */
export const MAX_PAGES_PER_CATCH_UP = 1000;

export const FINISHED_CHECK_STATUSES = ['completed', 'failed', 'partial', 'skipped_overlap', 'skipped_no_credits'];

/** So a delivery is still answered in time. */
export const CATCH_UP_DEPS: TransportDeps = { ...defaultDeps, maxAttempts: 2, budgetMs: 6000 };

/** {<monitorId>: ToldCheck[]} */
const STATIC_KEY = 'toldChecks';
/** Set on activation, which n8n saves. */
const SINCE_KEY = 'listeningSince';

export function listeningSince(staticData: IDataObject): string | undefined {
	return typeof staticData[SINCE_KEY] === 'string' ? staticData[SINCE_KEY] : undefined;
}

export function startListening(staticData: IDataObject, now: Date = new Date()): void {
	if (listeningSince(staticData) === undefined) staticData[SINCE_KEY] = now.toISOString();
}

function isToldCheck(value: unknown): value is ToldCheck {
	return isPlainObject(value) && typeof value.id === 'string' && typeof value.done === 'boolean';
}

/** A copy in stored form: a done check keeps only its id; an open one its pages and whether it ended. */
function storedForm(c: ToldCheck): ToldCheck {
	return c.done ? { id: c.id, done: true } : { id: c.id, done: false, pages: [...(c.pages ?? [])], ...(c.ended === true ? { ended: true } : {}) };
}

export function storedLedger(staticData: IDataObject, monitorId: string): ToldCheck[] {
	const all = staticData[STATIC_KEY];
	const list = isPlainObject(all) ? all[monitorId] : undefined;
	if (!Array.isArray(list)) return [];
	return list.filter(isToldCheck).map((c) => storedForm({ ...c, pages: Array.isArray(c.pages) ? c.pages.filter((p) => typeof p === 'string') : [] }));
}

export function storeLedger(staticData: IDataObject, monitorId: string, ledger: ToldCheck[]): void {
	const all = isPlainObject(staticData[STATIC_KEY]) ? (staticData[STATIC_KEY] as IDataObject) : {};
	all[monitorId] = ledger.slice(-KEEP_CHECKS).map(storedForm) as unknown as IDataObject[];
	staticData[STATIC_KEY] = all;
}

/** A check is done when either says so; told pages are united. */
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

export function entryOf(ledger: ToldCheck[], checkId: string): ToldCheck {
	let entry = ledger.find((c) => c.id === checkId);
	if (!entry) {
		entry = { id: checkId, done: false, pages: [] };
		ledger.push(entry);
	}
	return entry;
}

/** False when told before or the check is done. */
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

export function pagesSent(summary: unknown): number | undefined {
	if (!isPlainObject(summary) || typeof summary.totalPages !== 'number') return undefined;
	return summary.totalPages - (typeof summary.removed === 'number' ? summary.removed : 0);
}

export function pageKey(page: IDataObject): string {
	return typeof page.url === 'string' ? page.url : JSON.stringify(page);
}

/** As the `monitor.page` envelope the service would have sent. */
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

/** As the `monitor.check.completed` envelope the service would have sent. */
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
	events: string[];
	/** Empty: all. */
	statuses?: string[];
	deps?: TransportDeps;
}

interface CheckTelling {
	envelopes: Envelope[];
	complete: boolean;
}

interface Budget {
	pages: number;
}

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

/** Undefined when the service does not say. */
export function deliveredByService(check: IDataObject): boolean | undefined {
	const status = isPlainObject(check.notificationStatus) ? check.notificationStatus.webhook : undefined;
	return isPlainObject(status) && typeof status.success === 'boolean' ? status.success : undefined;
}

/** `since`: when the trigger started listening (ISO time). */
export interface Floor {
	since?: string;
}

/** Finished checks not told to their end, oldest first; an unknown one is missed unless the service recorded it delivered (FACTS.md "Monitors"). */
export function missedChecks(listed: IDataObject[], ledger: ToldCheck[], beforeCheckId?: string, floor: Floor = {}): IDataObject[] {
	if (ledger.length === 0 && floor.since === undefined) return [];
	const start = beforeCheckId === undefined ? 0 : listed.findIndex((c) => c.id === beforeCheckId) + 1;
	const oldest = ledger[0]?.id;
	const since = serviceTime(floor.since);
	const missed: IDataObject[] = [];
	for (const check of listed.slice(start)) {
		if (!isUuid(check.id) || check.id === beforeCheckId) continue;
		// As times (FACTS.md "Service times"); one that is not a time is not taken for older.
		const created = serviceTime(check.createdAt);
		if (since !== undefined && created !== undefined && created < since) break;
		const known = ledger.find((c) => c.id === check.id);
		const finished = FINISHED_CHECK_STATUSES.includes(String(check.status));
		if (finished && (known ? !known.done : deliveredByService(check) !== true)) missed.push(check);
		if (check.id === oldest) break;
	}
	return missed.reverse();
}

export interface CatchUp {
	/** Oldest check first: its pages, then its completion. */
	envelopes: Envelope[];
	checks: string[];
}

/** Within the per-call budgets. */
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
		if (!telling.complete) break; // the rest next time, in order
	}
	return { envelopes, checks };
}

/** Lost `monitor.page` deliveries of the check at hand, read when fewer were told than its summary counts. */
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

/** Serialises calls per key: one monitor's deliveries arrive in parallel and must not tell a check twice. */
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

/** Parallel deliveries do not see each other's static data in time (FACTS.md "Monitors"). */
export class LedgerMemory {
	private readonly ledgers = new Map<string, ToldCheck[]>();

	load(key: string, staticData: IDataObject, monitorId: string): ToldCheck[] {
		const stored = storedLedger(staticData, monitorId);
		const mine = this.ledgers.get(key);
		return mine ? mergeLedgers(mine, stored) : stored;
	}

	/** Deactivation: a new activation starts afresh. */
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
