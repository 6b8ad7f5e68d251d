// Room helpers/: small, general pieces with no concern of their own (items and pairing, the pool,
// plain-object checks, validation messages, shared types, multipart bodies, the host n8n's engine
// line). It may import transport/ and n8n-workflow only. Layout: nodes/README.md.

import * as n8nWorkflow from 'n8n-workflow';

/**
 * Whether the n8n running this package is 2.27 or later. Two engine features the package relies on
 * arrived in n8n 2.25–2.27 and are missing on n8n 1.x (the oldest supported line, 1.123) and early 2.x:
 *  - a resumed node fails when its stack entry carries `metadata.resumeError` (n8n-core 2.27);
 *  - an AI Agent's tool whose node throws is answered to the model as `[{"error": <message>}]`
 *    and the agent goes on (n8n-core 2.25); before, the whole execution fails (Agent 3) or the
 *    model gets an empty result (Agent 2.2).
 * A node sees no n8n version, so a sign is read: n8n-workflow 2.27 (the release whose task metadata
 * types `resumeError`) is also the first to export `policyToChannels`. Read in the published
 * packages: n8n-core 1.122, 2.0, 2.16, 2.20, 2.23, 2.25 have no resumeError, n8n-workflow 1.120 and
 * 2.25 no policyToChannels; n8n-core 2.27.3, 2.30, 2.36, 2.41 and n8n-workflow 2.27.2, 2.41 have both.
 * `lib` is n8n-workflow as the host loads it (tests pass another).
 */
export function isN8n227OrLater(lib: object = n8nWorkflow): boolean {
	return typeof (lib as { policyToChannels?: unknown }).policyToChannels === 'function';
}
