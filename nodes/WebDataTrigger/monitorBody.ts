import type { IDataObject, INode } from 'n8n-workflow';

import { checkGoal, checkName } from '../shared/monitor/body';
import { buildSchedule } from '../shared/monitor/schedule';
import { splitList } from '../shared/monitor/targets';
import { invalid, isHttpUrl } from '../WebData/helpers/validation';

/**
 * The monitor the trigger creates in "Create a Monitor for This Workflow" mode (spec 2.9, 4.2;
 * api-facts 2): name, one scrape target with the URLs, schedule and goal, checked with the same
 * rules as the Monitor resource's Create before anything is sent.
 */
export interface MonitorFields {
	name: string;
	urls: string | string[];
	scheduleType: 'text' | 'cron';
	scheduleText?: string;
	cron?: string;
	timezone?: string;
	goal?: string;
}

/** The trigger's own field names, for messages. */
const LABELS = { cron: 'Cron Expression', text: 'Schedule', timezone: 'Time Zone' };

/** URLs from a comma/new-line separated text, or from a list an expression gave. */
export function splitUrls(value: unknown): string[] {
	return splitList(value, /[\n,]+/);
}

/** The create body without the webhook (which the registration adds). Throws on a broken field. */
export function monitorCreateBody(node: INode, fields: MonitorFields): IDataObject {
	const name = checkName(node, fields.name, undefined, 'Monitor Name');

	const urls = splitUrls(fields.urls);
	if (urls.length === 0) throw invalid(node, 'URLs', fields.urls, 'give at least one page to watch');
	const bad = urls.find((u) => !isHttpUrl(u));
	if (bad !== undefined) throw invalid(node, 'URLs', bad, 'each URL must be an absolute http or https address');

	const useCron = fields.scheduleType === 'cron';
	const schedule = buildSchedule(
		node,
		{
			cron: useCron ? (fields.cron ?? '') : undefined,
			text: useCron ? undefined : (fields.scheduleText ?? ''),
			timezone: String(fields.timezone ?? '').trim() || 'UTC',
		},
		undefined,
		LABELS,
	);

	const body: IDataObject = { name, schedule, targets: [{ type: 'scrape', urls }] };
	const goal = checkGoal(node, fields.goal, undefined, 'Goal');
	if (goal !== '') body.goal = goal;
	return body;
}
