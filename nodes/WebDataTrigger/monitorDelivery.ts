import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { isPlainObject } from '../WebData/helpers/objects';
import { isUuid } from '../WebData/helpers/validation';
import { serviceTime } from '../WebData/helpers/serviceTime';
import {
	catchUp,
	catchUpProblems,
	entryOf,
	isDone,
	KeyedQueue,
	LedgerMemory,
	markDone,
	MAX_CHECKS_PER_DELIVERY,
	pageKey,
	startListening,
	tellPage,
	untoldPagesOfEndedCheck,
	type Ledger,
	type TellOptions,
} from './checkLedger';
import { itemsForDelivery, MONITOR_EVENTS, type Decision, type Envelope, type OutputOptions } from './delivery';
import { isTestRegistration, registrationOf, type Connection } from './registration';

/** Told checks of this n8n process, beside the static data (see LedgerMemory). */
const ledgers = new LedgerMemory();
/** One delivery of a monitor at a time (see KeyedQueue). */
const queue = new KeyedQueue();

/** Activation: the trigger remembers when it started listening (the floor of its catch-ups; n8n saves a hook's static data). */
export function rememberListeningStart(ctx: IHookFunctions): void {
	startListening(ctx.getWorkflowStaticData('node'));
}

/** Test and production registrations keep apart what they told (FACTS.md "Trigger"). */
function ledgerScope(scope: string, test: boolean): string {
	return `${scope}|${test ? 'test' : 'production'}`;
}

/** Deactivation: the registration forgets which checks it told (a new activation starts from its first delivery). */
export function forgetToldChecks(ctx: IHookFunctions, scope: string): void {
	ledgers.forget(ledgerScope(scope, isTestRegistration(ctx)), ctx.getWorkflowStaticData('node'));
}

/** Checks this process's test listener received, by monitor: production tells them after (bounded). */
const toldToEditor = new Map<string, Set<string>>();
const EDITOR_CHECKS_KEPT = 1000;

function rememberToldToEditor(monitorId: string, checkId: string): void {
	const ids = toldToEditor.get(monitorId) ?? new Set<string>();
	ids.add(checkId);
	if (ids.size > EDITOR_CHECKS_KEPT) ids.delete(ids.values().next().value as string);
	toldToEditor.set(monitorId, ids);
}

/** Items told late, for a delivery that was lost: the same items, marked. */
export function caughtUpItems(envelopes: Envelope[], output: OutputOptions): IDataObject[] {
	const items: IDataObject[] = [];
	for (const envelope of envelopes) {
		const decision = itemsForDelivery(envelope, { ...output, passUnknownEvents: false });
		if (decision.run) items.push(...decision.items.map((item) => ({ ...item, caughtUp: true })));
	}
	return items;
}

export interface MonitorDeliveryOptions {
	/** The trigger node of the workflow (WebDataTrigger scopeOf). */
	scope: string;
	connection: Connection;
	/** False for an unverified delivery (Manual without Token or secret): it names the monitor, so it makes the trigger read nothing. */
	verified: boolean;
	output: OutputOptions;
}

/** What a verified monitor delivery starts: first what lost deliveries of earlier checks held (`caughtUp: true`), oldest first, then its own untold entries. */
export async function tellMonitorDelivery(ctx: IWebhookFunctions, envelope: Envelope, options: MonitorDeliveryOptions): Promise<Decision> {
	const { output } = options;
	if (!options.verified) return itemsForDelivery(envelope, output);
	const first = isPlainObject(envelope.data[0]) ? envelope.data[0] : {};
	const checkId = isUuid(envelope.id) ? envelope.id : isUuid(first.checkId) ? first.checkId : undefined;
	const reg = registrationOf(ctx);
	const monitorId = options.connection !== 'manual' && isUuid(reg.monitorId) ? reg.monitorId : isUuid(first.monitorId) ? first.monitorId : undefined;
	if (!checkId || !monitorId || !(MONITOR_EVENTS as readonly string[]).includes(envelope.type)) return itemsForDelivery(envelope, output);

	const testing = ctx.getMode() === 'manual';
	if (testing) rememberToldToEditor(monitorId, checkId);
	const key = `${ledgerScope(options.scope, testing)}|${monitorId}`;
	return await queue.run(key, async () => {
		const staticData = ctx.getWorkflowStaticData('node');
		const ledger = ledgers.load(key, staticData, monitorId);
		// The checks before the trigger started listening are history.
		ledger.mark ??= { at: serviceTime(startListening(staticData)) };
		const isNewCheck = !ledger.checks.some((c) => c.id === checkId) && !isDone(ledger, checkId);
		const tellOptions: TellOptions = { events: output.events, statuses: output.statuses };
		const late: Envelope[] = [];
		const warn = (what: string) =>
			ctx.logger.warn(`Web Data Trigger "${ctx.getNode().name}", monitor ${monitorId}: ${what}`, { workflowId: ctx.getWorkflow().id });
		const readFailed = (what: string, error: unknown) => warn(`could not read ${what}: ${(error as Error).message}. They are told at the next delivery.`);
		let behind = false;
		let missing: string | undefined;
		if (isNewCheck) {
			try {
				const told = await catchUp(ctx, monitorId, ledger, {
					...tellOptions,
					maxChecks: MAX_CHECKS_PER_DELIVERY,
					currentCheckId: checkId,
					passDelivered: true,
					toldToEditor: testing ? undefined : (id) => toldToEditor.get(monitorId)?.has(id) === true,
				});
				late.push(...told.envelopes);
				behind = told.behind;
				for (const problem of catchUpProblems(told)) warn(problem);
			} catch (error) {
				readFailed('the checks missed before this one', error);
				missing = `the checks before this one could not be read (${(error as Error).message}); any that were missed are told with a later delivery`;
			}
		}
		// Older missed checks left (the cap) go first: this one is caught up after them.
		if (behind) entryOf(ledger, checkId);
		const current = behind ? undefined : currentEntries(envelope, checkId, ledger);
		if (current && envelope.type === 'monitor.check.completed') {
			try {
				const pages = await untoldPagesOfEndedCheck(ctx, monitorId, checkId, first.summary, ledger, tellOptions);
				late.push(...pages.envelopes);
				if (pages.complete) markDone(ledger, checkId);
				else entryOf(ledger, checkId).ended = true;
			} catch (error) {
				entryOf(ledger, checkId).ended = true;
				readFailed(`the pages of check ${checkId}`, error);
			}
		}
		ledgers.save(key, staticData, monitorId, ledger);

		const items = caughtUpItems(late, output);
		const own = current ? itemsForDelivery(current, output) : undefined;
		if (own?.run) items.push(...(missing ? own.items.map((item) => ({ ...item, outOfOrder: true, missingBefore: missing })) : own.items));
		if (items.length) return { run: true, items };
		return own ?? { run: false, reason: behind ? 'waits behind older checks' : 'already told' };
	});
}

/**
 * The delivery's entries not told before, marked told: a `monitor.page` without the pages told
 * (by a catch-up or an earlier delivery); a `monitor.check.completed` once. Undefined: all told.
 */
function currentEntries(envelope: Envelope, checkId: string, ledger: Ledger): Envelope | undefined {
	const entry = entryOf(ledger, checkId);
	if (envelope.type === 'monitor.page') {
		const fresh = envelope.data.filter((e) => !isPlainObject(e) || tellPage(ledger, checkId, pageKey(e)));
		return fresh.length ? { ...envelope, data: fresh } : undefined;
	}
	if (entry.done || entry.ended) return undefined;
	return envelope;
}
