import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { whenLabel } from '../WebData/helpers/serviceTime';
import { isUuid } from '../WebData/helpers/validation';
import { getMonitor, listChecks, MAX_PAGE_SIZE } from '../shared/monitor/api';
import {
	catchUp,
	isFinished,
	markAt,
	markDone,
	MAX_CHECKS_PER_POLL,
	newLedger,
	storedLedger,
	storeLedger,
	tellChecks,
	catchUpProblems,
	type CatchUp,
	type Ledger,
} from '../WebDataTrigger/checkLedger';
import { itemsForDelivery, type Envelope, type OutputOptions } from '../WebDataTrigger/delivery';

/** The items of envelopes, as the Web Data Trigger gives them for the same deliveries. */
export function itemsOf(envelopes: Envelope[], output: OutputOptions): IDataObject[] {
	const items: IDataObject[] = [];
	for (const envelope of envelopes) {
		const decision = itemsForDelivery(envelope, output);
		if (decision.run) items.push(...decision.items);
	}
	return items;
}

/** When the monitor's next check is due, for the messages ("unknown" when the service does not say). */
async function nextCheckText(ctx: IPollFunctions, monitorId: string): Promise<string> {
	try {
		const monitor = await getMonitor(ctx, monitorId);
		const status = typeof monitor.status === 'string' ? monitor.status : 'active';
		if (status !== 'active') return `the monitor is ${status}, so no check is scheduled; resume it first`;
		if (typeof monitor.nextRunAt !== 'string' || monitor.nextRunAt === '') return 'its next check time is not known';
		const when = whenLabel(monitor.nextRunAt);
		return when ? `its next check is ${when}` : `its next check is scheduled for "${monitor.nextRunAt}" (as the service wrote it)`;
	} catch (error) {
		return `its next check time could not be read (${(error as Error).message})`;
	}
}

/**
 * Test ("Fetch Test Event"): the items of the monitor's latest finished check, as a poll would give
 * them, without remembering anything. No finished check, or none of its events left after the
 * filters: an error that says what the trigger does and when its first event comes.
 */
export async function testPoll(ctx: IPollFunctions, monitorId: string, output: OutputOptions): Promise<IDataObject[]> {
	const node = ctx.getNode();
	const listed = await listChecks(ctx, monitorId, { limit: MAX_PAGE_SIZE, offset: 0 });
	const latest = listed.find(isFinished);
	const doing =
		'Once the workflow is published (active), this trigger reads the monitor\'s new checks at each poll time and starts the workflow with their events, each page of each check once; a check comes at the first poll after it finishes.';
	if (!latest) {
		throw new NodeOperationError(node, 'The monitor has no finished check yet', {
			description: `${doing} The first event comes after the monitor's first check: ${await nextCheckText(ctx, monitorId)}. To test sooner, run a check with a Web Data node (Monitor → Run Check Now) and fetch again when it has finished.`,
		});
	}
	const told = await tellChecks(ctx, monitorId, [latest], newLedger({}), { events: output.events, statuses: output.statuses });
	const items = itemsOf(told.envelopes, output);
	if (items.length === 0) {
		throw new NodeOperationError(node, `The monitor's latest check (${String(latest.id)}) has no event left after the chosen events and options`, {
			description: `${doing} The next check: ${await nextCheckText(ctx, monitorId)}. Choose more events or statuses, or wait for a check with changes.`,
		});
	}
	return items;
}

/**
 * The first poll's ledger: the checks finished so far are history, up to the newest one below every
 * check still running (a check that finishes after activation is new).
 */
export function firstLedger(listed: IDataObject[]): Ledger {
	const checks = listed.filter((c) => isUuid(c.id));
	let running = -1;
	for (let i = 0; i < checks.length; i++) if (!isFinished(checks[i])) running = i;
	const boundary = checks.findIndex((c, i) => i > running && isFinished(c));
	const ledger = newLedger(boundary >= 0 ? markAt(checks[boundary]) : checks.length < MAX_PAGE_SIZE ? {} : markAt(checks[checks.length - 1]));
	for (const c of checks.slice(0, boundary >= 0 ? boundary : checks.length)) if (isFinished(c)) markDone(ledger, String(c.id));
	return ledger;
}

function warnOf(ctx: IPollFunctions, monitorId: string, told: CatchUp): void {
	for (const problem of catchUpProblems(told)) ctx.logger.warn(`Web Data Poll Trigger "${ctx.getNode().name}", monitor ${monitorId}: ${problem}`, { workflowId: ctx.getWorkflow().id });
}

/**
 * One poll while active: the first remembers the checks finished so far and starts nothing; later
 * ones tell every check finished since, oldest first (MAX_CHECKS_PER_POLL, the rest at the next
 * poll). The ledger is saved only after a successful poll, so a failed read is retried at the next.
 */
export async function activePoll(ctx: IPollFunctions, monitorId: string, output: OutputOptions): Promise<IDataObject[]> {
	const staticData = ctx.getWorkflowStaticData('node');
	const ledger = storedLedger(staticData, monitorId);
	if (!ledger.mark) {
		storeLedger(staticData, monitorId, firstLedger(await listChecks(ctx, monitorId, { limit: MAX_PAGE_SIZE, offset: 0 })));
		return [];
	}
	const told = await catchUp(ctx, monitorId, ledger, { events: output.events, statuses: output.statuses, maxChecks: MAX_CHECKS_PER_POLL });
	storeLedger(staticData, monitorId, ledger);
	warnOf(ctx, monitorId, told);
	return itemsOf(told.envelopes, output);
}
