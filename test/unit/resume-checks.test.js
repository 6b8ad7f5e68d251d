'use strict';
/**
 * jobs/resume.ts: the schedule of the checks a waiting Run and Wait ("Resume on Completion
 * Webhook") makes of its job (its resume calls' authentication: delivery-auth.test.js). Build first: `npm run build`.
 */
const { nextCheckAt, CHECK_SCHEDULE } = require('../../dist/nodes/WebData/jobs/resume');

/** The check times of a job that never ends, from its start (0) to `deadline` (ms). */
function checks(deadline) {
	const times = [];
	let now = 0;
	for (;;) {
		const next = nextCheckAt(0, now, deadline);
		times.push(next);
		if (next >= deadline) return times;
		now = next;
	}
}

describe('the checks while waiting', () => {
	test('a 600 s run is read at most 8 times (5 checks), the first at 80 s; the gaps grow', () => {
		const times = checks(3_600_000).filter((t) => t <= 600_000);
		expect(times).toEqual([80_000, 160_000, 240_000, 348_000, 504_600]);
		expect(times.length + 1).toBeLessThanOrEqual(8); // + the read on a delivery
	});

	test('whenever a job ends, the next check comes at most max(90 s, half its run time) after its end, with 10 s left for n8n\'s own work', () => {
		const times = checks(24 * 3_600_000);
		let previous = 0;
		for (const t of times) {
			// The worst end is just after the previous check.
			const end = previous + 1;
			const lateness = t - end + 10_000;
			expect([end, lateness <= Math.max(90_000, end / 2)]).toEqual([end, true]);
			previous = t;
		}
	});

	test('every wait is at least 60 s (n8n\'s wait tracker looks every 60 s: shorter waits may resume late), except the last one up to Max Wait', () => {
		const times = checks(1_000_000);
		let previous = 0;
		for (const t of times.slice(0, -1)) {
			expect(t - previous).toBeGreaterThanOrEqual(60_000);
			previous = t;
		}
		expect(times.at(-1)).toBe(1_000_000);
		expect(nextCheckAt(0, 0, 30_000)).toBe(30_000); // Max Wait before the first check: the only check is at Max Wait
	});

	test('after a delivery whose read did not say "ended", the next check is at most 60 s away', () => {
		expect(nextCheckAt(0, 1_000_000, 10_000_000, true) - 1_000_000).toBe(CHECK_SCHEDULE.afterDeliveryMs);
		expect(nextCheckAt(0, 1_000_000, 10_000_000, false) - 1_000_000).toBe(450_000);
	});
});
