const { RecentKeys } = require('../../dist/nodes/WebData/helpers/recentKeys');

describe('RecentKeys', () => {
	test('a key is known for its keep time, then forgotten', () => {
		const keys = new RecentKeys(1000);
		expect(keys.has('a', 0)).toBe(false);
		keys.remember('a', 0);
		expect(keys.has('a', 1000)).toBe(true);
		expect(keys.has('a', 1001)).toBe(false);
		expect(keys.has('a', 0)).toBe(false); // forgotten, not only hidden
	});

	test('remembering again starts the keep time anew', () => {
		const keys = new RecentKeys(1000);
		keys.remember('a', 0);
		keys.remember('a', 900);
		expect(keys.has('a', 1500)).toBe(true);
		expect(keys.has('b', 1500)).toBe(false);
	});
});
