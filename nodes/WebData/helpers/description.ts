import type { INodeProperties } from 'n8n-workflow';

import type { Resource } from './types';

/** Adds `show: {resource, operation}` to each property of an operation (keeping its own rules). */
export function forOperation(
	resource: string,
	operation: string,
	properties: INodeProperties[],
): INodeProperties[] {
	return properties.map((property) => ({
		...property,
		displayOptions: {
			...property.displayOptions,
			show: {
				resource: [resource],
				operation: [operation],
				...property.displayOptions?.show,
			},
		},
	}));
}

/** All properties of a resource: its operation selector, then each operation's fields. */
export function resourceProperties(name: string, resource: Resource): INodeProperties[] {
	const selector: INodeProperties = {
		...resource.operationProperty,
		displayOptions: { show: { resource: [name] } },
	};
	return [
		selector,
		...Object.entries(resource.operations).flatMap(([operation, op]) =>
			forOperation(name, operation, op.properties),
		),
	];
}
