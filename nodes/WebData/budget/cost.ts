import type { IDataObject } from 'n8n-workflow';

import { PRICES } from './prices';

/**
 * What a request costs by the service's own billing rules, known before it is sent (nodes/FACTS.md
 * "Credits"). Each is the least the rules charge for what was asked: what the answer reports may be
 * more (a PDF's extra pages, the auto proxy escalating to stealth), and the budget then counts the
 * reported figure; it never counts less than it reserved for an answered request that reports nothing.
 */

const PREMIUM_FORMATS = ['question', 'query', 'highlights', 'audio', 'video'];

function formatTypes(formats: unknown): string[] {
	if (!Array.isArray(formats)) return ['markdown'];
	return formats.map((f) => (typeof f === 'string' ? f : String((f as IDataObject)?.type ?? '')));
}

function jsonTracking(formats: unknown): boolean {
	if (!Array.isArray(formats)) return false;
	return formats.some((f) => {
		const o = f as IDataObject;
		return typeof o === 'object' && o !== null && o.type === 'changeTracking' && Array.isArray(o.modes) && (o.modes as unknown[]).includes('json');
	});
}

/** Credits of one scraped document with these scrape options (the per-document rule), at least. */
export function documentCredits(options: IDataObject | undefined, { zdr = false }: { zdr?: boolean } = {}): number {
	const o = options ?? {};
	const types = formatTypes(o.formats);
	let credits: number = PRICES.page;
	if (o.lockdown === true) credits += PRICES.lockdown;
	// The server sets a JSON page's price after lockdown's: lockdown and JSON make 5, not 9.
	if (types.includes('json') || jsonTracking(o.formats)) credits = PRICES.page + PRICES.json;
	credits += PRICES.premiumFormat * types.filter((t) => PREMIUM_FORMATS.includes(t)).length;
	if ((zdr || o.zeroDataRetention === true) && o.lockdown !== true) credits += PRICES.zeroDataRetention;
	if (o.redactPII === true) credits += PRICES.redactPII;
	if (o.proxy === 'enhanced' || o.proxy === 'stealth') credits += PRICES.enhancedProxy;
	if (o.checkPromptInjection === true) credits += PRICES.promptInjectionCheck;
	return credits;
}

/** The most a PDF's pages add when Max Pages bounds them (none without it: the pages are unknown). */
export function pdfPagesCredits(options: IDataObject | undefined): number {
	const parsers = Array.isArray(options?.parsers) ? (options.parsers as IDataObject[]) : [];
	const max = Number(parsers.find((p) => p?.type === 'pdf')?.maxPages);
	return Number.isInteger(max) && max > 1 ? (max - 1) * PRICES.pdfPage : 0;
}

/** Credits of a browser session open `seconds` (started by the minute; a prompt-driven one costs more). */
export const browserCredits = (seconds: number, prompt = false): number =>
	Math.max(1, Math.ceil(seconds / 60)) * (prompt ? PRICES.browserMinuteWithPrompt : PRICES.browserMinute);

const sourceTypes = (sources: unknown): string[] =>
	Array.isArray(sources) && sources.length > 0
		? sources.map((s) => (typeof s === 'string' ? s : String((s as IDataObject)?.type ?? '')))
		: ['web'];

/** A search's credits at most: 2 per 10 results (10 with zero data retention) and each scraped result. */
export function searchCredits(body: IDataObject): number {
	const limit = Number(body.limit ?? 5) || 5;
	const sources = sourceTypes(body.sources);
	const zdr = Array.isArray(body.enterprise) && (body.enterprise as unknown[]).includes('zdr');
	const results = limit * sources.length;
	let credits = Math.ceil(results / 10) * (zdr ? PRICES.searchPer10ResultsZdr : PRICES.searchPer10Results);
	const scrape = body.scrapeOptions as IDataObject | undefined;
	if (scrape && Array.isArray(scrape.formats) && scrape.formats.length > 0) {
		const scraped = limit * sources.filter((s) => s === 'web' || s === 'news').length;
		credits += scraped * documentCredits(scrape, { zdr });
	}
	return credits;
}

/** Credits an answer reports: a document's `metadata.creditsUsed`, or the top-level `creditsUsed`. */
export function reportedCredits(answer: IDataObject): number | undefined {
	const top = answer.creditsUsed;
	if (typeof top === 'number' && Number.isFinite(top)) return top;
	const data = answer.data as IDataObject | undefined;
	const meta = data?.metadata as IDataObject | undefined;
	const doc = meta?.creditsUsed;
	return typeof doc === 'number' && Number.isFinite(doc) ? doc : undefined;
}

export const DEFAULT_CRAWL_LIMIT = PRICES.crawlLimitDefault;
export const DEFAULT_AGENT_MAX_CREDITS = PRICES.agentMaxCreditsDefault;
