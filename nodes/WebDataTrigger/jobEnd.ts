import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { isUuid } from '../WebData/helpers/validation';
import { STATUS_ONLY_LIMIT } from '../WebData/fields/serverRules';
import { apiRequest, defaultDeps, type TransportDeps } from '../WebData/transport';
import { END_EVENT_KINDS, jobEndAnnouncement, jobEndOf, type Envelope, type JobEnd } from './delivery';

/** Short reads: the service waits about 10 s for the answer (nodes/FACTS.md "Webhook deliveries"). */
const READ_TIMEOUT_MS = 3500;
const READ_DEPS: TransportDeps = { ...defaultDeps, maxAttempts: 2, budgetMs: 4000 };
const READ_WINDOW_MS = 7000;
const READ_AGAIN_MS = 1500;

const isEnd = (end: JobEnd): boolean => 'status' in end && END_EVENT_KINDS.includes(end.status);

/** The real end of an announced job end, from its status (FACTS.md "Webhook deliveries"); read again while unconfirmed. */
export async function readJobEnd(ctx: IWebhookFunctions, envelope: Envelope, deps: TransportDeps = READ_DEPS): Promise<JobEnd> {
	const end = jobEndAnnouncement(envelope.type);
	const id = envelope.id ?? (envelope as { jobId?: unknown }).jobId;
	if (!end) return { readError: 'not a crawl, batch scrape or agent end event' };
	if (!isUuid(id)) return { readError: 'the delivery has no job ID to read' };
	// An agent's status (GET /v2/agent/{id}) has no pages to limit.
	const path = end.prefix === 'crawl' ? `/crawl/${id}` : end.prefix === 'batch_scrape' ? `/batch/scrape/${id}` : `/agent/${id}`;
	const qs = end.prefix === 'agent' ? undefined : { limit: STATUS_ONLY_LIMIT };
	const until = deps.now() + READ_WINDOW_MS;
	for (;;) {
		const read = await apiRequest<IDataObject>(ctx, { method: 'GET', path, qs, timeoutMs: READ_TIMEOUT_MS }, deps).then(
			(body) => jobEndOf(body),
			(error: unknown): JobEnd => ({ readError: (error as Error).message }),
		);
		if (isEnd(read) || deps.now() + READ_AGAIN_MS >= until) return read;
		await deps.sleep(READ_AGAIN_MS);
	}
}
