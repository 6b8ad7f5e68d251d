import * as n8nWorkflow from 'n8n-workflow';

/** Whether the host n8n is 2.27 or later, read from a sign in n8n-workflow (`lib`; tests pass another): nodes/FACTS.md "n8n engine lines". */
export function isN8n227OrLater(lib: object = n8nWorkflow): boolean {
	return typeof (lib as { policyToChannels?: unknown }).policyToChannels === 'function';
}
