import type { IExecuteFunctions, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { invalid } from '../helpers/validation';

/**
 * The PDF parser's modes (spec 2.3, `parsers[].mode`), one list for Parse → Mode and the scrape
 * options' PDF Mode.
 */
export const PDF_MODE_OPTIONS: INodePropertyOptions[] = [
	{ name: 'Auto', value: 'auto', description: 'Text first, OCR when a page has no text' },
	{ name: 'Fast', value: 'fast', description: 'Text only, no OCR' },
	{ name: 'OCR', value: 'ocr', description: 'OCR on every page (scans, photos)' },
];

/** Field factories shared by several operations (and the trigger), as plain data. */

const UUID_REGEX = '^\\s*[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\s*$';
const EXAMPLE_UUID = '0190b7c4-6d2a-7c1e-9a51-3f2b8e4d5c6a';

/**
 * A resource locator for a UUID: pick from a list (when a listSearch method is given) or paste the
 * ID. The By ID mode checks the UUID form in the editor; operations check it again before sending.
 */
export function uuidLocator(options: {
	displayName: string;
	name: string;
	/** How the ID is called in messages, e.g. "Job ID". */
	idLabel: string;
	description: string;
	/** A listSearch method for a "From List" mode; without it the locator has the By ID mode only. */
	searchListMethod?: string;
	searchable?: boolean;
	defaultMode?: 'list' | 'id';
	extra?: Partial<INodeProperties>;
}): INodeProperties {
	return {
		displayName: options.displayName,
		name: options.name,
		type: 'resourceLocator',
		default: { mode: options.defaultMode ?? (options.searchListMethod ? 'list' : 'id'), value: '' },
		required: true,
		description: options.description,
		...options.extra,
		modes: [
			...(options.searchListMethod
				? [
						{
							displayName: 'From List',
							name: 'list',
							type: 'list' as const,
							typeOptions: { searchListMethod: options.searchListMethod, searchable: options.searchable ?? false },
						},
					]
				: []),
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: `e.g. ${EXAMPLE_UUID}`,
				validation: [
					{
						type: 'regex',
						properties: {
							regex: UUID_REGEX,
							errorMessage: `The ${options.idLabel} must be a UUID such as ${EXAMPLE_UUID}`,
						},
					},
				],
			},
		],
	};
}

/** Name/value rows for HTTP headers, read back with `headerRows`. */
export function headersField(description: string): INodeProperties {
	return {
		displayName: 'Headers',
		name: 'headers',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true },
		default: {},
		placeholder: 'Add Header',
		description,
		options: [
			{
				displayName: 'Header',
				name: 'header',
				values: [
					{ displayName: 'Name', name: 'name', type: 'string', default: '' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '' },
				],
			},
		],
	};
}

/** "Return All" and "Limit" of a Get Many operation. */
export const returnAllField: INodeProperties = {
	displayName: 'Return All',
	name: 'returnAll',
	type: 'boolean',
	default: false,
	description: 'Whether to return all results or only up to a given limit',
};

export const limitField: INodeProperties = {
	displayName: 'Limit',
	name: 'limit',
	type: 'number',
	typeOptions: { minValue: 1 },
	default: 50,
	description: 'Max number of results to return',
	displayOptions: { show: { returnAll: [false] } },
};

/** Return All / Limit as a number (Infinity for Return All), checked. */
export function readLimit(ctx: IExecuteFunctions, i: number): number {
	if (ctx.getNodeParameter('returnAll', i, false) === true) return Infinity;
	const raw = ctx.getNodeParameter('limit', i, 50);
	const limit = Number(raw);
	if (typeof raw === 'boolean' || !Number.isInteger(limit) || limit < 1) {
		throw invalid(ctx.getNode(), 'Limit', raw, 'it must be a whole number of 1 or more', i);
	}
	return limit;
}

