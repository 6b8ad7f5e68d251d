'use strict';
/**
 * Reads a rate-limited run two ways.
 *
 * `requestsInsideWindows(log)` — the service's view, from the fake API's log: which requests arrived
 * inside a Retry-After window the service had already announced. A window opens when a 429 is
 * answered (`answeredAt`) and lasts its Retry-After. A request counts as inside when it arrived after
 * the 429 was answered plus `graceMs` and before the window closed. The grace covers a request that
 * had already been given its turn when the answer left the server: it still has to pass n8n's
 * request helper and loopback, which on a loaded machine takes tens of ms. It is not a breach.
 *
 * `watchPace(Pace)` — the client's view, exact: it records, on the built Pace class the node runs,
 * each hold the run learned from a 429 and each moment a request was given its turn.
 * `turnsInsideHolds()` lists the turns given while a hold was in force (same clock, no grace).
 */
function requestsInsideWindows(log, { graceMs = 5 } = {}) {
	const windows = log
		.filter((r) => r.status === 429 && r.answeredAt && r.retryAfterMs)
		.map((r) => ({ from: r.answeredAt + graceMs, to: r.answeredAt + r.retryAfterMs, seq: r.seq }));
	const inside = log.filter((r) => windows.some((w) => r.seq !== w.seq && r.at > w.from && r.at < w.to));
	return { windows: windows.length, inside };
}

function watchPace(Pace) {
	const proto = Pace.prototype;
	const original = { turn: proto.turn, rateLimited: proto.rateLimited };
	const holds = [];
	const turns = [];
	proto.rateLimited = function (waitMs) {
		const from = Date.now();
		original.rateLimited.call(this, waitMs);
		holds.push({ from, to: from + Math.max(0, waitMs) });
	};
	proto.turn = async function (signal) {
		await original.turn.call(this, signal);
		turns.push(Date.now());
	};
	return {
		holds,
		turns,
		turnsInsideHolds: () => turns.filter((at) => holds.some((h) => at > h.from && at < h.to)),
		reset() {
			holds.length = 0;
			turns.length = 0;
		},
		restore() {
			proto.turn = original.turn;
			proto.rateLimited = original.rateLimited;
		},
	};
}

module.exports = { requestsInsideWindows, watchPace };
