import type { INodeProperties } from 'n8n-workflow';

import { headersField, PDF_MODE_OPTIONS } from '../../fields/fields';
import { INTEGRATION_DESCRIPTION, INTEGRATIONS } from './options';

/**
 * Every option of Parse File, each defined once; the panel sorts them into the collections below
 * (Options, Advanced Options) under these names.
 */
const ALL_PARSE_OPTIONS: INodeProperties = {
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Audit Username',
				name: 'auditUsername',
				type: 'string',
				default: '',
				description: 'Rarely needed (service logs): a user name, at most 1024 characters, recorded with this parse in your SIEM log events',
			},
			{
				displayName: 'Block Ads',
				name: 'blockAds',
				type: 'boolean',
				default: true,
				description: 'Whether to block ads and cookie pop-ups when web content the file links to is fetched (rarely needed: web content only)',
			},
			{
				displayName: 'Check for Prompt Injection',
				name: 'checkPromptInjection',
				type: 'boolean',
				default: false,
				description: 'Whether to scan the content for prompt-injection attempts before any model runs (JSON, Summary). A detection fails the item. Costs 4 extra credits when the scan runs.',
			},
			{
				displayName: 'Concurrency',
				name: 'concurrency',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 20, numberPrecision: 0 },
				default: 3,
				description: 'How many files to upload at once (1 = one at a time). The node slows down by itself when the service says the rate limit is reached.',
			},
			{
				displayName: 'Exclude Tags',
				name: 'excludeTags',
				type: 'string',
				default: '',
				placeholder: 'e.g. nav, footer, .ads',
				description: 'HTML tags to leave out, separated by commas',
			},
			headersField('Headers sent when the service needs extra network requests'),
			{
				displayName: 'Include Tags',
				name: 'includeTags',
				type: 'string',
				default: '',
				placeholder: 'e.g. article, main',
				description: 'HTML tags to keep, separated by commas',
			},
			{
				displayName: 'Integration',
				name: 'integration',
				type: 'string',
				default: '',
				placeholder: 'e.g. n8n',
				// The values the service accepts (server utils/integration.ts 10ac4b1d; see INTEGRATIONS).
				description: INTEGRATION_DESCRIPTION,
			},
			{
				displayName: 'Keep Input Binary',
				name: 'keepInputBinary',
				type: 'boolean',
				default: false,
				description: 'Whether to pass the input file on with the output',
			},
			{
				displayName: 'Markdown Binary Field',
				name: 'markdownBinaryProperty',
				type: 'string',
				default: 'markdown',
				description: 'Name of the binary field for the .md file, when "Put Markdown in a File" is on',
			},
			{
				displayName: 'Only Main Content',
				name: 'onlyMainContent',
				type: 'boolean',
				default: true,
				description: 'Whether to leave out headers, navigation and footers',
			},
			{
				displayName: 'Origin',
				name: 'origin',
				type: 'string',
				default: 'api',
				description: 'Rarely needed (service logs): the origin label for the service\'s analytics and logs',
			},
			{
				displayName: 'Proxy',
				name: 'proxy',
				type: 'options',
				default: 'basic',
				description: 'Rarely needed (web content only): the proxy for web content the file links to. Parsing supports only these two.',
				options: [
					{ name: 'Auto', value: 'auto' },
					{ name: 'Basic', value: 'basic' },
				],
			},
			{
				displayName: 'Put Markdown in a File',
				name: 'markdownToBinary',
				type: 'boolean',
				default: false,
				description: 'Whether to also put the Markdown into a binary field as a .md file, ready to save or attach',
			},
			{
				displayName: 'Remove Base64 Images',
				name: 'removeBase64Images',
				type: 'boolean',
				default: true,
				description: 'Whether to drop embedded base64 images, keeping their alt text',
			},
			{
				displayName: 'Skip TLS Verification',
				name: 'skipTlsVerification',
				type: 'boolean',
				default: true,
				description: 'Whether to skip TLS certificate checks when web content the file links to is fetched (rarely needed: web content only)',
			},
			{
				displayName: 'Timeout (Milliseconds)',
				name: 'timeout',
				type: 'number',
				typeOptions: { minValue: 1000, maxValue: 300000, numberPrecision: 0 },
				default: 30000,
				description: 'How long the service may work on one file, in milliseconds (at most 300000 = 5 minutes)',
			},
			{
				displayName: 'Zero Data Retention',
				name: 'zeroDataRetention',
				type: 'boolean',
				default: false,
				description: 'Whether the service must keep nothing of this parse. Works only when your account has it enabled.',
			},
		],
	};

/** One option, by its name. */
function optionOf(name: string): INodeProperties {
	const found = (ALL_PARSE_OPTIONS.options as INodeProperties[]).find((o) => o.name === name);
	if (!found) throw new Error(`Parse File has no option "${name}"`);
	return found;
}

/**
 * Two collections. Options: the file and the output, what a person parsing a file sets. Advanced
 * Options: what only matters for HTML content, for web pages a file links to (the service fetches
 * them), or for the service's logs; each name says which, so nothing there puzzles on a PDF.
 */
export const PARSE_MAIN_OPTION_NAMES = [
	'checkPromptInjection',
	'concurrency',
	'keepInputBinary',
	'markdownBinaryProperty',
	'markdownToBinary',
	'removeBase64Images',
	'timeout',
	'zeroDataRetention',
];

const PARSE_OPTIONS: INodeProperties = {
	...ALL_PARSE_OPTIONS,
	description: 'Settings for the file and the output',
	options: PARSE_MAIN_OPTION_NAMES.map(optionOf),
};

/** Everything else, alphabetical by its name in the panel. */
export const PARSE_ADVANCED_OPTIONS: INodeProperties = {
	displayName: 'Advanced Options',
	name: 'advancedOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	description: 'Rarely needed: parts of HTML content to keep, how linked web pages are fetched, and labels for the service\'s logs',
	options: [
		{
			...optionOf('blockAds'),
			displayName: 'Block Ads on Linked Web Pages',
			description: 'Whether to block ads and cookie pop-ups on web pages the file links to. Turn it off only if they lose content you need.',
		},
		{ ...optionOf('excludeTags'), displayName: 'Exclude HTML Tags' },
		{
			...optionOf('headers'),
			displayName: 'Headers for Linked Web Pages',
			description: 'HTTP headers sent with the requests for web pages the file links to, e.g. a cookie or token such a page needs',
		},
		{ ...optionOf('includeTags'), displayName: 'Include HTML Tags' },
		{
			...optionOf('integration'),
			displayName: 'Integration Label',
			// The values the service accepts (server utils/integration.ts 10ac4b1d; see INTEGRATIONS).
			description: `Only when the service's statistics should name the tool that sends this parse. It accepts only ${INTEGRATIONS.join(', ')}, or your own value starting with "_". Leave empty when in doubt.`,
		},
		{ ...optionOf('onlyMainContent'), displayName: 'Only Main Content of HTML' },
		{
			...optionOf('origin'),
			displayName: 'Origin Label',
			description: 'Only when you read the service\'s analytics or logs and want to tell these parses apart: the origin label recorded with them (default "api")',
		},
		{
			...optionOf('proxy'),
			displayName: 'Proxy for Linked Web Pages',
			description: 'Which proxy fetches web pages the file links to. Choose Auto when such pages block plain requests; parsing supports only these two.',
		},
		{
			...optionOf('skipTlsVerification'),
			displayName: 'Skip Certificate Checks on Linked Web Pages',
			description:
				'Whether to accept web pages the file links to even when their TLS certificate is invalid or self-signed. Turn it off when such pages must be verified.',
		},
		{
			...optionOf('auditUsername'),
			displayName: 'User Name for Audit Logs',
			description:
				'Only when your team sends the service\'s audit events to a SIEM: the user name recorded with this parse (at most 1024 characters)',
		},
	],
};

/** The collections after Options, by parameter name. */
export const PARSE_OPTION_GROUPS = [PARSE_ADVANCED_OPTIONS];

/** Where each option is in the panel, for messages: "Options → Timeout", "Advanced Options → Proxy for Linked Web Pages". */
export const PARSE_OPTION_LABELS: Record<string, string> = Object.fromEntries(
	[PARSE_OPTIONS, ...PARSE_OPTION_GROUPS].flatMap((group) =>
		(group.options as INodeProperties[]).map((option) => [option.name, `${group.displayName} → ${option.displayName}`]),
	),
);

/** Parameters of Parse → Parse File, grouped the way a person thinks about a document. */
export const parseFileProperties: INodeProperties[] = [
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		placeholder: 'e.g. data',
		hint: 'The name of the binary field that holds the file',
		description:
			'PDF, Word, Excel, PowerPoint, OpenDocument, RTF, EPUB, CSV or HTML, up to 50 MB. Files come from nodes such as Read/Write Files from Disk, Google Drive, Gmail or a Form Trigger.',
		// A tool call carries no file.
		displayOptions: { show: { '@tool': [false] } },
	},
	{
		displayName: 'Formats',
		name: 'formats',
		type: 'multiOptions',
		default: ['markdown'],
		description: 'What to get back. Each format chosen appears as its own field in the output.',
		options: [
			{ name: 'HTML', value: 'html', description: 'Cleaned HTML' },
			{ name: 'Images', value: 'images', description: 'The images found in the document' },
			{ name: 'JSON (Structured Data)', value: 'json', description: 'Fields extracted by a model, shaped by a prompt and a JSON Schema' },
			{ name: 'Links', value: 'links', description: 'The links found in the document' },
			{ name: 'Markdown', value: 'markdown', description: 'The document as Markdown, in reading order, with tables' },
			{ name: 'Raw HTML', value: 'rawHtml', description: 'Unmodified HTML' },
			{ name: 'Summary', value: 'summary', description: 'A short summary written by a model' },
		],
	},
	{
		displayName: 'JSON Prompt',
		name: 'jsonPrompt',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		placeholder: 'e.g. Extract the invoice number, date and total',
		description: 'What to extract into the JSON output',
		displayOptions: { show: { formats: ['json'] } },
	},
	{
		displayName: 'JSON Schema',
		name: 'jsonSchema',
		type: 'json',
		default: '',
		placeholder: 'e.g. { "type": "object", "properties": { "total": { "type": "number" } } }',
		description: 'Optional JSON Schema (an object) that the JSON output must follow',
		displayOptions: { show: { formats: ['json'] } },
	},
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'file',
		description: 'How to split the result into items',
		options: [
			{
				name: 'One Item per File',
				value: 'file',
				description: 'The whole result of each file as one item',
			},
			{
				name: 'One Item per Page',
				value: 'pages',
				description: 'One item per PDF page with its Markdown (asks the service for per-page output; no extra cost)',
			},
			{
				name: 'One Item per Layout Block',
				value: 'blocks',
				description: 'One item per title, paragraph, table, figure… of each PDF page (asks the service for layout blocks; no extra cost)',
			},
		],
	},
	{
		displayName: 'PDF Options',
		name: 'pdfOptions',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Layout Blocks',
				name: 'blocks',
				type: 'boolean',
				default: false,
				description: 'Whether to return typed layout blocks (titles, tables, figures…) per page in "blocks"',
			},
			{
				displayName: 'Max Pages',
				name: 'maxPages',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 10000, numberPrecision: 0 },
				default: 100,
				description: 'Process at most this many pages (1 to 10000). Longer files are cut and marked "truncated".',
			},
			{
				displayName: 'Mode',
				name: 'mode',
				type: 'options',
				default: 'auto',
				options: PDF_MODE_OPTIONS,
			},
			{
				displayName: 'Page Markers',
				name: 'pageMarkers',
				type: 'boolean',
				default: false,
				description: 'Whether to separate pages in the Markdown with a line "---" and a comment "&lt;!-- page N --&gt;"',
			},
		],
	},
	{
		displayName: 'Redact Personal Information',
		name: 'redaction',
		type: 'options',
		default: 'off',
		description: 'Whether to hide names, e-mail addresses, phone numbers and the like in the Markdown',
		options: [
			{ name: 'Off', value: 'off' },
			{ name: 'On, With Defaults', value: 'defaults', description: 'All kinds of personal information, replaced by tags such as &lt;EMAIL&gt;' },
			{ name: 'On, Tuned', value: 'tuned', description: 'Choose the method, the replacement and the kinds' },
		],
	},
	{
		displayName: 'Redaction Method',
		name: 'redactMode',
		type: 'options',
		default: 'accurate',
		displayOptions: { show: { redaction: ['tuned'] } },
		options: [
			{ name: 'Accurate', value: 'accurate', description: 'A model, tuned for precision' },
			{ name: 'Aggressive', value: 'aggressive', description: 'The model plus extra rules, for more coverage' },
			{ name: 'Fast', value: 'fast', description: 'Rules only, no model' },
		],
	},
	{
		displayName: 'Replace With',
		name: 'redactReplaceStyle',
		type: 'options',
		default: 'tag',
		displayOptions: { show: { redaction: ['tuned'] } },
		options: [
			{ name: 'Tag', value: 'tag', description: 'A marker such as &lt;EMAIL&gt;' },
			{ name: 'Mask', value: 'mask', description: 'Stars in place of the characters' },
			{ name: 'Nothing', value: 'remove', description: 'Delete the text' },
		],
	},
	{
		displayName: 'Kinds to Redact',
		name: 'redactEntities',
		type: 'multiOptions',
		default: [],
		description: 'Leave empty to redact every kind',
		displayOptions: { show: { redaction: ['tuned'] } },
		options: [
			{ name: 'E-Mail Addresses', value: 'EMAIL' },
			{ name: 'Financial Data', value: 'FINANCIAL' },
			{ name: 'Locations', value: 'LOCATION' },
			{ name: 'Person Names', value: 'PERSON' },
			{ name: 'Phone Numbers', value: 'PHONE' },
			{ name: 'Secrets', value: 'SECRET' },
		],
	},
	PARSE_OPTIONS,
	...PARSE_OPTION_GROUPS,
];
