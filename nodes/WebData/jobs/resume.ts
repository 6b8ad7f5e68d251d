import type { CreditBudget } from '../budget';
import { pastBudget, settleEndedJob } from '../budget/jobs';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IExecuteData,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeProperties,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { isN8n227OrLater } from '../helpers/hostEngine';
import { errorOutput, isCancellation } from '../helpers/items';
import { RecentKeys } from '../helpers/recentKeys';
import { normalizeBaseUrl } from '../transport';
import { endsTheWait } from './poller';
import { cancelledError } from '../transport/sleep';
import {
	authenticateDelivery,
	derivedToken,
	type HeaderBag,
	refuse,
	RESUME_TOKEN,
	RESUME_TOKEN_HEADER,
	RESUME_TOKEN_QUERY,
	signingSecret,
	type WebhookRequest,
} from '../../shared/signature';
import { hideSecrets, invalid, isUuid, unreachableByService } from '../helpers/validation';
import type { CompletionWaiter, OnTimeout, ResumeContext, ResumeRead } from '../types';

/** Run and Wait with Wait Method "Resume on Completion Webhook": events only wake, a check entry reads the job (FACTS.md "Resume"). */

export const WAIT_METHOD_POLL = 'poll';
export const WAIT_METHOD_WEBHOOK = 'completionWebhook';

/** Per-execution token the service sends back with every delivery, in the header and the URL. */
export { RESUME_TOKEN_HEADER, RESUME_TOKEN_QUERY };

/** For crawls and batch scrapes too; executions waiting since 1.0.0 hold tokens derived with it, so it stays as it is. */
export const RESUME_TOKEN_PURPOSE = 'webdata-agent-resume';

/** Derived, never stored, so the resume URL alone cannot resume. */
export function resumeToken(apiKey: string, executionId: string, node: INode): string {
	return derivedToken(apiKey, RESUME_TOKEN_PURPOSE, executionId, node.id ?? node.name);
}

export type { CompletionWaiter, ResumeContext, ResumeRead } from '../types';

export function resumeParameter(ctx: ResumeContext, name: string, fallback: unknown): unknown {
	return ctx.getNodeParameter(name, 0, fallback);
}

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

export function readWaitMethod(ctx: IExecuteFunctions, i: number): string {
	const value = ctx.getNodeParameter('waitMethod', i, WAIT_METHOD_POLL);
	if (value !== WAIT_METHOD_POLL && value !== WAIT_METHOD_WEBHOOK) {
		throw invalid(ctx.getNode(), 'Wait Method', value, `choose one of ${WAIT_METHOD_POLL}, ${WAIT_METHOD_WEBHOOK}`, i);
	}
	return value;
}

/** The resume URL, checked to be usable and reachable by the service. */
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
			description: `The resume URL was ${JSON.stringify(hideSecrets(text))}. This happens when the node does not run as a saved workflow's step (for example as an AI tool). Set Wait Method to "Poll". Nothing was sent to the service.`,
		});
	}
	if (unreachableByService(serviceBaseUrl, text)) {
		throw new NodeOperationError(node, `The service cannot reach this n8n: the resume URL points to "${url.hostname}", which is not reachable from the internet`, {
			itemIndex: i,
			description: `The completion webhook is sent by ${new URL(serviceBaseUrl).origin} to ${url.origin}${url.pathname}. Set n8n's WEBHOOK_URL to the public address of this n8n (the one the service can reach), or set Wait Method to "Poll". Nothing was sent to the service.`,
		});
	}
	return text;
}

function engineStateError(ctx: IExecuteFunctions | IWebhookFunctions, what: string, itemIndex?: number): NodeOperationError {
	return new NodeOperationError(ctx.getNode(), `"Resume on Completion Webhook" cannot pause this execution: ${what}`, {
		...(itemIndex !== undefined ? { itemIndex } : {}),
		description:
			'The node pauses the execution with a check of itself queued behind it, which needs the execution state n8n gives a step of a saved workflow (not an AI tool run or a sub-node), as n8n 1.123 to 2.41 hold it. Set Wait Method to "Poll", or report the n8n version if this is a saved workflow\'s step.',
	});
}

/** No public handle on the stack: FACTS.md "Resume". */
function engineState(ctx: IExecuteFunctions, i?: number): { entry: IExecuteData; stack: IExecuteData[] } {
	const entry = typeof ctx.getExecuteData === 'function' ? ctx.getExecuteData() : undefined;
	if (!entry || typeof entry !== 'object' || !entry.data || entry.node?.name !== ctx.getNode().name) {
		throw engineStateError(ctx, 'n8n gives this node run no stack entry of its own', i);
	}
	const inner = ctx as unknown as { runExecutionData?: { executionData?: { nodeExecutionStack?: unknown } } | null };
	const stack = inner.runExecutionData?.executionData?.nodeExecutionStack;
	if (!Array.isArray(stack)) throw engineStateError(ctx, 'n8n gives this node run no execution stack', i);
	if (stack.includes(entry)) throw engineStateError(ctx, 'the running node is still on the execution stack', i);
	return { entry, stack: stack as IExecuteData[] };
}

export interface WaitForWebhookParameters {
	waiter: CompletionWaiter;
	maxWaitMs: number;
	onTimeout: OnTimeout;
	/** Then an execution may have one input item only. */
	oneItemPerExecution: boolean;
	start(webhook: IDataObject): Promise<string>;
	/** Error items of bad input items under Continue On Fail, kept on resume. */
	carried?: INodeExecutionData[];
	pairedItem?: INodeExecutionData['pairedItem'];
	/** Kept with the waiting stack entry (see resumeFacts). */
	keep?: IDataObject;
	/** The run's credit budget: what it noted for the item (a lowered limit) is told by the resumed items too (issue 35). */
	budget?: CreditBudget;
	leastPerPage?: number;
}

/** n8n saves the stack entry's metadata with the waiting execution. */
const KEEP_KEY = 'webDataResume';

export function resumeFacts(entry: IExecuteData): IDataObject {
	const kept = (entry.metadata as IDataObject | undefined)?.[KEEP_KEY];
	return kept !== null && typeof kept === 'object' && !Array.isArray(kept) ? (kept as IDataObject) : {};
}

/** The service may deliver once, so the execution reads the job itself (FACTS.md "Resume"; `npm run bench:lost-delivery`). */
export const CHECK_SCHEDULE = Object.freeze({ minGapMs: 80_000, ageShare: 0.45, afterDeliveryMs: 60_000 });

/** A delivery this close to a planned check does not wake: it would race n8n's timer (FACTS.md "Resume"). */
export const WAKE_SKIP_MS = 5_000;
/** Before n8n 2.27 a timer armed up to 70 s ahead resumes a woken execution a second time (FACTS.md "Resume"). */
export const WAKE_SKIP_UNGUARDED_MS = 75_000;
/** Deliveries that may wake one wait while its job still runs; later ones leave it to the planned checks. */
export const MAX_WOKEN_READS = 3;

export function wakeSkipMs(lib?: object): number {
	return isN8n227OrLater(lib) ? WAKE_SKIP_MS : WAKE_SKIP_UNGUARDED_MS;
}

/** The resume URL's path suffix: n8n routes a delivery only to the waiting node whose webhook path it names. */
export function resumeSuffix(node: INode): string {
	return `webdata-${String(node.id)}`;
}

export function nextCheckAt(startedAt: number, now: number, deadline: number, afterDelivery = false): number {
	const age = Math.max(0, now - startedAt);
	let gap = Math.max(CHECK_SCHEDULE.minGapMs, CHECK_SCHEDULE.ageShare * age);
	if (afterDelivery) gap = Math.min(gap, CHECK_SCHEDULE.afterDeliveryMs);
	return Math.min(deadline, Math.round(now + gap));
}

interface WaitState extends IDataObject {
	jobId: string;
	/** A Retry replays the entry in a new execution, which starts anew. */
	executionId: string;
	startedAt: number;
	deadline: number;
	checkAt: number;
	onTimeout: OnTimeout;
	carried: INodeExecutionData[];
	pairedItem: INodeExecutionData['pairedItem'];
	reads: number;
	/** Checks a delivery woke that found the job still running. */
	wokenReads?: number;
	lastReadAt?: number;
	phase: 'waiting' | 'check';
	/** What the credit budget changed at the start (a lowered Page Limit or Max Credits), for the resumed items. */
	creditNotes?: IDataObject;
	leastPerPage?: number;
}

function waitState(entry: IExecuteData | undefined): WaitState | undefined {
	const wait = entry ? resumeFacts(entry).wait : undefined;
	if (wait === null || typeof wait !== 'object' || Array.isArray(wait)) return undefined;
	const w = wait as IDataObject;
	const numbers = ['startedAt', 'deadline', 'checkAt', 'reads'].every((k) => typeof w[k] === 'number');
	return typeof w.jobId === 'string' && typeof w.executionId === 'string' && numbers ? (w as WaitState) : undefined;
}

function withWaitState(entry: IExecuteData, state: WaitState): IExecuteData['metadata'] {
	const kept = resumeFacts(entry);
	return { ...(entry.metadata ?? {}), [KEEP_KEY]: { ...kept, wait: state } } as IExecuteData['metadata'];
}

/** n8n resumes without running the first entry, so the paused entry holds no items and a check entry goes behind it (FACTS.md "Resume"). */
function pause(ctx: IExecuteFunctions, entry: IExecuteData, stack: IExecuteData[], waiter: CompletionWaiter, state: WaitState, input: IExecuteData['data'], woken: boolean, at?: number): Promise<void> {
	const checkAt = at ?? nextCheckAt(state.startedAt, Date.now(), state.deadline, woken);
	const node = { ...entry.node, disabled: false };
	const metadata = (phase: WaitState['phase']) => withWaitState(entry, { ...state, checkAt, phase });
	stack.unshift({ node, data: input, source: entry.source, metadata: metadata('check') });
	entry.data = { main: [] };
	entry.node = { ...entry.node, alwaysOutputData: false };
	entry.metadata = metadata('waiting');
	ctx.logger?.debug?.(`Web Data "${node.name}" waits for ${waiter.noun} ${state.jobId}; next check ${new Date(checkAt).toISOString()}`);
	return ctx.putExecutionToWait(new Date(checkAt));
}

function maxWaitSeconds(state: WaitState): number {
	return Math.round((state.deadline - state.startedAt) / 1000);
}

function timedOutJson(waiter: CompletionWaiter, state: WaitState, lastRead: number | undefined): IDataObject {
	const seconds = maxWaitSeconds(state);
	const id = state.jobId;
	const read = lastRead ?? state.lastReadAt;
	return {
		id,
		status: waiter.runningStatus,
		timedOut: true,
		waitMethod: WAIT_METHOD_WEBHOOK,
		waitedUntil: new Date(state.deadline).toISOString(),
		message:
			typeof read === 'number'
				? `Max Wait (${seconds} s) passed and the status read at ${new Date(read).toISOString()} said the ${waiter.noun} was still going. Read it later with ${waiter.readOperation} (ID ${id}).`
				: `Max Wait (${seconds} s) passed and the ${waiter.noun}'s status could not be read, so it may well have ended. Read it with ${waiter.readOperation} (ID ${id}).`,
	};
}

function timeoutError(node: INode, waiter: CompletionWaiter, state: WaitState, lastRead: number | undefined): NodeOperationError {
	const seconds = maxWaitSeconds(state);
	const read = lastRead ?? state.lastReadAt;
	const error = new NodeOperationError(node, `The ${waiter.noun} did not end within Max Wait (${seconds} s)`, {
		itemIndex: 0,
		description:
			typeof read === 'number'
				? `Its status read at ${new Date(read).toISOString()} said it was still going: read its result later with ${waiter.readOperation} (ID ${state.jobId}), raise Max Wait, or set On Timeout to "Return Last Status".`
				: `Its status could not be read (the service did not answer), so it may well have ended: read it with ${waiter.readOperation} (ID ${state.jobId}), raise Max Wait, or set On Timeout to "Return Last Status".`,
	});
	error.context.jobId = state.jobId;
	return error;
}

function unreadableJobError(node: INode, waiter: CompletionWaiter, state: WaitState, error: NodeApiError): NodeOperationError {
	const code = String(error.httpCode);
	const why =
		code === '404'
			? `the service no longer knows the ${waiter.noun} (it expired, or the credential's key belongs to another team)`
			: code === '410'
				? 'the service retired the endpoint that reads it'
				: `the service refused the credential (${code}): the key was changed, revoked, or has no access to this ${waiter.noun}`;
	const ended = new NodeOperationError(node, `The ${waiter.noun} can no longer be read: ${error.message}`, {
		itemIndex: 0,
		description: `Waiting longer cannot change this: ${why}. Check the credential, read the ${waiter.noun} with ${waiter.readOperation} (ID ${state.jobId}), or run the node again to start a new one.`,
	});
	ended.context.jobId = state.jobId;
	ended.context.httpCode = code;
	return ended;
}

function waiterView(entry: IExecuteData, state: WaitState): IExecuteData {
	return { ...entry, data: { main: [[...state.carried, { json: { id: state.jobId }, pairedItem: state.pairedItem }]] } };
}

function errorAsItem(node: INode, error: NodeOperationError, facts: IDataObject | undefined, pairedItem: INodeExecutionData['pairedItem']): INodeExecutionData {
	const json = { error: error.message, ...(error.description ? { description: error.description } : {}), ...(facts ?? {}) };
	return { json, pairedItem, ...errorOutput(node, error) };
}

// n8n 1.x may resume one execution twice at once (FACTS.md "Resume").

const checksRunning = new Set<string>();
const resultsOutput = new RecentKeys(24 * 3_600_000);

/** Retry On Fail runs the same stack entry again: it gets the same outcome, with no request (FACTS.md "Resume"). */
type Outcome = { items: INodeExecutionData[] } | { error: Error };
const outcomes = new WeakMap<IExecuteData, Outcome>();

function claimCheck(key: string): boolean {
	if (checksRunning.has(key) || resultsOutput.has(key)) return false;
	checksRunning.add(key);
	return true;
}

function replay(outcome: Outcome): INodeExecutionData[] {
	if ('error' in outcome) throw outcome.error;
	return outcome.items;
}

/** execute() of a check entry; undefined when this run is no check of this execution (a Retry starts anew). */
export async function continueWaiting(
	ctx: IExecuteFunctions,
	waiter: CompletionWaiter | undefined,
	budget?: CreditBudget,
): Promise<INodeExecutionData[] | undefined> {
	const own = typeof ctx.getExecuteData === 'function' ? ctx.getExecuteData() : undefined;
	const found = waitState(own);
	if (!own || !found || found.phase !== 'check' || found.executionId !== String(ctx.getExecutionId())) return undefined;
	const state = found;
	const node = ctx.getNode();
	if (!waiter) throw new NodeOperationError(node, 'This node was resumed to check a job, but its operation has no Run and Wait with a webhook');
	// The budget's notes of the start live in this process no more: the wait state kept them (issue 35).
	if (budget && state.creditNotes) budget.note(0, state.creditNotes);
	const earlier = outcomes.get(own);
	if (earlier) return replay(earlier);
	const key = `${state.executionId}\u0000${node.name}\u0000${state.jobId}`;
	if (!claimCheck(key)) {
		ctx.logger?.warn?.(`Web Data "${node.name}": execution ${state.executionId} was resumed twice at once; this copy outputs nothing`);
		own.node = { ...own.node, alwaysOutputData: false };
		return [];
	}
	const decide = (outcome: Outcome): INodeExecutionData[] => {
		resultsOutput.remember(key);
		outcomes.set(own, outcome);
		return replay(outcome);
	};
	const failWith = (error: NodeOperationError, facts: IDataObject | undefined, pairedItem?: INodeExecutionData['pairedItem']): INodeExecutionData[] =>
		decide(ctx.continueOnFail() ? { items: [...state.carried, errorAsItem(node, error, facts, pairedItem ?? state.pairedItem)] } : { error });
	try {
		const now = Date.now();
		const woken = now < state.checkAt - 1000;
		const final = now >= state.deadline - 1000;
		if (woken && state.checkAt - now <= wakeSkipMs()) {
			// Late out of n8n's queue: a timer may be armed for the planned check, so that check is the one that reads.
			const { entry, stack } = engineState(ctx);
			await pause(ctx, entry, stack, waiter, { ...state, phase: 'waiting' }, entry.data, false, state.checkAt);
			return waitingOutput(waiter, state);
		}
		let read: ResumeRead | undefined;
		try {
			read = await waiter.resume(ctx, state.jobId, waiterView(own, state));
		} catch (error) {
			if (endsTheWait(error)) {
				return failWith(unreadableJobError(node, waiter, state, error), { jobId: state.jobId, httpCode: String(error.httpCode) });
			}
			if (isCancellation(error)) throw cancelledError(); // no error item
			ctx.logger?.warn?.(`Web Data "${node.name}" could not read ${waiter.noun} ${state.jobId} while waiting: ${(error as Error).message}`);
			read = undefined;
		}
		// Issue 35.3: past the budget, or about to be before the next check: cancelled, with what it has.
		if (read?.running && budget && waiter.stopAtBudget) {
			await budget.ready();
			const nextReadMs = nextCheckAt(state.startedAt, now, state.deadline, woken) - now;
			const over = pastBudget(budget, state.jobId, read.status, 0, { startedAt: state.startedAt, now, nextReadMs, leastPerPage: state.leastPerPage });
			if (over) return decide({ items: [...state.carried, ...(await waiter.stopAtBudget(ctx, state.jobId, waiterView(own, state), over, budget))] });
		}
		if (read && !read.running) {
			// Issue 35.4: the job's hold, in the execution's ledger since it started, becomes what it spent.
			if (budget) {
				await budget.ready();
				settleEndedJob(budget, state.jobId, read.creditsUsed === undefined ? undefined : { creditsUsed: read.creditsUsed }, 0, true);
			}
			if (read.error) return failWith(read.error, read.errorFacts, read.pairedItem);
			return decide({ items: [...state.carried, ...read.items] });
		}
		const lastRead = read ? now : undefined;
		if (final) {
			if (state.onTimeout === 'fail') return failWith(timeoutError(node, waiter, state, lastRead), { jobId: state.jobId, timedOut: true });
			return decide({ items: [...state.carried, { json: timedOutJson(waiter, state, lastRead), pairedItem: state.pairedItem }] });
		}
		const { entry, stack } = engineState(ctx);
		const next: WaitState = {
			...state,
			reads: state.reads + 1,
			wokenReads: (state.wokenReads ?? 0) + (woken && read ? 1 : 0),
			phase: 'waiting',
			...(lastRead !== undefined ? { lastReadAt: lastRead } : {}),
		};
		await pause(ctx, entry, stack, waiter, next, entry.data, woken);
		return waitingOutput(waiter, next);
	} finally {
		checksRunning.delete(key);
	}
}

/** The waiting item first: n8n's Retry On Fail runs a node again when its first item has an error, and a paused run cannot run again. */
function waitingOutput(waiter: CompletionWaiter, state: WaitState): INodeExecutionData[] {
	return [{ json: waitingJson(waiter, state), pairedItem: state.pairedItem }, ...state.carried];
}

function waitingJson(waiter: CompletionWaiter, state: WaitState): IDataObject {
	return { id: state.jobId, status: waiter.runningStatus, waitMethod: WAIT_METHOD_WEBHOOK, waitingUntil: new Date(state.deadline).toISOString() };
}

/** The resume URL with the node's path suffix and the token (n8n's own query, such as its signature, kept). */
export function deliveryUrl(resumeUrl: string, node: INode, token: string): string {
	const url = new URL(resumeUrl);
	url.pathname = `${url.pathname.replace(/\/+$/, '')}/${resumeSuffix(node)}`;
	url.searchParams.append(RESUME_TOKEN_QUERY, token);
	return url.toString();
}

/** Call it after every field is checked. */
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
				'An execution has one resume URL, so only one job can resume it. Put a "Loop Over Items" node (batch size 1) before this node, or set Wait Method to "Poll" (it runs several items at once). Nothing was sent to the service.',
		});
	}
	if (ctx.getMode() === 'integrated' && !isN8n227OrLater()) {
		throw new NodeOperationError(node, '"Resume on Completion Webhook" cannot wait inside a sub-workflow on this n8n version', {
			itemIndex: i,
			description:
				'n8n 1.x goes on with the parent workflow as soon as a waiting sub-workflow pauses a second time, so the parent would get no result. Set Wait Method to "Poll", or move this node into the parent workflow (with a "Loop Over Items" node for several items). Nothing was sent to the service.',
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
	const { entry, stack } = engineState(ctx, i);
	const credentials = await ctx.getCredentials('webDataApi', i);
	const resumeUrl = readResumeUrl(ctx, i, normalizeBaseUrl(credentials.baseUrl));
	const executionId = String(ctx.getExecutionId());
	const token = resumeToken(String(credentials.apiKey ?? ''), executionId, node);

	const startedAt = Date.now();
	const jobId = await params.start({ url: deliveryUrl(resumeUrl, node, token), headers: { [RESUME_TOKEN_HEADER]: token }, events: [...waiter.events] });
	const creditNotes = params.budget?.notes.get(i);
	const state: WaitState = {
		jobId,
		executionId,
		startedAt,
		deadline: startedAt + params.maxWaitMs,
		checkAt: startedAt,
		onTimeout: params.onTimeout,
		carried: params.carried ?? [],
		pairedItem: params.pairedItem ?? { item: i },
		reads: 0,
		phase: 'waiting',
		...(creditNotes ? { creditNotes } : {}),
		...(params.budget && params.leastPerPage !== undefined ? { leastPerPage: params.leastPerPage } : {}),
	};
	const input = entry.data;
	entry.metadata = { ...(entry.metadata ?? {}), [KEEP_KEY]: { ...(params.keep ?? {}) } } as IExecuteData['metadata'];
	await pause(ctx, entry, stack, waiter, state, input, false);
	return waitingOutput(waiter, state);
}

/** The waiting node's stack entry and its wait state (the webhook context's `executeData`: FACTS.md "Resume"). */
export function waitingStackEntry(ctx: IWebhookFunctions): { entry: IExecuteData; state: WaitState } | undefined {
	const inner = ctx as unknown as {
		executeData?: IExecuteData;
		runExecutionData?: { executionData?: { nodeExecutionStack?: IExecuteData[] } } | null;
	};
	const name = ctx.getNode().name;
	for (const entry of [inner.executeData, inner.runExecutionData?.executionData?.nodeExecutionStack?.[0]]) {
		const state = entry && typeof entry === 'object' && entry.node?.name === name ? waitState(entry) : undefined;
		if (entry && state) return { entry, state };
	}
	return undefined;
}

/** From the exact bytes received, else n8n's parsed body. */
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

/** A second delivery right after the first does not wake again. */
const recentWakes = new RecentKeys(60_000);

/** webhook() of the waiting node: authenticates, matches and wakes; reads nothing so it answers at once. */
export async function resumeWebhook(this: IWebhookFunctions, waiter: CompletionWaiter | undefined): Promise<IWebhookResponseData> {
	const node = this.getNode();
	const where = { workflowId: this.getWorkflow().id, executionId: this.getExecutionId() };
	const method = this.getNodeParameter('waitMethod', WAIT_METHOD_POLL);
	if (!waiter || method !== WAIT_METHOD_WEBHOOK) {
		return refuse(this, 404, 'This node does not wait for a webhook');
	}

	let credentials: IDataObject;
	try {
		credentials = await this.getCredentials('webDataApi');
	} catch (error) {
		this.logger.warn(`Web Data "${node.name}" could not read its credential to check a resume call: ${(error as Error).message}`, where);
		return refuse(this, 500, 'The credential could not be read');
	}
	const req = this.getRequestObject() as unknown as WebhookRequest & { query?: Record<string, unknown> };
	const headers = (req.headers ?? this.getHeaderData()) as HeaderBag;
	const secret = signingSecret(credentials);
	if (secret && req.rawBody === undefined && typeof req.readRawBody === 'function') await req.readRawBody();
	const query = (typeof this.getQueryData === 'function' ? this.getQueryData() : req.query) as Record<string, unknown> | undefined;
	const verdict = authenticateDelivery({
		headers,
		query,
		rawBody: req.rawBody,
		places: RESUME_TOKEN,
		expectedToken: resumeToken(String(credentials.apiKey ?? ''), String(this.getExecutionId()), node),
		signingSecret: secret,
	});
	if (!verdict.ok) {
		this.logger.warn(`Web Data "${node.name}" refused a resume call: ${verdict.reason}`, where);
		return refuse(this, 401, 'Unauthorized');
	}

	const envelope = readEnvelope(req.rawBody, req.body ?? this.getBodyData());
	if (!envelope) return refuse(this, 400, 'The body must be a JSON webhook envelope with a "type"');
	if (!waiter.endEventTypes.includes(envelope.type)) {
		return { webhookResponse: { received: true, ignored: `"${envelope.type}" does not end the ${waiter.noun}` } };
	}
	const state = waitingStackEntry(this)?.state;
	if (!state) {
		this.logger.error(`Web Data "${node.name}" got a resume call but cannot read the execution's waiting state (not what this n8n version is expected to hold); its next check reads the ${waiter.noun}`, where);
		return refuse(this, 500, `The waiting state of this execution could not be read; it reads the ${waiter.noun} at its next check`);
	}
	if (!isUuid(envelope.id) || envelope.id !== state.jobId) {
		return { webhookResponse: { received: true, ignored: `the delivery is about another ${waiter.noun}` } };
	}
	const now = Date.now();
	if (state.checkAt - now <= wakeSkipMs() || (state.wokenReads ?? 0) >= MAX_WOKEN_READS) {
		return { webhookResponse: { received: true, note: `the execution reads the ${waiter.noun} at ${new Date(state.checkAt).toISOString()}` } };
	}
	const wakeKey = `${String(this.getExecutionId())}\u0000${node.name}\u0000${state.checkAt}`;
	if (recentWakes.has(wakeKey, now)) {
		return { webhookResponse: { received: true, ignored: 'the execution was woken by an earlier delivery' } };
	}
	recentWakes.remember(wakeKey, now);
	return { workflowData: [], webhookResponse: { received: true } };
}
