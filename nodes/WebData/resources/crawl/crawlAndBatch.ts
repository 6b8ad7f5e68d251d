import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteData, IExecuteFunctions, INode, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { documentJson, type OutputMode, outputModeField, readOutputMode } from '../../fields/document';
import { uuidLocator } from '../../fields/fields';
import { errorItem, isCancellation } from '../../helpers/items';
import { waitFor, DEFAULT_POLL_SCHEDULE, readErrorNote } from '../../jobs/poller';
import type { BudgetOverrun, Operation, RunContext, ToolUse } from '../../types';
import type { CreditBudget } from '../../budget';
import { hideSecrets, invalid, requireUuid } from '../../helpers/validation';
import { webhookFieldOf } from '../../jobs/triggerTarget';
import { type CompletionWaiter, type ResumeContext, type ResumeRead, resumeParameter, waitMethodFields } from '../../jobs/resume';
import type { OnTimeout } from '../../jobs/wait';
import { READ_PAGE_LIMIT, STATUS_ONLY_LIMIT } from '../../fields/serverRules';
import { budgetPollCap, jobCredits, pastBudget, settleEndedJob } from '../../budget/jobs';
import { type ApiContext, apiRequest, defaultDeps, type TransportDeps } from '../../transport';
import { aiValue } from '../../tool/fromAi';

/** What Crawl and Batch Scrape share: both are jobs at `/crawl/{id}` or `/batch/scrape/{id}` with one status shape. */

export type JobKind = 'crawl' | 'batch';

const PATH: Record<JobKind, string> = { crawl: '/crawl', batch: '/batch/scrape' };
const NOUN: Record<JobKind, string> = { crawl: 'crawl', batch: 'batch scrape' };
/** Safety bound; readAllDocuments stops long before it. */
const MAX_STATUS_PAGES = 1000;

export const TERMINAL = ['completed', 'failed', 'cancelled'];

export function jobHints(kind: JobKind): Record<string, string> {
	const idName = kind === 'crawl' ? 'Crawl ID' : 'Batch Job ID';
	return {
		'404': `No ${NOUN[kind]} has this ID for your team. Results are kept for 24 hours after the job ends; check the ${idName}.`,
		'text:Invalid job ID format': `The ${idName} must be a UUID. Copy it from the output of the Start operation.`,
		'402': `Your team has not enough credits for this ${NOUN[kind]}. Each page costs credits: add credits, or lower the number of pages${kind === 'crawl' ? ' (Page Limit)' : ''}.`,
		'429': `Too many requests, or too many ${NOUN[kind]} jobs at once for your plan. Wait a little and run again, or lower Max Concurrency.`,
	};
}

export function jobIdField(kind: JobKind): INodeProperties {
	return kind === 'crawl'
		? uuidLocator({
				displayName: 'Crawl ID',
				name: 'crawlId',
				idLabel: 'Crawl ID',
				description: 'The crawl to use. Its ID is in the output of Start (field "id"), or pick a running crawl.',
				searchListMethod: 'searchActiveCrawls',
			})
		: uuidLocator({
				displayName: 'Batch Job ID',
				name: 'batchId',
				idLabel: 'Batch Job ID',
				description: 'The batch scrape job to use. Its ID is in the output of Start (field "id").',
			});
}

export function readJobId(ctx: IExecuteFunctions, kind: JobKind, i: number): string {
	const name = kind === 'crawl' ? 'crawlId' : 'batchId';
	const raw = ctx.getNodeParameter(name, i, '', { extractValue: true });
	return requireUuid(ctx.getNode(), kind === 'crawl' ? 'Crawl ID' : 'Batch Job ID', raw, i);
}

export function statusJson(id: string, body: IDataObject): IDataObject {
	const { success: _s, data: _d, next: _n, ...rest } = body;
	void _s;
	void _d;
	void _n;
	return { id, ...rest };
}

export async function readStatusPage(
	ctx: ApiContext,
	kind: JobKind,
	id: string,
	i: number,
	deps: TransportDeps,
	limit: number = READ_PAGE_LIMIT,
): Promise<IDataObject> {
	return await apiRequest<IDataObject>(ctx, { method: 'GET', path: `${PATH[kind]}/${id}`, qs: { limit }, itemIndex: i, hints: jobHints(kind) }, deps);
}

/** A running job has a `next` link on every page, an empty one too (FACTS.md "Job status pages"). */
export async function readAllDocuments(
	ctx: ApiContext,
	kind: JobKind,
	first: IDataObject,
	i: number,
	deps: TransportDeps,
): Promise<{ status: IDataObject; documents: IDataObject[] }> {
	const documents: IDataObject[] = [];
	const followed = new Set<string>();
	const firstData = Array.isArray(first.data) ? (first.data as IDataObject[]) : [];
	let body = first;
	let last = first;
	for (let page = 1; ; page++) {
		const data = Array.isArray(body.data) ? (body.data as IDataObject[]) : [];
		if (page > 1 && startsLike(data, firstData)) throw skipIgnoredError(ctx, kind, documents.length, body, i);
		documents.push(...data);
		last = body;
		const next = body.next;
		if (typeof next !== 'string' || next === '' || data.length === 0) break;
		const running = !TERMINAL.includes(String(body.status));
		if (running && typeof body.completed === 'number' && documents.length >= body.completed) break;
		if (followed.has(next) || page >= MAX_STATUS_PAGES) break;
		followed.add(next);
		body = await apiRequest<IDataObject>(ctx, { method: 'GET', path: next, itemIndex: i, hints: jobHints(kind) }, deps);
	}
	// The last page's status fields are the freshest.
	return { status: { ...first, ...last }, documents };
}

/** A server that ignores `skip` repeats the first page (FACTS.md "Job status pages"). */
function startsLike(data: IDataObject[], firstData: IDataObject[]): boolean {
	const n = Math.min(3, data.length, firstData.length);
	if (n === 0) return false;
	for (let k = 0; k < n; k++) if (documentKey(data[k]) !== documentKey(firstData[k])) return false;
	return true;
}

function documentKey(doc: IDataObject): string {
	const meta = (doc?.metadata ?? {}) as IDataObject;
	const url = meta.sourceURL ?? meta.url ?? doc?.url ?? '';
	const text = doc?.markdown ?? doc?.html ?? doc?.rawHtml ?? '';
	return `${String(url)}\u0000${typeof text === 'string' ? text : JSON.stringify(text)}`;
}

function skipIgnoredError(ctx: ApiContext, kind: JobKind, read: number, body: IDataObject, i: number): NodeOperationError {
	const finished = typeof body.completed === 'number' ? ` of ${body.completed} finished` : '';
	return new NodeOperationError(
		ctx.getNode(),
		`The server sent the first page of this ${NOUN[kind]}'s results again when asked for the next one: it ignores \`skip\` in its \`next\` links, so only the first ${read}${finished} pages could be read`,
		{
			itemIndex: i,
			description:
				'Older self-hosted builds of the service (e.g. August 2025) do this when the results are larger than one 10 MiB page. ' +
				'Nothing is output rather than the first page repeated. What to do: update the self-hosted server to a build that pages results, ' +
				'use the hosted service, or keep results under 10 MiB (a lower Page Limit, fewer formats, Only Main Content).',
		},
	);
}

function runningNote(kind: JobKind, id: string, status: IDataObject): string {
	const readOp = kind === 'crawl' ? 'Crawl → Get Status' : 'Batch Scrape → Get Status';
	return `The ${NOUN[kind]} is still running (status "${String(status.status)}", ${String(status.completed ?? 0)} of ${String(status.total ?? '?')} pages done); no page is finished yet. Read it again later with ${readOp} (ID ${id}), or wait for it with Run and Wait.`;
}

export function pageJson(id: string, status: IDataObject, doc: IDataObject, mode: OutputMode): IDataObject {
	return { jobId: id, jobStatus: status.status, ...documentJson(doc, mode) };
}

type JobCall = (ctx: IExecuteFunctions, kind: JobKind, id: string, i: number, deps: TransportDeps) => Promise<IDataObject>;

async function jobRequest(ctx: IExecuteFunctions, kind: JobKind, method: 'GET' | 'DELETE', id: string, suffix: string, i: number, deps: TransportDeps): Promise<IDataObject> {
	return await apiRequest<IDataObject>(ctx, { method, path: `${PATH[kind]}/${id}${suffix}`, itemIndex: i, hints: jobHints(kind) }, deps);
}

export const cancelJob: JobCall = async (ctx, kind, id, i, deps) => {
	const body = await jobRequest(ctx, kind, 'DELETE', id, '', i, deps);
	return { id, ...body };
};

export const readErrors: JobCall = async (ctx, kind, id, i, deps) => {
	const body = await jobRequest(ctx, kind, 'GET', id, '/errors', i, deps);
	return { id, errors: body.errors ?? [], robotsBlocked: body.robotsBlocked ?? [] };
};

export const returnField: INodeProperties = {
	displayName: 'Return',
	name: 'return',
	type: 'options',
	default: 'pages',
	description: 'What to output',
	options: [
		{
			name: 'Pages',
			value: 'pages',
			description: 'One item per page scraped so far (all result pages are read); one status item while there are none',
		},
		{ name: 'Status Only', value: 'status', description: 'One item with the job status (status, total, completed, credits used)' },
	],
};

export function readReturn(ctx: IExecuteFunctions, i: number): 'pages' | 'status' {
	const value = ctx.getNodeParameter('return', i, 'pages');
	if (value !== 'pages' && value !== 'status') throw invalid(ctx.getNode(), 'Return', value, 'choose one of pages, status', i);
	return value;
}

export async function getStatusItems(
	ctx: IExecuteFunctions,
	kind: JobKind,
	id: string,
	what: 'pages' | 'status',
	mode: OutputMode,
	i: number,
	deps: TransportDeps,
): Promise<INodeExecutionData[]> {
	const first = await readStatusPage(ctx, kind, id, i, deps, what === 'status' ? STATUS_ONLY_LIMIT : READ_PAGE_LIMIT);
	// A job started under this execution's budget gives back its hold once it ended (issue 35.3).
	if (TERMINAL.includes(String(first.status))) settleEndedJob(deps.budget, id, first, i);
	if (what === 'status') return [{ json: statusJson(id, first) }];
	const { status, documents } = await readAllDocuments(ctx, kind, first, i, deps);
	if (documents.length === 0) {
		const json = statusJson(id, status);
		if (!TERMINAL.includes(String(status.status))) json.message = runningNote(kind, id, status);
		return [{ json }];
	}
	return documents.map((doc) => ({ json: pageJson(id, status, doc, mode) }));
}

export interface WaitOutcome {
	status: IDataObject;
	documents: IDataObject[];
	timedOut: boolean;
}

export async function waitForJob(
	ctx: IExecuteFunctions,
	kind: JobKind,
	id: string,
	opts: { maxWaitMs: number; onTimeout: OnTimeout; startedAt: number; i: number; run?: RunContext; own?: boolean; leastPerPage?: number },
): Promise<WaitOutcome> {
	const { i, maxWaitMs } = opts;
	const node = ctx.getNode();
	const deps = opts.run?.transportDeps ?? defaultDeps;
	const budget = deps.budget;
	const noun = NOUN[kind];
	const readOp = kind === 'crawl' ? 'Crawl → Get Status' : 'Batch Scrape → Get Status';
	let over: BudgetOverrun | undefined;
	const wait = await waitFor<IDataObject>({
		// A poll needs only the status: the smallest page.
		read: async (pollDeps) => await readStatusPage(ctx, kind, id, i, pollDeps, STATUS_ONLY_LIMIT),
		// Issue 35.3: a job that has spent past what the budget leaves it is stopped at once.
		isTerminal: (s) =>
			TERMINAL.includes(String(s.status)) ||
			(over = pastBudget(budget, id, s, i, { startedAt: opts.startedAt, now: Date.now(), nextReadMs: DEFAULT_POLL_SCHEDULE.minIntervalMs, leastPerPage: opts.leastPerPage })) !== undefined,
		maxDelayMs: budget ? (s, now) => budgetPollCap(budget, id, s, opts.startedAt, now, i) : undefined,
		maxWaitMs,
		startedAt: opts.startedAt,
		signal: ctx.getExecutionCancelSignal(),
		transportDeps: deps,
	});
	const seconds = Math.round(maxWaitMs / 1000);
	if (wait.outcome === 'timeout') {
		const last = wait.status ? `status "${String(wait.status.status)}", ${String(wait.status.completed ?? 0)} of ${String(wait.status.total ?? '?')} pages done` : 'no status could be read';
		if (opts.onTimeout === 'returnStatus' && wait.status) {
			const status: IDataObject = {
				...statusJson(id, wait.status),
				timedOut: true,
				waitMethod: 'poll',
				waitedUntil: new Date(opts.startedAt + maxWaitMs).toISOString(),
				message: `The ${noun} did not finish within Max Wait (${seconds} s): ${last}. "status" is its last status read; the job goes on: read its pages with ${readOp} (ID ${id}).`,
			};
			return { status, documents: [], timedOut: true };
		}
		let cancelled = false;
		if (opts.onTimeout === 'cancelAndFail') {
			await cancelJob(ctx, kind, id, i, deps);
			cancelled = true;
		}
		const error = new NodeOperationError(
			node,
			`The ${noun} did not finish within Max Wait (${seconds} s)${cancelled ? ' and was cancelled' : ''}`,
			{
				itemIndex: i,
				description: `Last ${last}.${readErrorNote(wait)} ${cancelled ? 'Pages already scraped were charged.' : `The job goes on: read its pages later with ${readOp} (ID ${id}).`} Raise Max Wait (on n8n Cloud an execution may last 300 s), or use Start and read the pages later.`,
			},
		);
		error.context.jobId = id;
		throw error;
	}
	const final = wait.status as IDataObject;
	if (over && !TERMINAL.includes(String(final.status))) return await cancelledAtBudget(ctx, kind, id, over, i, deps);
	settleEndedJob(budget, id, final, i, opts.own, opts.leastPerPage);
	if (final.status !== 'completed') throw endedJobError(node, kind, id, final, i);
	// The last poll asked for one document at most.
	const first = await readStatusPage(ctx, kind, id, i, deps, READ_PAGE_LIMIT);
	const all = await readAllDocuments(ctx, kind, first, i, deps);
	return { status: statusJson(id, all.status), documents: all.documents, timedOut: false };
}

/** Cancelled past the budget: the pages scraped so far, and the items say so (issue 35.3). */
async function cancelledAtBudget(
	ctx: IExecuteFunctions,
	kind: JobKind,
	id: string,
	over: BudgetOverrun,
	i: number,
	deps: TransportDeps,
): Promise<WaitOutcome> {
	await cancelJob(ctx, kind, id, i, deps);
	const first = await readStatusPage(ctx, kind, id, i, deps, READ_PAGE_LIMIT);
	const all = await readAllDocuments(ctx, kind, first, i, deps);
	// What it spent by the last reading; pages finishing while it stopped count too.
	const spent = Math.max(over.spent, jobCredits(all.status) ?? 0);
	deps.budget?.settleJob(id, spent, i);
	const why =
		over.spent > over.mayUse
			? `it had spent ${over.spent} credits where ${over.mayUse} were left for it`
			: `it had spent ${over.spent} of the ${over.mayUse} credits left for it, at a rate that would pass them before the next read`;
	const message = `The ${NOUN[kind]} was cancelled at the credit budget: ${why}; ${spent} in all with the pages that finished while it stopped. These are the ${all.documents.length} pages it scraped.`;
	deps.budget?.note(i, { cancelledAtBudget: true, message });
	return { status: { ...statusJson(id, all.status), cancelledAtBudget: true, message }, documents: all.documents, timedOut: false };
}

export function endedJobError(node: INode, kind: JobKind, id: string, final: IDataObject, i: number): NodeOperationError {
	const readOp = kind === 'crawl' ? 'Crawl → Get Status' : 'Batch Scrape → Get Status';
	const error = new NodeOperationError(node, `The ${NOUN[kind]} ended with status "${String(final.status)}"`, {
		itemIndex: i,
		description: `${String(final.completed ?? 0)} of ${String(final.total ?? '?')} pages were scraped. Read them with ${readOp} (ID ${id}); the errors with Get Errors.`,
	});
	error.context.jobId = id;
	return error;
}

/** The webhook asks for `completed` and `failed` (`cancelled` when a newer server sends it: FACTS.md "Job status pages"). */
export function jobWaiter(
	kind: JobKind,
	pages: (entry: IExecuteData, id: string, status: IDataObject, documents: IDataObject[], mode: OutputMode) => INodeExecutionData[],
): CompletionWaiter {
	const prefix = kind === 'crawl' ? 'crawl' : 'batch_scrape';
	/** The resumed item's pages in its Output mode, or the status alone when it has none. */
	const itemsOf = (ctx: ResumeContext, entry: IExecuteData, id: string, status: IDataObject, documents: IDataObject[]): INodeExecutionData[] => {
		if (documents.length === 0) return [{ json: status, pairedItem: entry.data.main?.[0]?.at(-1)?.pairedItem ?? { item: 0 } }];
		return pages(entry, id, status, documents, resumeParameter(ctx, 'output', 'full') === 'compact' ? 'compact' : 'full');
	};
	return {
		noun: NOUN[kind],
		fieldNoun: NOUN[kind],
		readOperation: kind === 'crawl' ? 'Crawl → Get Status' : 'Batch Scrape → Get Status',
		runningStatus: 'scraping',
		events: ['completed', 'failed'],
		endEventTypes: [`${prefix}.completed`, `${prefix}.failed`, `${prefix}.cancelled`],
		async resume(ctx: ResumeContext, id: string, entry: IExecuteData): Promise<ResumeRead> {
			const current = await readStatusPage(ctx, kind, id, 0, defaultDeps, STATUS_ONLY_LIMIT);
			if (!TERMINAL.includes(String(current.status))) return { running: true, status: current };
			const first = current.status === 'completed' ? await readStatusPage(ctx, kind, id, 0, defaultDeps, READ_PAGE_LIMIT) : current;
			const pairedItem = entry.data.main?.[0]?.at(-1)?.pairedItem ?? { item: 0 };
			if (first.status !== 'completed') {
				const status = statusJson(id, first);
				const error = endedJobError(ctx.getNode(), kind, id, first, 0);
				return { items: [{ json: status, pairedItem }], error, errorFacts: { jobId: id, status: first.status }, pairedItem, creditsUsed: jobCredits(first) };
			}
			const all = await readAllDocuments(ctx, kind, first, 0, defaultDeps);
			return { items: itemsOf(ctx, entry, id, statusJson(id, all.status), all.documents), creditsUsed: jobCredits(all.status) };
		},
		async stopAtBudget(ctx: ResumeContext, id: string, entry: IExecuteData, over: BudgetOverrun, budget: CreditBudget): Promise<INodeExecutionData[]> {
			const stopped = await cancelledAtBudget(ctx, kind, id, over, 0, { ...defaultDeps, budget });
			return itemsOf(ctx, entry, id, stopped.status, stopped.documents);
		},
	};
}

/** The job has one `webhook`, the resume URL here. */
export function refuseOwnWebhook(node: INode, body: IDataObject, i: number): void {
	if (body.webhook === undefined) return;
	const url = (body.webhook as IDataObject).url;
	const field = webhookFieldOf(body.webhook) ?? 'Webhook URL';
	throw invalid(
		node,
		field,
		typeof url === 'string' ? hideSecrets(url) : url,
		`it cannot be used with Wait Method "Resume on Completion Webhook": the job has one webhook, and it goes to this execution's resume URL. ${field === 'Webhook URL' ? 'Remove it (receive page events with the Web Data Trigger instead)' : 'Remove it, or use Start (the trigger\'s workflow then gets the events)'}, or set Wait Method to "Poll"`,
		i,
	);
}

export function jobWaitMethodFields(kind: JobKind): INodeProperties[] {
	const items =
		kind === 'crawl' ? 'One input item per execution (use "Loop Over Items" for more).' : 'All input items go into the one job.';
	return waitMethodFields(
		NOUN[kind],
		kind === 'crawl',
		`The service calls this execution back when the ${NOUN[kind]} ends, so it must be able to reach this n8n (WEBHOOK_URL). ${items} Not with the Webhook options.`,
	);
}

/** Thrown when cancelled, even under Continue On Fail. */
export function failOrItem(ctx: IExecuteFunctions, error: unknown, i: number): INodeExecutionData[] {
	if (isCancellation(error) || !ctx.continueOnFail()) throw error;
	return [errorItem(error, i, ctx.getNode())];
}

export const JOB_OUTPUT = outputModeField('url, title, Markdown (or summary), JSON and the page error');

function jobIdFromAi(kind: JobKind): Record<string, string> {
	return kind === 'crawl'
		? { crawlId: aiValue('crawlId', 'The id of the crawl (a UUID), from the answer that started it') }
		: { batchId: aiValue('batchId', 'The id of the batch scrape job (a UUID), from the answer that started it') };
}

const GET_STATUS_TOOL: Record<JobKind, ToolUse> = {
	crawl: {
		description: "Read a crawl that was already started, by its crawl ID: its status and a compact list of its pages; page=N gives page N's content. Costs nothing extra.",
		pageList: 'crawl',
	},
	batch: {
		description: "Read a batch scrape that was already started, by its ID: its status and a compact list of its pages; page=N gives page N's content.",
		pageList: 'batch',
	},
};

export function jobGetStatus(kind: JobKind): Operation {
	return {
		tool: { ...GET_STATUS_TOOL[kind], fromAi: jobIdFromAi(kind) },
		properties: [jobIdField(kind), returnField, { ...JOB_OUTPUT, displayOptions: { show: { return: ['pages'] } } }],
		async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
			const id = readJobId(this, kind, i);
			const what = readReturn(this, i);
			const mode = what === 'pages' ? readOutputMode(this, i) : 'full';
			return await getStatusItems(this, kind, id, what, mode, i, run?.transportDeps ?? defaultDeps);
		},
	};
}

function jobCall(kind: JobKind, call: JobCall): Operation {
	return {
		tool: { fromAi: jobIdFromAi(kind) },
		properties: [jobIdField(kind)],
		async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
			const id = readJobId(this, kind, i);
			return [{ json: await call(this, kind, id, i, run?.transportDeps ?? defaultDeps) }];
		},
	};
}

export function jobGetErrors(kind: JobKind): Operation {
	return jobCall(kind, readErrors);
}

export function jobCancel(kind: JobKind): Operation {
	return jobCall(kind, cancelJob);
}
