import type { IDataObject, INode } from 'n8n-workflow';

import { invalid } from '../WebData/helpers/validation';

/**
 * The monitor the trigger creates in "Create a Monitor for This Workflow" mode (spec 2.9, 4.2;
 * api-facts 2), checked against the documented limits before anything is sent.
 *
 * A small local equivalent of the Monitor resource's create-body helpers: the trigger needs only
 * name, URLs (one scrape target), schedule and goal.
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

const MAX_NAME = 256;
const MAX_GOAL = 2000;
const MAX_SCHEDULE = 128;

/** URLs from a comma/new-line separated text, or from a list an expression gave. */
export function splitUrls(value: unknown): string[] {
	const parts = Array.isArray(value) ? value.map((v) => String(v)) : String(value ?? '').split(/[\n,]+/);
	return parts.map((u) => u.trim()).filter((u) => u !== '');
}

function isHttpUrl(value: string): boolean {
	try {
		const url = new URL(value);
		return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
	} catch {
		return false;
	}
}

function isTimeZone(value: string): boolean {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: value });
		return true;
	} catch {
		return false;
	}
}

/** The create body without the webhook (which the registration adds). Throws on a broken field. */
export function monitorCreateBody(node: INode, fields: MonitorFields): IDataObject {
	const name = String(fields.name ?? '').trim();
	if (name === '' || name.length > MAX_NAME) {
		throw invalid(node, 'Monitor Name', fields.name, `it must have 1 to ${MAX_NAME} characters`);
	}

	const urls = splitUrls(fields.urls);
	if (urls.length === 0) throw invalid(node, 'URLs', fields.urls, 'give at least one page to watch');
	const bad = urls.find((u) => !isHttpUrl(u));
	if (bad !== undefined) throw invalid(node, 'URLs', bad, 'each URL must be an absolute http or https address');

	const schedule: IDataObject = {};
	if (fields.scheduleType === 'cron') {
		const cron = String(fields.cron ?? '').trim().replace(/\s+/g, ' ');
		if (cron === '' || cron.length > MAX_SCHEDULE || cron.split(' ').length !== 5) {
			throw invalid(node, 'Cron Expression', fields.cron, `it must have the 5 fields minute hour day month weekday (at most ${MAX_SCHEDULE} characters), e.g. "*/30 * * * *"`);
		}
		schedule.cron = cron;
	} else {
		const text = String(fields.scheduleText ?? '').trim();
		if (text === '' || text.length > MAX_SCHEDULE) {
			throw invalid(node, 'Schedule', fields.scheduleText, `describe it in at most ${MAX_SCHEDULE} characters, e.g. "every 30 minutes", "hourly" or "daily at 9:00"`);
		}
		schedule.text = text;
	}
	const timezone = String(fields.timezone ?? '').trim() || 'UTC';
	if (!isTimeZone(timezone)) {
		throw invalid(node, 'Timezone', fields.timezone, 'it must be an IANA time zone such as "UTC", "Europe/Berlin" or "America/New_York"');
	}
	schedule.timezone = timezone;

	const body: IDataObject = { name, schedule, targets: [{ type: 'scrape', urls }] };
	const goal = String(fields.goal ?? '').trim();
	if (goal.length > MAX_GOAL) throw invalid(node, 'Goal', fields.goal, `it may have at most ${MAX_GOAL} characters`);
	if (goal !== '') body.goal = goal;
	return body;
}
