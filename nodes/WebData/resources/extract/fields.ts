import type { INodeProperties } from 'n8n-workflow';

import { customBodyOption } from '../../fields/customBody';
import { uuidLocator } from '../../fields/fields';
import { SCRAPE_OPTION_BODY_KEYS, scrapeOptionProperties } from '../../fields/scrapeOptions';
import { aiValue, fromVersion2 } from '../../tool/fromAi';

/** The fields of Extract → Start and Run and Wait, as plain data; their rules are in request.ts. */
/** Body keys set by fields of other names (the schema, the page and its JSON format, the scrape options). */
export const EXTRACT_BODY_KEYS = { schema: ['outputShape', 'jsonSchema'], url: ['urls'], formats: ['prompt', 'outputShape'], ...SCRAPE_OPTION_BODY_KEYS };

/** How several pages' data become the result (combine.ts). */
export const combinePagesOption: INodeProperties = {
	displayName: 'Combine Pages',
	name: 'combinePages',
	type: 'options',
	default: 'merge',
	description: 'When several pages answer: one item whose data merges theirs, or one item per page',
	options: [
		{
			name: 'Merge Into One Item',
			value: 'merge',
			description: 'Fields are filled from the first page (in URL order) that has them; lists are joined, equal entries once',
		},
		{ name: 'One Item per Page', value: 'perPage', description: 'Each page\'s data with its URL' },
	],
};

export const extractFields: INodeProperties[] = [
	{
		displayName: 'URLs',
		name: 'urls',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://example.com/pricing, https://docs.example.com/*',
		description:
			'The pages to extract from, separated by commas or new lines (at most 10, each an absolute http or https URL). End a URL with /* to include the pages below it. An expression may also give a list. Leave empty to let the service find pages (needs a Prompt).',
	},
	{
		displayName: 'Prompt',
		name: 'prompt',
		type: 'string',
		typeOptions: { rows: 4 },
		default: '',
		placeholder: 'e.g. Extract the company name, its mission and whether it offers SSO',
		description: 'What to extract, in plain words (at most 10000 characters). Needed when no URLs are given.',
	},
	{
		displayName: 'Output Shape',
		name: 'outputShape',
		type: 'options',
		default: 'free',
		description: 'What shape the extracted data ("data") should have',
		options: [
			{ name: 'Free Form', value: 'free', description: 'Let the prompt decide' },
			{ name: 'From a JSON Example', value: 'example', description: 'Paste an example of the result; a JSON Schema is generated from it' },
			{ name: 'JSON Schema', value: 'schema', description: 'Give a JSON Schema the data must follow' },
		],
	},
	{
		displayName: 'Schema',
		name: 'jsonSchema',
		type: 'json',
		default: '{\n  "type": "object",\n  "properties": {\n    "company": { "type": "string" }\n  },\n  "required": ["company"]\n}',
		hint: 'The "format" keyword is not accepted by the service for Extract, and every object needs "properties"',
		description: 'A JSON Schema (a JSON object) the extracted data must follow',
		displayOptions: { show: { outputShape: ['schema'] } },
	},
	{
		displayName: 'JSON Example',
		name: 'jsonExample',
		type: 'json',
		default: '{\n  "company": "Acme",\n  "supportsSso": true\n}',
		hint: 'Every field of the example becomes required; a list is described by its first entry',
		description: 'An example JSON object of the data you want. A JSON Schema is generated from it and sent.',
		displayOptions: { show: { outputShape: ['example'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Allow External Links',
				name: 'allowExternalLinks',
				type: 'boolean',
				default: false,
				description: 'Whether to follow links to other websites (on when Enable Web Search is on)',
			},
			combinePagesOption,
			customBodyOption,
			{
				displayName: 'Enable Web Search',
				name: 'enableWebSearch',
				type: 'boolean',
				default: false,
				description: 'Whether the service may search the web for more data beyond the given URLs',
			},
			{
				displayName: 'Endpoint',
				name: 'endpoint',
				type: 'options',
				default: 'replacements',
				description: 'Which endpoint extracts. The service retires /extract on 2026-12-10 (HTTP 410); a self-hosted server may still have it.',
				options: [
					{
						name: 'Old Extract Endpoint (Self-Hosted Servers)',
						value: 'extract',
						description: 'POST /v2/extract as before, for a self-hosted server that still routes it',
					},
					{
						name: 'Scrape, Batch Scrape or Agent',
						value: 'replacements',
						description: 'Known pages through Scrape or Batch Scrape with the JSON format (5 credits a page); a /* URL, no URLs or web search through the Agent',
					},
				],
			},
			{
				displayName: 'Ignore Invalid URLs',
				name: 'ignoreInvalidURLs',
				type: 'boolean',
				default: true,
				description: 'Whether to go on without URLs the service will not fetch (listed in "invalidURLs" of the Start output) instead of failing the whole request',
			},
			{
				displayName: 'Ignore Sitemap',
				name: 'ignoreSitemap',
				type: 'boolean',
				default: false,
				description: 'Whether to ignore the sites\' sitemap.xml when finding pages for a /* URL',
			},
			{
				displayName: 'Include Subdomains',
				name: 'includeSubdomains',
				type: 'boolean',
				default: true,
				description: 'Whether pages on subdomains of the given URLs are scanned too',
			},
			{
				displayName: 'Max Credits (Agent)',
				name: 'maxCredits',
				type: 'number',
				typeOptions: { minValue: 1, numberPrecision: 0 },
				default: 2500,
				description: 'When the pages have to be found (a /* URL, no URLs, web search), the agent runs; this caps its credits (the service default is 2500)',
			},
			{
				displayName: 'Show Sources',
				name: 'showSources',
				type: 'boolean',
				default: false,
				description: 'Whether the result lists the pages each piece of data came from (field "sources")',
			},
			{
				displayName: 'System Prompt',
				name: 'systemPrompt',
				type: 'string',
				typeOptions: { rows: 2 },
				default: '',
				description: 'Extra instructions for the extraction model (at most 10000 characters)',
			},
		],
	},
	// The shared Scrape Options block (how each page is fetched); Extract takes no formats.
	...scrapeOptionProperties().filter((p) => p.name === 'scrapeOptions'),
];

/** From version 2: neither is required alone, so a version-1 tool with one set ran. */
export const EXTRACT_FROM_AI = {
	urls: fromVersion2(
		aiValue('urls', 'The absolute https URLs of the pages to extract from, separated by commas (at most 10; a URL that ends in a slash and an asterisk includes the pages below it). Leave empty to let the service find the pages on the web', 'string', ''),
	),
	prompt: fromVersion2(aiValue('prompt', 'What to extract, in plain words: the facts or fields to return', 'string')),
};

/** The extract job ID of Get Status (no list: the service has no endpoint that lists extract jobs). */
export const extractIdField: INodeProperties = uuidLocator({
	displayName: 'Extract Job ID',
	name: 'extractId',
	idLabel: 'Extract Job ID',
	description: 'The extract job to read. Its ID is in the output of Start (field "id").',
});
