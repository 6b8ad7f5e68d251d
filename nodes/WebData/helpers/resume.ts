import { NodeOperationError } from 'n8n-workflow';
import type {
	ExecutionError,
	IDataObject,
	IExecuteData,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeProperties,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { normalizeBaseUrl } from '../transport';
import { failOnResumeWithoutResumeError, refuseTimeoutFailWithoutResumeError } from './resumeCompat';
import { derivedToken, type HeaderBag, verifyDelivery, type WebhookRequest, type WebhookResponse } from './signature';
import { invalid, isUuid } from './validation';
import type { OnTimeout } from './wait';

/**
 * Run and Wait with Wait Method "Resume on Completion Webhook": ONE mechanism for every job that
 * ends with a webhook (Agent runs, Crawl and Batch Scrape jobs). A job kind plugs in a
 * CompletionWaiter (its events, and how to read the ended job once); everything else is here.
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
 * So the node prepares, before it waits, what Max Wait expiry gives: the stack entry's data is the
 * "timed out" item (On Timeout "Return Last Status"), plus a resumeError for On Timeout "Fail". The
 * webhook() verifies the delivery, reads the job once, and sets the result (or the job's error) in
 * its place.
 */

export const WAIT_METHOD_POLL = 'poll';
export const WAIT_METHOD_WEBHOOK = 'completionWebhook';

/** Header the service sends back with every delivery (the webhook's `headers`): the per-execution token. */
export const RESUME_TOKEN_HEADER = 'X-WebData-Resume-Token';

/**
 * The token the service must send back: HMAC-SHA256 keyed with the credential's API key over the
 * execution id and the node. It is never stored, and only the service (which receives it with the
 * webhook config) and this n8n know it; the resume URL alone is not enough to resume. (The purpose
 * string names the agent because Agent had it first; it stays so executions that already wait keep
 * their token. It binds the execution and the node, whatever job the node waits for.)
 */
export function resumeToken(apiKey: string, executionId: string, node: INode): string {
	return derivedToken(apiKey, 'webdata-agent-resume', executionId, node.id ?? node.name);
}

/** What the resume of one job kind needs to know (agent runs, crawls, batch scrapes). */
export interface CompletionWaiter {
	/** The job in messages: "agent run", "crawl", "batch scrape". */
	noun: string;
	/** The noun of its On Timeout field (onTimeoutField): "run", "crawl", "batch scrape". */
	fieldNoun: string;
	/** The operation that reads the job later, for messages: "Agent → Get". */
	readOperation: string;
	/** The status a running job reports (the timed-out item's status): "processing", "scraping". */
	runningStatus: string;
	/** Short event names the webhook config asks for: only those that end the job. */
	events: string[];
	/** Delivery `type`s that end the job; any other type is answered 200 "ignored". */
	endEventTypes: string[];
	/**
	 * Reads the ended job once (from the webhook) and gives the node's output: its items (paired to
	 * the input items), or its error, or `running` when the job has not ended yet (answered 503, so
	 * the service sends the delivery again). `entry` is the waiting node's stack entry.
	 */
	resume(ctx: IWebhookFunctions, jobId: string, entry: IExecuteData): Promise<ResumeRead>;
}

export type ResumeRead =
	| { running: true }
	| { running?: false; items: INodeExecutionData[]; error?: NodeOperationError; errorFacts?: IDataObject; pairedItem?: INodeExecutionData['pairedItem'] };

/** The Wait Method field of a Run and Wait operation, and its notice (`noun`: "run", "crawl", "batch scrape"). */
export function waitMethodFields(noun: string, oneItem: boolean, notice: string): INodeProperties[] {
	return [
		{
			displayName: 'Wait Method',
			name: 'waitMethod',
			type: 'options',
			noDataExpression: true,
			default: WAIT_METHOD_POLL, // saved workflows without the field keep polling
			description: `How to learn that the ${noun} has finished`,
			options: [
				{
					name: 'Poll',
					value: WAIT_METHOD_POLL,
					description: `Read the ${noun}'s status at a growing interval until it ends. The execution keeps running (and holds an n8n worker) while it waits.`,
				},
				{
					name: 'Resume on Completion Webhook',
					value: WAIT_METHOD_WEBHOOK,
					description: `Pause the execution until the service calls its resume URL when the ${noun} ends: no polling, no worker held, survives n8n restarts. The service must reach n8n's public URL (WEBHOOK_URL)${oneItem ? '. One input item per execution' : ''}.`,
				},
			],
		},
		{
			displayName: notice,
			name: 'completionWebhookNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { waitMethod: [WAIT_METHOD_WEBHOOK] } },
		},
	];
}

/** Wait Method, checked (saved workflows without the field poll). */
export function readWaitMethod(ctx: IExecuteFunctions, i: number): string {
	const value = ctx.getNodeParameter('waitMethod', i, WAIT_METHOD_POLL);
	if (value !== WAIT_METHOD_POLL && value !== WAIT_METHOD_WEBHOOK) {
		throw invalid(ctx.getNode(), 'Wait Method', value, `choose one of ${WAIT_METHOD_POLL}, ${WAIT_METHOD_WEBHOOK}`, i);
	}
	return value;
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

export interface WaitForWebhookParameters {
	waiter: CompletionWaiter;
	maxWaitMs: number;
	onTimeout: OnTimeout;
	/** Whether the job is one input item's (Agent, Crawl): then an execution may have one input item only. */
	oneItemPerExecution: boolean;
	/** Starts the job with this `webhook` config; gives its id. */
	start(webhook: IDataObject): Promise<string>;
	/** Items output before the job's (error items of bad input items under Continue On Fail); kept on resume. */
	carried?: INodeExecutionData[];
	/** pairedItem of the job's items (default: the item being run). */
	pairedItem?: INodeExecutionData['pairedItem'];
	/** Facts the waiter needs on resume, kept with the waiting stack entry (see resumeFacts). */
	keep?: IDataObject;
}

/** Where `keep` is held: a key of the stack entry's metadata, which n8n saves with the waiting execution. */
const KEEP_KEY = 'webDataResume';

/** The facts kept by startAndWaitForWebhook for the resume (`keep`), or an empty object. */
export function resumeFacts(entry: IExecuteData): IDataObject {
	const kept = (entry.metadata as IDataObject | undefined)?.[KEEP_KEY];
	return kept !== null && typeof kept === 'object' && !Array.isArray(kept) ? (kept as IDataObject) : {};
}

/**
 * Starts the job with its webhook aimed at this execution's resume URL, prepares what Max Wait
 * expiry gives, and puts the execution to wait. Call it after every field is checked.
 */
export async function startAndWaitForWebhook(
	ctx: IExecuteFunctions,
	i: number,
	params: WaitForWebhookParameters,
): Promise<INodeExecutionData[]> {
	const node = ctx.getNode();
	const { waiter } = params;
	const count = ctx.getInputData().length;
	if (params.oneItemPerExecution && count > 1) {
		throw new NodeOperationError(node, `"Resume on Completion Webhook" waits for one ${waiter.noun} per execution, but ${count} items came in`, {
			itemIndex: i,
			description:
				'An execution has one resume URL, so only one job can resume it. Put a "Loop Over Items" node (batch size 1) before this node, or call a sub-workflow per item, or set Wait Method to "Poll" (it runs several items at once). Nothing was sent to the service.',
		});
	}
	if (params.onTimeout === 'cancelAndFail') {
		throw invalid(
			node,
			'On Timeout',
			`Cancel the ${waiter.fieldNoun.charAt(0).toUpperCase()}${waiter.fieldNoun.slice(1)} and Fail`,
			`it cannot be used with Wait Method "Resume on Completion Webhook": when Max Wait passes, n8n resumes the execution without running node code, so nothing could cancel the ${waiter.noun} then. Choose "Fail" or "Return Last Status", or Wait Method "Poll"`,
			i,
		);
	}
	if (params.onTimeout === 'fail') refuseTimeoutFailWithoutResumeError(ctx, i, waiter.fieldNoun);
	const entry = stackEntryForWait(ctx, i);
	const credentials = await ctx.getCredentials('webDataApi', i);
	const resumeUrl = readResumeUrl(ctx, i, normalizeBaseUrl(credentials.baseUrl));
	const token = resumeToken(String(credentials.apiKey ?? ''), String(ctx.getExecutionId()), node);

	const startedAt = Date.now();
	const jobId = await params.start({ url: resumeUrl, headers: { [RESUME_TOKEN_HEADER]: token }, events: [...waiter.events] });
	const waitTill = new Date(startedAt + params.maxWaitMs);
	const seconds = Math.round(params.maxWaitMs / 1000);
	const pairedItem = params.pairedItem ?? { item: i };

	// What n8n passes on if Max Wait passes without a delivery (no node code runs then): the carried
	// items, then the job's item. The same fields as the poll's "Return Last Status" item.
	const timedOut: IDataObject = {
		id: jobId,
		status: waiter.runningStatus,
		timedOut: true,
		waitMethod: WAIT_METHOD_WEBHOOK,
		waitedUntil: waitTill.toISOString(),
		message: `No completion webhook arrived within Max Wait (${seconds} s). "status" is the ${waiter.noun}'s state when the wait began; it may still be going: read it with ${waiter.readOperation} (ID ${jobId}).`,
	};
	entry.data = { main: [[...(params.carried ?? []), { json: timedOut, pairedItem }]] };
	if (params.keep) entry.metadata = { ...(entry.metadata ?? {}), [KEEP_KEY]: params.keep } as IExecuteData['metadata'];
	if (params.onTimeout === 'fail') {
		const error = new NodeOperationError(node, `The ${waiter.noun} did not send its completion webhook within Max Wait (${seconds} s)`, {
			itemIndex: i,
			description: `It may still be going: read its result later with ${waiter.readOperation} (ID ${jobId}), raise Max Wait, or set On Timeout to "Return Last Status". If jobs finish but never resume this execution, the service cannot reach n8n's resume URL: check WEBHOOK_URL.`,
		});
		error.context.jobId = jobId;
		ctx.setMetadata({ resumeError: error as unknown as ExecutionError });
	}
	await ctx.putExecutionToWait(waitTill);
	return [
		...(params.carried ?? []),
		{ json: { id: jobId, status: waiter.runningStatus, waitMethod: WAIT_METHOD_WEBHOOK, waitingUntil: waitTill.toISOString() }, pairedItem },
	];
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

/** The items of the waiting job's stack entry: the carried items and (last) the job's own item. */
function waitingItems(entry: IExecuteData | undefined): { carried: INodeExecutionData[]; job?: INodeExecutionData } {
	const items = entry?.data?.main?.[0] ?? [];
	return { carried: items.slice(0, -1), job: items.at(-1) ?? undefined };
}

/**
 * webhook() of the waiting node: a delivery of the job's end resumes the execution with the job
 * read once (the waiter says how). Forged or unusable calls resume nothing:
 *   401 missing/wrong token or signature · 400 not an envelope · 409 nothing waits here ·
 *   502 the job could not be read · 503 the job is not finished yet (the service retries both) ·
 *   200 {ignored} for other events and for deliveries of another job (e.g. a stale one).
 * `waiters`: the waiter of each resource whose Run and Wait can wait this way.
 */
export async function resumeWebhook(this: IWebhookFunctions, waiters: Record<string, CompletionWaiter>): Promise<IWebhookResponseData> {
	const node = this.getNode();
	const where = { workflowId: this.getWorkflow().id, executionId: this.getExecutionId() };
	const resource = this.getNodeParameter('resource', '');
	const operation = this.getNodeParameter('operation', '');
	const method = this.getNodeParameter('waitMethod', WAIT_METHOD_POLL);
	const waiter = typeof resource === 'string' && Object.prototype.hasOwnProperty.call(waiters, resource) ? waiters[resource] : undefined;
	if (!waiter || operation !== 'runAndWait' || method !== WAIT_METHOD_WEBHOOK) {
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
	if (!waiter.endEventTypes.includes(envelope.type)) {
		return { webhookResponse: { received: true, ignored: `"${envelope.type}" does not end the ${waiter.noun}` } };
	}
	const entry = waitingStackEntry(this);
	const { carried, job } = waitingItems(entry);
	const waitingFor = job?.json?.id;
	if (!entry || !job || typeof waitingFor !== 'string') {
		this.logger.warn(`Web Data "${node.name}" got a resume call but found no waiting ${waiter.noun} in the execution`, where);
		return refuse(this, 409, `No ${waiter.noun} waits in this execution`);
	}
	if (!isUuid(envelope.id) || envelope.id !== waitingFor) {
		return { webhookResponse: { received: true, ignored: `the delivery is about another ${waiter.noun}` } };
	}

	// 3. Read the job once: the delivery says it ended; its status holds the result.
	let read: ResumeRead;
	try {
		read = await waiter.resume(this, waitingFor, entry);
	} catch (error) {
		this.logger.warn(`Web Data "${node.name}" could not read ${waiter.noun} ${waitingFor} on its completion webhook: ${(error as Error).message}`, where);
		return refuse(this, 502, `The ${waiter.noun} could not be read; send the delivery again later`);
	}
	if (read.running) return refuse(this, 503, `The ${waiter.noun} has not finished yet; send the delivery again later`);

	// 4. The node's output, or its error (n8n fails the resumed node with metadata.resumeError).
	const metadata = { ...(entry.metadata ?? {}) };
	delete metadata.resumeError;
	let items = read.items;
	if (read.error) {
		if (continuesWithRegularOutput(node)) {
			const { error } = read;
			const json = { error: error.message, ...(error.description ? { description: error.description } : {}), ...(read.errorFacts ?? {}) };
			items = [{ json, pairedItem: read.pairedItem ?? job.pairedItem }];
		} else {
			metadata.resumeError = read.error as unknown as ExecutionError;
		}
	}
	entry.metadata = metadata;
	if (metadata.resumeError && read.error) failOnResumeWithoutResumeError(entry, read.error);
	return { workflowData: [[...carried, ...items]], webhookResponse: { received: true } };
}
