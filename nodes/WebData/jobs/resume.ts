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
import { failOnResumeWithoutResumeError } from './resumeCompat';
import { derivedToken, type HeaderBag, verifyResumeCall, type WebhookRequest, type WebhookResponse } from './signature';
import { invalid, isUuid } from '../helpers/validation';
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
 *  - when the wait time passes without a call, n8n resumes the execution and the FIRST stack entry
 *    (the paused node's) passes its data through, again without running node code; the entries
 *    behind it run as usual. If the paused entry carries `metadata.resumeError`, the node fails
 *    with that error instead.
 * The service sends each webhook once, so a lost one must not cost the whole Max Wait: the node
 * pauses until its next check, with a check entry of itself queued behind the paused (empty) one;
 * when the time comes, the check entry's execute() (continueWaiting) reads the job and outputs its
 * result, or pauses again (see pause and CHECK_SCHEDULE). A delivery resumes at once: webhook()
 * verifies it, reads the job once, puts the result into the paused entry and drops the check.
 */

export const WAIT_METHOD_POLL = 'poll';
export const WAIT_METHOD_WEBHOOK = 'completionWebhook';

/** Header the service sends back with every delivery (the webhook's `headers`): the per-execution token. */
export const RESUME_TOKEN_HEADER = 'X-WebData-Resume-Token';

/** Query parameter of the URL the service delivers to: the same token, for services that do not forward custom headers. */
export const RESUME_TOKEN_QUERY = 'webdataToken';

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
	 * Reads the job once (from the webhook, or from a check while waiting) and gives the node's
	 * output: its items (paired to the input items), or its error, or `running` when the job has not
	 * ended yet. `entry` is the waiting node's stack entry as the waiter knows it: the carried items,
	 * then the job's item ({id} and its pairedItem), and the kept facts in its metadata.
	 */
	resume(ctx: ResumeContext, jobId: string, entry: IExecuteData): Promise<ResumeRead>;
}

/** Where a waiter reads the job: the resume call (webhook()) or a check while waiting (execute()). */
export type ResumeContext = IWebhookFunctions | IExecuteFunctions;

/** A node parameter in either context (the check reads the first item's, as the waiting run did). */
export function resumeParameter(ctx: ResumeContext, name: string, fallback: unknown): unknown {
	return 'getInputData' in ctx ? ctx.getNodeParameter(name, 0, fallback) : ctx.getNodeParameter(name, fallback);
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

// ---- checks while waiting (a lost delivery costs a bounded delay) -------------------------------

/**
 * The service sends each webhook ONCE (no retry in its open-source code), so a lost completion
 * delivery (n8n restarting, a proxy error) must not leave the execution waiting until Max Wait.
 * The waiting execution therefore reads the job itself at sparse, growing intervals:
 *  - the first check 80 s after the start, then every max(80 s, 45 % of the job's age): a 600 s job
 *    is read at 80, 160, 240, 348 and 505 s (5 reads), and a job that ended is noticed at most
 *    max(90 s, half of its run time) after its end (the gap plus up to ~10 s of n8n's own work);
 *  - every wait is at least 60 s, because n8n's wait tracker looks for due executions every 60 s:
 *    a shorter wait could be resumed up to 60 s late, a longer one is resumed on time;
 *  - the last check is at Max Wait, and reads the job once more before On Timeout applies.
 * A delivery that arrives still resumes the execution at once (webhook()).
 */
export const CHECK_SCHEDULE = Object.freeze({ firstMs: 80_000, minGapMs: 80_000, ageShare: 0.45, afterDeliveryMs: 60_000 });

/** When the waiting execution next reads the job: `now` + the gap of CHECK_SCHEDULE, at most `deadline`. */
export function nextCheckAt(startedAt: number, now: number, deadline: number, afterDelivery = false): number {
	const age = Math.max(0, now - startedAt);
	let gap = Math.max(CHECK_SCHEDULE.minGapMs, CHECK_SCHEDULE.ageShare * age);
	if (afterDelivery) gap = Math.min(gap, CHECK_SCHEDULE.afterDeliveryMs);
	return Math.min(deadline, Math.round(now + gap));
}

/** What a waiting Run and Wait keeps (metadata[KEEP_KEY].wait) to check its job and to resume. */
interface WaitState extends IDataObject {
	jobId: string;
	startedAt: number;
	deadline: number;
	onTimeout: OnTimeout;
	carried: INodeExecutionData[];
	pairedItem: INodeExecutionData['pairedItem'];
	/** Status reads made by checks so far. */
	reads: number;
	/** 'check': the stack entry that reads the job when the wait time comes; 'waiting': the paused entry. */
	phase: 'waiting' | 'check';
	/** When a delivery came whose read said "not ended yet" (the check then reads again soon). */
	deliveredAt?: number;
}

function waitState(entry: IExecuteData | undefined): WaitState | undefined {
	const wait = entry ? resumeFacts(entry).wait : undefined;
	if (wait === null || typeof wait !== 'object' || Array.isArray(wait)) return undefined;
	const w = wait as IDataObject;
	return typeof w.jobId === 'string' && typeof w.startedAt === 'number' && typeof w.deadline === 'number' ? (w as WaitState) : undefined;
}

function withWaitState(entry: IExecuteData, state: WaitState): IExecuteData['metadata'] {
	const kept = resumeFacts(entry);
	return { ...(entry.metadata ?? {}), [KEEP_KEY]: { ...kept, wait: state } } as IExecuteData['metadata'];
}

/**
 * n8n's execution stack, where the paused node's entry goes back when it waits. n8n hands a node no
 * public way to it: it is the execute context's execution state (n8n-core's ExecuteContext keeps it
 * as `runExecutionData`). Undefined when it is not there (then no checks are planned).
 */
function executionStack(ctx: IExecuteFunctions): IExecuteData[] | undefined {
	const inner = ctx as unknown as { runExecutionData?: { executionData?: { nodeExecutionStack?: unknown } } | null };
	const stack = inner.runExecutionData?.executionData?.nodeExecutionStack;
	return Array.isArray(stack) ? (stack as IExecuteData[]) : undefined;
}

/** Whether `entry` is a check entry of this node (queued behind the paused entry). */
function isCheckEntry(entry: IExecuteData | undefined, nodeName: string): boolean {
	return entry?.node?.name === nodeName && waitState(entry)?.phase === 'check';
}

/**
 * Pauses the execution until the next check (or Max Wait). How n8n resumes decides the layout:
 * when the wait time comes, n8n marks the FIRST stack entry (the paused node's) disabled and passes
 * its data on, without running node code (n8n-core WorkflowExecute.handleWaitingState). So:
 *  - the paused entry holds no items (`main: []`): when the time comes it passes nothing on;
 *  - a check entry of the same node, with the node's input items, goes right behind it: it runs
 *    next, and its execute() (continueWaiting) reads the job, then outputs the result or pauses again.
 * A delivery resumes the paused entry with the result (n8n puts webhook()'s items into it), and
 * webhook() removes the check entry, so the node outputs once.
 * When the stack is not reachable, the old layout is kept: the paused entry holds what Max Wait
 * expiry gives (the timed-out item, and the error for On Timeout "Fail"), and nothing is checked.
 */
function pause(ctx: IExecuteFunctions, entry: IExecuteData, waiter: CompletionWaiter, state: WaitState, input: IExecuteData['data']): Promise<void> {
	const now = Date.now();
	const stack = executionStack(ctx);
	const node = ctx.getNode();
	if (!stack) return pauseUntilMaxWait(ctx, entry, waiter, state);
	const checkAt = nextCheckAt(state.startedAt, now, state.deadline, state.deliveredAt !== undefined);
	const check: IExecuteData = {
		node: { ...entry.node, disabled: false },
		data: input,
		source: entry.source,
		metadata: withWaitState(entry, { ...state, phase: 'check', deliveredAt: undefined }),
	};
	delete (check.metadata as IDataObject).resumeError;
	stack.unshift(check); // n8n puts the paused entry in front of it
	entry.data = { main: [] };
	entry.metadata = withWaitState(entry, { ...state, phase: 'waiting', deliveredAt: undefined });
	delete (entry.metadata as IDataObject).resumeError;
	// "Always Output Data" would turn the empty pass-through into an item: the check outputs instead.
	if (entry.node.alwaysOutputData === true) entry.node = { ...entry.node, alwaysOutputData: false };
	ctx.logger?.debug?.(`Web Data "${node.name}" waits for ${waiter.noun} ${state.jobId}; next check ${new Date(checkAt).toISOString()}`);
	return ctx.putExecutionToWait(new Date(checkAt));
}

/** The old layout (no checks): the paused entry holds what Max Wait expiry gives. */
async function pauseUntilMaxWait(ctx: IExecuteFunctions, entry: IExecuteData, waiter: CompletionWaiter, state: WaitState): Promise<void> {
	entry.data = { main: [[...state.carried, { json: timedOutJson(waiter, state, undefined), pairedItem: state.pairedItem }]] };
	entry.metadata = withWaitState(entry, { ...state, phase: 'waiting' });
	if (state.onTimeout === 'fail') ctx.setMetadata({ resumeError: timeoutError(ctx.getNode(), waiter, state, undefined) as unknown as ExecutionError });
	await ctx.putExecutionToWait(new Date(state.deadline));
}

function maxWaitSeconds(state: WaitState): number {
	return Math.round((state.deadline - state.startedAt) / 1000);
}

/** The On Timeout "Return Last Status" item: `lastRead` is when a check last found the job running. */
function timedOutJson(waiter: CompletionWaiter, state: WaitState, lastRead: number | undefined): IDataObject {
	const seconds = maxWaitSeconds(state);
	const id = state.jobId;
	return {
		id,
		status: waiter.runningStatus,
		timedOut: true,
		waitMethod: WAIT_METHOD_WEBHOOK,
		waitedUntil: new Date(state.deadline).toISOString(),
		message:
			lastRead !== undefined
				? `Max Wait (${seconds} s) passed: no completion webhook came, and the status read at ${new Date(lastRead).toISOString()} said the ${waiter.noun} was still going. Read it later with ${waiter.readOperation} (ID ${id}).`
				: `No completion webhook arrived within Max Wait (${seconds} s) and the ${waiter.noun}'s status was not read, so it may well have ended (a webhook can be lost: the service sends it once). Read it with ${waiter.readOperation} (ID ${id}).`,
	};
}

function timeoutError(node: INode, waiter: CompletionWaiter, state: WaitState, lastRead: number | undefined, itemIndex = 0): NodeOperationError {
	const seconds = maxWaitSeconds(state);
	const error = new NodeOperationError(node, `The ${waiter.noun} did not send its completion webhook within Max Wait (${seconds} s)`, {
		itemIndex,
		description:
			lastRead !== undefined
				? `Its status read at ${new Date(lastRead).toISOString()} said it was still going: read its result later with ${waiter.readOperation} (ID ${state.jobId}), raise Max Wait, or set On Timeout to "Return Last Status".`
				: `It may well have ended (the service sends the webhook once, and a lost one is not sent again): read it with ${waiter.readOperation} (ID ${state.jobId}), raise Max Wait, or set On Timeout to "Return Last Status". If jobs finish but never resume this execution, the service cannot reach n8n's resume URL: check WEBHOOK_URL.`,
	});
	error.context.jobId = state.jobId;
	return error;
}

/** The paused entry as the waiters know it: the carried items, then the job's item (its pairedItem). */
function waiterView(entry: IExecuteData, state: WaitState): IExecuteData {
	return { ...entry, data: { main: [[...state.carried, { json: { id: state.jobId }, pairedItem: state.pairedItem }]] } };
}

function continuesWithRegularOutput(node: INode): boolean {
	return node.onError === 'continueRegularOutput' || (node.onError === undefined && node.continueOnFail === true);
}

/**
 * execute() of a check entry (see pause): reads the job once. Ended → the node's output (or its
 * error); still going → pauses until the next check, or at Max Wait follows On Timeout. A read
 * that fails is not an end: the next check reads again. Returns undefined when this node run is
 * not a check (then the operation runs as usual).
 */
export async function continueWaiting(ctx: IExecuteFunctions, waiters: Record<string, CompletionWaiter>): Promise<INodeExecutionData[] | undefined> {
	const entry = typeof ctx.getExecuteData === 'function' ? ctx.getExecuteData() : undefined;
	const state = waitState(entry);
	if (!entry || !state || state.phase !== 'check') return undefined;
	const node = ctx.getNode();
	const resource = ctx.getNodeParameter('resource', 0);
	const waiter = typeof resource === 'string' && Object.prototype.hasOwnProperty.call(waiters, resource) ? waiters[resource] : undefined;
	if (!waiter) throw new NodeOperationError(node, 'This node was resumed to check a job, but its resource has no Run and Wait with a webhook');
	const input = entry.data;
	const now = Date.now();
	const final = now >= state.deadline - 1000;
	let read: ResumeRead | undefined;
	try {
		read = await waiter.resume(ctx, state.jobId, waiterView(entry, state));
	} catch (error) {
		ctx.logger?.warn?.(`Web Data "${node.name}" could not read ${waiter.noun} ${state.jobId} while waiting: ${(error as Error).message}`);
		read = undefined;
	}
	const reads = state.reads + 1;
	if (read && !read.running) {
		if (read.error) {
			if (!continuesWithRegularOutput(node)) throw read.error;
			const { error } = read;
			const json = { error: error.message, ...(error.description ? { description: error.description } : {}), ...(read.errorFacts ?? {}) };
			return [...state.carried, { json, pairedItem: read.pairedItem ?? state.pairedItem }];
		}
		return [...state.carried, ...read.items];
	}
	const lastRead = read ? now : undefined;
	if (final) {
		if (state.onTimeout === 'fail') throw timeoutError(node, waiter, state, lastRead);
		return [...state.carried, { json: timedOutJson(waiter, state, lastRead), pairedItem: state.pairedItem }];
	}
	await pause(ctx, entry, waiter, { ...state, reads, phase: 'waiting' }, input);
	return [...state.carried, { json: waitingJson(waiter, state), pairedItem: state.pairedItem }];
}

/** The item a paused Run and Wait outputs while it waits (seen in the execution's data). */
function waitingJson(waiter: CompletionWaiter, state: WaitState): IDataObject {
	return { id: state.jobId, status: waiter.runningStatus, waitMethod: WAIT_METHOD_WEBHOOK, waitingUntil: new Date(state.deadline).toISOString() };
}

/** The URL the service delivers to: the resume URL with the node's token in it too (for services that drop custom headers). */
function deliveryUrl(resumeUrl: string, token: string): string {
	return `${resumeUrl}${resumeUrl.includes('?') ? '&' : '?'}${RESUME_TOKEN_QUERY}=${token}`;
}

/**
 * Starts the job with its webhook aimed at this execution's resume URL and puts the execution to
 * wait until its first check (see pause). Call it after every field is checked.
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
			`it cannot be used with Wait Method "Resume on Completion Webhook": that wait does not cancel the ${waiter.noun} at Max Wait. Choose "Fail" or "Return Last Status", or Wait Method "Poll"`,
			i,
		);
	}
	const entry = stackEntryForWait(ctx, i);
	const credentials = await ctx.getCredentials('webDataApi', i);
	const resumeUrl = readResumeUrl(ctx, i, normalizeBaseUrl(credentials.baseUrl));
	const token = resumeToken(String(credentials.apiKey ?? ''), String(ctx.getExecutionId()), node);

	const startedAt = Date.now();
	const jobId = await params.start({ url: deliveryUrl(resumeUrl, token), headers: { [RESUME_TOKEN_HEADER]: token }, events: [...waiter.events] });
	const state: WaitState = {
		jobId,
		startedAt,
		deadline: startedAt + params.maxWaitMs,
		onTimeout: params.onTimeout,
		carried: params.carried ?? [],
		pairedItem: params.pairedItem ?? { item: i },
		reads: 0,
		phase: 'waiting',
	};
	const input = entry.data;
	if (params.keep) entry.metadata = { ...(entry.metadata ?? {}), [KEEP_KEY]: { ...params.keep } } as IExecuteData['metadata'];
	await pause(ctx, entry, waiter, state, input);
	return [...state.carried, { json: waitingJson(waiter, state), pairedItem: state.pairedItem }];
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

/** The execution's stack as webhook() sees it (the same state n8n runs on when the call resumes it). */
function webhookStack(ctx: IWebhookFunctions): IExecuteData[] | undefined {
	const inner = ctx as unknown as { runExecutionData?: { executionData?: { nodeExecutionStack?: unknown } } | null };
	const stack = inner.runExecutionData?.executionData?.nodeExecutionStack;
	return Array.isArray(stack) ? (stack as IExecuteData[]) : undefined;
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

/**
 * What the paused entry waits for: its wait state, or (an execution paused by an older version of
 * the package) one made from its prepared items: the carried items and (last) the job's item.
 */
function pausedState(entry: IExecuteData): WaitState | undefined {
	const state = waitState(entry);
	if (state) return state;
	const items = entry.data?.main?.[0] ?? [];
	const job = items.at(-1);
	const id = job?.json?.id;
	if (typeof id !== 'string') return undefined;
	const until = Date.parse(String(job?.json?.waitedUntil ?? ''));
	return {
		jobId: id,
		startedAt: Number.isFinite(until) ? until : Date.now(),
		deadline: Number.isFinite(until) ? until : Date.now(),
		onTimeout: 'returnStatus',
		carried: items.slice(0, -1),
		pairedItem: job?.pairedItem ?? { item: 0 },
		reads: 0,
		phase: 'waiting',
	};
}

/**
 * webhook() of the waiting node: a delivery of the job's end resumes the execution with the job
 * read once (the waiter says how). Forged or unusable calls resume nothing:
 *   401 no valid proof (token in the header or the URL, or signature) · 400 not an envelope ·
 *   409 nothing waits here · 200 {ignored} for other events and deliveries of another job.
 * The service sends a delivery once, so an authentic end delivery is never asked to be sent again:
 * when the job cannot be read or does not read as ended yet, the execution is resumed into its
 * check (which reads again, then waits at most 60 s more), answered 200.
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

	// 1. Authenticate: the per-execution token (header or URL), or the signature with the credential's signing secret.
	let credentials: IDataObject;
	try {
		credentials = await this.getCredentials('webDataApi');
	} catch (error) {
		this.logger.warn(`Web Data "${node.name}" could not read its credential to check a resume call: ${(error as Error).message}`, where);
		return refuse(this, 500, 'The credential could not be read');
	}
	const req = this.getRequestObject() as unknown as WebhookRequest & { query?: Record<string, unknown> };
	const headers = (req.headers ?? this.getHeaderData()) as HeaderBag;
	const secret = typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret.trim() : '';
	if (secret && req.rawBody === undefined && typeof req.readRawBody === 'function') await req.readRawBody();
	const query = (typeof this.getQueryData === 'function' ? this.getQueryData() : req.query) as Record<string, unknown> | undefined;
	const verdict = verifyResumeCall({
		headers,
		query,
		rawBody: req.rawBody,
		tokenHeader: RESUME_TOKEN_HEADER,
		tokenQuery: RESUME_TOKEN_QUERY,
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
	const state = entry ? pausedState(entry) : undefined;
	if (!entry || !state) {
		this.logger.warn(`Web Data "${node.name}" got a resume call but found no waiting ${waiter.noun} in the execution`, where);
		return refuse(this, 409, `No ${waiter.noun} waits in this execution`);
	}
	if (!isUuid(envelope.id) || envelope.id !== state.jobId) {
		return { webhookResponse: { received: true, ignored: `the delivery is about another ${waiter.noun}` } };
	}

	// 3. Read the job once: the delivery says it ended; its status holds the result.
	const stack = webhookStack(this);
	const checkIndex = stack ? stack.findIndex((e, k) => k > 0 && isCheckEntry(e, node.name)) : -1;
	let read: ResumeRead | undefined;
	let problem = '';
	try {
		read = await waiter.resume(this, state.jobId, waiterView(entry, state));
	} catch (error) {
		problem = (error as Error).message;
		this.logger.warn(`Web Data "${node.name}" could not read ${waiter.noun} ${state.jobId} on its completion webhook: ${problem}`, where);
	}
	if (!read || read.running) {
		const why = read ? `the ${waiter.noun} does not read as ended yet` : `the ${waiter.noun} could not be read`;
		if (stack && checkIndex > 0) {
			// Resume into the check: it reads the job again now, then waits at most 60 s more.
			const check = stack[checkIndex];
			const checkState = waitState(check) as WaitState;
			check.metadata = withWaitState(check, { ...checkState, deliveredAt: Date.now() });
			return { workflowData: [], webhookResponse: { received: true, note: `${why}; the execution reads it again now and then within 60 s` } };
		}
		return { webhookResponse: { received: true, note: `${why}; the execution keeps waiting until Max Wait` } };
	}

	// 4. The node's output, or its error (n8n fails the resumed node with metadata.resumeError).
	if (stack && checkIndex > 0) {
		const [check] = stack.splice(checkIndex, 1); // the node outputs once: here, not in a check
		if (check.node?.alwaysOutputData === true) entry.node = { ...entry.node, alwaysOutputData: true };
	}
	const metadata = { ...(entry.metadata ?? {}) };
	delete metadata.resumeError;
	let items = read.items;
	if (read.error) {
		if (continuesWithRegularOutput(node)) {
			const { error } = read;
			const json = { error: error.message, ...(error.description ? { description: error.description } : {}), ...(read.errorFacts ?? {}) };
			items = [{ json, pairedItem: read.pairedItem ?? state.pairedItem }];
		} else {
			metadata.resumeError = read.error as unknown as ExecutionError;
		}
	}
	entry.metadata = metadata;
	if (metadata.resumeError && read.error) failOnResumeWithoutResumeError(entry, read.error);
	return { workflowData: [[...state.carried, ...items]], webhookResponse: { received: true } };
}
