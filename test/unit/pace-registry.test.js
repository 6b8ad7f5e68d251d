'use strict';
/**
 * One pace per execution and credential (issue 16.4): transport/paceRegistry.ts. The registry the
 * router uses is the module's own; these tests drive the class with an injected clock.
 */
const { Pace } = require('../../dist/nodes/WebData/transport/pace');
const { PaceRegistry, paceFor, PACE_IDLE_MS, PACE_MAX_ENTRIES } = require('../../dist/nodes/WebData/transport/paceRegistry');

function registry(options = {}) {
	let now = 1_000_000;
	const reg = new PaceRegistry({ now: () => now, ...options });
	return { reg, advance: (ms) => (now += ms) };
}

describe('PaceRegistry', () => {
	test('the same execution and credential get the same pace', () => {
		const { reg } = registry();
		const a = reg.get('101', 'cred-1');
		expect(a).toBeInstanceOf(Pace);
		expect(reg.get('101', 'cred-1')).toBe(a);
		expect(reg.size).toBe(1);
	});

	test('another execution, or another credential in the same execution, gets its own pace', () => {
		const { reg } = registry();
		const a = reg.get('101', 'cred-1');
		expect(reg.get('102', 'cred-1')).not.toBe(a);
		expect(reg.get('101', 'cred-2')).not.toBe(a);
		// The key parts cannot run into each other ("1"+"01x" vs "10"+"1x").
		expect(reg.get('1', '01x')).not.toBe(reg.get('10', '1x'));
	});

	test('a hold learned through one lookup holds the next lookup of the same execution', () => {
		const { reg } = registry();
		reg.get('7', 'c').rateLimited(2000);
		expect(reg.get('7', 'c').state.resumeAt).toBeGreaterThan(Date.now() + 1000);
		expect(reg.get('8', 'c').state.resumeAt).toBe(0);
	});

	test('an entry idle for idleMs is dropped: the next lookup gets a fresh pace', () => {
		const { reg, advance } = registry({ idleMs: 60_000 });
		const a = reg.get('1', 'c');
		advance(59_999);
		expect(reg.get('1', 'c')).toBe(a); // used again: idle time starts over
		advance(59_999);
		expect(reg.get('1', 'c')).toBe(a);
		advance(60_000);
		expect(reg.get('1', 'c')).not.toBe(a);
	});

	test('idle entries of other executions are dropped on the next insert (no timers)', () => {
		const { reg, advance } = registry({ idleMs: 60_000 });
		for (let i = 0; i < 50; i++) reg.get(String(i), 'c');
		expect(reg.size).toBe(50);
		advance(60_000);
		reg.get('new', 'c');
		expect(reg.size).toBe(1);
	});

	test('at most maxEntries are kept, least recently used dropped first', () => {
		const { reg, advance } = registry({ maxEntries: 3 });
		const one = reg.get('1', 'c');
		advance(1);
		const two = reg.get('2', 'c');
		advance(1);
		reg.get('3', 'c');
		advance(1);
		expect(reg.get('1', 'c')).toBe(one); // 1 is now the most recently used; 2 the least
		advance(1);
		reg.get('4', 'c');
		expect(reg.size).toBe(3);
		expect(reg.get('1', 'c')).toBe(one);
		expect(reg.get('2', 'c')).not.toBe(two); // 2 was dropped
		expect(reg.size).toBe(3);
	});

	test('many executions never grow the registry past its bound', () => {
		const { reg, advance } = registry();
		for (let i = 0; i < PACE_MAX_ENTRIES * 3; i++) {
			reg.get(`exec-${i}`, 'c');
			advance(1);
		}
		expect(reg.size).toBe(PACE_MAX_ENTRIES);
		expect(PACE_IDLE_MS).toBeGreaterThanOrEqual(60_000); // longer than any hold (MAX_WINDOW_MS)
	});

	test('paceFor: no execution id → a pace of the run\'s own, not a shared one', () => {
		const { reg } = registry();
		const a = paceFor(reg, undefined, 'c');
		expect(a).toBeInstanceOf(Pace);
		expect(paceFor(reg, undefined, 'c')).not.toBe(a);
		expect(paceFor(reg, '', 'c')).not.toBe(a);
		expect(reg.size).toBe(0);
		expect(paceFor(reg, '5', null)).toBe(paceFor(reg, '5', undefined));
	});
});
