// Web Data Trigger, Source "Job Events" (issue 18): crawl / batch-scrape / agent deliveries shaped
// into items, their authentication (Token in the URL or header, HMAC signature), and the parameters
// that keep saved monitor workflows as they were. Build first.
const crypto = require('crypto');
const { authenticateDelivery, SIGNATURE_HEADER, TRIGGER_TOKEN, TRIGGER_TOKEN_HEADER: TOKEN_HEADER } = require('../../dist/nodes/shared/signature');
const { jobItemsForDelivery, JOB_EVENTS, MONITOR_EVENTS } = require('../../dist/nodes/WebDataTrigger/delivery');
const { triggerProperties } = require('../../dist/nodes/WebDataTrigger/description');

const SECRET = 'whsec-job-events';
const JOB = '0190b7c4-0000-7000-8000-00000000a0b0';
const hmac = (raw, secret = SECRET) => `sha256=${crypto.createHmac('sha256', secret).update(raw).digest('hex')}`;
const doc = (path) => ({
	markdown: `# ${path}`,
	metadata: { title: path, sourceURL: `https://docs.example.com/${path}`, statusCode: 200, scrapeId: `s-${path}` },
});
const envelope = (type, data, extra = {}) => ({ success: true, type, id: JOB, webhookId: `w-${type}`, data, metadata: { run: 'r-7' }, ...extra });
const ALL = [...JOB_EVENTS];

describe('jobItemsForDelivery', () => {
	test('crawl.page: one item per page with its markdown and page metadata, the job id and the webhook metadata', () => {
		const d = jobItemsForDelivery(envelope('crawl.page', [doc('a'), doc('b')]), { events: ['crawl.page'] });
		expect(d.run).toBe(true);
		expect(d.items).toEqual([
			{ event: 'crawl.page', jobType: 'crawl', jobId: JOB, webhookId: 'w-crawl.page', success: true, error: null, webhookMetadata: { run: 'r-7' }, ...doc('a') },
			{ event: 'crawl.page', jobType: 'crawl', jobId: JOB, webhookId: 'w-crawl.page', success: true, error: null, webhookMetadata: { run: 'r-7' }, ...doc('b') },
		]);
	});

	test('batch_scrape.page of a failed page (no document): one item with success false and the error', () => {
		const d = jobItemsForDelivery(envelope('batch_scrape.page', [], { success: false, error: 'Page timed out' }), { events: ALL });
		expect(d.items).toEqual([
			{ event: 'batch_scrape.page', jobType: 'batch_scrape', jobId: JOB, webhookId: 'w-batch_scrape.page', success: false, error: 'Page timed out', webhookMetadata: { run: 'r-7' } },
		]);
	});

	test('started / completed / failed / cancelled: one summary item, whatever data holds', () => {
		for (const type of ['crawl.started', 'crawl.completed', 'crawl.failed', 'crawl.cancelled', 'batch_scrape.started']) {
			const d = jobItemsForDelivery(envelope(type, []), { events: ALL });
			expect(d.items).toEqual([expect.objectContaining({ event: type, jobId: JOB, webhookMetadata: { run: 'r-7' } })]);
			expect(d.items[0]).not.toHaveProperty('markdown');
		}
		// A v0-style completed event lists its pages: still one item, the list kept as data.
		const links = [{ content: { markdown: 'x', metadata: {} }, source: 'https://a' }, { content: { markdown: 'y', metadata: {} }, source: 'https://b' }];
		const done = jobItemsForDelivery(envelope('batch_scrape.completed', links), { events: ALL });
		expect(done.items).toHaveLength(1);
		expect(done.items[0].data).toEqual(links);
	});

	test('agent events: the single data entry is merged (creditsUsed, data); envelope fields win over entry keys', () => {
		const d = jobItemsForDelivery(envelope('agent.completed', [{ creditsUsed: 12, data: { answer: 42 }, event: 'spoofed', jobId: 'spoofed' }]), { events: ['agent.completed'] });
		expect(d.items).toEqual([
			{ event: 'agent.completed', jobType: 'agent', jobId: JOB, webhookId: 'w-agent.completed', success: true, error: null, webhookMetadata: { run: 'r-7' }, creditsUsed: 12, data: { answer: 42 } },
		]);
		const failed = jobItemsForDelivery(envelope('agent.failed', [{ creditsUsed: 0 }], { success: false, error: 'Max credits exceeded' }), { events: ALL });
		expect(failed.items[0]).toMatchObject({ success: false, error: 'Max credits exceeded', creditsUsed: 0 });
	});

	test('a v0 sender puts the job id in jobId; a missing metadata gives {}', () => {
		const { id, metadata, ...rest } = envelope('crawl.started', []);
		const d = jobItemsForDelivery({ ...rest, jobId: 'v0-job' }, { events: ALL });
		expect(d.items[0]).toMatchObject({ jobId: 'v0-job', webhookMetadata: {} });
	});

	test('unselected, monitor and unknown events start nothing; Pass Unknown Events lets only unknown job events through', () => {
		expect(jobItemsForDelivery(envelope('crawl.page', [doc('a')]), { events: ['crawl.completed'] })).toEqual({ run: false, reason: 'event not selected' });
		expect(jobItemsForDelivery(envelope('monitor.page', [{}]), { events: ALL, passUnknownEvents: true })).toEqual({ run: false, reason: 'event not selected' });
		expect(jobItemsForDelivery(envelope('crawl.paused', []), { events: ALL })).toEqual({ run: false, reason: 'unknown event' });
		expect(jobItemsForDelivery(envelope('crawl.paused', []), { events: [], passUnknownEvents: true }).run).toBe(true);
		expect(jobItemsForDelivery(envelope('billing.low', []), { events: ALL, passUnknownEvents: true })).toEqual({ run: false, reason: 'unknown event' });
	});

	test('include request headers puts the (redacted) headers on every item', () => {
		const d = jobItemsForDelivery(envelope('crawl.page', [doc('a'), doc('b')]), { events: ALL, headers: { 'x-a': '1' } });
		expect(d.items.map((i) => i.headers)).toEqual([{ 'x-a': '1' }, { 'x-a': '1' }]);
	});
});

describe('job events through the one authenticator', () => {
	const raw = JSON.stringify(envelope('crawl.page', [doc('a')]));
	/** As the trigger calls it for job events: the trigger's token places, never unverified. */
	const authenticateJobDelivery = (input) => authenticateDelivery({ places: TRIGGER_TOKEN, ...input });

	test('with neither a Token nor a signing secret every delivery is refused', () => {
		const r = authenticateJobDelivery({ headers: {}, query: {}, rawBody: raw });
		expect(r.ok).toBe(false);
		expect(r).toMatchObject({ failed: 'nothing set' });
		expect(r.reason).toMatch(/neither a token nor a signing secret/);
	});

	test('the Token in ?token= or in the header; a wrong, missing or repeated one is refused', () => {
		const auth = (query, headers = {}) => authenticateJobDelivery({ headers, query, rawBody: raw, expectedToken: 'tok-1' });
		expect(auth({ token: 'tok-1' })).toEqual({ ok: true, verifiedBy: ['token'] });
		expect(auth({}, { [TOKEN_HEADER.toLowerCase()]: 'tok-1' })).toEqual({ ok: true, verifiedBy: ['token'] });
		expect(auth({ token: 'tok-2' })).toMatchObject({ ok: false, failed: 'token' });
		expect(auth({})).toMatchObject({ ok: false, failed: 'token' });
		expect(auth({ token: ['tok-1', 'tok-1'] })).toMatchObject({ ok: false, failed: 'token' });
		// Every copy must be right: a right ?token= does not rescue a wrong header, nor the other way round.
		expect(auth({ token: 'tok-1' }, { [TOKEN_HEADER]: 'nope' })).toMatchObject({ ok: false, failed: 'token' });
		expect(auth({ token: 'nope' }, { [TOKEN_HEADER]: 'tok-1' })).toMatchObject({ ok: false, failed: 'token' });
		expect(auth({ token: 'tok-1' }, { [TOKEN_HEADER]: 'tok-1' })).toEqual({ ok: true, verifiedBy: ['token'] });
		expect(auth(undefined)).toMatchObject({ ok: false });
	});

	test('the signing secret alone: the signature over the raw body must match', () => {
		const auth = (headers, body = raw) => authenticateJobDelivery({ headers, query: {}, rawBody: body, signingSecret: SECRET });
		expect(auth({ [SIGNATURE_HEADER]: hmac(raw) })).toEqual({ ok: true, verifiedBy: ['signature'] });
		expect(auth({ [SIGNATURE_HEADER]: hmac(raw, 'other') }).ok).toBe(false);
		expect(auth({ [SIGNATURE_HEADER]: hmac(raw) }, `${raw} `).ok).toBe(false);
		expect(auth({}).ok).toBe(false);
	});

	test('with both set, both must pass', () => {
		const auth = (query, headers) => authenticateJobDelivery({ headers, query, rawBody: raw, expectedToken: 't', signingSecret: SECRET });
		expect(auth({ token: 't' }, { [SIGNATURE_HEADER]: hmac(raw) })).toEqual({ ok: true, verifiedBy: ['token', 'signature'] });
		expect(auth({ token: 't' }, {}).ok).toBe(false);
		expect(auth({}, { [SIGNATURE_HEADER]: hmac(raw) }).ok).toBe(false);
	});
});

describe('parameters', () => {
	const byName = Object.fromEntries(triggerProperties.map((p) => [p.name, p]));

	test('Source defaults to monitor events, so workflows saved before it keep their meaning; monitor parameters keep names and defaults', () => {
		expect(byName.source.default).toBe('monitor');
		expect(byName.source.options.map((o) => o.value)).toEqual(['monitor', 'jobs']);
		expect(byName.connection.default).toBe('create');
		expect(byName.events.default).toEqual([...MONITOR_EVENTS]);
		expect(byName.secretToken.default).toBe('');
	});

	test('every monitor parameter is hidden for job events, and the job parameters only show for them', () => {
		const jobsOnly = ['jobsNotice', 'jobEvents', 'jobToken'];
		for (const p of triggerProperties) {
			if (p.name === 'source' || p.name === 'options') continue;
			const want = jobsOnly.includes(p.name) ? ['jobs'] : ['monitor'];
			expect([p.name, p.displayOptions?.show?.source]).toEqual([p.name, want]);
		}
		expect(byName.jobEvents.options.map((o) => o.value).sort()).toEqual([...JOB_EVENTS].sort());
		const monitorOnlyOptions = byName.options.options.filter((o) => o.displayOptions?.show?.['/source']?.[0] === 'monitor').map((o) => o.name);
		expect(monitorOnlyOptions.sort()).toEqual(['maxCreditsPerDay', 'onlyMeaningful', 'statuses']);
	});
});
