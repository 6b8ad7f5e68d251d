'use strict';
/**
 * Issue 45.3: one rule for ending a wait, poll and webhook alike. In poll mode a status read that
 * fails with something that is not the service's own word (a CDN's 403 page, a proxy's HTML) does
 * not end the wait: the job is read again on the schedule, inside Max Wait. The service's own 404
 * (the job is gone) ends it at once. Build first.
 */
const { NODE, useFakeApi, resourceRunner } = require('../helpers/resource-suite');

jest.setTimeout(60000);

const api = useFakeApi({ timeScale: 10 });
const crawl = resourceRunner('crawl', api);
const agent = resourceRunner('agent', api);
const CDN_PAGE = '<html><body><h1>403 Forbidden</h1>Request blocked by the edge (ray 8f1c)</body></html>';
const reads = (prefix) => api.requests({ method: 'GET', path: prefix }).map((r) => r.status);

test('Crawl → Run and Wait: two CDN 403 pages on the status read do not end the wait; the crawl\'s pages come', async () => {
	api.fault({ method: 'GET', path: '/v2/crawl/', status: 403, body: CDN_PAGE, times: 2 });
	const result = await crawl.run({ operation: 'runAndWait', url: 'https://example.com/docs', pageLimit: 3, maxWait: 60 });
	expect(result.status).toBe('success');
	expect(result.items(NODE).length).toBeGreaterThan(0);
	expect(reads('/v2/crawl/').slice(0, 3)).toEqual([403, 403, 200]);
});

test('Crawl → Run and Wait: the service\'s own 404 (the job is gone) ends the wait at once', async () => {
	api.fault({ method: 'GET', path: '/v2/crawl/', status: 404, times: 5 });
	const result = await crawl.run({ operation: 'runAndWait', url: 'https://example.com/docs', pageLimit: 3, maxWait: 60 });
	expect(result.status).toBe('error');
	expect(reads('/v2/crawl/')).toEqual([404]);
});

test('Agent → Run and Wait (poll): reads that keep failing end at Max Wait as On Timeout says, with what was seen', async () => {
	api.fault({ method: 'GET', path: '/v2/agent/', status: 403, body: CDN_PAGE, every: 1 });
	const result = await agent.run({ operation: 'runAndWait', prompt: 'Who makes anvils? FAKE_DURATION_MS=60000', maxWait: 6, onTimeout: 'fail' });
	expect(result.status).toBe('error');
	expect(result.error.message).toMatch(/did not (finish|report a status) within Max Wait \(6 s\)/);
	expect(result.error.description).toMatch(/The last status read failed: .*403/);
	expect(reads('/v2/agent/').length).toBeGreaterThanOrEqual(2);
});
