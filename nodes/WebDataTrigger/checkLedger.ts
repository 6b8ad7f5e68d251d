import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../WebData/helpers/objects';
import { serviceTime } from '../WebData/helpers/serviceTime';
import { isUuid } from '../WebData/helpers/validation';
import { getCheckPage, listChecks, MAX_PAGE_SIZE, type NextPage } from '../shared/monitor/api';
import { defaultDeps, type ApiContext, type TransportDeps } from '../WebData/transport';
import type { Envelope } from './delivery';

/** A monitor check told to the workflow, in whole or in part, so no change is lost to one failed delivery (FACTS.md "Monitors"). */
export interface ToldCheck {
	id: string;
	done: boolean;
	pages?: string[];
	/** Its `monitor.check.completed` was told (pages may still be missing). */
	ended?: boolean;
}

/** Where reading back stops: at this check, or at the first one created before `at` (ms); `{}`: at the list's end. */
export interface Mark {
	id?: string;
	at?: number;
}

/** What a trigger told of one monitor: every finished check up to the mark, and `checks` after it. */
export interface Ledger {
	/** Unset: not listening yet, nothing is read back. */
	mark?: Mark;
	checks: ToldCheck[];
	/** The newest checks the mark passed, newest last: a late delivery of one tells nothing. */
	behind: string[];
}

export const KEEP_BEHIND = 30;
/** 10 list requests of 100 (FACTS.md "Monitors", bounds). */
export const MAX_READ_BACK = 1000;
export const MAX_ENTRIES = MAX_READ_BACK;
/** The oldest first; the rest at the next delivery or poll. */
export const MAX_CHECKS_PER_DELIVERY = 5;
export const MAX_CHECKS_PER_POLL = 100;
/** 10 requests of 100; a check not read to its end stays open. */
export const MAX_PAGES_PER_CATCH_UP = 1000;

export const FINISHED_CHECK_STATUSES = ['completed', 'failed', 'partial', 'skipped_overlap', 'skipped_no_credits'];

export const isFinished = (check: IDataObject): boolean => FINISHED_CHECK_STATUSES.includes(String(check.status));

/** So a delivery is still answered in time. */
export const CATCH_UP_DEPS: TransportDeps = { ...defaultDeps, maxAttempts: 2, budgetMs: 6000 };

/** {<monitorId>: {mark, checks, behind}}; a list of ToldCheck before issue 34. */
const STATIC_KEY = 'toldChecks';
/** Set on activation, which n8n saves. */
const SINCE_KEY = 'listeningSince';
/** The first entry of a poll trigger's list when the monitor had no finished check (before issue 34). */
const OLD_NO_CHECK_YET = 'no-finished-check-yet';

export function listeningSince(staticData: IDataObject): string | undefined {
	return typeof staticData[SINCE_KEY] === 'string' ? staticData[SINCE_KEY] : undefined;
}

export function startListening(staticData: IDataObject, now: Date = new Date()): string {
	const since = listeningSince(staticData) ?? now.toISOString();
	if (staticData[SINCE_KEY] !== since) staticData[SINCE_KEY] = since;
	return since;
}

export function newLedger(mark?: Mark): Ledger {
	return { mark, checks: [], behind: [] };
}

/** The mark at a listed check. */
export function markAt(check: IDataObject): Mark {
	const at = serviceTime(check.createdAt);
	return at === undefined ? { id: String(check.id) } : { id: String(check.id), at };
}

function isToldCheck(value: unknown): value is ToldCheck {
	return isPlainObject(value) && typeof value.id === 'string' && typeof value.done === 'boolean';
}

/** A copy in stored form: a done check keeps only its id; an open one its pages and whether it ended. */
function storedForm(c: ToldCheck): ToldCheck {
	return c.done ? { id: c.id, done: true } : { id: c.id, done: false, pages: [...(c.pages ?? [])], ...(c.ended === true ? { ended: true } : {}) };
}

function readChecks(list: unknown): ToldCheck[] {
	if (!Array.isArray(list)) return [];
	return list.filter(isToldCheck).map((c) => storedForm({ ...c, pages: Array.isArray(c.pages) ? c.pages.filter((p) => typeof p === 'string') : [] }));
}

function readMark(value: unknown): Mark | undefined {
	if (!isPlainObject(value)) return undefined;
	const mark: Mark = {};
	if (typeof value.id === 'string' && value.id !== '') mark.id = value.id;
	const at = serviceTime(value.at);
	if (at !== undefined) mark.at = at;
	return mark;
}

export function storedLedger(staticData: IDataObject, monitorId: string): Ledger {
	const all = staticData[STATIC_KEY];
	const stored = isPlainObject(all) ? all[monitorId] : undefined;
	if (Array.isArray(stored)) {
		// Before issue 34 reading back stopped at the first (oldest) entry.
		const [first, ...rest] = readChecks(stored);
		if (!first) return newLedger();
		if (first.id === OLD_NO_CHECK_YET) return { mark: {}, checks: rest, behind: [] };
		return first.done ? { mark: { id: first.id }, checks: rest, behind: [first.id] } : { mark: { id: first.id }, checks: [first, ...rest], behind: [] };
	}
	if (!isPlainObject(stored)) return newLedger();
	const behind = Array.isArray(stored.behind) ? stored.behind.filter((id): id is string => typeof id === 'string') : [];
	return { mark: readMark(stored.mark), checks: readChecks(stored.checks), behind };
}

export function storeLedger(staticData: IDataObject, monitorId: string, ledger: Ledger): void {
	const all = isPlainObject(staticData[STATIC_KEY]) ? (staticData[STATIC_KEY] as IDataObject) : {};
	const stored: IDataObject = {
		checks: ledger.checks.slice(-MAX_ENTRIES).map(storedForm) as unknown as IDataObject[],
		behind: ledger.behind.slice(-KEEP_BEHIND),
	};
	const { mark } = ledger;
	if (mark) stored.mark = { ...(mark.id !== undefined ? { id: mark.id } : {}), ...(mark.at !== undefined ? { at: new Date(mark.at).toISOString() } : {}) };
	all[monitorId] = stored;
	staticData[STATIC_KEY] = all;
}

const isOpenEnded = (mark: Mark): boolean => mark.id === undefined && mark.at === undefined;

/** The mark further on; when the two cannot be compared, `a`'s. */
function laterMark(a: Mark | undefined, b: Mark | undefined): Mark | undefined {
	if (!a || isOpenEnded(a)) return b ?? a;
	if (!b || isOpenEnded(b)) return a;
	return a.at !== undefined && b.at !== undefined && b.at > a.at ? b : a;
}

/** A check is done when either says so; told pages are united; the mark further on wins. */
export function mergeLedgers(a: Ledger, b: Ledger): Ledger {
	const behind = [...new Set([...b.behind, ...a.behind])].slice(-KEEP_BEHIND);
	const out: ToldCheck[] = a.checks.map((c) => ({ ...c, pages: c.pages ? [...c.pages] : undefined }));
	for (const c of b.checks) {
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
	const mark = laterMark(a.mark, b.mark);
	return { mark: mark ? { ...mark } : undefined, checks: out.filter((c) => !behind.includes(c.id)), behind };
}

export function isDone(ledger: Ledger, checkId: string): boolean {
	return ledger.behind.includes(checkId) || ledger.checks.some((c) => c.id === checkId && c.done);
}

/** A check behind the mark gets a done entry that is not kept. */
export function entryOf(ledger: Ledger, checkId: string): ToldCheck {
	if (ledger.behind.includes(checkId)) return { id: checkId, done: true };
	let entry = ledger.checks.find((c) => c.id === checkId);
	if (!entry) {
		entry = { id: checkId, done: false, pages: [] };
		ledger.checks.push(entry);
	}
	return entry;
}

/** False when told before or the check is done. */
export function tellPage(ledger: Ledger, checkId: string, url: string): boolean {
	const entry = entryOf(ledger, checkId);
	if (entry.done) return false;
	entry.pages = entry.pages ?? [];
	if (entry.pages.includes(url)) return false;
	entry.pages.push(url);
	return true;
}

export function markDone(ledger: Ledger, checkId: string): void {
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

export interface TellOptions {
	events: string[];
	/** Empty: all. */
	statuses?: string[];
	deps?: TransportDeps;
}

export interface CatchUpOptions extends TellOptions {
	maxChecks: number;
	/** The check of the delivery at hand: it and newer ones come with their own deliveries. */
	currentCheckId?: string;
	/** The webhook trigger: an unknown check the service delivered is passed over, not told (FACTS.md "Monitors"). */
	passDelivered?: boolean;
	/** Delivered, but to this process's test listener (the editor), not to this workflow's production. */
	toldToEditor?: (checkId: string) => boolean;
}

interface CheckTelling {
	envelopes: Envelope[];
	complete: boolean;
}

interface Budget {
	pages: number;
}

async function untoldPages(ctx: ApiContext, monitorId: string, checkId: string, ledger: Ledger, options: TellOptions, budget: Budget): Promise<CheckTelling> {
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

async function tellCheck(ctx: ApiContext, monitorId: string, check: IDataObject, ledger: Ledger, options: TellOptions, budget: Budget): Promise<CheckTelling> {
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

/** How reading back ended: at the mark, at a check created before it, at the list's end, or at MAX_READ_BACK. */
export type ReadEnd = 'mark' | 'older' | 'end' | 'bound';

function stopsAt(check: IDataObject, mark: Mark): 'mark' | 'older' | undefined {
	if (mark.id !== undefined && check.id === mark.id) return 'mark';
	const at = serviceTime(check.createdAt);
	return mark.at !== undefined && at !== undefined && at < mark.at ? 'older' : undefined;
}

/** The checks after the mark, newest first, read in pages of 100 (the list is newest first). */
export async function readBack(ctx: ApiContext, monitorId: string, mark: Mark, deps: TransportDeps = CATCH_UP_DEPS): Promise<{ read: IDataObject[]; end: ReadEnd }> {
	const read: IDataObject[] = [];
	const seen = new Set<string>();
	for (let offset = 0; offset < MAX_READ_BACK; ) {
		const page = await listChecks(ctx, monitorId, { limit: MAX_PAGE_SIZE, offset }, undefined, deps);
		let fresh = 0;
		for (const check of page) {
			// A check listed at the start of this page and the end of the last: a newer one came between.
			if (!isUuid(check.id) || seen.has(check.id)) continue;
			seen.add(check.id);
			fresh++;
			const stop = stopsAt(check, mark);
			if (stop) return { read, end: stop };
			read.push(check);
		}
		if (page.length < MAX_PAGE_SIZE) return { read, end: 'end' };
		if (fresh === 0) break;
		offset += page.length;
	}
	return { read, end: 'bound' };
}

/**
 * The checks read known to come after the mark, and the rest, whose place is unknown: found
 * neither the mark nor, after them, a check with a readable creation time.
 */
export function placeChecks(read: IDataObject[], mark: Mark, end: ReadEnd): { after: IDataObject[]; unplaced: IDataObject[] } {
	if (end === 'mark' || isOpenEnded(mark)) return { after: read, unplaced: [] };
	let known = 0;
	// Newest first: a check listed before one created after the mark was created after it too.
	if (mark.at !== undefined) {
		for (let i = 0; i < read.length; i++) if (serviceTime(read[i].createdAt) !== undefined) known = i + 1;
	}
	return { after: read.slice(0, known), unplaced: read.slice(known) };
}

export interface Missed {
	/** Oldest first. */
	tell: IDataObject[];
	/** Unknown here, and the service says it delivered them: see CatchUpOptions.passDelivered. */
	passed: IDataObject[];
}

/** Of the checks after the mark (newest first): the finished ones not told to their end. */
export function missedChecks(after: IDataObject[], ledger: Ledger, options: Pick<CatchUpOptions, 'currentCheckId' | 'passDelivered' | 'toldToEditor'> = {}): Missed {
	const current = options.currentCheckId === undefined ? -1 : after.findIndex((c) => c.id === options.currentCheckId);
	const missed: Missed = { tell: [], passed: [] };
	for (const check of after.slice(current + 1).reverse()) {
		const id = String(check.id);
		if (!isFinished(check) || isDone(ledger, id)) continue;
		const known = ledger.checks.some((c) => c.id === id);
		if (!known && options.passDelivered && deliveredByService(check) === true && !options.toldToEditor?.(id)) missed.passed.push(check);
		else missed.tell.push(check);
	}
	return missed;
}

/** Moves the mark up over the oldest checks read (newest first) that are finished and done. */
export function advanceMark(ledger: Ledger, read: IDataObject[]): void {
	for (const check of [...read].reverse()) {
		const id = String(check.id);
		if (!isFinished(check) || !isDone(ledger, id)) break;
		ledger.mark = markAt(check);
		ledger.checks = ledger.checks.filter((c) => c.id !== id);
		ledger.behind = [...ledger.behind.filter((b) => b !== id), id].slice(-KEEP_BEHIND);
	}
}

export interface CatchUp {
	/** Oldest check first: its pages, then its completion. */
	envelopes: Envelope[];
	checks: string[];
	/** Not told: see CatchUpOptions.passDelivered. */
	passed: string[];
	/** Finished checks not told: no readable creation time, so not known to come after the mark. */
	unplaced: string[];
	/** Reading back stopped at MAX_READ_BACK before the mark: older checks were not read. */
	cut: boolean;
	/** Missed checks left for a later delivery (the cap): a newer check must wait behind them. */
	behind: boolean;
}

/** Tells `checks` (oldest first) within MAX_PAGES_PER_CATCH_UP; a check not read to its end stops the rest. */
export async function tellChecks(ctx: ApiContext, monitorId: string, checks: IDataObject[], ledger: Ledger, options: TellOptions): Promise<{ envelopes: Envelope[]; checks: string[] }> {
	const budget: Budget = { pages: MAX_PAGES_PER_CATCH_UP };
	const envelopes: Envelope[] = [];
	const told: string[] = [];
	for (const check of checks) {
		const telling = await tellCheck(ctx, monitorId, check, ledger, options, budget);
		envelopes.push(...telling.envelopes);
		told.push(String(check.id));
		if (!telling.complete) break; // the rest next time, in order
	}
	return { envelopes, checks: told };
}

/** Reads back to the mark and tells what was missed, oldest first, within the bounds; moves the mark. */
export async function catchUp(ctx: ApiContext, monitorId: string, ledger: Ledger, options: CatchUpOptions): Promise<CatchUp> {
	if (!ledger.mark) return { envelopes: [], checks: [], passed: [], unplaced: [], cut: false, behind: false };
	const { read, end } = await readBack(ctx, monitorId, ledger.mark, options.deps ?? CATCH_UP_DEPS);
	const { after, unplaced } = placeChecks(read, ledger.mark, end);
	const missed = missedChecks(after, ledger, options);
	const settled = [...missed.passed, ...unplaced.filter((c) => isFinished(c) && !isDone(ledger, String(c.id)))].map((c) => String(c.id));
	for (const id of settled) markDone(ledger, id);
	const told = await tellChecks(ctx, monitorId, missed.tell.slice(0, options.maxChecks), ledger, options);
	advanceMark(ledger, read);
	return {
		...told,
		passed: missed.passed.map((c) => String(c.id)),
		unplaced: settled.filter((id) => !missed.passed.some((c) => c.id === id)),
		cut: end === 'bound',
		behind: missed.tell.some((c) => !isDone(ledger, String(c.id))),
	};
}

function someIds(ids: string[]): string {
	return ids.length > 5 ? `${ids.slice(0, 5).join(', ')} and ${ids.length - 5} more` : ids.join(', ');
}

/** What a catch-up did not tell, and why, for n8n's log. */
export function catchUpProblems(told: CatchUp): string[] {
	const problems: string[] = [];
	if (told.passed.length) {
		problems.push(
			`the service delivered check(s) ${someIds(told.passed)} to the monitor's webhook, but this trigger has no record of telling them (n8n restarted since, another webhook process took them, or the webhook pointed elsewhere then). They are not started again, so nothing this trigger told is told twice. If they went elsewhere, read them with Web Data → Monitor → Get Check; the Web Data Poll Trigger tells every check, whoever else receives it.`,
		);
	}
	if (told.unplaced.length) {
		problems.push(
			`check(s) ${someIds(told.unplaced)} have no readable creation time, so whether they came after the last check told is not known: they are not told. Read them with Web Data → Monitor → Get Check.`,
		);
	}
	if (told.cut) problems.push(`more than ${MAX_READ_BACK} checks came since the last check told: the newest ${MAX_READ_BACK} were read, older ones are not told.`);
	return problems;
}

/** Lost `monitor.page` deliveries of the check at hand, read when fewer were told than its summary counts. */
export async function untoldPagesOfEndedCheck(
	ctx: ApiContext,
	monitorId: string,
	checkId: string,
	summary: unknown,
	ledger: Ledger,
	options: TellOptions,
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
	private readonly ledgers = new Map<string, Ledger>();

	load(key: string, staticData: IDataObject, monitorId: string): Ledger {
		const stored = storedLedger(staticData, monitorId);
		const mine = this.ledgers.get(key);
		return mine ? mergeLedgers(mine, stored) : stored;
	}

	/** Deactivation of the registrations under `prefix` (production or test, never both): a new activation starts afresh. */
	forget(prefix: string, staticData: IDataObject): void {
		for (const key of [...this.ledgers.keys()]) if (key.startsWith(`${prefix}|`)) this.ledgers.delete(key);
		delete staticData[STATIC_KEY];
		delete staticData[SINCE_KEY];
	}

	save(key: string, staticData: IDataObject, monitorId: string, ledger: Ledger): void {
		storeLedger(staticData, monitorId, ledger);
		this.ledgers.set(key, storedLedger(staticData, monitorId));
		if (this.ledgers.size > 1000) this.ledgers.delete(this.ledgers.keys().next().value as string);
	}
}
