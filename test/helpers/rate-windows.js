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
 * each hold the run learned from a 429 and each moment a request was given its turn (the pace's own
 * time of the decision). `turnsInsideHolds()` lists the turns given while a hold was in force (same
 * clock, no grace).
 *
 * `arrivalsNotExplained(log, pace)` — the service's view, without the arrival jitter the product
 * does not control (issue 15.4). A request given its turn before the run had read a 429 cannot be
 * called back: on a loaded machine it may reach the service hundreds of ms later (n8n's request
 * helper, the event loop and loopback lie between the turn and the arrival), inside the window the
 * 429 opened. That is not a breach; a request whose turn came after the run read the 429 is. Turns
 * and arrivals are not matched one by one (the fake cannot tell which turn a request came from);
 * they are counted: window j opens when the service answers a 429 (A) and the run reads it (H, the
 * j-th hold learned); the requests that arrive inside it can only be those given their turn before H
 * that had not arrived by A. Each window with more arrivals than that is returned. Every request
 * that reached the service had a turn (checked by the tests: turns = requests), so a request sent
 * after H inside the window shows up here, whatever the machine's load; one that arrived late does not.
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
	let last;
	proto.rateLimited = function (waitMs, ticket) {
		const from = Date.now();
		original.rateLimited.call(this, waitMs, ticket);
		holds.push({ from, to: from + Math.max(0, waitMs), sentAt: ticket?.at });
		last = this;
	};
	proto.turn = async function (signal) {
		const ticket = await original.turn.call(this, signal);
		turns.push(ticket.at);
		return ticket;
	};
	return {
		holds,
		turns,
		/** The pace that heard the latest 429 (for benchmarks: its learned state). */
		get last() {
			return last;
		},
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

function arrivalsNotExplained(log, pace) {
	const windows = log
		.filter((r) => r.status === 429 && r.answeredAt && r.retryAfterMs)
		.sort((a, b) => a.answeredAt - b.answeredAt);
	const reads = pace.holds.map((h) => h.from).sort((a, b) => a - b);
	const turns = [...pace.turns].sort((a, b) => a - b);
	const arrivals = log.filter((r) => !r.aborted).map((r) => r.at);
	const breaches = [];
	windows.forEach((w, k) => {
		const readAt = reads[k] ?? Infinity;
		const closes = w.answeredAt + w.retryAfterMs;
		const inside = log.filter((r) => r.seq !== w.seq && r.at > w.answeredAt && r.at < closes);
		const givenBefore = turns.filter((t) => t <= readAt).length;
		const arrivedBefore = arrivals.filter((t) => t <= w.answeredAt).length;
		if (inside.length > givenBefore - arrivedBefore) {
			const excess = inside.length - (givenBefore - arrivedBefore);
			breaches.push({ window: w.seq, readAt, inside: inside.map((r) => r.seq), givenBefore, arrivedBefore, excess });
		}
	});
	return breaches;
}

module.exports = { requestsInsideWindows, watchPace, arrivalsNotExplained };
