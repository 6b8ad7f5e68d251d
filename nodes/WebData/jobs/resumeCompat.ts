import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteData, IExecuteFunctions } from 'n8n-workflow';

import { isN8n227OrLater } from '../helpers/hostEngine';

/**
 * "Resume on Completion Webhook" on an n8n without `metadata.resumeError` (n8n 1.x, and 2.x
 * before 2.27: hostEngine.ts; see resume.ts for how n8n resumes a waiting node).
 *
 * n8n 2.27 and later fail a resumed node whose stack entry carries `metadata.resumeError`. Older
 * n8n ignore it: the node is resumed disabled and passes its data through as an ordinary item, so
 * a failed job ("Stop With Error") or a missed deadline (On Timeout "Fail") would look like a
 * success and downstream nodes would run.
 *
 *  - A job that ended unsuccessfully: the resume call runs webhook() first, and n8n disables the
 *    node just before that call (WaitingWebhooks, and n8n has already cleared `waitTill`, so the
 *    engine does not disable it again). So webhook() keeps the error in the stack entry and lets the
 *    node run once more; execute() then raises that error (throwIfResumedWithError) before it does
 *    anything else. The node fails as on newer n8n, with the same message.
 *  - Max Wait passing without a delivery needs nothing here: n8n's engine disables only the first
 *    stack entry (the emptied one, see pause in resume.ts), so the check copy behind it runs its
 *    execute() at each check and at Max Wait, on 1.x too (n8n-core 1.122 handleWaitingState), and
 *    On Timeout "Fail" throws there (continueWaiting).
 */

/** Key of the stack entry's metadata (saved with the waiting execution) that holds the error. */
const FAILURE_KEY = 'webDataResumeFailure';

/** Plain facts of the error, for the execution's saved data. */
function plain(error: NodeOperationError): IDataObject {
	const context: IDataObject = {};
	for (const [k, v] of Object.entries(error.context ?? {})) {
		if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) context[k] = v as IDataObject[string];
	}
	return {
		message: error.message,
		...(typeof error.description === 'string' ? { description: error.description } : {}),
		context,
	};
}

/**
 * webhook() of a job that ended unsuccessfully, on an n8n without resumeError: keep the error in
 * the waiting stack entry and let the node run again on resume, so execute() raises it.
 * `hostHasResumeError` is isN8n227OrLater() (tests pass it).
 */
export function failOnResumeWithoutResumeError(
	entry: IExecuteData,
	error: NodeOperationError,
	hostHasResumeError = isN8n227OrLater(),
): void {
	if (hostHasResumeError) return;
	entry.metadata = { ...(entry.metadata ?? {}), [FAILURE_KEY]: plain(error) } as IExecuteData['metadata'];
	if (entry.node?.disabled === true) delete entry.node.disabled;
}

/** First thing of execute(): a node resumed by failOnResumeWithoutResumeError fails with its job's error. */
export function throwIfResumedWithError(ctx: IExecuteFunctions): void {
	const entry = typeof ctx.getExecuteData === 'function' ? ctx.getExecuteData() : undefined;
	const kept = (entry?.metadata as IDataObject | undefined)?.[FAILURE_KEY] as IDataObject | undefined;
	if (!kept || typeof kept !== 'object' || typeof kept.message !== 'string') return;
	const error = new NodeOperationError(ctx.getNode(), kept.message, {
		...(typeof kept.description === 'string' ? { description: kept.description } : {}),
	});
	if (kept.context && typeof kept.context === 'object') Object.assign(error.context, kept.context);
	throw error;
}
