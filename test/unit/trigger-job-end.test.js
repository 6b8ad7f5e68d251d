'use strict';
// Web Data Trigger, Job Events: the real end of a crawl / batch scrape (issue 23.3). The open-source
// server announces every end as <prefix>.completed with success true; the trigger reads the job's
// status once and says completed / failed / cancelled with the counts, and a "Failed" / "Cancelled"
// choice receives such an announcement. Issue 29: the event is judged by the real end ("Completed"
// only for a job that completed; the item's event names what happened). Build first.
const { jobItemsForDelivery, needsJobEndRead, jobEndOf, JOB_EVENTS } = require('../../dist/nodes/WebDataTrigger/delivery');
const { triggerProperties } = require('../../dist/nodes/WebDataTrigger/description');

const JOB = '0190b7c4-0000-7000-8000-00000000a0b0';
const envelope = (type, extra = {}) => ({ success: true, type, id: JOB, webhookId: `w-${type}`, data: [], metadata: {}, ...extra });
const cancelled = { status: 'cancelled', total: 12, completed: 4, creditsUsed: 4 };

describe('needsJobEndRead: only for an end event some chosen event can receive', () => {
	test.each([
		['crawl.completed', ['crawl.completed'], true],
		['crawl.completed', ['crawl.failed'], true],
		['crawl.completed', ['crawl.cancelled'], true],
		['batch_scrape.completed', ['batch_scrape.failed'], true],
		['crawl.failed', ['crawl.failed'], true],
		['crawl.completed', ['crawl.page', 'batch_scrape.failed'], false],
		// Any end choice of the same job kind: the real end decides which one it is.
		['crawl.failed', ['crawl.completed'], true],
		['crawl.page', [...JOB_EVENTS], false],
		['agent.completed', ['agent.failed'], true],
		['agent.action', [...JOB_EVENTS], false],
		['agent.completed', ['crawl.completed', 'agent.started'], false],
	])('%s with %j → %s', (type, events, expected) => {
		expect(needsJobEndRead(type, events)).toBe(expected);
	});
});

describe('the end item says the real end', () => {
	test('issue 29: a cancelled crawl announced as crawl.completed is crawl.cancelled (success false), the announcement beside', () => {
		const d = jobItemsForDelivery(envelope('crawl.completed'), { events: ['crawl.cancelled'], end: cancelled });
		expect(d.items).toEqual([
			{
				event: 'crawl.cancelled',
				announcedEvent: 'crawl.completed',
				announcedSuccess: true,
				jobType: 'crawl',
				jobId: JOB,
				webhookId: 'w-crawl.completed',
				success: false,
				error: null,
				webhookMetadata: {},
				status: 'cancelled',
				total: 12,
				completed: 4,
				creditsUsed: 4,
			},
		]);
	});

	test('issue 29: "Completed" starts only for a job that completed', () => {
		const completedOnly = { events: ['crawl.completed'] };
		expect(jobItemsForDelivery(envelope('crawl.completed'), { ...completedOnly, end: cancelled })).toEqual({ run: false, reason: 'event not selected' });
		expect(jobItemsForDelivery(envelope('crawl.completed'), { ...completedOnly, end: { status: 'failed', total: 3, completed: 0 } })).toEqual({ run: false, reason: 'event not selected' });
		expect(jobItemsForDelivery(envelope('crawl.completed'), { ...completedOnly, end: { status: 'completed', total: 3, completed: 3 } })).toMatchObject({
			run: true,
			items: [{ event: 'crawl.completed', announcedEvent: 'crawl.completed', success: true, status: 'completed' }],
		});
	});

	test('issue 29: agent runs where the status allows: a failed run announced as completed is agent.failed; "processing" keeps the announcement', () => {
		const agentEnvelope = envelope('agent.completed', { data: [{ creditsUsed: 7, data: null }] });
		expect(jobItemsForDelivery(agentEnvelope, { events: ['agent.failed'], end: { status: 'failed', creditsUsed: 7 } })).toMatchObject({
			run: true,
			items: [{ event: 'agent.failed', announcedEvent: 'agent.completed', success: false, status: 'failed', creditsUsed: 7 }],
		});
		expect(jobItemsForDelivery(agentEnvelope, { events: ['agent.completed'], end: { status: 'failed' } })).toEqual({ run: false, reason: 'event not selected' });
		const cancelledRun = envelope('agent.cancelled', { success: false, data: [{ creditsUsed: 2 }] });
		expect(jobItemsForDelivery(cancelledRun, { events: ['agent.cancelled'], end: { status: 'processing' } })).toMatchObject({
			run: true,
			items: [{ event: 'agent.cancelled', announcedEvent: 'agent.cancelled', success: false, status: 'processing' }],
		});
	});

	test('a "Failed" / "Cancelled" choice receives a completed announcement of a job that ended so, and only that; Failed alone also hears a cancelled job (issue 45.4)', () => {
		const failedOnly = { events: ['batch_scrape.failed'] };
		expect(jobItemsForDelivery(envelope('batch_scrape.completed'), { ...failedOnly, end: { status: 'failed', total: 2, completed: 1 } })).toMatchObject({ run: true, items: [{ status: 'failed', total: 2, completed: 1 }] });
		expect(jobItemsForDelivery(envelope('batch_scrape.completed'), { ...failedOnly, end: { status: 'completed', total: 2, completed: 2 } })).toEqual({ run: false, reason: 'event not selected' });
		expect(jobItemsForDelivery(envelope('batch_scrape.completed'), { ...failedOnly, end: cancelled })).toMatchObject({ run: true, items: [{ event: 'batch_scrape.cancelled', status: 'cancelled', success: false }] });
		expect(jobItemsForDelivery(envelope('batch_scrape.completed'), { events: ['batch_scrape.failed', 'batch_scrape.completed'], end: cancelled }).run).toBe(true);
		expect(jobItemsForDelivery(envelope('crawl.completed'), { events: ['crawl.cancelled'], end: cancelled })).toMatchObject({ run: true, items: [{ status: 'cancelled' }] });
		// The status could not be read: only the announced event decides.
		expect(jobItemsForDelivery(envelope('crawl.completed'), { events: ['crawl.failed'], end: { readError: 'HTTP 500' } })).toEqual({ run: false, reason: 'event not selected' });
	});

	test('a status that could not be read: status null and why, the delivery still starts the chosen event, and says plainly that its end is not confirmed (never success: true, issue 45.4)', () => {
		const d = jobItemsForDelivery(envelope('crawl.completed'), { events: ['crawl.completed'], end: { readError: 'Could not reach the Web Data service' } });
		expect(d.items[0]).toMatchObject({ event: 'crawl.completed', announcedEvent: 'crawl.completed', announcedSuccess: true, success: null, status: null, statusReadError: 'Could not reach the Web Data service' });
		expect(d.items[0].statusUnconfirmed).toMatch(/^The service announced crawl\.completed, but the job's status could not be read, so how it ended is not confirmed\. Read it with Crawl → Get Status/);
		const running = jobItemsForDelivery(envelope('crawl.completed'), { events: ['crawl.completed'], end: { status: 'scraping' } });
		expect(running.items[0]).toMatchObject({ success: null, status: 'scraping' });
		expect(running.items[0].statusUnconfirmed).toMatch(/still read "scraping"/);
	});

	test('a build that sends crawl.failed: the read adds the counts', () => {
		const d = jobItemsForDelivery(envelope('crawl.failed', { success: false, error: 'Job failed' }), { events: ['crawl.failed'], end: { status: 'failed', total: 4, completed: 2 } });
		expect(d.items[0]).toMatchObject({ event: 'crawl.failed', success: false, error: 'Job failed', status: 'failed', total: 4, completed: 2 });
	});

	test('jobEndOf keeps the status and the counts only (no documents)', () => {
		expect(jobEndOf({ success: true, status: 'completed', total: 3, completed: 3, creditsUsed: 3, data: [{ markdown: 'x' }], next: 'u' })).toEqual({ status: 'completed', total: 3, completed: 3, creditsUsed: 3 });
		expect(jobEndOf({ success: true })).toEqual({ readError: 'the status answer has no "status"' });
	});
});

describe('the event list', () => {
	const jobEvents = triggerProperties.find((p) => p.name === 'jobEvents');
	// Issue 30: the choice is labelled "(Crawl, Batch Scrape, Agent)", so the default holds all three.
	test('the default takes pages and ends of all three kinds of job, and every failed / cancelled choice says what it receives', () => {
		expect(jobEvents.default).toEqual(['crawl.page', 'crawl.completed', 'crawl.failed', 'batch_scrape.page', 'batch_scrape.completed', 'batch_scrape.failed', 'agent.completed', 'agent.failed']);
		const source = triggerProperties.find((p) => p.name === 'source').options.find((o) => o.value === 'jobs');
		for (const kind of ['crawl', 'batch_scrape', 'agent']) {
			expect({ kind, label: source.name.includes(kind === 'batch_scrape' ? 'Batch Scrape' : kind[0].toUpperCase() + kind.slice(1)) }).toEqual({ kind, label: true });
			expect({ kind, inDefault: jobEvents.default.some((e) => e.startsWith(`${kind}.`)) }).toEqual({ kind, inDefault: true });
		}
		for (const value of ['crawl.failed', 'crawl.cancelled', 'batch_scrape.failed', 'batch_scrape.cancelled']) {
			const option = jobEvents.options.find((o) => o.value === value);
			expect([value, option.description]).toEqual([value, expect.stringMatching(/^The (crawl|batch scrape) (failed \(or was cancelled, unless Cancelled is chosen too\)|was cancelled), judged by its status \(some services report every end as completed\)\. The item's event says (which|cancelled); announcedEvent keeps what the service sent\.$/)]);
		}
		expect(jobEvents.options.find((o) => o.value === 'crawl.completed').description).toMatch(/^The crawl completed\. A failed or cancelled one goes to Failed or Cancelled/);
	});

	test("n8n's node creator finds both sources: the first parameter shown as \"Trigger On\" is Source, each option with an action", () => {
		// editor-ui useActionsGeneration (triggersCategory): the first property whose display name is
		// "event", "events" or "trigger on" gives the trigger's actions, one per option.
		const first = triggerProperties.find((p) => ['event', 'events', 'trigger on'].includes(p.displayName.toLowerCase()));
		expect(first.name).toBe('source');
		expect(first.options.map((o) => [o.value, o.action])).toEqual([
			['monitor', expect.stringMatching(/^On monitor/)],
			['jobs', expect.stringMatching(/^On crawl, batch scrape or agent/)],
		]);
	});
});

describe('the status read behind an end (issue 45.4)', () => {
	const { readJobEnd } = require('../../dist/nodes/WebDataTrigger/jobEnd');
	const { fakeContext } = require('../helpers/fake-context');
	const JOB = '0190b7c4-0000-7000-8000-00000000a0b0';
	function clockDeps() {
		let t = Date.parse('2026-12-07T12:00:00Z');
		const waits = [];
		return { waits, deps: { sleep: async (ms) => { waits.push(ms); t += ms; }, random: () => 0.5, now: () => t, maxAttempts: 2 } };
	}

	test('a read that still says "scraping" is made again; the end it then reads is told', async () => {
		const { ctx, calls } = fakeContext({ responses: [{ status: 200, body: { success: true, status: 'scraping' } }, { status: 200, body: { success: true, status: 'failed', total: 3, completed: 1 } }] });
		const { deps, waits } = clockDeps();
		expect(await readJobEnd(ctx, { type: 'crawl.completed', id: JOB, data: [] }, deps)).toEqual({ status: 'failed', total: 3, completed: 1 });
		expect(calls).toHaveLength(2);
		expect(waits).toEqual([1500]);
	});

	test('reads that keep failing stop inside the service\'s 10 s answer window; what was seen is returned', async () => {
		const { ctx, calls } = fakeContext({ responses: [{ status: 200, body: { success: true, status: 'scraping' } }] });
		const { deps } = clockDeps();
		const start = deps.now();
		expect(await readJobEnd(ctx, { type: 'crawl.completed', id: JOB, data: [] }, deps)).toEqual({ status: 'scraping' });
		expect(deps.now() - start).toBeLessThan(7000);
		expect(calls.length).toBeGreaterThanOrEqual(3);
	});
});
