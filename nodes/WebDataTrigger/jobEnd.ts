import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { isUuid } from '../WebData/helpers/validation';
import { STATUS_ONLY_LIMIT } from '../WebData/fields/serverRules';
import { apiRequest, defaultDeps, type TransportDeps } from '../WebData/transport';
import { jobEndAnnouncement, jobEndOf, type Envelope, type JobEnd } from './delivery';

/** Two short attempts: the service waits about 10 s for the answer (nodes/FACTS.md "Webhook deliveries"). */
const READ_TIMEOUT_MS = 3500;
const READ_DEPS: TransportDeps = { ...defaultDeps, maxAttempts: 2, budgetMs: 7000 };

/**
 * The real end of the job a `<prefix>.completed|failed|cancelled` delivery speaks of: ONE status read
 * (a crawl / batch with STATUS_ONLY_LIMIT), as the server may announce every end as completed
 * (nodes/FACTS.md "Webhook deliveries").
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
