import type { INodeProperties } from 'n8n-workflow';

import { headersField, uuidLocator } from '../../WebData/fields/fields';
import { CRON_HELP, SCHEDULE_TEXT_DESCRIPTION, TIMEZONE_DESCRIPTION } from './schedule';

/** Parameters shared by the Monitor operations, as plain data. */

/** The monitor, picked from the team's monitors or given by ID. */
export const monitorIdField: INodeProperties = uuidLocator({
	displayName: 'Monitor',
	name: 'monitorId',
	idLabel: 'Monitor ID',
	description: 'The monitor to use. Its ID is in the output of Create and Get Many.',
	searchListMethod: 'searchMonitors',
	searchable: true,
});

/** A check of the chosen monitor, picked from its checks or given by ID. */
export const checkIdField: INodeProperties = uuidLocator({
	displayName: 'Check',
	name: 'checkId',
	idLabel: 'Check ID',
	description: 'The check to read. Its ID is in the output of Run Check Now and Get Many Checks.',
	searchListMethod: 'searchMonitorChecks',
	extra: { typeOptions: { loadOptionsDependsOn: ['monitorId.value'] } },
});

export const PAGE_STATUSES = ['same', 'new', 'changed', 'removed', 'error'];
export const CHECK_STATUSES = ['queued', 'running', 'completed', 'failed', 'partial', 'skipped_overlap', 'skipped_no_credits'];

/** How to output a check's pages (Get Check; Run Check Now when it waits). */
export const pageOutputOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'One Item per Page',
			name: 'onePerPage',
			type: 'boolean',
			default: false,
			description:
				'Whether to output one item per page of the check (with monitorId and checkId) instead of one item for the check with all its pages in "pages"',
		},
		{
			displayName: 'Page Statuses',
			name: 'pageStatuses',
			type: 'multiOptions',
			default: [],
			description: 'Only output pages with these statuses. Leave empty for all pages.',
			options: [
				{ name: 'Changed', value: 'changed', description: 'Content differs from the last check' },
				{ name: 'Error', value: 'error', description: 'The page could not be read' },
				{ name: 'New', value: 'new', description: 'Seen for the first time' },
				{ name: 'Removed', value: 'removed', description: 'No longer part of the targets' },
				{ name: 'Same', value: 'same', description: 'Unchanged since the last check' },
			],
		},
	],
};

// ---- what a monitor holds (Create, and Update's "Update Fields") ----

export const nameField: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	default: '',
	placeholder: 'e.g. Competitor pricing',
	description: 'A name for the monitor (at most 256 characters)',
};

export const goalField: INodeProperties = {
	displayName: 'Goal',
	name: 'goal',
	type: 'string',
	typeOptions: { rows: 3 },
	default: '',
	placeholder: 'e.g. Tell me when a plan price or a plan limit changes',
	description:
		'What matters to you, in plain words (at most 2000 characters). Changed pages are judged against it; search targets need it.',
};

export const judgeField: INodeProperties = {
	displayName: 'Judge Changes Against Goal',
	name: 'judgeEnabled',
	type: 'boolean',
	default: true,
	description:
		'Whether a model judges each changed page against the goal (meaningful or not, with a reason). Needs a goal; without one nothing is judged.',
};

/**
 * Monitor Create's Goal and judging: the switch shows only once a Goal is written (with none there
 * is nothing to judge), and the Goal says what an empty one means.
 */
export const createGoalField: INodeProperties = {
	...goalField,
	description:
		'What matters to you, in plain words (at most 2000 characters). Each changed page and each new search result is judged against it. Search targets need a goal. Empty: changed pages are reported unjudged.',
};

export const createJudgeField: INodeProperties = {
	...judgeField,
	description:
		'Whether a model judges each changed page and new search result against the Goal above: meaningful or not, with a reason (in "isMeaningful" and "judgement"). Off: every change is reported unjudged.',
};

export const scheduleTextField: INodeProperties = {
	displayName: 'Schedule',
	name: 'scheduleText',
	type: 'string',
	default: '',
	placeholder: 'e.g. every 30 minutes',
	// The phrases of the service's grammar (firecrawl/firecrawl services/monitoring/cron.ts a05b9f288f4d).
	description: SCHEDULE_TEXT_DESCRIPTION,
};

export const cronField: INodeProperties = {
	displayName: 'Cron Expression',
	name: 'cron',
	type: 'string',
	default: '',
	placeholder: 'e.g. 0 9 * * 1-5',
	description: CRON_HELP,
};

/** Time Zone: empty by default, which means the workflow's time zone (resolved when the node runs). */
export const timezoneField: INodeProperties = {
	displayName: 'Time Zone',
	name: 'timezone',
	type: 'string',
	default: '',
	placeholder: 'e.g. Europe/Berlin',
	// What an empty field means, visible at the field (the description is behind the "?" only).
	hint: 'Empty: this workflow\'s time zone (the n8n instance\'s, unless the workflow settings set one)',
	description: TIMEZONE_DESCRIPTION,
};

export const retentionField: INodeProperties = {
	displayName: 'Retention Days',
	name: 'retentionDays',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: 365, numberPrecision: 0 },
	default: 30,
	description: 'How many days snapshots and diffs are kept (1 to 365; the service default is 30)',
};

export const statusField: INodeProperties = {
	displayName: 'Status',
	name: 'status',
	type: 'options',
	default: 'paused',
	description: 'Pause the monitor (no scheduled or manual checks run) or resume it',
	options: [
		{ name: 'Active (Resume)', value: 'active' },
		{ name: 'Paused (Pause)', value: 'paused' },
	],
};

const scrapeOptionsField: INodeProperties = {
	displayName: 'Scrape Options',
	name: 'scrapeOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	description: 'How each page is read. Markdown is always taken (changes are found in it).',
	options: [
		{
			displayName: 'Block Ads',
			name: 'blockAds',
			type: 'boolean',
			default: true,
			description: 'Whether to block ads and cookie pop-ups',
		},
		{
			displayName: 'Exclude Tags',
			name: 'excludeTags',
			type: 'string',
			default: '',
			placeholder: 'e.g. nav, footer, .ads',
			description: 'HTML tags or selectors to leave out, separated by commas (keeps noise out of the diffs)',
		},
		headersField('Headers sent with each page request (cookies, user agent …)'),
		{
			displayName: 'Include Tags',
			name: 'includeTags',
			type: 'string',
			default: '',
			placeholder: 'e.g. main, #pricing',
			description: 'HTML tags or selectors to keep, separated by commas',
		},
		{
			displayName: 'Location Country',
			name: 'country',
			type: 'string',
			default: '',
			placeholder: 'e.g. DE',
			description: 'ISO 3166-1 country code to read the pages from (a fitting proxy and language are used)',
		},
		{
			displayName: 'Location Languages',
			name: 'languages',
			type: 'string',
			default: '',
			placeholder: 'e.g. de-DE, en',
			description: 'Preferred languages, separated by commas',
		},
		{
			displayName: 'Max Age (Milliseconds)',
			name: 'maxAge',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 0 },
			default: 0,
			hint: '3600000 = 1 hour, 86400000 = 1 day, 0 = always fresh',
			description: 'Accept a cached copy of the page up to this old, in milliseconds (0 = always fresh)',
		},
		{
			displayName: 'Mobile',
			name: 'mobile',
			type: 'boolean',
			default: false,
			description: 'Whether to read the pages as a mobile device',
		},
		{
			displayName: 'Only Main Content',
			name: 'onlyMainContent',
			type: 'boolean',
			default: true,
			description: 'Whether to leave out headers, navigation and footers',
		},
		{
			displayName: 'Proxy',
			name: 'proxy',
			type: 'options',
			default: 'auto',
			options: [
				{ name: 'Auto', value: 'auto', description: 'Basic first, enhanced when needed' },
				{ name: 'Basic', value: 'basic', description: 'Fast; for sites without anti-bot measures' },
				{ name: 'Enhanced', value: 'enhanced', description: 'For sites with advanced anti-bot measures' },
			],
		},
		{
			displayName: 'Timeout (Milliseconds)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1000, maxValue: 300000, numberPrecision: 0 },
			default: 60000,
			description: 'How long one page may take, in milliseconds (1000 to 300000)',
		},
		{
			displayName: 'Wait For (Milliseconds)',
			name: 'waitFor',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 0 },
			default: 0,
			description: 'Extra time to let the page load before it is read, in milliseconds',
		},
	],
};

export const targetsField: INodeProperties = {
	displayName: 'Targets',
	name: 'targets',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	default: {},
	placeholder: 'Add Target',
	description: 'What to watch: 1 to 50 targets in all',
	options: [
		{
			displayName: 'Crawl a Site',
			name: 'crawl',
			values: [
				{
					displayName: 'URL',
					name: 'url',
					type: 'string',
					default: '',
					placeholder: 'e.g. https://example.com/blog',
					description: 'Where the crawl starts (absolute http or https URL)',
				},
				{
					displayName: 'Page Limit',
					name: 'pageLimit',
					type: 'number',
					typeOptions: { minValue: 1, numberPrecision: 0 },
					default: 10,
					description: 'The most pages the crawl reads on each check',
				},
				{
					displayName: 'Crawl Options',
					name: 'crawlOptions',
					type: 'collection',
					placeholder: 'Add Option',
					default: {},
					options: [
						{
							displayName: 'Exclude Paths',
							name: 'excludePaths',
							type: 'string',
							default: '',
							placeholder: 'e.g. /tag/.*, /author/.*',
							description: 'URL path patterns to skip, separated by commas',
						},
						{
							displayName: 'Include Paths',
							name: 'includePaths',
							type: 'string',
							default: '',
							placeholder: 'e.g. /blog/.*',
							description: 'Only follow URL paths that match these patterns, separated by commas',
						},
						{
							displayName: 'Max Discovery Depth',
							name: 'maxDiscoveryDepth',
							type: 'number',
							typeOptions: { minValue: 0, numberPrecision: 0 },
							default: 2,
							description: 'How many links away from the start URL the crawl may go',
						},
					],
				},
				scrapeOptionsField,
			],
		},
		{
			displayName: 'Scrape Pages',
			name: 'scrape',
			values: [
				{
					displayName: 'URLs',
					name: 'urls',
					type: 'string',
					default: '',
					placeholder: 'e.g. https://example.com/pricing, https://example.com/plans',
					description:
						'The pages to watch, separated by commas or new lines (absolute http or https URLs). An expression may also give a list.',
				},
				scrapeOptionsField,
			],
		},
		{
			displayName: 'Search the Web',
			name: 'search',
			values: [
				{
					displayName: 'Queries',
					name: 'queries',
					type: 'string',
					typeOptions: { rows: 3 },
					default: '',
					placeholder: 'e.g. acme robotics funding round',
					description: 'Search queries, one per line (1 to 12, each at most 256 characters). New matching results are reported.',
				},
				{
					displayName: 'Search Options',
					name: 'searchOptions',
					type: 'collection',
					placeholder: 'Add Option',
					default: {},
					options: [
						{
							displayName: 'Exclude Domains',
							name: 'excludeDomains',
							type: 'string',
							default: '',
							placeholder: 'e.g. pinterest.com',
							description: 'Drop results from these host names, separated by commas (at most 50)',
						},
						{
							displayName: 'Include Domains',
							name: 'includeDomains',
							type: 'string',
							default: '',
							placeholder: 'e.g. techcrunch.com, reuters.com',
							description: 'Keep only results from these host names, separated by commas (at most 50). Not together with Exclude Domains.',
						},
						{
							// The same concept and name as Search → Limit.
							displayName: 'Limit',
							name: 'maxResults',
							type: 'number',
							typeOptions: { minValue: 1, maxValue: 50, numberPrecision: 0 },
							default: 10,
							description: 'Max number of results to evaluate per check, across all queries (1 to 50; the service default is 10)',
						},
						{
							// The same concept as Search → Options → Time Range (only the choices differ).
							displayName: 'Time Range',
							name: 'searchWindow',
							type: 'options',
							default: '24h',
							description: 'Only consider results published within this time (the service default is 24 hours)',
							options: [
								{ name: 'Last 15 Minutes', value: '15m' },
								{ name: 'Last 24 Hours', value: '24h' },
								{ name: 'Last 5 Minutes', value: '5m' },
								{ name: 'Last 6 Hours', value: '6h' },
								{ name: 'Last 7 Days', value: '7d' },
								{ name: 'Last Hour', value: '1h' },
							],
						},
					],
				},
			],
		},
	],
};

export const targetsJsonField: INodeProperties = {
	displayName: 'Targets (JSON)',
	name: 'targetsJson',
	type: 'json',
	default:
		'[\n  {\n    "type": "scrape",\n    "urls": ["https://example.com/pricing"],\n    "scrapeOptions": { "onlyMainContent": true }\n  }\n]',
	hint: 'Keys: scrape → urls, scrapeOptions; crawl → url, crawlOptions; search → queries, searchWindow, maxResults, includeDomains or excludeDomains',
	description: 'The target list as the API takes it: 1 to 50 objects, each of type "scrape", "crawl" or "search"',
};

export const webhookField: INodeProperties = {
	displayName: 'Webhook',
	name: 'webhook',
	type: 'fixedCollection',
	default: {},
	placeholder: 'Add Webhook',
	description: 'Send page and check events to a URL (for example the Web Data Trigger node)',
	options: [
		{
			displayName: 'Webhook',
			name: 'settings',
			values: [
				{
					displayName: 'URL',
					name: 'url',
					type: 'string',
					default: '',
					placeholder: 'e.g. https://example.com/hooks/monitor',
					description: 'Where events are sent (absolute http or https URL)',
				},
				{
					displayName: 'Events',
					name: 'events',
					type: 'multiOptions',
					default: ['monitor.page', 'monitor.check.completed'],
					options: [
						{
							name: 'Check Completed',
							value: 'monitor.check.completed',
							description: 'Once per check, with the summary',
						},
						{
							name: 'Page Checked',
							value: 'monitor.page',
							description: 'Once per page of each check, with its status, diff and judgment',
						},
					],
				},
				headersField('Headers sent with every delivery'),
				{
					displayName: 'Metadata',
					name: 'metadata',
					type: 'fixedCollection',
					typeOptions: { multipleValues: true },
					default: {},
					placeholder: 'Add Metadata',
					description: 'Fields added to every delivery (values are sent as text)',
					options: [
						{
							displayName: 'Entry',
							name: 'entry',
							values: [
								{ displayName: 'Key', name: 'key', type: 'string', default: '' },
								{ displayName: 'Value', name: 'value', type: 'string', default: '' },
							],
						},
					],
				},
			],
		},
	],
};

export const emailField: INodeProperties = {
	displayName: 'E-Mail Notification',
	name: 'emailNotification',
	type: 'fixedCollection',
	default: {},
	placeholder: 'Add E-Mail Notification',
	description: 'Send a summary by e-mail after checks',
	options: [
		{
			displayName: 'E-Mail',
			name: 'email',
			values: [
				{
					displayName: 'Enabled',
					name: 'enabled',
					type: 'boolean',
					default: true,
					description: 'Whether to send e-mail summaries',
				},
				{
					displayName: 'Include Diffs',
					name: 'includeDiffs',
					type: 'boolean',
					default: false,
					description: 'Whether the e-mail shows what changed on each changed page',
				},
				{
					displayName: 'Recipients',
					name: 'recipients',
					type: 'string',
					default: '',
					placeholder: 'e.g. ana@example.com, ops@example.com',
					description:
						'Up to 25 addresses, separated by commas. Leave empty to mail the members of your team. Addresses outside the team must confirm by e-mail first.',
				},
			],
		},
	],
};
