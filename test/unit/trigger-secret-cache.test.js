'use strict';
// SigningSecretCache (nodes/WebDataTrigger/secretCache.ts): the signing secret per trigger node,
// with expiry, a credential switch, forgetting, a bound, and the throttle of re-reads.
const { SigningSecretCache } = require('../../dist/nodes/WebDataTrigger/secretCache');

describe('SigningSecretCache', () => {
	test('a value is served until it expires; a secret of "none" is cached too', () => {
		const c = new SigningSecretCache(60000, 1000, 10);
		expect(c.get('wf:a', 'cred-1', 0)).toBeUndefined();
		c.set('wf:a', 'cred-1', 'whsec-1', 1000);
		c.set('wf:b', 'cred-1', undefined, 1000);
		expect(c.get('wf:a', 'cred-1', 60999)).toEqual({ secret: 'whsec-1', credentialId: 'cred-1', readAt: 1000 });
		expect(c.get('wf:b', 'cred-1', 2000)).toEqual({ secret: undefined, credentialId: 'cred-1', readAt: 1000 });
		expect(c.get('wf:a', 'cred-1', 61000)).toBeUndefined(); // expired, and dropped
		expect(c.size()).toBe(1);
	});

	test('another credential on the node is a miss; forget drops the node', () => {
		const c = new SigningSecretCache();
		c.set('wf:a', 'cred-1', 'whsec-1', 0);
		expect(c.get('wf:a', 'cred-2', 1)).toBeUndefined();
		c.set('wf:a', 'cred-1', 'whsec-1', 0);
		c.forget('wf:a');
		expect(c.get('wf:a', 'cred-1', 1)).toBeUndefined();
	});

	test('bounded: the least recently used node is dropped first', () => {
		const c = new SigningSecretCache(60000, 1000, 2);
		c.set('a', 'c', 's-a', 0);
		c.set('b', 'c', 's-b', 0);
		expect(c.get('a', 'c', 1)?.secret).toBe('s-a'); // a is now the most recent
		c.set('c', 'c', 's-c', 2);
		expect(c.size()).toBe(2);
		expect(c.get('b', 'c', 3)).toBeUndefined();
		expect(c.get('a', 'c', 3)?.secret).toBe('s-a');
		expect(c.get('c', 'c', 3)?.secret).toBe('s-c');
	});

	test('a failed check may re-read at most once per retry interval per node', () => {
		const c = new SigningSecretCache(60000, 1000, 10);
		expect(c.mayRefresh('a', 0)).toBe(true);
		expect(c.mayRefresh('a', 999)).toBe(false);
		expect(c.mayRefresh('b', 999)).toBe(true); // per node
		expect(c.mayRefresh('a', 1000)).toBe(true);
		c.forget('a');
		expect(c.mayRefresh('a', 1001)).toBe(true); // a new registration starts afresh
	});
});
