import { NodeOperationError } from 'n8n-workflow';
import type {
	ExecutionError,
	IDataObject,
	IExecuteData,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import type { RunContext } from '../../helpers/types';
import { derivedToken, type HeaderBag, verifyDelivery, type WebhookRequest, type WebhookResponse } from '../../helpers/signature';
import { invalid, isUuid } from '../../helpers/validation';
import type { OnTimeout } from '../../helpers/wait';
import { normalizeBaseUrl } from '../../transport';
import { getAgentJob } from './get';
import { classifyRun, isUnsuccessful, runFacts, unsuccessfulRunError } from './outcome';
import { startAgentRun } from './startRequest';

/**
 * Agent → Run and Wait with Wait Method "Resume on Completion Webhook".
 *
 * How n8n 2.x waits and resumes (read from its engine, and proven by the e2e suite):
 *  - the node puts the execution to wait (`putExecutionToWait(date)`); n8n saves it to the database
 *    with the node's stack entry and frees the worker;
 *  - a POST to the execution's resume URL (`$execution.resumeUrl`, which carries n8n's own
 *    per-execution `signature` token, checked by n8n) runs this node's `webhook()`. When it returns
 *    `workflowData`, n8n resumes the execution and those items become the node's output; the node's
 *    `execute()` does NOT run again (n8n marks the node disabled and passes the data through). When
 *    it returns no `workflowData`, nothing resumes and the execution keeps waiting;
 *  - when the wait time passes without a call, n8n resumes the execution and the node passes its
 *    stack entry's input through, again without running node code. If the stack entry carries
 *    `metadata.resumeError`, the node fails with that error instead (n8n's own mechanism for errors
 *    that must surface on resume).
 * So the node prepares, before it waits, what Max Wait expiry gives: the stack entry's data is a
 * "timed out" item (On Timeout "Return Last Status"), plus a resumeError for On Timeout "Fail". The
 * webhook() verifies the delivery, reads the run once, and sets the result (or, for an unsuccessful
 * run with "Stop With Error", the error) in its place.
 */

export const WAIT_METHOD_POLL = 'poll';
export const WAIT_METHOD_WEBHOOK = 'completionWebhook';

/** Header the service sends back with every delivery (the webhook's `headers`): the per-execution token. */
export const RESUME_TOKEN_HEADER = 'X-WebData-Resume-Token';
/** The agent webhook events asked for (short names of the webhook config, api-facts 3). */
export const RESUME_EVENTS = ['completed', 'failed', 'cancelled'];
/** Delivery types that end a run (api-facts 3). */
export const END_EVENT_TYPES = ['agent.completed', 'agent.failed', 'agent.cancelled'];

/**
 * The token the service must send back: HMAC-SHA256 keyed with the credential's API key over the
 * execution id and the node. It is never stored, and only the service (which receives it with the
 * webhook config) and this n8n know it; the resume URL alone is not enough to resume.
 */
export function resumeToken(apiKey: string, executionId: string, node: INode): string {
	return derivedToken(apiKey, 'webdata-agent-resume', executionId, node.id ?? node.name);
}

/** Whether a host name is loopback, private, link-local, or a bare name (not reachable from the internet). */
export function isPrivateHost(hostname: string): boolean {
	const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
	if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) return true;
	const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
	if (v4) {
		const [a, b] = [Number(v4[1]), Number(v4[2])];
		return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
	}
	if (host.includes(':')) {
		return host === '::1' || host === '::' || /^f[cd]/.test(host) || /^fe[89ab]/.test(host) || host.startsWith('::ffff:127.') || host.startsWith('::ffff:10.') || host.startsWith('::ffff:192.168.');
	}
	return !host.includes('.'); // a bare name such as "n8n" (a container or LAN name)
}

/** The execution's resume URL, checked: absolute http(s) of a real execution, reachable by the service. */
function readResumeUrl(ctx: IExecuteFunctions, i: number, serviceBaseUrl: string): string {
	const node = ctx.getNode();
	const raw = ctx.evaluateExpression('{{ $execution.resumeUrl }}', i);
	const text = typeof raw === 'string' ? raw : '';
	let url: URL | undefined;
	try {
		url = new URL(text);
	} catch {
		url = undefined;
	}
	const executionId = ctx.getExecutionId();
	if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !executionId || text.includes('__UNKNOWN__')) {
		throw new NodeOperationError(node, 'n8n gave this execution no usable resume URL, so "Resume on Completion Webhook" cannot be used here', {
			itemIndex: i,
			description: `The resume URL was ${JSON.stringify(text)}. This happens when the node does not run as a saved workflow's step (for example as an AI tool). Set Wait Method to "Poll". Nothing was sent to the service.`,
		});
	}
	let service: URL | undefined;
	try {
		service = new URL(serviceBaseUrl);
	} catch {
		service = undefined;
	}
	if (service && !isPrivateHost(service.hostname) && isPrivateHost(url.hostname)) {
		throw new NodeOperationError(node, `The service cannot reach this n8n: the resume URL points to "${url.hostname}", which is not reachable from the internet`, {
			itemIndex: i,
			description: `The completion webhook is sent by ${service.origin} to ${url.origin}${url.pathname}. Set n8n's WEBHOOK_URL to the public address of this n8n (the one the service can reach), or set Wait Method to "Poll". Nothing was sent to the service.`,
		});
	}
	return text;
}

/** What the execution holds while it waits: the node's stack entry (n8n's own, saved with the execution). */
function stackEntryForWait(ctx: IExecuteFunctions, i: number): IExecuteData {
	const entry = typeof ctx.getExecuteData === 'function' ? ctx.getExecuteData() : undefined;
	if (!entry || typeof entry !== 'object' || !entry.data) {
		throw new NodeOperationError(ctx.getNode(), 'This execution cannot be paused here, so "Resume on Completion Webhook" cannot be used', {
			itemIndex: i,
			description: 'n8n gives no execution state to this node run (for example when it runs as an AI tool). Set Wait Method to "Poll". Nothing was sent to the service.',
		});
	}
	return entry;
}

export interface ResumeRunParameters {
	body: IDataObject;
	maxWaitMs: number;
	onTimeout: OnTimeout;
}

/**
 * Starts the run with its webhook aimed at this execution's resume URL, prepares what Max Wait
 * expiry gives, and puts the execution to wait. One input item per execution.
 */
export async function startAndWaitForWebhook(
	ctx: IExecuteFunctions,
	i: number,
	run: RunContext | undefined,
	params: ResumeRunParameters,
): Promise<INodeExecutionData[]> {
	const node = ctx.getNode();
	const count = ctx.getInputData().length;
	if (count > 1) {
		throw new NodeOperationError(node, `"Resume on Completion Webhook" waits for one agent run per execution, but ${count} items came in`, {
			itemIndex: i,
			description:
				'An execution has one resume URL, so only one run can resume it. Put a "Loop Over Items" node (batch size 1) before this node, or call a sub-workflow per item, or set Wait Method to "Poll" (it runs several items at once). Nothing was sent to the service.',
		});
	}
	if (params.onTimeout === 'cancelAndFail') {
		throw invalid(
			node,
			'On Timeout',
			'Cancel the Run and Fail',
			'it cannot be used with Wait Method "Resume on Completion Webhook": when Max Wait passes, n8n resumes the execution without running node code, so nothing could cancel the run then. Choose "Fail" or "Return Last Status", or Wait Method "Poll"',
			i,
		);
	}
	const entry = stackEntryForWait(ctx, i);
	const credentials = await ctx.getCredentials('webDataApi', i);
	const resumeUrl = readResumeUrl(ctx, i, normalizeBaseUrl(credentials.baseUrl));
	const token = resumeToken(String(credentials.apiKey ?? ''), String(ctx.getExecutionId()), node);

	const body: IDataObject = {
		...params.body,
		webhook: { url: resumeUrl, headers: { [RESUME_TOKEN_HEADER]: token }, events: [...RESUME_EVENTS] },
	};
	const startedAt = Date.now();
	const started = await startAgentRun(ctx, body, i, run);
	const jobId = String(started.id);
	const waitTill = new Date(startedAt + params.maxWaitMs);
	const seconds = Math.round(params.maxWaitMs / 1000);

	// What n8n passes on if Max Wait passes without a delivery (no node code runs then).
	const timedOut: IDataObject = {
		id: jobId,
		status: 'processing',
		timedOut: true,
		waitMethod: WAIT_METHOD_WEBHOOK,
		waitedUntil: waitTill.toISOString(),
		message: `No completion webhook arrived within Max Wait (${seconds} s). "status" is the run's state when the wait began; the run may still be going: read it with Agent → Get (Job ID ${jobId}).`,
	};
	entry.data = { main: [[{ json: timedOut, pairedItem: { item: i } }]] };
	if (params.onTimeout === 'fail') {
		const error = new NodeOperationError(node, `The agent run did not send its completion webhook within Max Wait (${seconds} s)`, {
			itemIndex: i,
			description: `The run may still be going: read its result later with Agent → Get (Job ID ${jobId}), raise Max Wait, or set On Timeout to "Return Last Status". If runs finish but never resume this execution, the service cannot reach n8n's resume URL: check WEBHOOK_URL.`,
		});
		error.context.jobId = jobId;
		ctx.setMetadata({ resumeError: error as unknown as ExecutionError });
	}
	await ctx.putExecutionToWait(waitTill);
	return [{ json: { id: jobId, status: 'processing', waitMethod: WAIT_METHOD_WEBHOOK, waitingUntil: waitTill.toISOString() } }];
}

// ---- the resume call ----------------------------------------------------------------------------

function refuse(ctx: IWebhookFunctions, status: number, message: string): IWebhookResponseData {
	const res = ctx.getResponseObject() as unknown as WebhookResponse;
	res.status(status).json({ success: false, error: message });
	return { noWebhookResponse: true };
}

/**
 * The waiting node's stack entry. n8n hands webhook() no public way to it, so it is taken from the
 * context's execution state (n8n-core's WebhookContext keeps it as `executeData`, the first entry of
 * the execution's `nodeExecutionStack`). Only an entry of this node is used.
 */
export function waitingStackEntry(ctx: IWebhookFunctions): IExecuteData | undefined {
	const inner = ctx as unknown as {
		executeData?: IExecuteData;
		runExecutionData?: { executionData?: { nodeExecutionStack?: IExecuteData[] } } | null;
	};
	const name = ctx.getNode().name;
	for (const entry of [inner.executeData, inner.runExecutionData?.executionData?.nodeExecutionStack?.[0]]) {
		if (entry && typeof entry === 'object' && entry.node?.name === name && entry.data && typeof entry.data === 'object') return entry;
	}
	return undefined;
}

/** The delivery's type and run id, from the exact bytes received (or n8n's parsed body). */
export function readEnvelope(rawBody: Buffer | string | undefined, parsed: unknown): { type: string; id: unknown } | undefined {
	let value: unknown = parsed;
	if (rawBody !== undefined && rawBody.length > 0) {
		try {
			value = JSON.parse((typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8')).replace(/^\uFEFF/, ''));
		} catch {
			return undefined;
		}
	}
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
	const { type, id } = value as { type?: unknown; id?: unknown };
	return typeof type === 'string' && type !== '' ? { type, id } : undefined;
}

function continuesWithRegularOutput(node: INode): boolean {
	return node.onError === 'continueRegularOutput' || (node.onError === undefined && node.continueOnFail === true);
}

/**
 * webhook() of the waiting node: a delivery of the run's end resumes the execution with the run
 * read once from GET /v2/agent/{id}. Forged or unusable calls resume nothing:
 *   401 missing/wrong token or signature · 400 not an envelope · 409 nothing waits here ·
 *   502 the run could not be read · 503 the run is not finished yet (the service retries both) ·
 *   200 {ignored} for other events and for deliveries of another run (e.g. a stale one).
 */
export async function resumeWebhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const node = this.getNode();
	const where = { workflowId: this.getWorkflow().id, executionId: this.getExecutionId() };
	const resource = this.getNodeParameter('resource', '');
	const operation = this.getNodeParameter('operation', '');
	const method = this.getNodeParameter('waitMethod', WAIT_METHOD_POLL);
	if (resource !== 'agent' || operation !== 'runAndWait' || method !== WAIT_METHOD_WEBHOOK) {
		return refuse(this, 404, 'This node does not wait for a webhook');
	}

	// 1. Authenticate: the per-execution token, and the signature when the credential has a signing secret.
	let credentials: IDataObject;
	try {
		credentials = await this.getCredentials('webDataApi');
	} catch (error) {
		this.logger.warn(`Web Data "${node.name}" could not read its credential to check a resume call: ${(error as Error).message}`, where);
		return refuse(this, 500, 'The credential could not be read');
	}
	const req = this.getRequestObject() as unknown as WebhookRequest;
	const headers = (req.headers ?? this.getHeaderData()) as HeaderBag;
	const secret = typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret.trim() : '';
	if (secret && req.rawBody === undefined && typeof req.readRawBody === 'function') await req.readRawBody();
	const verdict = verifyDelivery({
		headers,
		rawBody: req.rawBody,
		tokenHeader: RESUME_TOKEN_HEADER,
		expectedToken: resumeToken(String(credentials.apiKey ?? ''), String(this.getExecutionId()), node),
		signingSecret: secret || undefined,
	});
	if (!verdict.ok) {
		this.logger.warn(`Web Data "${node.name}" refused a resume call: ${verdict.reason}`, where);
		return refuse(this, 401, 'Unauthorized');
	}

	// 2. The delivery.
	const envelope = readEnvelope(req.rawBody, req.body ?? this.getBodyData());
	if (!envelope) return refuse(this, 400, 'The body must be a JSON webhook envelope with a "type"');
	if (!END_EVENT_TYPES.includes(envelope.type)) {
		return { webhookResponse: { received: true, ignored: `"${envelope.type}" does not end the run` } };
	}
	const entry = waitingStackEntry(this);
	const waitingFor = entry?.data?.main?.[0]?.[0]?.json?.id;
	if (!entry || typeof waitingFor !== 'string') {
		this.logger.warn(`Web Data "${node.name}" got a resume call but found no waiting agent run in the execution`, where);
		return refuse(this, 409, 'No agent run waits in this execution');
	}
	if (!isUuid(envelope.id) || envelope.id !== waitingFor) {
		return { webhookResponse: { received: true, ignored: 'the delivery is about another run' } };
	}

	// 3. Read the run once: the delivery says it ended; the status holds the result.
	let job: IDataObject;
	try {
		job = await getAgentJob(this, waitingFor, 0);
	} catch (error) {
		this.logger.warn(`Web Data "${node.name}" could not read agent run ${waitingFor} on its completion webhook: ${(error as Error).message}`, where);
		return refuse(this, 502, 'The run could not be read; send the delivery again later');
	}
	const outcome = classifyRun(job);
	if (outcome === 'running') return refuse(this, 503, 'The run has not finished yet; send the delivery again later');

	// 4. The node's output, or its error (n8n fails the resumed node with metadata.resumeError).
	const metadata = { ...(entry.metadata ?? {}) };
	delete metadata.resumeError;
	let json: IDataObject = job;
	const onUnsuccessful = this.getNodeParameter('onUnsuccessful', 'error');
	if (isUnsuccessful(outcome) && onUnsuccessful !== 'outputItem') {
		const options = this.getNodeParameter('options', {}) as IDataObject;
		const maxCredits = typeof options.maxCredits === 'number' ? options.maxCredits : undefined;
		const error = unsuccessfulRunError(node, job, outcome, 0, maxCredits);
		if (continuesWithRegularOutput(node)) {
			json = { error: error.message, ...(error.description ? { description: error.description } : {}), ...runFacts(job) };
		} else {
			metadata.resumeError = error as unknown as ExecutionError;
		}
	}
	entry.metadata = metadata;
	return { workflowData: [[{ json, pairedItem: { item: 0 } }]], webhookResponse: { received: true } };
}
