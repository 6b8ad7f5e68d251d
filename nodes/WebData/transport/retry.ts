/** Retry rules of spec 7.3 (408, 429 and 5xx; Retry-After, else 2^n s capped at 30 s plus jitter; 5 attempts), free of n8n for tests. */

export const RETRYABLE_STATUSES: readonly number[] = [408, 429, 500, 502, 503, 504];

export const MAX_ATTEMPTS = 5;

export const MAX_BACKOFF_MS = 30_000;

/** A `Retry-After` longer than this is not waited for: the request fails and says how long to wait. */
export const MAX_RETRY_AFTER_MS = 300_000;

export function isRetryableStatus(status: number | undefined): boolean {
	return status !== undefined && RETRYABLE_STATUSES.includes(status);
}

/**
 * Milliseconds to wait from a `Retry-After` header value, or undefined when absent or unreadable.
 * Accepts delta-seconds ("7") and an HTTP date ("Wed, 21 Oct 2026 07:28:00 GMT").
 */
export function parseRetryAfter(value: unknown, now: number): number | undefined {
	const text = Array.isArray(value) ? value[0] : value;
	if (typeof text !== 'string' && typeof text !== 'number') return undefined;
	const trimmed = String(text).trim();
	if (trimmed === '') return undefined;
	if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
	const date = Date.parse(trimmed);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

/** Exponential backoff of 7.3: 2^attempt seconds, capped at 30 s, plus jitter in [0, 1) s. */
export function backoffDelay(failedAttempt: number, random: () => number): number {
	const base = Math.min(2 ** failedAttempt * 1000, MAX_BACKOFF_MS);
	const jitter = Math.floor(Math.min(Math.max(random(), 0), 0.999) * 1000);
	return base + jitter;
}

/**
 * The wait before the next attempt after `failedAttempt` failed with `status`, or undefined when
 * the request must not be retried (not retryable, attempts used up, or Retry-After too long).
 */
export function nextRetryDelay(
	failedAttempt: number,
	status: number | undefined,
	retryAfterMs: number | undefined,
	random: () => number,
	maxAttempts = MAX_ATTEMPTS,
): number | undefined {
	if (!isRetryableStatus(status) || failedAttempt >= maxAttempts) return undefined;
	// 429 and 503 (RFC 9110 §10.2.3) may say when to come back; the other statuses back off.
	if ((status === 429 || status === 503) && retryAfterMs !== undefined) {
		return retryAfterMs > MAX_RETRY_AFTER_MS ? undefined : retryAfterMs;
	}
	return backoffDelay(failedAttempt, random);
}
