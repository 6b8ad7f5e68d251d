import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { uuidLocator } from '../../fields/fields';
import { invalid, requireUuid } from '../../helpers/validation';
import { aiValue } from '../../tool/fromAi';

export type Target = 'session' | 'scrapeJob';

/** Where Execute and Stop act: a session of Start Session, or the browser of an earlier scrape. */
export const targetField: INodeProperties = {
	displayName: 'Browser',
	name: 'target',
	type: 'options',
	noDataExpression: true,
	default: 'session',
	options: [
		{
			name: 'Interact Session',
			value: 'session',
			description: 'A browser session opened with Start Session',
		},
		{
			name: 'Scraped Page',
			value: 'scrapeJob',
			description:
				'The browser of an earlier scrape, at the state the scrape left the page in (the first call opens it)',
		},
	],
};

export const sessionIdField: INodeProperties = {
	...uuidLocator({
		displayName: 'Session ID',
		name: 'sessionId',
		idLabel: 'Session ID',
		description: 'The session to use: pick an active one, or the "id" in the output of Start Session',
		searchListMethod: 'searchInteractSessions',
		searchable: true,
	}),
	displayOptions: { show: { target: ['session'] } },
};

export const scrapeJobIdField: INodeProperties = {
	// The service offers no list of scrape jobs to pick from: By ID only.
	...uuidLocator({
		displayName: 'Scrape ID',
		name: 'scrapeJobId',
		idLabel: 'Scrape ID',
		description: 'The scrape whose page to use: "metadata.scrapeId" in the output of Scrape → Scrape URL (Output: Full)',
	}),
	displayOptions: { show: { target: ['scrapeJob'] } },
};

export function readTarget(ctx: IExecuteFunctions, i: number): Target {
	const target = ctx.getNodeParameter('target', i, 'session');
	if (target !== 'session' && target !== 'scrapeJob') {
		throw invalid(ctx.getNode(), 'Browser', target, 'one of session, scrapeJob', i);
	}
	return target;
}

/** The session or scrape ID of the target, checked to be a UUID before anything is sent. */
export function readTargetId(ctx: IExecuteFunctions, target: Target, i: number): string {
	if (target === 'session') {
		return requireUuid(ctx.getNode(), 'Session ID', ctx.getNodeParameter('sessionId', i, '', { extractValue: true }), i);
	}
	return requireUuid(ctx.getNode(), 'Scrape ID', ctx.getNodeParameter('scrapeJobId', i, '', { extractValue: true }), i);
}

/** An optional whole number within a range, from an options collection; undefined when not set. */
export function optionalInteger(
	ctx: IExecuteFunctions,
	field: string,
	value: unknown,
	min: number,
	max: number,
	unit: string,
	i: number,
): number | undefined {
	if (value === undefined || value === null || value === '') return undefined;
	const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) {
		throw invalid(ctx.getNode(), field, value, `it must be a whole number of ${unit} from ${min} to ${max}`, i);
	}
	return n;
}

/** Hints for a standalone session (POST/DELETE /v2/interact…). */
export const SESSION_HINTS: Record<string, string> = {
	'404':
		'No interact session has this ID for your team. Use the "id" from Start Session, or find it with Get Many Sessions.',
	'410':
		'The browser session has already ended: it was stopped, or it reached its Time to Live or Idle Timeout. Start a new session.',
	'text:already saving':
		'Another active session is saving to this profile, and only one may save at a time. Stop that session, or turn off "Save Changes to Profile" to load the profile read-only.',
	'409':
		'The session cannot do this in its current state. Stop sessions you no longer need (Interact → Stop Session) and try again.',
	'429':
		'Your team has reached its limit of active browser sessions. Stop sessions you no longer need (Interact → Stop Session, see Get Many Sessions) and try again.',
	'502': 'The service could not reach the browser of this session. Try again; if it keeps failing, start a new session.',
};

/** Hints for the browser of a scrape job (POST/DELETE /v2/scrape/{jobId}/interact). */
export const SCRAPE_HINTS: Record<string, string> = {
	'text:Browser session not found':
		'This scrape has no open browser session: it was never opened with Execute, or it was already stopped.',
	'404':
		'No scrape job has this ID for your team. Use "metadata.scrapeId" from the output of Scrape → Scrape URL (Output: Full).',
	'text:Invalid job ID': 'The Scrape ID must be a UUID: "metadata.scrapeId" from the output of a scrape.',
	'409':
		'The service cannot reopen the page of this scrape (its replay context is gone). Scrape the page again and use the new "metadata.scrapeId".',
	'410':
		'The browser of this scrape has already been stopped. Scrape the page again to get a new browser, and use its new "metadata.scrapeId".',
	'429':
		'Your team has reached its limit of active browser sessions. Stop sessions you no longer need (Interact → Stop Session) and try again.',
	'502': 'The service could not reach the browser of this scrape. Try again later.',
};

export const TARGET_ID_FROM_AI = {
	sessionId: aiValue('sessionId', 'The id of the browser session (a UUID), from the answer of the tool that started it'),
	scrapeJobId: aiValue('scrapeId', 'The scrape id (a UUID) whose page to use: metadata.scrapeId of an earlier scrape'),
};

/** The Browser choice and its two ID fields, first in Execute and Stop Session. */
export const targetFields: INodeProperties[] = [targetField, sessionIdField, scrapeJobIdField];

/** The key of the browser's ID in an output item: "sessionId" or "scrapeId". */
export function targetIdKey(target: Target): 'sessionId' | 'scrapeId' {
	return target === 'session' ? 'sessionId' : 'scrapeId';
}

/** The hints of the browser's endpoints (a session's, or a scraped page's). */
export function targetHints(target: Target): Record<string, string> {
	return target === 'session' ? SESSION_HINTS : SCRAPE_HINTS;
}
