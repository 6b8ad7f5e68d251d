import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import type { Operation, Resource } from '../types';

/**
 * The n8n panel order: the operation's own fields first, its option collections ("Add Option"
 * groups) last, each side in the order the operation lists them. Only the order changes, never a
 * parameter's name or path, so saved workflows keep their values.
 */
export function panelOrder(properties: INodeProperties[]): INodeProperties[] {
	const isGroup = (property: INodeProperties) => property.type === 'collection';
	return [...properties.filter((p) => !isGroup(p)), ...properties.filter(isGroup)];
}

/** In the Options of every operation that spends (issue 35); the credential holds the budget of all. */
export const CREDIT_BUDGET_OPTION: INodeProperties = {
	displayName: 'Credit Budget per Execution',
	name: 'creditBudget',
	type: 'number',
	typeOptions: { minValue: 0, numberPrecision: 0 },
	default: 0,
	description:
		"The most credits this execution may have spent with this credential when this node sends a request (all Web Data nodes count). Lower than the credential's Credit Budget per Execution only: a higher value is the credential's. A request that cannot fit is not sent. A sub-workflow or an MCP tool call is an execution of its own, with its own budget. 0: the credential's budget.",
};

/** A spending operation's Options get the budget option (a collection is added where it has none). */
function withBudgetOption(op: Operation): INodeProperties[] {
	if (!op.spends) return op.properties;
	const has = op.properties.some((p) => p.name === 'options' && p.type === 'collection');
	if (!has) {
		return [...op.properties, { displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, options: [CREDIT_BUDGET_OPTION] }];
	}
	return op.properties.map((p) => (p.name === 'options' && p.type === 'collection' ? { ...p, options: inOrder(p.options ?? []) } : p));
}

/** Where it belongs in the panel's alphabetical order. */
function inOrder(options: NonNullable<INodeProperties['options']>): INodeProperties['options'] {
	const name = CREDIT_BUDGET_OPTION.displayName;
	const at = options.findIndex((o) => 'displayName' in o && String(o.displayName).localeCompare(name) > 0);
	const list = [...options] as INodeProperties[];
	list.splice(at === -1 ? list.length : at, 0, CREDIT_BUDGET_OPTION);
	return list;
}

/** Adds `show: {resource, operation}` to each property of an operation (keeping its own rules). */
export function forOperation(resource: string, operation: string, op: Operation): INodeProperties[] {
	return panelOrder(withBudgetOption(op)).flatMap((property) => {
		const shown: INodeProperties = {
			...property,
			displayOptions: {
				...property.displayOptions,
				show: {
					resource: [resource],
					operation: [operation],
					...property.displayOptions?.show,
				},
			},
		};
		// A parameter a model fills when the node is a tool: the tool variant gets a described
		// $fromAI default (the operation's tool.fromAi), the regular node keeps its own.
		const ai = op.tool?.fromAi?.[property.name];
		if (ai === undefined) return [shown];
		const { expression, since } = typeof ai === 'string' ? { expression: ai, since: undefined } : ai;
		const aiDefault = property.type === 'resourceLocator' ? { __rl: true, mode: 'id', value: expression } : expression;
		const show = shown.displayOptions?.show ?? {};
		const shownWhen = (rule: IDisplayOptions['show'], value?: INodeProperties['default']): INodeProperties => ({
			...shown,
			...(value === undefined ? {} : { default: value }),
			displayOptions: { ...shown.displayOptions, show: { ...show, ...rule } },
		});
		if (since === undefined) return [shownWhen({ '@tool': [false] }), shownWhen({ '@tool': [true] }, aiDefault)];
		return [
			shownWhen({ '@tool': [false] }),
			shownWhen({ '@tool': [true], '@version': [{ _cnd: { lt: since } }] }),
			shownWhen({ '@tool': [true], '@version': [{ _cnd: { gte: since } }] }, aiDefault),
		];
	});
}

/** All properties of a resource: its operation selector, then each operation's fields. */
export function resourceProperties(name: string, resource: Resource): INodeProperties[] {
	const selector: INodeProperties = {
		...resource.operationProperty,
		displayOptions: { show: { resource: [name] } },
	};
	const since = resource.defaultOperationSince;
	const selectors: INodeProperties[] = since
		? [
				{ ...selector, displayOptions: { show: { resource: [name], '@version': [{ _cnd: { lt: since.version } }] } } },
				{ ...selector, default: since.operation, displayOptions: { show: { resource: [name], '@version': [{ _cnd: { gte: since.version } }] } } },
			]
		: [selector];
	return [
		...selectors,
		...Object.entries(resource.operations).flatMap(([operation, op]) => forOperation(name, operation, op)),
	];
}

/** A name/value option, as n8n's options lists hold them. */
interface NamedOption {
	name: string;
	value: string;
}

function namedOptions(options: INodeProperties['options']): NamedOption[] {
	return (options ?? []).filter((o): o is NamedOption => 'value' in o && typeof o.value === 'string' && typeof o.name === 'string');
}

/** A subtitle listing the chosen options of a list parameter by their names ("Page Checked, Check Completed"). */
export function chosenNamesExpression(choice: string, options: INodeProperties['options']): string {
	const names = Object.fromEntries(namedOptions(options).map((o) => [o.value, o.name]));
	return `={{ ${choice}.map((value) => (${JSON.stringify(names)})[value] || value).join(", ") }}`;
}
