import { aiValue } from '../../tool/fromAi';

export const MONITOR_FROM_AI = { monitorId: aiValue('monitorId', 'The id of the page monitor (a UUID), as the list of monitors shows it') };

export const CHECK_FROM_AI = { checkId: aiValue('checkId', 'The id of the check (a UUID), as the list of checks of the monitor shows it') };

/** n8n 1.x cannot hide an operation from the tool variant (FACTS.md). */
export const NOT_FOR_MODEL = 'Not for a model to choose: the workflow\'s author set this up in the node, and the model gives no arguments.';
