// Web Data Trigger building blocks without n8n: delivery authentication (secret token, HMAC
// signature over the raw body), de-duplication with bounded memory, envelope parsing, output shape
// and filters, and the create body of "Create a Monitor for This Workflow". Build first.
const crypto = require('crypto');
const { newSecretToken, DeliveryDeduper } = require('../../dist/nodes/WebDataTrigger/verify');
const { SIGNATURE_HEADER, TRIGGER_TOKEN, TRIGGER_TOKEN_HEADER: TOKEN_HEADER, safeEqual, headerValue, signBody, signatureMatches } = require('../../dist/nodes/shared/signature');
const shared = require('../../dist/nodes/shared/signature');
const { parseDelivery, itemsForDelivery, redactedHeaders } = require('../../dist/nodes/WebDataTrigger/delivery');
const { monitorCreateBody, splitUrls } = require('../../dist/nodes/WebDataTrigger/monitorBody');
const { isPrivateHost } = require('../../dist/nodes/WebData/helpers/validation');

const SECRET = 'whsec-test-signing-secret';
const sha = (text) => crypto.createHash('sha256').update(text).digest('hex').slice(0, 32);
/** The one authenticator as the trigger calls it for a monitor delivery (no URL query here). */
const authenticateDelivery = (input) => shared.authenticateDelivery({ places: TRIGGER_TOKEN, query: {}, ...input });
const hmac = (secret, raw) => `sha256=${crypto.createHmac('sha256', secret).update(raw).digest('hex')}`;

function pageEnvelope(overrides = {}) {
	return {
		success: true,
		type: 'monitor.page',
		id: '0190b7c4-0000-7000-8000-00000000c0c0',
		webhookId: 'a6f0d6f2-3c55-4b6e-9b8e-5d2f1c7e9a01',
		data: [
			{
				monitorId: '0190b7c4-0000-7000-8000-00000000a0a0',
				checkId: '0190b7c4-0000-7000-8000-00000000c0c0',
				url: 'https://example.com/pricing',
				status: 'changed',
				previousScrapeId: 'p1',
				currentScrapeId: 'c1',
				error: null,
				isMeaningful: true,
				judgment: { meaningful: true, confidence: 'high', reason: 'price' },
				diff: { text: '-Price: $10\n+Price: $12\n' },
			},
		],
		metadata: { team: 'growth' },
		...overrides,
	};
}

describe('secret token', () => {
	test('a new token is 64 hex characters and different every time', () => {
		const a = newSecretToken();
		const b = newSecretToken();
		expect(a).toMatch(/^[0-9a-f]{64}$/);
		expect(a).not.toBe(b);
	});

	test('safeEqual compares any lengths without throwing', () => {
		expect(safeEqual('abc', 'abc')).toBe(true);
		expect(safeEqual('abc', 'abd')).toBe(false);
		expect(safeEqual('abc', 'abcd')).toBe(false);
		expect(safeEqual('', 'x')).toBe(false);
	});

	test('header lookup is case-insensitive and refuses a header sent twice', () => {
		expect(headerValue({ 'x-webdata-trigger-token': 't' }, TOKEN_HEADER)).toBe('t');
		expect(headerValue({ 'X-WebData-Trigger-Token': 't' }, TOKEN_HEADER)).toBe('t');
		expect(headerValue({ 'x-webdata-trigger-token': ['t', 't'] }, TOKEN_HEADER)).toBeUndefined();
		expect(headerValue({}, TOKEN_HEADER)).toBeUndefined();
		expect(headerValue(undefined, TOKEN_HEADER)).toBeUndefined();
	});

	test('a delivery must carry the exact token', () => {
		const token = newSecretToken();
		const raw = '{}';
		expect(authenticateDelivery({ headers: { [TOKEN_HEADER]: token }, rawBody: raw, expectedToken: token })).toEqual({ ok: true, verifiedBy: ['token'] });
		for (const headers of [{}, { [TOKEN_HEADER]: '' }, { [TOKEN_HEADER]: token.slice(1) }, { [TOKEN_HEADER]: `${token}x` }, { [TOKEN_HEADER]: token.toUpperCase() }]) {
			const r = authenticateDelivery({ headers, rawBody: raw, expectedToken: token });
			expect(r.ok).toBe(false);
			expect(r.reason).not.toContain(token);
		}
	});
});

describe('HMAC signature (api-facts 3)', () => {
	const raw = Buffer.from(JSON.stringify(pageEnvelope()));

	test('matches what the service sends: sha256=<hex HMAC-SHA256(secret, raw body)>', () => {
		expect(`sha256=${signBody(SECRET, raw)}`).toBe(hmac(SECRET, raw));
		expect(signatureMatches(SECRET, raw, hmac(SECRET, raw))).toBe(true);
		expect(signatureMatches(SECRET, raw.toString('utf8'), hmac(SECRET, raw))).toBe(true);
		expect(signatureMatches(SECRET, raw, hmac(SECRET, raw).toUpperCase().replace('SHA256=', 'sha256='))).toBe(true);
	});

	test('refuses another secret, another body, a changed byte, no prefix, short or junk values', () => {
		const good = hmac(SECRET, raw);
		expect(signatureMatches('other', raw, good)).toBe(false);
		expect(signatureMatches(SECRET, Buffer.from(`${raw} `), good)).toBe(false);
		const flipped = Buffer.from(raw);
		flipped[10] ^= 1;
		expect(signatureMatches(SECRET, flipped, good)).toBe(false);
		expect(signatureMatches(SECRET, raw, good.slice(7))).toBe(false);
		expect(signatureMatches(SECRET, raw, good.slice(0, -2))).toBe(false);
		expect(signatureMatches(SECRET, raw, 'sha256=zz')).toBe(false);
		expect(signatureMatches(SECRET, raw, `sha1=${good.slice(7)}`)).toBe(false);
		expect(signatureMatches(SECRET, raw, undefined)).toBe(false);
	});

	test('with a signing secret the signature is required, over the raw bytes (not re-serialised JSON)', () => {
		const spaced = Buffer.from('{ "type": "monitor.page", "data": [] }');
		const headers = { [SIGNATURE_HEADER.toLowerCase()]: hmac(SECRET, spaced) };
		expect(authenticateDelivery({ headers, rawBody: spaced, signingSecret: SECRET })).toEqual({ ok: true, verifiedBy: ['signature'] });
		const reserialised = Buffer.from(JSON.stringify(JSON.parse(spaced.toString())));
		expect(authenticateDelivery({ headers, rawBody: reserialised, signingSecret: SECRET }).ok).toBe(false);
		expect(authenticateDelivery({ headers: {}, rawBody: spaced, signingSecret: SECRET }).ok).toBe(false);
		expect(authenticateDelivery({ headers, rawBody: undefined, signingSecret: SECRET }).ok).toBe(false);
	});

	test('token and signature are both required when both are set', () => {
		const token = newSecretToken();
		const both = { [TOKEN_HEADER]: token, [SIGNATURE_HEADER]: hmac(SECRET, raw) };
		expect(authenticateDelivery({ headers: both, rawBody: raw, expectedToken: token, signingSecret: SECRET })).toEqual({ ok: true, verifiedBy: ['token', 'signature'] });
		expect(authenticateDelivery({ headers: { ...both, [TOKEN_HEADER]: 'x' }, rawBody: raw, expectedToken: token, signingSecret: SECRET }).ok).toBe(false);
		expect(authenticateDelivery({ headers: { ...both, [SIGNATURE_HEADER]: hmac('x', raw) }, rawBody: raw, expectedToken: token, signingSecret: SECRET }).ok).toBe(false);
	});

	test('with no secret at all the delivery is refused, unless the caller allows it unverified (the Manual connection)', () => {
		expect(authenticateDelivery({ headers: {}, rawBody: raw })).toMatchObject({ ok: false, failed: 'nothing set' });
		expect(authenticateDelivery({ headers: {}, rawBody: raw, allowUnverified: true })).toEqual({ ok: true, verifiedBy: [] });
		expect(authenticateDelivery({ headers: {}, rawBody: raw, expectedToken: '', signingSecret: ' ', allowUnverified: true })).toEqual({ ok: true, verifiedBy: [] });
	});
});

describe('DeliveryDeduper', () => {
	test('the same webhookId is seen once per scope; other scopes are separate', () => {
		const d = new DeliveryDeduper();
		expect(d.seen('wf1:n1', 'id-1', 0)).toBe(false);
		expect(d.seen('wf1:n1', 'id-1', 60_000)).toBe(true); // retry after 1 minute
		expect(d.seen('wf1:n1', 'id-1', 21 * 60_000)).toBe(true); // after 1 + 5 + 15 minutes
		expect(d.seen('wf1:n2', 'id-1', 0)).toBe(false);
		expect(d.seen('wf1:n1', 'id-2', 0)).toBe(false);
	});

	test('ids expire after the TTL', () => {
		const d = new DeliveryDeduper(10, 1000);
		d.seen('s', 'a', 0);
		expect(d.seen('s', 'a', 999)).toBe(true);
		expect(d.seen('s', 'a', 2100)).toBe(false);
	});

	test('memory is bounded: ids per scope and scopes', () => {
		const d = new DeliveryDeduper(100, 60_000, 5);
		for (let i = 0; i < 1000; i++) d.seen('s', `id-${i}`, i);
		expect(d.size()).toBe(100);
		expect(d.seen('s', 'id-999', 1000)).toBe(true);
		expect(d.seen('s', 'id-0', 1000)).toBe(false); // dropped, oldest first
		for (let i = 0; i < 50; i++) d.seen(`scope-${i}`, 'x', 0);
		expect(d.scopeCount()).toBe(5);
		expect(d.size()).toBeLessThanOrEqual(5 * 100);
	});

	test('expired ids are pruned as time goes on, so a quiet scope shrinks', () => {
		const d = new DeliveryDeduper(1000, 1000);
		for (let i = 0; i < 100; i++) d.seen('s', `id-${i}`, 0);
		d.seen('s', 'late', 5000);
		expect(d.size()).toBe(1);
	});
});

describe('parseDelivery', () => {
	test('reads the envelope from the raw bytes (a BOM is fine)', () => {
		const env = pageEnvelope();
		const r = parseDelivery(Buffer.from(`\uFEFF${JSON.stringify(env)}`), {});
		expect(r.ok).toBe(true);
		expect(r.envelope.type).toBe('monitor.page');
		expect(r.envelope.data).toHaveLength(1);
	});

	test('falls back to the parsed body without raw bytes; a data object counts as one entry', () => {
		expect(parseDelivery(undefined, { type: 'x.y', data: { a: 1 } })).toEqual({ ok: true, envelope: { type: 'x.y', data: [{ a: 1 }] } });
		expect(parseDelivery(undefined, '{"type":"x","data":[]}').ok).toBe(true);
	});

	test.each([
		['not JSON', Buffer.from('{"type": "monitor.page", "data": ['), /not valid JSON/],
		['plain text', Buffer.from('hello'), /not valid JSON/],
		['a JSON list', Buffer.from('[1,2]'), /JSON object/],
		['an empty object', Buffer.from('{}'), /JSON object/],
		['no type', Buffer.from('{"data": []}'), /"type"/],
		['an empty type', Buffer.from('{"type": " ", "data": []}'), /"type"/],
		['a numeric type', Buffer.from('{"type": 5, "data": []}'), /"type"/],
		['no data', Buffer.from('{"type": "monitor.page"}'), /"data"/],
		['data a string', Buffer.from('{"type": "monitor.page", "data": "x"}'), /"data"/],
	])('refuses %s', (_name, raw, reason) => {
		const r = parseDelivery(raw, {});
		expect(r.ok).toBe(false);
		expect(r.reason).toMatch(reason);
	});
});

describe('itemsForDelivery', () => {
	const events = ['monitor.page', 'monitor.check.completed'];

	test('one item per data entry, with the envelope fields beside the entry fields', () => {
		const env = pageEnvelope();
		const d = itemsForDelivery(env, { events });
		expect(d.run).toBe(true);
		expect(d.items).toHaveLength(1);
		const item = d.items[0];
		expect(Object.keys(item).slice(0, 6)).toEqual(['event', 'checkId', 'webhookId', 'success', 'error', 'metadata']);
		expect(item).toMatchObject({
			event: 'monitor.page',
			checkId: env.id,
			webhookId: env.webhookId,
			success: true,
			error: null,
			metadata: { team: 'growth' },
			monitorId: env.data[0].monitorId,
			url: 'https://example.com/pricing',
			status: 'changed',
			isMeaningful: true,
			diff: { text: '-Price: $10\n+Price: $12\n' },
		});
		expect(item.headers).toBeUndefined();
	});

	test('check completed: the summary, the check status and the envelope error', () => {
		const env = {
			success: false,
			type: 'monitor.check.completed',
			id: 'check-1',
			webhookId: 'w-2',
			data: [{ monitorId: 'm', checkId: 'check-1', status: 'partial', summary: { totalPages: 3, same: 1, changed: 1, new: 0, removed: 0, error: 1 } }],
			error: 'One page failed',
		};
		const d = itemsForDelivery(env, { events, statuses: ['changed'], onlyMeaningful: true });
		expect(d.run).toBe(true); // page filters do not touch check events
		expect(d.items[0]).toMatchObject({ event: 'monitor.check.completed', checkId: 'check-1', success: false, error: 'One page failed', status: 'partial', metadata: {} });
		expect(d.items[0].summary.totalPages).toBe(3);
	});

	test('several entries give several items; an empty data list gives one envelope item', () => {
		const env = pageEnvelope({ data: [{ url: 'a', status: 'new' }, { url: 'b', status: 'same' }, 'odd'] });
		const d = itemsForDelivery(env, { events });
		expect(d.items.map((i) => i.url ?? i.value)).toEqual(['a', 'b', 'odd']);
		const empty = itemsForDelivery({ type: 'monitor.check.completed', data: [] }, { events });
		expect(empty.items).toEqual([{ event: 'monitor.check.completed', checkId: null, webhookId: null, success: null, error: null, metadata: {}, dedupeKey: expect.stringMatching(/^monitor\.check\.completed:[0-9a-f]{32}$/) }]);
	});

	test('dedupeKey (issue 34): one per page or completion of a check, the same for every delivery, copy or catch-up of it', () => {
		const page = (extra) => itemsForDelivery(pageEnvelope(extra), { events }).items[0].dedupeKey;
		const key = page({});
		expect(key).toBe(`monitor.page:${pageEnvelope().id}:${sha('https://example.com/pricing')}`);
		expect(page({ webhookId: 'another-delivery' })).toBe(key);
		expect(page({ webhookId: null, metadata: {} })).toBe(key); // as a catch-up builds it
		expect(page({ id: 'check-2' })).not.toBe(key);
		expect(page({ data: [{ url: 'https://example.com/plans', status: 'same' }] })).not.toBe(key);
		const completed = (id, webhookId) => itemsForDelivery({ type: 'monitor.check.completed', id, webhookId, data: [{ status: 'completed' }] }, { events }).items[0].dedupeKey;
		expect(completed('check-1', 'w-1')).toBe('monitor.check.completed:check-1');
		expect(completed('check-1', null)).toBe('monitor.check.completed:check-1');
		// Unknown events passed on: keyed by their delivery and place in it.
		const unknown = (webhookId) => itemsForDelivery({ type: 'monitor.paused', webhookId, data: [{ a: 1 }, { a: 2 }] }, { events, passUnknownEvents: true }).items.map((i) => i.dedupeKey);
		expect(new Set([...unknown('w-1'), ...unknown('w-2')]).size).toBe(4);
		expect(unknown('w-1')).toEqual(unknown('w-1'));
	});

	test('an entry cannot overwrite the envelope fields', () => {
		const env = pageEnvelope({ data: [{ event: 'fake', webhookId: 'fake', success: 'fake', url: 'u' }] });
		const item = itemsForDelivery(env, { events }).items[0];
		expect(item.event).toBe('monitor.page');
		expect(item.webhookId).toBe(env.webhookId);
		expect(item.success).toBe(true);
	});

	test('status and meaningful filters apply to monitor.page entries', () => {
		const env = pageEnvelope({
			data: [
				{ url: 'a', status: 'changed', isMeaningful: true },
				{ url: 'b', status: 'changed', isMeaningful: false },
				{ url: 'c', status: 'new', isMeaningful: null },
				{ url: 'd', status: 'error' },
			],
		});
		expect(itemsForDelivery(env, { events, statuses: ['changed', 'error'] }).items.map((i) => i.url)).toEqual(['a', 'b', 'd']);
		expect(itemsForDelivery(env, { events, onlyMeaningful: true }).items.map((i) => i.url)).toEqual(['a']);
		expect(itemsForDelivery(env, { events, statuses: ['same'] })).toEqual({ run: false, reason: 'no entry left after the filters' });
	});

	test('unselected events and unknown events are ignored; unknown ones pass when asked', () => {
		expect(itemsForDelivery(pageEnvelope(), { events: ['monitor.check.completed'] })).toEqual({ run: false, reason: 'event not selected' });
		const future = { type: 'monitor.paused', id: 'm1', webhookId: 'w', data: [{ reason: 'credits' }] };
		expect(itemsForDelivery(future, { events })).toEqual({ run: false, reason: 'unknown event' });
		const passed = itemsForDelivery(future, { events, passUnknownEvents: true });
		expect(passed.items).toEqual([{ event: 'monitor.paused', checkId: 'm1', webhookId: 'w', success: null, error: null, metadata: {}, dedupeKey: `monitor.paused:${sha('w\n0')}`, reason: 'credits' }]);
		// Even when passing unknown events, a known but unselected event stays ignored.
		expect(itemsForDelivery(pageEnvelope(), { events: ['monitor.check.completed'], passUnknownEvents: true }).run).toBe(false);
	});

	test('request headers are added with the secret token and the signature redacted', () => {
		const headers = redactedHeaders({
			'content-type': 'application/json',
			'x-webdata-trigger-token': 'secret-token-value',
			'x-firecrawl-signature': 'sha256=abc',
			authorization: 'Bearer x',
			'user-agent': 'svc',
		});
		expect(headers).toEqual({
			'content-type': 'application/json',
			'x-webdata-trigger-token': '[redacted]',
			'x-firecrawl-signature': '[redacted]',
			authorization: '[redacted]',
			'user-agent': 'svc',
		});
		const item = itemsForDelivery(pageEnvelope(), { events, headers }).items[0];
		expect(item.headers).toEqual(headers);
		expect(JSON.stringify(item)).not.toContain('secret-token-value');
	});
});

describe('monitorCreateBody (Create a Monitor for This Workflow)', () => {
	const node = { id: 'n', name: 'Web Data Trigger', type: 'n8n-nodes-webdata.webDataTrigger', typeVersion: 1, position: [0, 0], parameters: {} };
	const base = { name: 'Pricing', urls: 'https://example.com/a, https://example.com/b\nhttps://example.com/c', scheduleType: 'text', scheduleText: 'every 30 minutes', timezone: 'Europe/Berlin', goal: '' };

	test('name, one scrape target with every URL, schedule in words or cron, goal only when given', () => {
		expect(monitorCreateBody(node, base)).toEqual({
			name: 'Pricing',
			schedule: { text: 'every 30 minutes', timezone: 'Europe/Berlin' },
			targets: [{ type: 'scrape', urls: ['https://example.com/a', 'https://example.com/b', 'https://example.com/c'] }],
		});
		expect(monitorCreateBody(node, { ...base, scheduleType: 'cron', cron: ' */15  * * * * ', timezone: '', goal: ' Price changes ' })).toEqual({
			name: 'Pricing',
			schedule: { cron: '*/15 * * * *', timezone: 'UTC' },
			targets: [{ type: 'scrape', urls: ['https://example.com/a', 'https://example.com/b', 'https://example.com/c'] }],
			goal: 'Price changes',
		});
		expect(splitUrls(['https://x.dev', ' '])).toEqual(['https://x.dev']);
	});

	test.each([
		['an empty name', { name: ' ' }, /Monitor Name/],
		['a name over 256 characters', { name: 'x'.repeat(257) }, /Monitor Name.*256/],
		['no URL', { urls: ' , ' }, /URLs/],
		['a relative URL', { urls: 'example.com/pricing' }, /URLs "example.com\/pricing".*absolute/],
		['an ftp URL', { urls: 'ftp://example.com/x' }, /URLs/],
		['an empty schedule', { scheduleText: '' }, /Schedule/],
		['a 4-field cron', { scheduleType: 'cron', cron: '* * * *' }, /Cron Expression/],
		['a cron more often than every 5 minutes', { scheduleType: 'cron', cron: '*/2 * * * *' }, /Cron Expression "\*\/2 \* \* \* \*"/],
		['a schedule under 5 minutes', { scheduleText: 'every 2 minutes' }, /Schedule "every 2 minutes".*5 minutes/],
		['a goal over 2000 characters', { goal: 'g'.repeat(2001) }, /Goal.*2000/],
		['an unknown time zone', { timezone: 'Mars/Olympus' }, /Time Zone "Mars\/Olympus".*IANA/],
		['cron with weekday names', { scheduleType: 'cron', cron: '0 9 * * MON-FRI' }, /^Cron Expression "0 9 \* \* MON-FRI" is not valid: .*numbers only.*write "1-5"/],
		['"every 45 minutes"', { scheduleText: 'every 45 minutes' }, /^Schedule "every 45 minutes" is not valid: the minute interval must divide 60 evenly/],
		['"every weekday at 9am"', { scheduleText: 'every weekday at 9am' }, /^Schedule "every weekday at 9am" is not valid: the service understands only: .*"daily at 9am"/],
		['a UTC offset as time zone', { timezone: '+01:00' }, /^Time Zone "\+01:00" is not valid: a UTC offset is not a time zone name/],
	])('refuses %s, naming the field', (_name, patch, message) => {
		expect(() => monitorCreateBody(node, { ...base, ...patch })).toThrow(message);
	});
});

test('private and loopback hosts are recognised (the service does not deliver there)', () => {
	for (const h of ['localhost', 'app.localhost', '127.0.0.1', '10.1.2.3', '192.168.0.10', '172.16.0.1', '172.31.255.255', '169.254.1.1', '::1', '[::1]', 'host.docker.internal']) {
		expect(isPrivateHost(h)).toBe(true);
	}
	for (const h of ['n8n.example.com', '172.32.0.1', '8.8.8.8', 'api.firecrawl.dev']) expect(isPrivateHost(h)).toBe(false);
});

test('the trigger\'s activation check uses the one private-host rule of Run and Wait: a container name, CGNAT and IPv6 link-local are private too', () => {
	for (const h of ['n8n', 'box.local', '100.64.0.1', 'fe80::1']) expect([h, isPrivateHost(h)]).toEqual([h, true]);
	const registration = require('fs').readFileSync(require('path').join(__dirname, '../../nodes/WebDataTrigger/registration.ts'), 'utf8');
	expect(registration).toMatch(/import \{[^}]*\bunreachableByService\b[^}]*\} from '\.\.\/WebData\/helpers\/validation'/);
	expect(registration).not.toMatch(/function isPrivateHost|PRIVATE_HOST|isPrivateHost\(/);
});
