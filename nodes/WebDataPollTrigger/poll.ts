import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { isoTime } from '../WebData/helpers/serviceTime';
import { getMonitor, listChecks } from '../shared/monitor/api';
import { catchUp, FINISHED_CHECK_STATUSES, LIST_LIMIT, markDone, storedLedger, storeLedger, type ToldCheck } from '../WebDataTrigger/checkLedger';
import { itemsForDelivery, type Envelope, type OutputOptions } from '../WebDataTrigger/delivery';

/**
 * The ledger entry of a poll trigger activated while the monitor had no finished check: every
 * check that finishes later is new. (Not a check ID, so the walk of missedChecks never stops at it.)
 */
export const NO_CHECK_YET = 'no-finished-check-yet';

/** The items of envelopes, as the Web Data Trigger gives them for the same deliveries. */
export function itemsOf(envelopes: Envelope[], output: OutputOptions): IDataObject[] {
	const items: IDataObject[] = [];
	for (const envelope of envelopes) {
		const decision = itemsForDelivery(envelope, output);
		if (decision.run) items.push(...decision.items);
	}
	return items;
}

const isFinished = (check: IDataObject): boolean => FINISHED_CHECK_STATUSES.includes(String(check.status));

/** When the monitor's next check is due, for the messages ("unknown" when the service does not say). */
async function nextCheckText(ctx: IPollFunctions, monitorId: string): Promise<string> {
	try {
		const monitor = await getMonitor(ctx, monitorId);
		const status = typeof monitor.status === 'string' ? monitor.status : 'active';
		if (status !== 'active') return `the monitor is ${status}, so no check is scheduled; resume it first`;
		if (typeof monitor.nextRunAt !== 'string' || monitor.nextRunAt === '') return 'its next check time is not known';
		const at = isoTime(monitor.nextRunAt);
		return at ? `its next check is scheduled for ${at}` : `its next check is scheduled for "${monitor.nextRunAt}" (as the service wrote it)`;
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
	const listed = await listChecks(ctx, monitorId, { limit: LIST_LIMIT, offset: 0 });
	const latest = listed.find(isFinished);
	const doing =
		'When the workflow is active, this trigger reads the monitor\'s new checks at each poll time and starts the workflow with their events, each page of each check once; a check comes at the first poll after it finishes.';
	if (!latest) {
		throw new NodeOperationError(node, 'The monitor has no finished check yet', {
			description: `${doing} The first event comes after the monitor's first check: ${await nextCheckText(ctx, monitorId)}. To test sooner, run a check (Web Data → Monitor → Run a Check) and fetch again when it has finished.`,
		});
	}
	// A throwaway ledger that remembers a check before the latest, so the latest one is told.
	const ledger: ToldCheck[] = [{ id: NO_CHECK_YET, done: true }];
	const told = await catchUp(ctx, monitorId, ledger, { events: output.events, statuses: output.statuses }, undefined, [latest]);
	const items = itemsOf(told.envelopes, output);
	if (items.length === 0) {
		throw new NodeOperationError(node, `The monitor's latest check (${String(latest.id)}) has no event left after the chosen events and options`, {
			description: `${doing} The next check: ${await nextCheckText(ctx, monitorId)}. Choose more events or statuses, or wait for a check with changes.`,
		});
	}
	return items;
}

/**
 * One poll while active: the first remembers the newest finished check and starts nothing; later ones
 * tell the checks finished since. The ledger is saved only after a successful poll, so a failed read
 * is retried at the next.
 */
export async function activePoll(ctx: IPollFunctions, monitorId: string, output: OutputOptions): Promise<IDataObject[]> {
	const staticData = ctx.getWorkflowStaticData('node');
	const ledger = storedLedger(staticData, monitorId);
	if (ledger.length === 0) {
		const listed = await listChecks(ctx, monitorId, { limit: LIST_LIMIT, offset: 0 });
		const newest = listed.find(isFinished);
		if (newest && typeof newest.id === 'string') markDone(ledger, newest.id);
		else ledger.push({ id: NO_CHECK_YET, done: true });
		storeLedger(staticData, monitorId, ledger);
		return [];
	}
	const told = await catchUp(ctx, monitorId, ledger, { events: output.events, statuses: output.statuses });
	storeLedger(staticData, monitorId, ledger);
	return itemsOf(told.envelopes, output);
}
