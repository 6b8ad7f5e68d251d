import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { documentCredits, reportedCredits } from '../../budget/cost';
import { settleEndedJob } from '../../budget/jobs';
import { SCRAPE_HINTS, scrapeAnswerTimeoutMs } from '../../fields/scrapeOptions';
import { READ_PAGE_LIMIT } from '../../fields/serverRules';
import { isPlainObject } from '../../helpers/objects';
import { readErrorNote, waitFor } from '../../jobs/poller';
import type { OnTimeout } from '../../jobs/wait';
import { apiRequest, defaultDeps, type TransportDeps } from '../../transport';
import type { RunContext } from '../../types';
import { getAgentJob } from '../agent/shared';
import { classifyRun, isUnsuccessful, unsuccessfulRunError } from '../agent/outcome';
import { startAgentRun } from '../agent/startRequest';
import { pairPages, startBatch } from '../batchScrape/shared';
import { readAllDocuments, readStatusPage, statusJson, TERMINAL, waitForJob } from '../crawl/crawlAndBatch';
import { combinePages, type CombinePages, type PageAnswer, pageAnswer } from './combine';
import { emptyResultNote, getExtractJob, startExtract } from './request';
import type { ExtractPlan, ExtractRoute } from './route';

// Extract on the endpoints that live: nodes/FACTS.md "Extract after /extract".

const ENDPOINT: Record<ExtractRoute, string> = {
	scrape: 'POST /v2/scrape',
	batchScrape: 'POST /v2/batch/scrape',
	agent: 'POST /v2/agent',
	extract: 'POST /v2/extract',
};

/** On every Extract item: which endpoint ran it and why, and the options it could not use. */
export function extractedWith(plan: Pick<ExtractPlan, 'route' | 'reason' | 'notes'>): IDataObject {
	return { endpoint: ENDPOINT[plan.route], reason: plan.reason, ...(plan.notes.length ? { notes: plan.notes } : {}) };
}

/** Pages in the order their URLs were given; pages of a /* or redirect last. */
function inUrlOrder(docs: IDataObject[], urls: string[]): PageAnswer[] {
	const order = pairPages(docs, urls, urls.map((_u, k) => k));
	return docs
		.map((doc, k) => ({ page: pageAnswer(doc, urls[order[k][0]] ?? ''), at: order[k].length === 1 ? order[k][0] : urls.length }))
		.sort((a, b) => a.at - b.at)
		.map((p) => p.page);
}

function resultItems(plan: ExtractPlan, pages: PageAnswer[], job: IDataObject): IDataObject[] {
	const { combine } = plan;
	const base: IDataObject = {};
	if (typeof job.id === 'string') base.id = job.id;
	if (job.invalidURLs !== undefined) base.invalidURLs = job.invalidURLs;
	const items = combinePages(pages, combine, plan.showSources);
	if (combine === 'merge') {
		const item = { ...base, ...items[0], ...(typeof job.creditsUsed === 'number' ? { creditsUsed: job.creditsUsed } : {}) };
		const empty = emptyResultNote(item, plan.asked);
		return [{ ...item, ...(empty ? { emptyResult: empty } : {}), extractedWith: extractedWith(plan) }];
	}
	return items.map((item) => ({ ...base, ...item, extractedWith: extractedWith(plan) }));
}

export interface WaitSettings {
	maxWaitMs: number;
	onTimeout: OnTimeout;
}

/** Start: the job ID to read with Get Status (a batch or an agent run; /extract when chosen). */
export async function startPlan(ctx: IExecuteFunctions, plan: ExtractPlan, i: number, run?: RunContext): Promise<IDataObject> {
	if (plan.route === 'extract') return await startExtract(ctx, plan.body, i, run);
	const started =
		plan.route === 'agent'
			? await startAgentRun(ctx, plan.body, i, run)
			: await startBatch(ctx, plan.body, run, { i, lower: 'extract from fewer URLs' });
	return { ...started, extractedWith: extractedWith(plan) };
}

async function scrapeOne(ctx: IExecuteFunctions, plan: ExtractPlan, i: number, deps: TransportDeps): Promise<IDataObject[]> {
	const body = plan.body;
	const credits = documentCredits(body);
	const answer = await apiRequest<IDataObject>(
		ctx,
		{
			method: 'POST',
			path: '/scrape',
			body,
			itemIndex: i,
			hints: SCRAPE_HINTS,
			timeoutMs: scrapeAnswerTimeoutMs(body),
			cost: { credits, what: 'this extract (one page with the JSON format)', lower: 'use the basic proxy', reported: reportedCredits },
		},
		deps,
	);
	const doc = isPlainObject(answer.data) ? answer.data : {};
	const page = pageAnswer(doc, String(body.url), answer.warning);
	return resultItems(plan, [page], { creditsUsed: page.creditsUsed });
}

const timeoutError = (ctx: IExecuteFunctions, noun: string, id: string, maxWaitMs: number, last: string, i: number, seen = ''): NodeOperationError => {
	const error = new NodeOperationError(ctx.getNode(), `The extract (${noun}) did not finish within Max Wait (${Math.round(maxWaitMs / 1000)} s)`, {
		itemIndex: i,
		description: `Last ${last}.${seen} It goes on: read its result later with Extract → Get Status (ID ${id}), raise Max Wait (on n8n Cloud an execution may last 300 s), or use Start and read the result later.`,
	});
	error.context.jobId = id;
	return error;
};

async function batchAndWait(ctx: IExecuteFunctions, plan: ExtractPlan, wait: WaitSettings, i: number, run?: RunContext): Promise<IDataObject[]> {
	const startedAt = Date.now();
	const started = await startBatch(ctx, plan.body, run, { i, lower: 'extract from fewer URLs' });
	const id = String(started.id);
	const outcome = await waitForJob(ctx, 'batch', id, { maxWaitMs: wait.maxWaitMs, onTimeout: wait.onTimeout, startedAt, i, run, own: true, leastPerPage: documentCredits(plan.body) });
	if (outcome.timedOut) return [{ ...outcome.status, extractedWith: extractedWith(plan) }];
	const job = { ...outcome.status, ...(started.invalidURLs !== undefined ? { invalidURLs: started.invalidURLs } : {}) };
	return resultItems(plan, inUrlOrder(outcome.documents, plan.urls), job);
}

function agentItems(plan: Pick<ExtractPlan, 'route' | 'reason' | 'notes' | 'showSources' | 'asked'>, job: IDataObject, urls: string[]): IDataObject[] {
	const item: IDataObject = { ...job, extractedWith: extractedWith(plan) };
	if (plan.showSources) item.sources = urls;
	const empty = emptyResultNote(job, plan.asked);
	return [empty ? { ...item, emptyResult: empty } : item];
}

async function agentAndWait(ctx: IExecuteFunctions, plan: ExtractPlan, wait: WaitSettings, i: number, run?: RunContext): Promise<IDataObject[]> {
	const deps = run?.transportDeps ?? defaultDeps;
	const startedAt = Date.now();
	const id = String((await startAgentRun(ctx, plan.body, i, run)).id);
	const result = await waitFor<IDataObject>({
		read: async (pollDeps) => await getAgentJob(ctx, id, i, pollDeps),
		isTerminal: (job) => classifyRun(job) !== 'running',
		maxWaitMs: wait.maxWaitMs,
		startedAt,
		signal: ctx.getExecutionCancelSignal(),
		transportDeps: deps,
	});
	const job = result.status ?? { id };
	if (result.outcome === 'timeout') {
		if (wait.onTimeout === 'returnStatus' && result.status) return [{ ...job, timedOut: true, extractedWith: extractedWith(plan) }];
		throw timeoutError(ctx, 'agent run', id, wait.maxWaitMs, typeof job.status === 'string' ? `status "${job.status}"` : 'no status could be read', i, readErrorNote(result));
	}
	settleEndedJob(deps.budget, id, job, i, true);
	const outcome = classifyRun(job);
	if (isUnsuccessful(outcome)) {
		const maxCredits = typeof plan.body.maxCredits === 'number' ? plan.body.maxCredits : undefined;
		throw unsuccessfulRunError(ctx.getNode(), job, outcome, i, maxCredits, `This Extract ran on the agent (${plan.reason}).`);
	}
	return agentItems(plan, job, plan.urls.map((u) => u.replace(/\/\*$/, '/')));
}

/** Run and Wait on the plan's route; the legacy route is left to its caller. */
export async function runPlan(ctx: IExecuteFunctions, plan: ExtractPlan, wait: WaitSettings, i: number, run?: RunContext): Promise<IDataObject[]> {
	if (plan.route === 'scrape') return await scrapeOne(ctx, plan, i, run?.transportDeps ?? defaultDeps);
	if (plan.route === 'batchScrape') return await batchAndWait(ctx, plan, wait, i, run);
	return await agentAndWait(ctx, plan, wait, i, run);
}

const isNotFound = (error: unknown): boolean => error instanceof NodeApiError && String(error.httpCode) === '404';

/** Try reads in turn; a 404 means "not this kind of job". */
async function firstFound<T>(reads: Array<() => Promise<T>>): Promise<T> {
	let failure: unknown;
	for (const read of reads) {
		const outcome = await read().then(
			(value) => ({ value, failed: false as const }),
			(error: unknown) => ({ error, failed: true as const }),
		);
		if (!outcome.failed) return outcome.value;
		failure = outcome.error;
		if (!isNotFound(failure)) break;
	}
	throw failure;
}

const READ_PLAN = { notes: [] as string[], showSources: true, asked: {} as IDataObject };

/** Get Status: a batch, then an agent run, then an /extract job (its 410 says the endpoint was retired). Reads cost nothing. */
export async function readExtractJob(ctx: IExecuteFunctions, id: string, combine: CombinePages, i: number, deps: TransportDeps): Promise<IDataObject[]> {
	return await firstFound<IDataObject[]>([
		async () => {
			const first = await readStatusPage(ctx, 'batch', id, i, deps, READ_PAGE_LIMIT);
			const plan = { ...READ_PLAN, route: 'batchScrape' as const, reason: 'the ID is a batch scrape job', urls: [] };
			if (TERMINAL.includes(String(first.status))) settleEndedJob(deps.budget, id, first, i);
			if (first.status !== 'completed') return [{ ...statusJson(id, first), extractedWith: extractedWith(plan) }];
			const all = await readAllDocuments(ctx, 'batch', first, i, deps);
			const pages = all.documents.map((doc) => pageAnswer(doc, ''));
			return resultItems({ ...plan, body: {}, combine } as ExtractPlan, pages, statusJson(id, all.status));
		},
		async () => {
			const job = await getAgentJob(ctx, id, i, deps);
			if (classifyRun(job) !== 'running') settleEndedJob(deps.budget, id, job, i);
			return agentItems({ ...READ_PLAN, showSources: false, route: 'agent', reason: 'the ID is an agent run' }, job, []);
		},
		async () => {
			const job = await getExtractJob(ctx, id, i, deps);
			if (TERMINAL.includes(String(job.status))) settleEndedJob(deps.budget, id, job, i);
			const empty = emptyResultNote(job);
			return [empty === undefined ? job : { ...job, emptyResult: empty }];
		},
	]);
}
