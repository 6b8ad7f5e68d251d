'use strict';
/**
 * Monitor: every validation rule fails before anything is sent. Each case runs the operation's
 * execute() with a stand-in execute context whose HTTP helper records calls: the error must name
 * the field, the value and the rule, and the recorded calls must stay empty.
 * Build first: `npm run build`.
 */
const { NodeOperationError } = require('n8n-workflow');
const { monitor } = require('../../dist/nodes/WebData/resources/monitor');
const { fakeContext } = require('../helpers/fake-context');
const { record } = require('../helpers/canary');

const MONITOR = '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a';
const CHECK = '0190b7c4-7a10-7c1e-9a51-3f2b8e4d5c6b';
const rl = (value) => ({ __rl: true, mode: 'id', value });

/** An execute context answering getNodeParameter from `params` (resource locators resolved). */
function context(params) {
	const { ctx, calls } = fakeContext({ responses: [{ status: 200, body: { success: true, data: {} } }] });
	ctx.getNodeParameter = (name, _i, fallback, options) => {
		const value = Object.prototype.hasOwnProperty.call(params, name) ? params[name] : fallback;
		if (options && options.extractValue && value && typeof value === 'object' && value.__rl) return value.value;
		return value;
	};
	ctx.continueOnFail = () => false;
	ctx.getTimezone = () => 'UTC'; // the workflow's time zone, read for an empty Time Zone
	return { ctx, calls };
}

/** A valid Create form; each case changes one thing. */
const createForm = (over = {}) => ({
	name: 'Competitor pricing',
	goal: 'Tell me when a price changes',
	judgeEnabled: true,
	scheduleMode: 'text',
	scheduleText: 'every 30 minutes',
	timezone: 'UTC',
	targetsSource: 'fields',
	targets: { scrape: [{ urls: 'https://example.com/pricing' }] },
	options: {},
	...over,
});

const scrape = (entry) => ({ targets: { scrape: [entry] } });
const search = (entry, extra = {}) => ({ targets: { search: [entry] }, ...extra });
const json = (value) => ({ targetsSource: 'json', targetsJson: typeof value === 'string' ? value : JSON.stringify(value) });
const webhook = (settings) => ({ options: { webhook: { settings: { url: 'https://hooks.example.com/m', ...settings } } } });
const email = (entry) => ({ options: { emailNotification: { email: { enabled: true, ...entry } } } });

async function failure(operation, params) {
	const { ctx, calls } = context(params);
	let error;
	try {
		await monitor.operations[operation].execute.call(ctx, 0);
	} catch (e) {
		error = e;
	}
	record(error);
	return { error, calls };
}

const createCases = [
	['a blank name', { name: '  ' }, /^Name "  " is not valid: it is required/],
	['a name over 256 characters', { name: 'n'.repeat(257) }, /^Name "n+…" is not valid: it has 257 characters; at most 256/],
	['a goal over 2000 characters', { goal: 'g'.repeat(2001) }, /^Goal "g+…" is not valid: it has 2001 characters; at most 2000/],
	['no schedule text', { scheduleText: '' }, /^Schedule "" is not valid: give exactly one of "Schedule" \(e\.g\. "every 30 minutes"/],
	['schedule text over 128 characters', { scheduleText: `every 30 minutes ${'x'.repeat(120)}` }, /^Schedule ".*" is not valid: it has 137 characters; at most 128/],
	['a text schedule under 5 minutes', { scheduleText: 'every 2 minutes' }, /^Schedule "every 2 minutes" is not valid: the shortest interval is 5 minutes/],
	['"every minute"', { scheduleText: 'Every minute' }, /^Schedule "Every minute" is not valid: the shortest interval is 5 minutes/],
	['a cron expression with 4 fields', { scheduleMode: 'cron', cron: '0 9 * *' }, /^Cron Expression "0 9 \* \*" is not valid: it has 4 fields; a cron expression has 5/],
	['a cron minute out of range', { scheduleMode: 'cron', cron: '61 9 * * *' }, /^Cron Expression "61 9 \* \* \*" is not valid: the minute field "61" must use values from 0 to 59/],
	// Rules of the service's newest schedule code (firecrawl/firecrawl services/monitoring/cron.ts a05b9f288f4d).
	['an unknown month name', { scheduleMode: 'cron', cron: '0 9 1 SMARCH *' }, /the month field "SMARCH" uses names or letters; the service reads numbers only \(1-12, 1 = January\)$/],
	['weekday names in cron', { scheduleMode: 'cron', cron: '0 9 * * MON-FRI' }, /^Cron Expression "0 9 \* \* MON-FRI" is not valid: the day of week field "MON-FRI" uses names or letters; the service reads numbers only \(0-7, 0 and 7 = Sunday, 1 = Monday\): write "1-5"$/],
	['month names in cron', { scheduleMode: 'cron', cron: '0 0 1 JAN,jul *' }, /^Cron Expression "0 0 1 JAN,jul \*" is not valid: the month field "JAN,jul" uses names or letters; the service reads numbers only \(1-12, 1 = January\): write "1,7"$/],
	['a Quartz "?" in cron', { scheduleMode: 'cron', cron: '0 9 ? * 1' }, /^Cron Expression "0 9 \? \* 1" is not valid: the day of month field "\?" is not valid: each comma-separated part is \*, a number or a range/],
	['a step after a single value', { scheduleMode: 'cron', cron: '5/15 * * * *' }, /^Cron Expression "5\/15 \* \* \* \*" is not valid: "5\/15" in the minute field would mean only 5 to the service \(a step needs \* or a range\); write "5-59\/15"$/],
	['a cron date that never comes', { scheduleMode: 'cron', cron: '0 9 30 2 *' }, /^Cron Expression "0 9 30 2 \*" is not valid: no day in the next year matches it/],
	['cron runs across the hour under 5 minutes apart', { scheduleMode: 'cron', cron: '2,58 * * * *' }, /^Cron Expression "2,58 \* \* \* \*" is not valid: checks would run less than 5 minutes apart/],
	['cron runs across midnight under 5 minutes apart', { scheduleMode: 'cron', cron: '0,58 0,23 * * *' }, /^Cron Expression "0,58 0,23 \* \* \*" is not valid: checks would run less than 5 minutes apart/],
	['"every 45 minutes" (must divide 60)', { scheduleText: 'every 45 minutes' }, /^Schedule "every 45 minutes" is not valid: the minute interval must divide 60 evenly: 5, 6, 10, 12, 15, 20, 30 or 60/],
	['"every 90 minutes"', { scheduleText: 'every 90 minutes' }, /^Schedule "every 90 minutes" is not valid: the minute interval must be from 5 to 60; for longer intervals say "every N hours"/],
	['"every 5 hours" (must divide 24)', { scheduleText: 'every 5 hours' }, /^Schedule "every 5 hours" is not valid: the hour interval must divide 24 evenly: 1, 2, 3, 4, 6, 8, 12 or 24/],
	['"every weekday at 9am"', { scheduleText: 'every weekday at 9am' }, /^Schedule "every weekday at 9am" is not valid: the service understands only: "every N minutes" .*"hourly" or "hourly at :15".*"daily at 9am".*"weekly".*use a cron expression such as "0 9 \* \* 1-5"/],
	['"every monday"', { scheduleText: 'every monday' }, /^Schedule "every monday" is not valid: the service understands only:/],
	['"daily at 13pm"', { scheduleText: 'daily at 13pm' }, /^Schedule "daily at 13pm" is not valid: with am or pm the hour must be from 1 to 12/],
	['"daily at 25:00"', { scheduleText: 'daily at 25:00' }, /^Schedule "daily at 25:00" is not valid: the hour must be from 0 to 23/],
	['"every 15 minutes starting at :75"', { scheduleText: 'every 15 minutes starting at :75' }, /^Schedule "every 15 minutes starting at :75" is not valid: the start minute must be from 0 to 59/],
	['a UTC offset as time zone', { timezone: '+02:00' }, /^Time Zone "\+02:00" is not valid: a UTC offset is not a time zone name; use an IANA name such as "Asia\/Kolkata"/],
	['"GMT+2" as time zone', { timezone: 'GMT+2' }, /^Time Zone "GMT\+2" is not valid: a UTC offset is not a time zone name/],
	['a time zone over 128 characters', { timezone: `Europe/${'x'.repeat(130)}` }, /^Time Zone "Europe\/x+…" is not valid: it has 137 characters; at most 128 are allowed/],
	['a cron step of 0', { scheduleMode: 'cron', cron: '*/0 * * * *' }, /the step "0" in the minute field must be a whole number of 1 or more/],
	['a backwards cron range', { scheduleMode: 'cron', cron: '0 17-9 * * *' }, /the range "17-9" in the hour field runs backwards/],
	['cron checks under 5 minutes apart', { scheduleMode: 'cron', cron: '*/2 * * * *' }, /^Cron Expression "\*\/2 \* \* \* \*" is not valid: checks would run less than 5 minutes apart/],
	['cron minutes 0 and 3', { scheduleMode: 'cron', cron: '0,3 9 * * *' }, /less than 5 minutes apart/],
	['a cron expression over 128 characters', { scheduleMode: 'cron', cron: `0 9 * * ${'1,'.repeat(62)}1` }, /^Cron Expression ".*" is not valid: it has 133 characters; at most 128/],
	['an unknown time zone', { timezone: 'Mars/Olympus' }, /^Time Zone "Mars\/Olympus" is not valid: it must be an IANA time zone/],
	['no targets', { targets: {} }, /^Targets "0 targets" is not valid: a monitor needs 1 to 50 targets/],
	['51 targets', { targets: { scrape: Array.from({ length: 51 }, (_, n) => ({ urls: `https://example.com/${n}` })) } }, /^Targets "51 targets" is not valid: a monitor needs 1 to 50 targets/],
	['a scrape target without URLs', scrape({ urls: ' , ' }), /^Targets → Scrape Pages 1 → URLs \[\] is not valid: a scrape target needs at least one URL/],
	['a relative URL', scrape({ urls: 'https://example.com/a, /pricing' }), /^Targets → Scrape Pages 1 → URLs "\/pricing" is not valid: each URL must be absolute and start with http:\/\/ or https:\/\//],
	['an ftp URL', scrape({ urls: 'ftp://files.example.com/x' }), /URLs "ftp:\/\/files\.example\.com\/x" is not valid/],
	['a scrape timeout under 1000 ms', scrape({ urls: 'https://example.com', scrapeOptions: { timeout: 500 } }), /^Targets → Scrape Pages 1 → Scrape Options → Timeout \(Milliseconds\) 500 is not valid: it must be a whole number from 1000 to 300000/],
	['a scrape timeout over 300000 ms', scrape({ urls: 'https://example.com', scrapeOptions: { timeout: 300001 } }), /Timeout \(Milliseconds\) 300001 is not valid/],
	['a negative wait', scrape({ urls: 'https://example.com', scrapeOptions: { waitFor: -1 } }), /Wait For \(Milliseconds\) -1 is not valid: it must be a whole number of 0 or more/],
	['a crawl target with a relative URL', { targets: { crawl: [{ url: 'example.com/blog', pageLimit: 5 }] } }, /^Targets → Crawl a Site 1 → URL "example\.com\/blog" is not valid: each URL must be absolute/],
	['a crawl page limit of 0', { targets: { crawl: [{ url: 'https://example.com/blog', pageLimit: 0 }] } }, /^Targets → Crawl a Site 1 → Page Limit 0 is not valid: it must be a whole number of 1 or more/],
	['a crawl depth of 1.5', { targets: { crawl: [{ url: 'https://example.com/blog', pageLimit: 5, crawlOptions: { maxDiscoveryDepth: 1.5 } }] } }, /Crawl Options → Max Discovery Depth 1\.5 is not valid/],
	['a search target without queries', search({ queries: '\n \n' }), /^Targets → Search the Web 1 → Queries \[\] is not valid: a search target needs at least one query/],
	['13 queries', search({ queries: Array.from({ length: 13 }, (_, n) => `query ${n}`).join('\n') }), /^Targets → Search the Web 1 → Queries "13 queries" is not valid: at most 12 queries/],
	['a query over 256 characters', search({ queries: 'q'.repeat(257) }), /Queries "q+…" is not valid: it has 257 characters; at most 256/],
	['include and exclude domains together', search({ queries: 'acme', searchOptions: { includeDomains: 'a.com', excludeDomains: 'b.com' } }), /Search Options → Exclude Domains \["b\.com"\] is not valid: a search target may either keep only some domains or skip some, not both/],
	['a domain with a scheme', search({ queries: 'acme', searchOptions: { includeDomains: 'https://techcrunch.com' } }), /Include Domains "https:\/\/techcrunch\.com" is not valid: give plain host names/],
	['51 domains', search({ queries: 'acme', searchOptions: { excludeDomains: Array.from({ length: 51 }, (_, n) => `d${n}.com`).join(',') } }), /Exclude Domains "51 domains" is not valid: at most 50 domains/],
	['targets JSON that is not JSON', json('[{type: scrape}]'), /^Targets \(JSON\) ".*" is not valid: it is not valid JSON/],
	['targets JSON that is empty', json('  '), /^Targets \(JSON\) "  " is not valid: it is empty/],
	['targets JSON that is an object', json({ type: 'scrape', urls: ['https://example.com'] }), /^Targets \(JSON\) .* is not valid: it must be a list \(JSON array\) of targets/],
	['targets JSON with an unknown type', json([{ type: 'page', url: 'https://example.com' }]), /^Targets \(JSON\) \[0\]\.type "page" is not valid: the type must be one of scrape, crawl, search/],
	['targets JSON with a bad URL in position 2', json([{ type: 'scrape', urls: ['https://ok.example'] }, { type: 'scrape', urls: ['nope'] }]), /^Targets \(JSON\) \[1\]\.urls "nope" is not valid/],
	['targets JSON with 51 results per search', json([{ type: 'search', queries: ['x'], maxResults: 51 }]), /^Targets \(JSON\) \[0\]\.maxResults 51 is not valid: it must be a whole number from 1 to 50/],
	['targets JSON with an unknown search window', json([{ type: 'search', queries: ['x'], searchWindow: '2d' }]), /\[0\]\.searchWindow "2d" is not valid: it must be one of 5m, 15m, 1h, 6h, 24h, 7d/],
	['targets JSON with an unknown proxy', json([{ type: 'scrape', urls: ['https://example.com'], scrapeOptions: { proxy: 'stealth' } }]), /\[0\]\.scrapeOptions\.proxy "stealth" is not valid: it must be one of basic, enhanced, auto/],
	['targets JSON with scrape options on a search target', json([{ type: 'search', queries: ['x'], scrapeOptions: {} }]), /\[0\]\.scrapeOptions \{\} is not valid: search targets take no scrape options/],
	['targets JSON with headers that are not text', json([{ type: 'scrape', urls: ['https://example.com'], scrapeOptions: { headers: { 'X-Count': 3 } } }]), /scrapeOptions\.headers .* is not valid: it must be an object of header names and text values/],
	['retention of 0 days', { options: { retentionDays: 0 } }, /^Retention Days 0 is not valid: it must be a whole number of days from 1 to 365/],
	['retention of 366 days', { options: { retentionDays: 366 } }, /^Retention Days 366 is not valid/],
	['retention of 1.5 days', { options: { retentionDays: 1.5 } }, /^Retention Days 1\.5 is not valid/],
	['a relative webhook URL', webhook({ url: '/hooks' }), /^Webhook URL "\/hooks" is not valid: it must be an absolute URL that starts with http:\/\/ or https:\/\//],
	['an ftp webhook URL', webhook({ url: 'ftp://hooks.example.com' }), /^Webhook URL "ftp:\/\/hooks\.example\.com" is not valid/],
	['no webhook events', webhook({ events: [] }), /^Webhook Events \[\] is not valid: choose at least one of monitor\.page, monitor\.check\.completed/],
	['an unknown webhook event', webhook({ events: ['monitor.page', 'crawl.page'] }), /^Webhook Events "crawl\.page" is not valid: monitor webhooks send only monitor\.page and monitor\.check\.completed/],
	['the signature header', webhook({ headers: { header: [{ name: 'x-firecrawl-signature', value: 'x' }] } }), /^Webhook Headers "x-firecrawl-signature" is not valid: header names starting with X-Firecrawl- are set by the service itself/],
	// issue 14: the service sets six X-Firecrawl-* delivery headers itself (services/webhook/headers.ts)
	['another header of the service', webhook({ headers: { header: [{ name: 'X-Firecrawl-Job-Id', value: 'x' }] } }), /^Webhook Headers "X-Firecrawl-Job-Id" is not valid: header names starting with X-Firecrawl-/],
	['a header name with a space', webhook({ headers: { header: [{ name: 'My Header', value: 'x' }] } }), /^Webhook Headers "My Header" is not valid: each header needs a name/],
	['a header given twice', webhook({ headers: { header: [{ name: 'X-A', value: '1' }, { name: 'x-a', value: '2' }] } }), /^Webhook Headers "x-a" is not valid: each header name may appear only once/],
	['metadata without a key', webhook({ metadata: { entry: [{ key: '', value: 'prod' }] } }), /^Webhook Metadata "prod" is not valid: each metadata entry needs a key/],
	['a metadata key given twice', webhook({ metadata: { entry: [{ key: 'env', value: 'a' }, { key: 'env', value: 'b' }] } }), /^Webhook Metadata "env" is not valid: each metadata key may appear only once/],
	['an invalid recipient', email({ recipients: 'ana@example.com, not-an-address' }), /^E-Mail Recipients "not-an-address" is not valid: each recipient must be an e-mail address/],
	['26 recipients', email({ recipients: Array.from({ length: 26 }, (_, n) => `r${n}@example.com`).join(', ') }), /^E-Mail Recipients "26 addresses" is not valid: at most 25 recipients/],
	['an unknown schedule type', { scheduleMode: 'sometimes' }, /^Schedule Type "sometimes" is not valid/],
	// Issue 37: the service refuses a search target without a goal; judging is never switched off for the user.
	['a search target and no Goal (form)', { goal: '', ...search({ queries: 'acme' }) }, /^Goal "" is not valid: a search target \(Targets → Search the Web 1\) needs a goal to judge new results against \(the service refuses it without one\); write a Goal$/],
	['a search target and a blank Goal (JSON)', { goal: '  ', ...json([{ type: 'search', queries: ['acme'] }]) }, /^Goal "" is not valid: a search target \(Targets \(JSON\) \[0\]\) needs a goal/],
];

describe('Create: each rule fails before sending, naming the field, the value and the rule', () => {
	test.each(createCases)('%s', async (_label, over, pattern) => {
		const { error, calls } = await failure('create', createForm(over));
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(pattern);
		expect(error.description).toContain('Nothing was sent to the service');
		expect(calls).toHaveLength(0);
	});

	test('the valid form itself is sent (so the cases above fail for their own reason)', async () => {
		const { ctx, calls } = context(createForm());
		await monitor.operations.create.execute.call(ctx, 0);
		expect(calls).toHaveLength(1);
		expect(calls[0]).toMatchObject({ method: 'POST', url: 'http://127.0.0.1:9/v2/monitor' });
		expect(calls[0].body).toEqual({
			name: 'Competitor pricing',
			goal: 'Tell me when a price changes',
			judgeEnabled: true,
			schedule: { text: 'every 30 minutes', timezone: 'UTC' },
			targets: [{ type: 'scrape', urls: ['https://example.com/pricing'] }],
		});
	});
});

const updateCases = [
	['an empty update', {}, /^Update Fields \{\} is not valid: add at least one field to change \(the service refuses an empty update\)/],
	['a schedule with cron and text', { cron: '0 9 * * *', scheduleText: 'daily' }, /^Cron Expression "0 9 \* \* \*" is not valid: give exactly one of "Cron Expression" or "Schedule", not both/],
	['cron with weekday names', { cron: '0 9 * * MON-FRI' }, /^Cron Expression "0 9 \* \* MON-FRI" is not valid: the day of week field "MON-FRI" uses names or letters.*write "1-5"$/],
	['"every 45 minutes"', { scheduleText: 'every 45 minutes' }, /^Schedule "every 45 minutes" is not valid: the minute interval must divide 60 evenly/],
	['"every weekday at 9am"', { scheduleText: 'every weekday at 9am' }, /^Schedule "every weekday at 9am" is not valid: the service understands only: "every N minutes"/],
	['a UTC offset as time zone', { scheduleText: 'hourly', timezone: '-05:00' }, /^Time Zone "-05:00" is not valid: a UTC offset is not a time zone name/],
	['a time zone alone', { timezone: 'Europe/Berlin' }, /^Time Zone "Europe\/Berlin" is not valid: a schedule change needs "Schedule" \(text\) or "Cron Expression" as well/],
	['an unknown status', { status: 'deleted' }, /^Status "deleted" is not valid: it must be active or paused/],
	['targets from the form and from JSON', { targets: { scrape: [{ urls: 'https://example.com' }] }, targetsJson: '[]' }, /^Targets \(JSON\) "\[\]" is not valid: give the new targets either with "Targets" or with "Targets \(JSON\)", not both/],
	['an added but empty target list', { targets: {} }, /^Targets "0 targets" is not valid: a monitor needs 1 to 50 targets/],
	['judging on with the goal cleared', { goal: '', judgeEnabled: true }, /^Judge Changes Against Goal true is not valid: judging compares changes with the goal, so it needs a non-empty Goal/],
	['search targets with the goal cleared', { goal: '', targetsJson: JSON.stringify([{ type: 'search', queries: ['acme'] }]) }, /^Goal "" is not valid: a search target \(Targets \(JSON\) \[0\]\) needs a goal/],
	['a blank new name', { name: '' }, /^Name "" is not valid: it is required/],
	['a goal over 2000 characters', { goal: 'g'.repeat(2001) }, /^Goal "g+…" is not valid: it has 2001 characters/],
	['retention of 400 days', { retentionDays: 400 }, /^Retention Days 400 is not valid/],
	['a webhook URL without scheme', { webhook: { settings: { url: 'hooks.example.com' } } }, /^Webhook URL "hooks\.example\.com" is not valid/],
	['an invalid recipient', { emailNotification: { email: { recipients: 'ops(at)example.com' } } }, /^E-Mail Recipients "ops\(at\)example\.com" is not valid/],
];

describe('Update: each rule fails before sending', () => {
	test.each(updateCases)('%s', async (_label, updateFields, pattern) => {
		const { error, calls } = await failure('update', { monitorId: rl(MONITOR), updateFields });
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(pattern);
		expect(calls).toHaveLength(0);
	});

	test('pausing sends only the status', async () => {
		const { ctx, calls } = context({ monitorId: rl(MONITOR), updateFields: { status: 'paused' } });
		await monitor.operations.update.execute.call(ctx, 0);
		expect(calls).toHaveLength(1);
		expect(calls[0]).toMatchObject({ method: 'PATCH', url: `http://127.0.0.1:9/v2/monitor/${MONITOR}`, body: { status: 'paused' } });
	});
});

const otherCases = [
	['Get with a monitor ID that is not a UUID', 'get', { monitorId: rl('abc') }, /^Monitor "abc" is not valid: it must be a UUID/],
	['Delete with a monitor ID that is not a UUID', 'delete', { monitorId: rl('12') }, /^Monitor "12" is not valid: it must be a UUID/],
	['Update with a monitor ID that is not a UUID', 'update', { monitorId: rl('x'), updateFields: { name: 'n' } }, /^Monitor "x" is not valid/],
	['Run Check Now with a monitor ID that is not a UUID', 'runCheck', { monitorId: rl('') }, /^Monitor "" is not valid/],
	['Run Check Now with Max Wait 0', 'runCheck', { monitorId: rl(MONITOR), waitForCheck: true, maxWait: 0 }, /^Max Wait \(Seconds\) 0 is not valid: it must be a number of seconds from 1 to 86400/],
	['Run Check Now with an unknown page status', 'runCheck', { monitorId: rl(MONITOR), waitForCheck: true, maxWait: 10, options: { pageStatuses: ['modified'] } }, /^Page Statuses "modified" is not valid: choose from same, new, changed, removed, error/],
	['Get Many with Limit 0', 'getMany', { returnAll: false, limit: 0 }, /^Limit 0 is not valid: it must be a whole number of 1 or more/],
	['Get Many Checks with Limit 2.5', 'getManyChecks', { monitorId: rl(MONITOR), returnAll: false, limit: 2.5 }, /^Limit 2\.5 is not valid/],
	['Get Many Checks with an unknown status', 'getManyChecks', { monitorId: rl(MONITOR), returnAll: true, filters: { status: 'done' } }, /^Filters → Status "done" is not valid: choose one of queued, running, completed/],
	['Get Check with a check ID that is not a UUID', 'getCheck', { monitorId: rl(MONITOR), checkId: rl('123') }, /^Check "123" is not valid: it must be a UUID/],
	['Get Check with an unknown page status', 'getCheck', { monitorId: rl(MONITOR), checkId: rl(CHECK), options: { pageStatuses: ['modified'] } }, /^Page Statuses "modified" is not valid/],
];

describe('the other operations check their fields before sending', () => {
	test.each(otherCases)('%s', async (_label, operation, params, pattern) => {
		const { error, calls } = await failure(operation, params);
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.message).toMatch(pattern);
		expect(calls).toHaveLength(0);
	});
});
