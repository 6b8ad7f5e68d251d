const { runPool } = require('../../dist/nodes/WebData/helpers/pool');

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
