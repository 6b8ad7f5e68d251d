import { aiValue } from '../../tool/fromAi';

/** The monitor a model names (required, and empty by default: every node version). */
export const MONITOR_FROM_AI = { monitorId: aiValue('monitorId', 'The id of the page monitor (a UUID), as the list of monitors shows it') };

/** A check of that monitor. */
export const CHECK_FROM_AI = { checkId: aiValue('checkId', 'The id of the check (a UUID), as the list of checks of the monitor shows it') };

/** Monitor administration is the workflow author's: said in the tool's description, since n8n 1.x cannot hide an operation from its tool variant. */
export const NOT_FOR_MODEL = 'Not for a model to choose: the workflow\'s author set this up in the node, and the model gives no arguments.';
