'use strict';
/**
 * Reads the fake API's log after a rate-limited run: which requests arrived inside a Retry-After
 * window that the service had already announced.
 *
 * A window opens when a 429 is answered (`answeredAt`) and lasts its Retry-After. A request counts as
 * inside when it arrived after the 429 was answered plus `graceMs` (a request the client had already
 * sent when the answer left the server is not a breach: on loopback that takes a few ms) and before
 * the window closed.
 */
function requestsInsideWindows(log, { graceMs = 5 } = {}) {
	const windows = log
		.filter((r) => r.status === 429 && r.answeredAt && r.retryAfterMs)
		.map((r) => ({ from: r.answeredAt + graceMs, to: r.answeredAt + r.retryAfterMs, seq: r.seq }));
	const inside = log.filter((r) => windows.some((w) => r.seq !== w.seq && r.at > w.from && r.at < w.to));
	return { windows: windows.length, inside };
}

module.exports = { requestsInsideWindows };
