import type { INodeProperties } from 'n8n-workflow';

import { uuidLocator } from '../WebData/fields/fields';
import { timezoneField } from '../shared/monitor/fields';
import { CRON_HELP, DEFAULT_CRON, DEFAULT_SCHEDULE_TEXT, SCHEDULE_TEXT_DESCRIPTION } from '../shared/monitor/schedule';
import { SIGNATURE_HEADER, TRIGGER_TOKEN_HEADER as TOKEN_HEADER, TRIGGER_TOKEN_QUERY as TOKEN_QUERY } from '../shared/signature';
import { maxCreditsPerDayField } from '../shared/monitor/estimate';

/** What each crawl / batch-scrape end choice receives: the end that really happened (nodes/FACTS.md "Webhook deliveries"). */
const JOB_END_TEXT = {
	completed: (noun: string) =>
		`The ${noun} completed. A failed or cancelled one goes to Failed or Cancelled, also when the service reports its end as completed. The item has "status" and the page counts.`,
	failed: (noun: string) =>
		`The ${noun} failed (or was cancelled, unless Cancelled is chosen too), judged by its status (some services report every end as completed). The item's event says which; announcedEvent keeps what the service sent.`,
	cancelled: (noun: string) =>
		`The ${noun} was cancelled, judged by its status (some services report every end as completed). The item's event says cancelled; announcedEvent keeps what the service sent.`,
}

/** The trigger's parameters, as plain data. */
export const triggerProperties: INodeProperties[] = [
	{
		// First, so the node creator lists both sources as actions: nodes/FACTS.md "n8n editor behaviour".
		displayName: 'Trigger On',
		name: 'source',
		type: 'options',
		noDataExpression: true,
		// 'monitor' is what every workflow saved before this parameter existed means.
		default: 'monitor',
		options: [
			{
				name: 'Monitor Events',
				value: 'monitor',
				action: 'On monitor page checked or check completed',
				description: 'A web monitor checked a page or finished a check',
			},
			{
				name: 'Job Events (Crawl, Batch Scrape, Agent)',
				value: 'jobs',
				action: 'On crawl, batch scrape or agent job event (page scraped, job ended)',
				description:
					'A crawl, batch scrape or agent run that reports to this workflow started, scraped a page, or ended (completed, failed, cancelled)',
			},
		],
	},
	{
		displayName: 'Monitor Connection',
		name: 'connection',
		type: 'options',
		noDataExpression: true,
		default: 'create',
		displayOptions: { show: { source: ['monitor'] } },
		options: [
			{
				name: 'Attach to an Existing Monitor',
				value: 'attach',
				description:
					"On activation, point an existing monitor's webhook at this workflow; on deactivation, put back the webhook it had before",
			},
			{
				name: 'Create a Monitor for This Workflow',
				value: 'create',
				description: 'On activation, create a monitor that reports to this workflow; on deactivation, delete it',
			},
			{
				name: 'Manual',
				value: 'manual',
				description: 'Register nothing: copy the webhook URL above into a monitor yourself',
			},
		],
	},
	// One notice per connection (short: one or two lines in the panel; the details are in the
	// descriptions), with what "Listen for test event" does.
	{
		displayName:
			'Activating creates a monitor that reports here (deactivating deletes it). A test does the same: its first event comes at the next scheduled check, or at once with Run a Check Now.',
		name: 'createNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { source: ['monitor'], connection: ['create'] } },
	},
	{
		displayName:
			"While the workflow is active or a test listens, the monitor reports here. A test's first event comes at the monitor's next scheduled check, or at once with Run a Check Now.",
		name: 'attachNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { source: ['monitor'], connection: ['attach'] } },
	},
	{
		displayName:
			"Nothing is registered: paste the webhook URL above into a monitor's webhook. To check deliveries, use a Secret Token below and/or the credential's Webhook Signing Secret.",
		name: 'manualNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { source: ['monitor'], connection: ['manual'] } },
	},
	{
		displayName:
			'Deliveries are unverified: anyone who knows this URL can start the workflow, and no missed check is caught up. Set a Secret Token, or a Webhook Signing Secret in the credential.',
		name: 'unverifiedNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { source: ['monitor'], connection: ['manual'], secretToken: [''] } },
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: ['monitor.page', 'monitor.check.completed'],
		description: 'Which monitor events start the workflow',
		displayOptions: { show: { source: ['monitor'] } },
		options: [
			// `action`: the node creator's item for the event (nodes/FACTS.md "n8n editor behaviour").
			{
				name: 'Check Completed',
				value: 'monitor.check.completed',
				action: 'On monitor check completed',
				description: 'Once per check, with its summary: how many pages stayed the same, changed, are new, were removed or failed',
			},
			{
				name: 'Page Checked',
				value: 'monitor.page',
				action: 'On monitor page checked',
				description: 'Once per checked page, with its status, what changed and the judgment against the goal',
			},
		],
	},
	// ---- Create a Monitor for This Workflow ----
	{
		displayName: 'Monitor Name',
		name: 'monitorName',
		type: 'string',
		required: true,
		// Filled in, so that a first test needs only the URLs.
		default: '={{ $workflow.name }}',
		placeholder: 'e.g. Competitor pricing',
		description: 'Name of the monitor to create (at most 256 characters); by default the name of this workflow',
		displayOptions: { show: { source: ['monitor'], connection: ['create'] } },
	},
	// n8n 2.41 marks no required field in the panel; it only greys out the Test button ("Complete
	// required fields first"). URLs is the one required field without a default: say so while empty.
	{
		displayName: 'Add the pages to watch in URLs below: the test button stays greyed out until then',
		name: 'urlsMissingNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { source: ['monitor'], connection: ['create'], urls: [''] } },
	},
	{
		displayName: 'URLs',
		name: 'urls',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://example.com/pricing, https://example.com/plans',
		description:
			'Pages to watch, separated by commas or new lines (each an absolute http or https URL): the "URLs" of one "Scrape Pages" target, as in Monitor → Create',
		displayOptions: { show: { source: ['monitor'], connection: ['create'] } },
	},
	{
		displayName: 'Schedule Type',
		name: 'scheduleType',
		type: 'options',
		default: 'text',
		options: [
			{ name: 'Cron Expression', value: 'cron', description: 'A five-field cron expression such as "0 9 * * 1-5"' },
			{ name: 'In Words', value: 'text', description: 'Words such as "every 30 minutes" or "daily at 9am"' },
		],
		displayOptions: { show: { source: ['monitor'], connection: ['create'] } },
	},
	{
		displayName: 'Schedule',
		name: 'scheduleText',
		type: 'string',
		default: DEFAULT_SCHEDULE_TEXT,
		placeholder: 'e.g. hourly',
		// The phrases of the service's grammar (nodes/FACTS.md "Monitor schedules").
		description: SCHEDULE_TEXT_DESCRIPTION,
		displayOptions: { show: { source: ['monitor'], connection: ['create'], scheduleType: ['text'] } },
	},
	{
		displayName: 'Cron Expression',
		name: 'cron',
		type: 'string',
		default: DEFAULT_CRON,
		description: CRON_HELP,
		displayOptions: { show: { source: ['monitor'], connection: ['create'], scheduleType: ['cron'] } },
	},
	{ ...timezoneField, displayOptions: { show: { source: ['monitor'], connection: ['create'] } } },
	{
		displayName: 'Goal',
		name: 'goal',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		placeholder: 'e.g. Tell me when a price or a plan changes',
		description:
			'Optional. What counts as a meaningful change, in plain words (at most 2000 characters). With a goal, changed pages are judged and get "isMeaningful".',
		displayOptions: { show: { source: ['monitor'], connection: ['create'] } },
	},
	// ---- Attach to an Existing Monitor ----
	uuidLocator({
		displayName: 'Monitor',
		name: 'monitor',
		idLabel: 'Monitor ID',
		description: 'The monitor whose events should start this workflow',
		searchListMethod: 'searchMonitors',
		searchable: true,
		extra: { displayOptions: { show: { source: ['monitor'], connection: ['attach'] } } },
	}),
	{
		// Off, so "Listen for test event" spends no credits unless the user asks for it here.
		displayName: 'Run a Check Now When Listening',
		name: 'runCheckWhenListening',
		type: 'boolean',
		default: false,
		hint: 'Off: a test waits for the next scheduled check (up to the Schedule\'s interval, e.g. 30 minutes). On: a check starts at once and costs credits, one per watched page.',
		description:
			'Whether "Listen for test event" also asks the service to check the monitor at once, instead of waiting for its schedule. A check costs credits (one per page) and can take a minute or more.',
		displayOptions: { show: { source: ['monitor'], connection: ['create', 'attach'] } },
	},
	// ---- Job Events ----
	{
		displayName: `Nothing is registered: give a job's option "Send Events to Web Data Trigger" this trigger's URL (Test URL while testing, Production once published) and the Token below.`,
		name: 'jobsNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { source: ['jobs'] } },
	},
	{
		displayName: 'Job Events',
		name: 'jobEvents',
		type: 'multiOptions',
		required: true,
		// Pages and ends of all three kinds of job the source names (Crawl, Batch Scrape, Agent).
		default: ['crawl.page', 'crawl.completed', 'crawl.failed', 'batch_scrape.page', 'batch_scrape.completed', 'batch_scrape.failed', 'agent.completed', 'agent.failed'],
		description:
			'Which crawl, batch scrape and agent events start the workflow (the job itself chooses which events it sends). Each event starts one execution: a page event gives one item per page, the others one summary item.',
		hint: 'A crawl or batch scrape that ended may arrive as Completed even when it failed or was cancelled: branch on the item\'s "status"',
		displayOptions: { show: { source: ['jobs'] } },
		options: [
			{ name: 'Agent Action', value: 'agent.action', description: 'The agent did a step: searched, scraped a page, and so on' },
			{ name: 'Agent Cancelled', value: 'agent.cancelled', description: 'The agent run was cancelled' },
			{ name: 'Agent Completed', value: 'agent.completed', description: 'The agent run finished, with its result in "data"' },
			{
				name: 'Agent Failed',
				value: 'agent.failed',
				description: 'The agent run failed, was refused, or stopped at its Max Credits; "error" says why',
			},
			{ name: 'Agent Started', value: 'agent.started', description: 'The agent run began, before its first step' },
			{
				name: 'Batch Scrape Cancelled',
				value: 'batch_scrape.cancelled',
				description: JOB_END_TEXT.cancelled('batch scrape'),
			},
			{ name: 'Batch Scrape Completed', value: 'batch_scrape.completed', description: JOB_END_TEXT.completed('batch scrape') },
			{ name: 'Batch Scrape Failed', value: 'batch_scrape.failed', description: JOB_END_TEXT.failed('batch scrape') },
			{ name: 'Batch Scrape Page', value: 'batch_scrape.page', description: 'A page of the batch was scraped: one item per page' },
			{ name: 'Batch Scrape Started', value: 'batch_scrape.started', description: 'The batch scrape began, before its first page' },
			{ name: 'Crawl Cancelled', value: 'crawl.cancelled', description: JOB_END_TEXT.cancelled('crawl') },
			{ name: 'Crawl Completed', value: 'crawl.completed', description: JOB_END_TEXT.completed('crawl') },
			{ name: 'Crawl Failed', value: 'crawl.failed', description: JOB_END_TEXT.failed('crawl') },
			{ name: 'Crawl Page', value: 'crawl.page', description: 'A page was crawled: one item per page, as the crawl goes' },
			{ name: 'Crawl Started', value: 'crawl.started', description: 'The crawl began, before its first page' },
		],
	},
	{
		displayName: 'Token',
		name: 'jobToken',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		placeholder: 'e.g. a long random value',
		description: `A secret of yours that every delivery must carry, as ?${TOKEN_QUERY}= followed by the token in the URL or in the ${TOKEN_HEADER} header. Needed unless the credential holds the Webhook Signing Secret (then the signature is checked; with both, both are).`,
		displayOptions: { show: { source: ['jobs'] } },
	},
	// ---- Manual ----
	{
		displayName: 'Secret Token',
		name: 'secretToken',
		type: 'string',
		typeOptions: { password: true },
		default: '',
		description: `Optional. When set, a delivery must carry this exact value in the ${TOKEN_HEADER} header (add it to the headers of the monitor's webhook) or as ?${TOKEN_QUERY}= in the URL; others are refused with HTTP 401.`,
		displayOptions: { show: { source: ['monitor'], connection: ['manual'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Include Request Headers',
				name: 'includeHeaders',
				type: 'boolean',
				default: false,
				description: `Whether to add the delivery's HTTP headers to each item (the ${TOKEN_HEADER} and ${SIGNATURE_HEADER} values are replaced with [redacted])`,
			},
			{
				...maxCreditsPerDayField,
				displayOptions: { show: { '/source': ['monitor'], '/connection': ['create'] } },
				description: `${maxCreditsPerDayField.description} Here each "Check Completed" item carries it.`,
			},
			{
				displayName: 'Only Meaningful Changes',
				name: 'onlyMeaningful',
				displayOptions: { show: { '/source': ['monitor'] } },
				type: 'boolean',
				default: false,
				description:
					'Whether to keep only pages the service judged a meaningful change against the monitor\'s goal ("isMeaningful" is true). Needs a goal; new, same and error pages are dropped.',
			},
			{
				displayName: 'Only Pages With These Statuses',
				name: 'statuses',
				displayOptions: { show: { '/source': ['monitor'] } },
				type: 'multiOptions',
				default: [],
				description: 'Keep only monitor.page events whose page has one of these statuses (none chosen: all)',
				options: [
					{ name: 'Changed', value: 'changed' },
					{ name: 'Error', value: 'error' },
					{ name: 'New', value: 'new' },
					{ name: 'Same', value: 'same' },
				],
			},
			{
				displayName: 'Pass Unknown Events',
				name: 'passUnknownEvents',
				type: 'boolean',
				default: false,
				description:
					'Whether event types this node does not know yet should start the workflow too (otherwise they are answered and ignored)',
			},
		],
	},
];
