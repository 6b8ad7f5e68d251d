import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INodeExecutionData, INodeProperties, INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';

import { uuidLocator } from '../WebData/fields/fields';
import { requireUuid } from '../WebData/helpers/validation';
import { MONITOR_EVENTS } from '../WebDataTrigger/delivery';
import { chosenNamesExpression } from '../WebData/fields/description';
import { triggerProperties } from '../WebDataTrigger/description';
import { searchMonitors } from '../WebDataTrigger/listSearch';
import { activePoll, testPoll } from './poll';

/** A copy of a property shown everywhere (the trigger shows it for Source "Monitor Events" only). */
function shownAlways<T extends { displayOptions?: unknown }>(property: T): T {
	const copy = { ...property };
	delete copy.displayOptions;
	return copy;
}

/** The Web Data Trigger's properties of this name, for the same choice here (same values, same texts). */
function triggerProperty(name: string): INodeProperties[] {
	return triggerProperties.filter((p) => p.name === name && p.type !== 'notice').map(shownAlways);
}

/** The trigger's monitor output options that apply to a poll (not the delivery's headers or unknown events). */
function pollOptions(): INodeProperties[] {
	return triggerProperty('options').map((options) => ({
		...options,
		options: (options.options ?? []).filter((o) => 'name' in o && ['onlyMeaningful', 'statuses'].includes(o.name)).map((o) => shownAlways(o as INodeProperties)),
	}));
}

/**
 * Web Data Poll Trigger: the monitor events of the Web Data Trigger for an n8n the service cannot
 * reach, read on n8n's poll schedule (checkLedger.ts). A node of its own: n8n ties Test button, Poll
 * Times and activation to the node type (nodes/FACTS.md "n8n editor behaviour").
 */
export class WebDataPollTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Web Data Poll Trigger',
		name: 'webDataPollTrigger',
		icon: { light: 'file:webdatapolltrigger.svg', dark: 'file:webdatapolltrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		// The chosen events' names, not their internal values.
		subtitle: chosenNamesExpression('$parameter["events"]', triggerProperty('events').flatMap((p) => p.options ?? [])),
		description: "Starts a workflow when a Web Data monitor's check finds changes, by reading new checks on a schedule: no public URL needed",
		eventTriggerDescription: '',
		polling: true,
		defaults: { name: 'Web Data Poll Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'webDataApi', required: true }],
		properties: [
			{
				displayName:
					"Reads the monitor's new checks at each poll time: the service need not reach this n8n. A check's events come at the first poll after it finishes. Fetch Test Event shows the latest finished check.",
				name: 'pollNotice',
				type: 'notice',
				default: '',
			},
			uuidLocator({
				displayName: 'Monitor',
				name: 'monitor',
				idLabel: 'Monitor ID',
				description: 'The monitor whose checks start this workflow (create it with Web Data → Monitor → Create, or in the dashboard)',
				extra: { hint: 'No monitor in the list? Create one with a Web Data node (Monitor → Create) or let the Web Data Trigger create one, then open the list again.' },
				searchListMethod: 'searchMonitors',
				searchable: true,
			}),
			...triggerProperty('events').map((events) => ({ ...events, description: 'Which monitor events start the workflow: the same items as the Web Data Trigger gives' })),
			...pollOptions(),
		],
	};

	methods = {
		listSearch: { searchMonitors },
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const node = this.getNode();
		const monitorId = requireUuid(node, 'Monitor', this.getNodeParameter('monitor', '', { extractValue: true }));
		const chosen = (this.getNodeParameter('events', []) as string[]).filter((e) => (MONITOR_EVENTS as readonly string[]).includes(e));
		if (chosen.length === 0) {
			throw new NodeOperationError(node, 'Choose at least one event', { description: 'Pick "Page Checked", "Check Completed" or both under Events.' });
		}
		const options = this.getNodeParameter('options', {}) as IDataObject;
		const output = {
			events: chosen,
			statuses: (options.statuses as string[] | undefined) ?? [],
			onlyMeaningful: options.onlyMeaningful === true,
		};
		const items = this.getMode() === 'manual' ? await testPoll(this, monitorId, output) : await activePoll(this, monitorId, output);
		if (items.length === 0) return null;
		return [this.helpers.returnJsonArray(items)];
	}
}
