import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { waitFor } from '../../jobs/poller';
import type { Operation, RunContext } from '../../types';
import { invalid } from '../../helpers/validation';
import { maxWaitField, readMaxWaitMs } from '../../jobs/wait';
import type { Hold } from '../../budget';
import { monitorCheckEstimate } from '../../../shared/monitor/estimate';
import { defaultDeps, type TransportDeps } from '../../transport';
import { checkItems, getCheckPage, getMonitor, readCheck, readMonitorId, readPageOptions, runMonitorCheck } from '../../../shared/monitor/api';
import { monitorIdField, pageOutputOptions } from '../../../shared/monitor/fields';
import { MONITOR_FROM_AI } from './toolFields';

/** Check statuses that are still going; any other status (even one unknown today) ends the wait. */
export const UNFINISHED_CHECK_STATUSES = ['queued', 'running'];

const properties: INodeProperties[] = [
	monitorIdField,
	{
		displayName: 'Wait for Check to Finish',
		name: 'waitForCheck',
		type: 'boolean',
		default: false,
		description:
			'Whether to wait until the check has finished and then output it with its pages. Otherwise the queued check is output at once; read it later with Get Check.',
	},
	maxWaitField('check', { displayOptions: { show: { waitForCheck: [true] } } }),
	{
		displayName: 'On Timeout',
		name: 'onTimeout',
		type: 'options',
		default: 'returnStatus',
		description: 'What to do when the check has not finished within Max Wait',
		displayOptions: { show: { waitForCheck: [true] } },
		options: [
			{
				name: 'Fail',
				value: 'fail',
				description: 'Stop with an error that names the check; it goes on and can be read later with Get Check',
			},
			{
				name: 'Return Last Status',
				value: 'returnStatus',
				description: 'Output the check as last read (status "queued" or "running", no pages)',
			},
		],
	},
	{ ...pageOutputOptions, displayOptions: { show: { waitForCheck: [true] } } },
];

/**
 * A 409 of POST /run (api-facts 2: the monitor is paused, or a check is already running) as a
 * message that says what happened and what to do. For a running check, its ID is taken from the
 * 409's body (`checkId`), or looked up when the body has none.
 */
async function explainConflict(
	ctx: IExecuteFunctions,
	error: unknown,
	monitorId: string,
	i: number,
	deps: TransportDeps,
): Promise<unknown> {
	if (!(error instanceof NodeApiError) || error.context.httpStatus !== 409) return error;
	const serverText = error.message;
	if (/paused/i.test(serverText)) {
		error.message = 'The monitor is paused, so no check was started';
		error.description = `Resume it first with Monitor → Update (Update Fields → Status: Active), then run the check again. The service said: "${serverText}" (HTTP 409, monitor ${monitorId})`;
		error.context.reason = 'paused';
	} else if (/already running/i.test(serverText)) {
		// The 409's body names the running check (the transport keeps it as context.checkId); only
		// an answer without it costs a read of the monitor.
		let running: unknown = error.context.checkId;
		if (typeof running !== 'string' || running === '') {
			try {
				running = (await getMonitor(ctx, monitorId, i, deps)).currentCheckId;
			} catch {
				running = undefined; // the message below still says what to do without the ID
			}
		}
		const which = typeof running === 'string' && running !== '' ? `check ${running}` : 'the running check';
		error.message = 'A check of this monitor is already running, so no new check was started';
		error.description = `Wait for ${which} to finish (Monitor → Get Check reads it with its pages), then run again. The service said: "${serverText}" (HTTP 409, monitor ${monitorId})`;
		error.context.reason = 'alreadyRunning';
		if (typeof running === 'string' && running !== '') error.context.checkId = running;
	}
	return error;
}

/**
 * Monitor → Run Check Now: POST /v2/monitor/{id}/run. Optionally waits for the check with the one
 * poller, then reads all its pages (following `next` links) like Get Check.
 */
export const runCheck: Operation = {
	spends: true,
	tool: {
		description: 'Check the pages of a page monitor now, by its id, and return which pages changed and how. Costs credits, one per watched page.',
		fromAi: MONITOR_FROM_AI,
	},
	properties,
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const node = this.getNode();
		const monitorId = readMonitorId(this, i);
		const wait = this.getNodeParameter('waitForCheck', i, false) === true;
		// Everything is checked before the check is started.
		let maxWaitMs = 0;
		let onTimeout = 'returnStatus';
		let pageOptions = { onePerPage: false, statuses: [] as string[] };
		if (wait) {
			maxWaitMs = readMaxWaitMs(this, i);
			onTimeout = this.getNodeParameter('onTimeout', i, 'returnStatus') as string;
			if (onTimeout !== 'returnStatus' && onTimeout !== 'fail') {
				throw invalid(node, 'On Timeout', onTimeout, 'choose Return Last Status or Fail', i);
			}
			pageOptions = readPageOptions(node, this.getNodeParameter('options', i, {}) as IDataObject, i);
		}
		const deps = run?.transportDeps ?? defaultDeps;

		// Issue 35: under a budget a check must fit what is left by the service's monitor estimate.
		const budget = deps.budget;
		await budget?.ready();
		let hold: Hold | undefined;
		let estimate = 0;
		if (budget && budget.limit(i) !== undefined) {
			estimate = monitorCheckEstimate(await getMonitor(this, monitorId, i, deps)).credits;
			hold = budget.reserve({ credits: estimate, what: `this monitor check (up to ${estimate} credits by the service's monitor estimate)`, lower: 'run it in another execution, or give the monitor fewer targets' }, i);
		}
		const startedAt = Date.now();
		let queued: IDataObject | undefined;
		try {
			queued = await runMonitorCheck(this, monitorId, i, deps);
		} catch (error) {
			throw await explainConflict(this, error, monitorId, i, deps);
		} finally {
			if (queued === undefined && hold) budget?.release(hold, i);
		}
		// What the check costs is known when it ends; until then the service's own reservation counts.
		const counted = (check: IDataObject): number => Number(check.actualCredits ?? check.reservedCredits ?? check.estimatedCredits ?? estimate) || 0;
		if (!wait) {
			budget?.settle(hold ?? { credits: 0 }, counted(queued), i);
			return [{ json: queued }];
		}
		const checkId = queued.id as string;

		const result = await waitFor<IDataObject>({
			read: async (pollDeps) => (await getCheckPage(this, monitorId, checkId, { qs: { limit: 1 } }, i, pollDeps)).check,
			isTerminal: (check) => !UNFINISHED_CHECK_STATUSES.includes(check.status as string),
			maxWaitMs,
			startedAt,
			signal: this.getExecutionCancelSignal(),
			transportDeps: deps,
		});

		if (result.outcome === 'timeout') {
			const seconds = Math.round(maxWaitMs / 1000);
			const last = result.status ?? queued;
			budget?.settle(hold ?? { credits: 0 }, counted(last), i);
			if (onTimeout === 'returnStatus') return [{ json: { ...last, id: last.id ?? checkId } }];
			const error = new NodeOperationError(node, `The check did not finish within Max Wait (${seconds} s)`, {
				itemIndex: i,
				description: `Last status "${String(last.status)}". The check goes on: read it later with Monitor → Get Check (check ${checkId}), raise Max Wait (on n8n Cloud an execution may last 300 s), or set On Timeout to "Return Last Status".`,
			});
			error.context.checkId = checkId;
			error.context.monitorId = monitorId;
			throw error;
		}

		const { check, pages } = await readCheck(this, monitorId, checkId, pageOptions.statuses, i, deps);
		budget?.settle(hold ?? { credits: 0 }, counted(check), i);
		return checkItems({ ...check, id: check.id ?? checkId }, pages, pageOptions.onePerPage, monitorId).map((json) => ({ json }));
	},
};
