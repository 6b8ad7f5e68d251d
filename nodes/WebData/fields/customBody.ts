import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isPlainObject } from '../helpers/objects';
import { isReservedWebhookHeader, nonTextMetadataKey, RESERVED_WEBHOOK_HEADER_RULE } from './serverRules';
import { isToolRun } from '../helpers/toolMode';
import type { Operation } from '../types';
import { show } from '../helpers/validation';

/** "Custom Body Fields": merged after the operation's body is built and checked, under the same rules, so it cannot smuggle a value the node would refuse. */

export const CUSTOM_BODY_NAME = 'customBody';
// FACTS.md "n8n editor behaviour".
export const CUSTOM_BODY_LABEL = 'Custom Body Fields';

export const customBodyOption: INodeProperties = {
	displayName: CUSTOM_BODY_LABEL,
	name: CUSTOM_BODY_NAME,
	type: 'json',
	default: '{}',
	placeholder: 'e.g. {"origin": "my-workflow"}',
	description:
		'Request fields this node does not show yet, as a JSON object merged into the body it sends. A key that a field of this node sets is refused (use that field); other keys go to the service as given.',
	hint: 'A JSON object added to the request, for fields the panel does not have; keys of the panel\'s own fields are refused',
	// The tool variant neither shows nor reads it.
	displayOptions: { show: { '@tool': [false] } },
};

export type BodyKeys = NonNullable<Operation['bodyKeys']>;

export interface BodyFields {
	properties: INodeProperties[];
	bodyKeys?: BodyKeys;
}

/** Custom fields may extend these one level down, under the same rules. */
const OPEN_OBJECTS = ['scrapeOptions'];

/** Inside a collection: "Collection → Option". */
export function fieldNames(properties: INodeProperties[]): Map<string, string> {
	const names = new Map<string, string>();
	// A top-level field wins a name.
	const add = (property: INodeProperties, label: string) => {
		if (property.name !== CUSTOM_BODY_NAME && !names.has(property.name)) names.set(property.name, label);
	};
	for (const property of properties) add(property, property.displayName);
	for (const property of properties) {
		if (property.type !== 'collection' || !Array.isArray(property.options)) continue;
		for (const option of property.options as INodeProperties[]) add(option, `${property.displayName} → ${option.displayName}`);
	}
	return names;
}

function holderOf(properties: INodeProperties[]): string | undefined {
	const holder = properties.find(
		(p) => p.type === 'collection' && Array.isArray(p.options) && (p.options as INodeProperties[]).some((o) => o.name === CUSTOM_BODY_NAME),
	);
	return holder?.name;
}

function fieldFor(key: string, names: Map<string, string>, bodyKeys: BodyKeys | undefined): string | undefined {
	const from = bodyKeys && Object.prototype.hasOwnProperty.call(bodyKeys, key) ? bodyKeys[key] : [];
	for (const name of [key, ...from]) {
		const label = names.get(name);
		if (label !== undefined) return label;
	}
	return undefined;
}

function refused(ctx: IExecuteFunctions, i: number, message: string, description: string): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `${CUSTOM_BODY_LABEL}: ${message}`, {
		itemIndex: i,
		description: `${description} Nothing was sent to the service.`,
	});
}

/** Empty when not set. */
export function readCustomBody(ctx: IExecuteFunctions, i: number, raw: unknown): IDataObject {
	if (raw === undefined || raw === null) return {};
	let value: unknown = raw;
	if (typeof raw === 'string') {
		if (raw.trim() === '') return {};
		try {
			value = JSON.parse(raw);
		} catch (error) {
			throw refused(
				ctx,
				i,
				`${show(raw)} is not valid JSON (${(error as Error).message})`,
				`Give a JSON object such as {"origin": "my-workflow"}; in an expression, return an object: {{ { "origin": $json.source } }}.`,
			);
		}
	}
	if (!isPlainObject(value)) {
		throw refused(ctx, i, `it must be a JSON object of body fields, not ${Array.isArray(value) ? 'a list' : show(value)}`, 'Give a JSON object such as {"origin": "my-workflow"}.');
	}
	return value;
}

/** `built` and every field of the operation, at `path`. */
function merge(
	ctx: IExecuteFunctions,
	i: number,
	built: IDataObject,
	custom: IDataObject,
	fields: { names: Map<string, string>; bodyKeys: BodyKeys | undefined },
	path: string[],
): IDataObject {
	const merged: IDataObject = { ...built };
	for (const [key, value] of Object.entries(custom)) {
		const at = [...path, key].join('.');
		if (path.length === 0 && OPEN_OBJECTS.includes(key) && Object.prototype.hasOwnProperty.call(built, 'formats')) {
			throw refused(ctx, i, `"${at}": this operation sends its scrape options at the top level of the body`, `Put the new scrape options at the top level of ${CUSTOM_BODY_LABEL}, e.g. {"minAge": 60000}.`);
		}
		if (path.length === 0 && OPEN_OBJECTS.includes(key)) {
			if (!isPlainObject(value)) {
				throw refused(ctx, i, `"${at}" must be an object of scrape options (it extends the node's scrape options)`, 'Give it as {"scrapeOptions": {"newOption": …}}.');
			}
			const inner = isPlainObject(built[key]) ? (built[key] as IDataObject) : {};
			merged[key] = merge(ctx, i, inner, value, fields, [key]);
			continue;
		}
		const field = fieldFor(key, fields.names, fields.bodyKeys);
		if (field !== undefined) {
			throw refused(
				ctx,
				i,
				`"${at}" is set by the field "${field}" of this node`,
				`Set it in "${field}", where its rules are checked, and remove "${at}" from ${CUSTOM_BODY_LABEL}.`,
			);
		}
		if (Object.prototype.hasOwnProperty.call(built, key)) {
			throw refused(ctx, i, `"${at}" is set by the node itself`, `Remove "${at}" from ${CUSTOM_BODY_LABEL}.`);
		}
		merged[key] = value;
	}
	return merged;
}

function checkMerged(ctx: IExecuteFunctions, i: number, body: IDataObject): void {
	const webhook = body.webhook;
	if (isPlainObject(webhook)) {
		const headers = isPlainObject(webhook.headers) ? Object.keys(webhook.headers) : [];
		const reserved = headers.find(isReservedWebhookHeader);
		if (reserved !== undefined) {
			throw refused(ctx, i, `"webhook.headers" → ${show(reserved)} is not valid: ${RESERVED_WEBHOOK_HEADER_RULE}`, 'Rename or remove that header.');
		}
		const metadata = isPlainObject(webhook.metadata) ? webhook.metadata : undefined;
		const key = metadata ? nonTextMetadataKey(metadata) : undefined;
		if (metadata && key !== undefined) {
			throw refused(ctx, i, `"webhook.metadata.${key}" ${show(metadata[key])} is not valid: every value must be text`, 'Put the value in quotes, e.g. {"runId": "42"}.');
		}
	}
}

/** Throws before anything is sent, leaving `body` as it was. */
export function applyCustomBody(ctx: IExecuteFunctions, i: number, operation: BodyFields, body: IDataObject): IDataObject {
	if (isToolRun(ctx)) return body;
	const { properties, bodyKeys } = operation;
	const holder = holderOf(properties);
	if (holder === undefined) return body;
	const collection = ctx.getNodeParameter(holder, i, {}) as IDataObject;
	const custom = readCustomBody(ctx, i, isPlainObject(collection) ? collection[CUSTOM_BODY_NAME] : undefined);
	if (Object.keys(custom).length === 0) return body;
	const merged = merge(ctx, i, body, custom, { names: fieldNames(properties), bodyKeys }, []);
	checkMerged(ctx, i, merged);
	return Object.assign(body, merged);
}
