// Room helpers/: small, general pieces with no concern of their own (items and pairing, the pool,
// plain-object checks, validation messages, shared types, multipart bodies, the host n8n's engine
// line). It may import transport/ and n8n-workflow only. Layout: nodes/README.md.

import * as n8nWorkflow from 'n8n-workflow';

/** Whether the host n8n is 2.27 or later, read from a sign in n8n-workflow (`lib`; tests pass another): nodes/FACTS.md "n8n engine lines". */
export function isN8n227OrLater(lib: object = n8nWorkflow): boolean {
	return typeof (lib as { policyToChannels?: unknown }).policyToChannels === 'function';
}
