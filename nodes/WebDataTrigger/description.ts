import type { INodeProperties } from 'n8n-workflow';

import { uuidLocator } from '../WebData/helpers/fields';
import { CRON_HELP, SCHEDULE_TEXT_DESCRIPTION, TIMEZONE_DESCRIPTION } from '../WebData/resources/monitor/schedule';
import { SIGNATURE_HEADER, TOKEN_HEADER, TOKEN_QUERY } from './verify';

/** The trigger's parameters, as plain data. */
export const triggerProperties: INodeProperties[] = [
	{
		displayName: 'Source',
		name: 'source',
		type: 'options',
		noDataExpression: true,
		// 'monitor' is what every workflow saved before this parameter existed means.
		default: 'monitor',
		options: [
			{
				name: 'Monitor Events',
				value: 'monitor',
				description: 'A web monitor checked a page or finished a check',
			},
			{
				name: 'Job Events (Crawl, Batch Scrape, Agent)',
				value: 'jobs',
				description: 'A crawl, batch scrape or agent run that reports to this workflow started, scraped a page, or ended',
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
	{
		displayName:
			'On activation this node creates a monitor that sends its events to this workflow, with a secret token only this activation knows, and deletes the monitor on deactivation. The service must be able to reach this n8n at its webhook URL (a public address, not localhost). A new monitor checks on its schedule, so the first event may take a while.',
		name: 'createNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { source: ['monitor'], connection: ['create'] } },
	},
	{
		displayName:
			"On activation this node points the monitor's webhook at this workflow, with a secret token only this activation knows, and puts back the previous webhook on deactivation. While active, the monitor's events come here instead of going to the previous address. The service must be able to reach this n8n at its webhook URL (a public address, not localhost).",
		name: 'attachNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { source: ['monitor'], connection: ['attach'] } },
	},
	{
		displayName: `Paste the webhook URL above into the "url" of a monitor's webhook (the Production URL for an active workflow, the Test URL while listening). Nothing is registered for you. To verify deliveries, set a Secret Token below and add it to that webhook's headers as ${TOKEN_HEADER}, and/or put your team's webhook signing secret into the credential (then ${SIGNATURE_HEADER} is checked).`,
		name: 'manualNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { source: ['monitor'], connection: ['manual'] } },
	},
	{
		displayName:
			'Deliveries are unverified unless the credential holds a Webhook Signing Secret: without a Secret Token or a signing secret, anyone who knows this URL can start the workflow.',
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
			{
				name: 'Check Completed (monitor.check.completed)',
				value: 'monitor.check.completed',
				description: 'Once per check, with its summary (pages same, changed, new, removed, error)',
			},
			{
				name: 'Page Checked (monitor.page)',
				value: 'monitor.page',
				description: 'Once per checked page, with its status, diff and judgment',
			},
		],
	},
	// ---- Create a Monitor for This Workflow ----
	{
		displayName: 'Monitor Name',
		name: 'monitorName',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Competitor pricing',
		description: 'Name of the monitor to create (at most 256 characters)',
		displayOptions: { show: { source: ['monitor'], connection: ['create'] } },
	},
	{
		displayName: 'URLs',
		name: 'urls',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://example.com/pricing, https://example.com/plans',
		description: 'Pages to watch, separated by commas or new lines (each an absolute http or https URL)',
		displayOptions: { show: { source: ['monitor'], connection: ['create'] } },
	},
	{
		displayName: 'Schedule Type',
		name: 'scheduleType',
		type: 'options',
		default: 'text',
		options: [
			{ name: 'Cron Expression', value: 'cron' },
			{ name: 'In Words', value: 'text' },
		],
		displayOptions: { show: { source: ['monitor'], connection: ['create'] } },
	},
	{
		displayName: 'Schedule',
		name: 'scheduleText',
		type: 'string',
		default: 'every 30 minutes',
		placeholder: 'e.g. hourly',
		// The phrases of the service's grammar (firecrawl/firecrawl services/monitoring/cron.ts a05b9f288f4d).
		description: SCHEDULE_TEXT_DESCRIPTION,
		displayOptions: { show: { source: ['monitor'], connection: ['create'], scheduleType: ['text'] } },
	},
	{
		displayName: 'Cron Expression',
		name: 'cron',
		type: 'string',
		default: '*/30 * * * *',
		description: CRON_HELP,
		displayOptions: { show: { source: ['monitor'], connection: ['create'], scheduleType: ['cron'] } },
	},
	{
		displayName: 'Timezone',
		name: 'timezone',
		type: 'string',
		default: 'UTC',
		placeholder: 'e.g. Europe/Berlin',
		description: TIMEZONE_DESCRIPTION,
		displayOptions: { show: { source: ['monitor'], connection: ['create'] } },
	},
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
		displayName: 'Run a Check Now When Listening',
		name: 'runCheckWhenListening',
		type: 'boolean',
		default: true,
		description:
			'Whether "Listen for test event" should also ask the service to check the monitor right away (this uses credits), instead of waiting for its schedule',
		displayOptions: { show: { source: ['monitor'], connection: ['create', 'attach'] } },
	},
	{
		displayName:
			'"Listen for test event" registers the Test URL the same way (a temporary monitor, or the monitor\'s webhook pointed at the Test URL), and removes it again after the first event. The service must be able to reach this n8n, and a check can take a minute or more.',
		name: 'testNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { source: ['monitor'], connection: ['create', 'attach'] } },
	},
	// ---- Job Events ----
	{
		displayName: `Nothing is registered: in the workflow that starts the job (Crawl, Batch Scrape or Agent → Start), add the option "Send Events to Web Data Trigger" and paste this workflow's Production URL and the Token below (or put the URL with ?${TOKEN_QUERY}= and the Token appended into a Crawl or Batch Scrape Webhook URL). Each delivery starts one execution: a page event gives one item per page, the other events one summary item. Deliveries must carry the Token and/or the ${SIGNATURE_HEADER} signature of the credential's Webhook Signing Secret; others are refused with HTTP 401.`,
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
		default: ['crawl.page', 'crawl.completed', 'crawl.failed', 'batch_scrape.page', 'batch_scrape.completed', 'batch_scrape.failed'],
		description: 'Which crawl, batch scrape and agent events start the workflow (the job itself chooses which events it sends)',
		displayOptions: { show: { source: ['jobs'] } },
		options: [
			{ name: 'Agent Action (agent.action)', value: 'agent.action', description: 'The agent did a step (search, scrape, …)' },
			{ name: 'Agent Cancelled (agent.cancelled)', value: 'agent.cancelled' },
			{ name: 'Agent Completed (agent.completed)', value: 'agent.completed', description: 'With the result in "data"' },
			{ name: 'Agent Failed (agent.failed)', value: 'agent.failed' },
			{ name: 'Agent Started (agent.started)', value: 'agent.started' },
			{ name: 'Batch Scrape Cancelled (batch_scrape.cancelled)', value: 'batch_scrape.cancelled' },
			{ name: 'Batch Scrape Completed (batch_scrape.completed)', value: 'batch_scrape.completed' },
			{ name: 'Batch Scrape Failed (batch_scrape.failed)', value: 'batch_scrape.failed' },
			{ name: 'Batch Scrape Page (batch_scrape.page)', value: 'batch_scrape.page', description: 'One item per scraped page' },
			{ name: 'Batch Scrape Started (batch_scrape.started)', value: 'batch_scrape.started' },
			{ name: 'Crawl Cancelled (crawl.cancelled)', value: 'crawl.cancelled' },
			{ name: 'Crawl Completed (crawl.completed)', value: 'crawl.completed' },
			{ name: 'Crawl Failed (crawl.failed)', value: 'crawl.failed' },
			{ name: 'Crawl Page (crawl.page)', value: 'crawl.page', description: 'One item per crawled page, as it is crawled' },
			{ name: 'Crawl Started (crawl.started)', value: 'crawl.started' },
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
		description: `Optional. When set, a delivery must carry this exact value in the ${TOKEN_HEADER} header (add it to the headers of the monitor's webhook); others are refused with HTTP 401.`,
		displayOptions: { show: { source: ['monitor'], connection: ['manual'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
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
