import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { isUuid } from '../WebData/helpers/validation';
import { STATUS_ONLY_LIMIT } from '../WebData/fields/serverRules';
import { apiRequest, defaultDeps, type TransportDeps } from '../WebData/transport';
import { jobEndAnnouncement, jobEndOf, type Envelope, type JobEnd } from './delivery';

/**
 * The service waits about 10 s for a delivery's answer (one attempt, api-facts "Read in the
 * server's code"), and n8n answers only after this node returns: the read gets two short attempts.
 */
const READ_TIMEOUT_MS = 3500;
const READ_DEPS: TransportDeps = { ...defaultDeps, maxAttempts: 2, budgetMs: 7000 };

/**
 * The real end of the crawl, batch scrape or agent run a `<prefix>.completed|failed|cancelled`
 * delivery speaks of: ONE status read through the credential. A crawl / batch: `?limit=1`
 * (STATUS_ONLY_LIMIT: at most one document; never 0, which some server builds read as "all", see
 * nodes/FACTS.md "Job status pages"); an agent: GET /v2/agent/{id} (status processing|completed|failed). The
 * open-source server announces every crawl / batch end as completed (success true, data []) after
 * marking the job finished, so the read says whether it completed, failed or was cancelled.
 */
export async function readJobEnd(ctx: IWebhookFunctions, envelope: Envelope): Promise<JobEnd> {
	const end = jobEndAnnouncement(envelope.type);
	const id = envelope.id ?? (envelope as { jobId?: unknown }).jobId;
	if (!end) return { readError: 'not a crawl, batch scrape or agent end event' };
	if (!isUuid(id)) return { readError: 'the delivery has no job ID to read' };
	// An agent's status (GET /v2/agent/{id}) has no pages to limit.
	const path = end.prefix === 'crawl' ? `/crawl/${id}` : end.prefix === 'batch_scrape' ? `/batch/scrape/${id}` : `/agent/${id}`;
	const qs = end.prefix === 'agent' ? undefined : { limit: STATUS_ONLY_LIMIT };
	try {
		const body = await apiRequest<IDataObject>(ctx, { method: 'GET', path, qs, timeoutMs: READ_TIMEOUT_MS }, READ_DEPS);
		return jobEndOf(body);
	} catch (error) {
		return { readError: (error as Error).message };
	}
}
