import { sleep } from 'n8n-workflow';

/** A wait that a stopped execution ends at once, on n8n 1.x too (nodes/FACTS.md "Pace", stop signal). */
export const SLEEP_SLICE_MS = 1_000;

/** `sleep(ms)` of the host's n8n-workflow, possibly without signal support (1.x). */
export type HostSleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The error of a wait or request ended by the stop signal (name AbortError: never made an error item). */
export function cancelledError(): Error {
	const error = new Error('The execution was cancelled');
	error.name = 'AbortError';
	return error;
}

/** Resolves after `ms`, or rejects (AbortError) at once when `signal` aborts; `hostSleep` is n8n-workflow's `sleep`. */
export async function cancellableSleep(ms: number, signal?: AbortSignal, hostSleep: HostSleep = sleep): Promise<void> {
	if (!signal) {
		await hostSleep(ms);
		return;
	}
	if (signal.aborted) throw cancelledError();
	let onAbort: (() => void) | undefined;
	const aborted = new Promise<never>((_resolve, reject) => {
		onAbort = () => reject(cancelledError());
		signal.addEventListener('abort', onAbort, { once: true });
	});
	try {
		let left = Math.max(0, ms);
		do {
			const slice = Math.min(left, SLEEP_SLICE_MS);
			await Promise.race([hostSleep(slice, signal), aborted]);
			if (signal.aborted) throw cancelledError();
			left -= slice;
		} while (left > 0);
	} finally {
		if (onAbort) signal.removeEventListener('abort', onAbort);
		aborted.catch(() => {
			// settled after the wait ended: nobody listens any more
		});
	}
}
