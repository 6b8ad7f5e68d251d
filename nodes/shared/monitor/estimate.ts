import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, INode, INodeProperties } from 'n8n-workflow';

import { documentCredits } from '../../WebData/budget/cost';
import { PRICES } from '../../WebData/budget/prices';
import { invalid } from '../../WebData/helpers/validation';

import { cronRunsPerDay, scheduleTextCron } from './schedule';

/**
 * What a monitor's schedule and targets mean per day (issue 35.5), by the service's own monitor
 * estimate (nodes/FACTS.md "Credits", Monitors row): a scrape target visits its URLs, a crawl target
 * up to its page limit (default 10,000), each page at the price table's per-page rule, twice with
 * judging against a goal; a search target 2 credits per 10 results of each query
 * and 1 per judged result. An estimate of the most a day can cost, not what the service charges.
 */

const DEFAULT_SEARCH_RESULTS = 10;

/** A page of a target: the price table's per-page rule (JSON, Enhanced, ZDR, lockdown, prompt-injection check). */
const pageCredits = (scrapeOptions: unknown, zdr: boolean): number => documentCredits(scrapeOptions as IDataObject | undefined, { zdr });

/** Checks per day of the body's schedule, or undefined when it cannot be read. */
function runsPerDay(schedule: unknown): number | undefined {
	const s = (schedule ?? {}) as IDataObject;
	if (typeof s.cron === 'string') return cronRunsPerDay(s.cron);
	if (typeof s.text === 'string') {
		const parsed = scheduleTextCron(s.text);
		return 'cron' in parsed ? cronRunsPerDay(parsed.cron) : undefined;
	}
	return undefined;
}

const round = (n: number): number => Math.round(n * 10) / 10;

/** One check of a monitor (its record or its create body): pages, search results and credits at most. */
export function monitorCheckEstimate(body: IDataObject): { pages: number; results: number; credits: number; judged: boolean } {
	const targets = Array.isArray(body.targets) ? (body.targets as IDataObject[]) : [];
	const judged = typeof body.goal === 'string' && body.goal !== '' && body.judgeEnabled !== false;
	const zdr = body.zeroDataRetention === true;
	let pages = 0;
	let results = 0;
	let credits = 0;
	for (const t of targets) {
		if (t.type === 'scrape') {
			const n = Array.isArray(t.urls) ? t.urls.length : 1;
			pages += n;
			credits += n * pageCredits(t.scrapeOptions, zdr) * (judged ? 2 : 1);
		} else if (t.type === 'crawl') {
			const limit = Number((t.crawlOptions as IDataObject | undefined)?.limit ?? PRICES.crawlLimitDefault);
			pages += limit;
			credits += limit * pageCredits(t.scrapeOptions, zdr) * (judged ? 2 : 1);
		} else if (t.type === 'search') {
			const queries = Array.isArray(t.queries) ? t.queries.length : 1;
			const perQuery = Number(t.maxResults ?? DEFAULT_SEARCH_RESULTS);
			results += queries * perQuery;
			credits += queries * Math.ceil(perQuery / 10) * (zdr ? PRICES.searchPer10ResultsZdr : PRICES.searchPer10Results) + (judged ? queries * perQuery : 0);
		}
	}
	return { pages, results, credits, judged };
}

/** `{checksPerDay, pagesPerCheck, searchResultsPerCheck, pageVisitsPerDay, creditsPerDay, note}`, or undefined. */
export function monitorDailyEstimate(body: IDataObject): IDataObject | undefined {
	const checks = runsPerDay(body.schedule);
	const targets = Array.isArray(body.targets) ? (body.targets as IDataObject[]) : [];
	if (checks === undefined || targets.length === 0) return undefined;
	const { pages, results, credits, judged } = monitorCheckEstimate(body);
	const perDay = Math.ceil(credits * checks);
	return {
		checksPerDay: round(checks),
		pagesPerCheck: pages,
		searchResultsPerCheck: results,
		pageVisitsPerDay: round(pages * checks),
		creditsPerDay: perDay,
		note: `At most ${perDay} credits a day by the service's monitor estimate (${round(checks)} checks a day; each check up to ${pages} page${pages === 1 ? '' : 's'}${results ? ` and ${results} search results` : ''}${judged ? ', judged against the goal' : ''}). Unchanged pages cost the same; a crawl target counts its page limit.`,
	};
}

export const maxCreditsPerDayField: INodeProperties = {
	displayName: 'Max Credits per Day',
	name: 'maxCreditsPerDay',
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 0,
	description:
		'Do not create the monitor when its schedule and targets may cost more credits a day than this (0: no limit), by the service\'s monitor estimate: each check visits every page, 1 credit a page plus JSON +4, Enhanced proxy +4, zero data retention +1, twice when judged against a Goal. The created monitor\'s estimate is output as "dailyEstimate".',
};

/** Max Credits per Day as a number (0: no limit); anything else an expression gives is refused, never "no limit". */
export function dailyCeiling(node: INode, max: unknown, itemIndex?: number): number {
	const ceiling = Number(max ?? 0);
	if (typeof max === 'boolean' || max === '' || !Number.isFinite(ceiling) || ceiling < 0) {
		throw invalid(node, 'Max Credits per Day', max, 'give a number of credits, 0 or more (0: no limit)', itemIndex);
	}
	return ceiling;
}

/**
 * The daily estimate; over `max` (above 0) it throws before anything is created (issue 35.5), or,
 * with `outcome`, changed ("It was not changed").
 */
export function withinDailyLimit(node: INode, body: IDataObject, max: unknown, itemIndex?: number, outcome = 'It was not created and nothing was sent.'): IDataObject | undefined {
	const ceiling = dailyCeiling(node, max, itemIndex);
	const estimate = monitorDailyEstimate(body);
	if (!estimate || ceiling === 0) return estimate;
	const perDay = Number(estimate.creditsPerDay);
	if (perDay <= ceiling) return estimate;
	throw new NodeOperationError(node, `This monitor may cost up to ${perDay} credits a day, over Max Credits per Day (${ceiling})`, {
		...(itemIndex !== undefined ? { itemIndex } : {}),
		description: `${String(estimate.note)} ${outcome} Check less often (Schedule), watch fewer pages (${String(estimate.pagesPerCheck)} a check now), drop the Goal (judging doubles a page's cost), or raise Options → Max Credits per Day.`,
	});
}
