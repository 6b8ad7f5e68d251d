const { runPool, Throttle } = require('../../dist/nodes/WebData/helpers/pool');

const tick = () => new Promise((r) => setImmediate(r));

describe('runPool', () => {
	test('keeps result order and never runs more than the limit', async () => {
		let running = 0;
		let peak = 0;
		const out = await runPool(10, 3, async (i) => {
			running++;
			peak = Math.max(peak, running);
			await new Promise((r) => setTimeout(r, (10 - i) * 2));
			running--;
			return i * 2;
		});
		expect(out).toEqual([...Array(10).keys()].map((i) => i * 2));
		expect(peak).toBe(3);
	});

	test('the first failure rejects', async () => {
		await expect(runPool(5, 2, async (i) => {
			if (i === 3) throw new Error('item 3');
			return i;
		})).rejects.toThrow('item 3');
	});
});

describe('Throttle', () => {
	function fakeClock() {
		let now = 0;
		return { now: () => now, wait: async (ms) => { now += ms; await tick(); } };
	}

	test('a 429 halves the width and holds new starts for Retry-After', async () => {
		const clock = fakeClock();
		const throttle = new Throttle(4, clock.now, clock.wait);
		throttle.rateLimited(1000);
		expect(throttle.current).toBe(2);
		await throttle.admit(0, () => true);
		expect(clock.now()).toBeGreaterThanOrEqual(1000);
		throttle.rateLimited(0);
		expect(throttle.current).toBe(1);
		throttle.rateLimited(0);
		expect(throttle.current).toBe(1);
		throttle.succeeded();
		throttle.succeeded();
		throttle.succeeded();
		throttle.succeeded();
		expect(throttle.current).toBe(4);
	});

	test('a worker above the width leaves when no work is left (no hang)', async () => {
		const clock = fakeClock();
		const throttle = new Throttle(4, clock.now, clock.wait);
		throttle.rateLimited(0);
		throttle.rateLimited(0);
		let left = 3;
		const admitted = throttle.admit(3, () => left-- > 0);
		await expect(admitted).resolves.toBeUndefined();
	});

	test('the pool finishes all items while throttled to one worker', async () => {
		const clock = fakeClock();
		const throttle = new Throttle(5, clock.now, clock.wait);
		const out = await runPool(12, 5, async (i) => {
			if (i % 3 === 0) throttle.rateLimited(100);
			await tick();
			return i;
		}, throttle);
		expect(out).toEqual([...Array(12).keys()]);
	});
});
