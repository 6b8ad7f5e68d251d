import { sleep } from 'n8n-workflow';

/**
 * A wait that a stopped execution ends at once, on every n8n this package supports.
 *
 * n8n-workflow 2.x's `sleep(ms, signal)` rejects as soon as `signal` aborts. n8n-workflow 1.x
 * (n8n 1.123 ships 1.120) has `sleep(ms)` only and ignores a second argument, so a Run and Wait
 * stopped by the user would wait out its current poll interval (up to 90 s) before it ends. So the
 * signal is listened to here as well, and the wait is made of slices of at most SLEEP_SLICE_MS, so
 * that after a stop no timer of more than a second is left behind on either line.
 */
export const SLEEP_SLICE_MS = 1_000;

/** `sleep(ms)` of the host's n8n-workflow, possibly without signal support (1.x). */
export type HostSleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The error of a wait or request ended by the stop signal (name AbortError: never made an error item). */
export function cancelledError(): Error {
	const error = new Error('The execution was cancelled');
	error.name = 'AbortError';
	return error;
}

/**
 * Resolves after `ms`, or rejects (AbortError) at once when `signal` aborts, whether or not the
 * host's `sleep` honours the signal. `hostSleep` is n8n-workflow's `sleep` (tests pass 1.x's).
 */
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
