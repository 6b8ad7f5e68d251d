import type { IDataObject, INode } from 'n8n-workflow';

import { invalid } from '../../helpers/validation';
import type { CombinePages } from './combine';
import { checkExtractInput, ENDPOINT_EXTRACT, type ExtractInput, type ExtractParameters, MAX_PROMPT_LENGTH } from './request';

// Extract's parameters on the endpoints that live: nodes/FACTS.md "Extract after /extract".

/** `extract` only when the user chose it (a self-hosted server). */
export type ExtractRoute = 'scrape' | 'batchScrape' | 'agent' | 'extract';

export interface ExtractPlan {
	route: ExtractRoute;
	reason: string;
	body: IDataObject;
	/** As given (a trailing /* kept). */
	urls: string[];
	showSources: boolean;
	combine: CombinePages;
	/** Options the route has no equivalent for, left out, in words. */
	notes: string[];
	/** What was asked, as the old /extract body: for the empty-result note. */
	asked: IDataObject;
}

export const DEFAULT_PAGE_PROMPT = 'Extract the main facts of this page as structured JSON.';

const AGENT_DROPS = [
	'onlyMainContent', 'includeTags', 'excludeTags', 'waitFor', 'timeout', 'blockAds', 'removeBase64Images', 'maxAge',
	'storeInCache', 'skipTlsVerification', 'mobile', 'proxy', 'parsers',
];
/** They change what a page holds: the agent cannot honour them. */
const AGENT_REFUSES: Record<string, string> = { headers: 'Headers', actions: 'Browser Actions', location: 'Location Country / Languages' };

const isWildcard = (url: string): boolean => /\/\*$/.test(url);
const withoutWildcard = (url: string): string => url.replace(/\/\*$/, '/');

function chooseRoute(input: ExtractInput, starting: boolean): { route: ExtractRoute; reason: string } {
	if (input.endpoint === ENDPOINT_EXTRACT) return { route: 'extract', reason: 'Options → Endpoint is "/extract" (a self-hosted server that still has it)' };
	const o = input.options;
	if (input.urls.length === 0) return { route: 'agent', reason: 'no URLs: the pages have to be found' };
	const wild = input.urls.find(isWildcard);
	if (wild) return { route: 'agent', reason: `${wild} ends in /*: the pages below it have to be found` };
	if (o.enableWebSearch === true) return { route: 'agent', reason: 'Enable Web Search is on' };
	if (o.allowExternalLinks === true) return { route: 'agent', reason: 'Allow External Links is on: links to other sites have to be followed' };
	if (input.urls.length === 1 && !starting) return { route: 'scrape', reason: 'one known page' };
	return { route: 'batchScrape', reason: input.urls.length === 1 ? 'one known page, started as a job to read later' : `${input.urls.length} known pages` };
}

function joinedPrompt(node: INode, input: ExtractInput, fallback: string | undefined, i: number): string | undefined {
	const parts = [input.systemPrompt, input.prompt || fallback].filter((p): p is string => typeof p === 'string' && p !== '');
	if (parts.length === 0) return undefined;
	const text = parts.join('\n\n');
	if (text.length > MAX_PROMPT_LENGTH) {
		throw invalid(
			node,
			'Prompt',
			input.prompt,
			`with the System Prompt it has ${text.length} characters; the service takes one prompt of at most ${MAX_PROMPT_LENGTH}. Shorten the Prompt or the System Prompt`,
			i,
		);
	}
	return text;
}

function jsonFormat(node: INode, input: ExtractInput, i: number): IDataObject {
	const format: IDataObject = { type: 'json' };
	const prompt = joinedPrompt(node, input, input.schema ? undefined : DEFAULT_PAGE_PROMPT, i);
	if (prompt) format.prompt = prompt;
	if (input.schema) format.schema = input.schema;
	return format;
}

function agentScope(input: ExtractInput): string[] {
	const o = input.options;
	const lines: string[] = [];
	const wild = input.urls.filter(isWildcard).map(withoutWildcard);
	if (wild.length) lines.push(`Read the pages below ${wild.join(', ')} as well.`);
	if (input.urls.length && o.enableWebSearch !== true) {
		const sites = o.allowExternalLinks === true ? 'these sites and the sites they link to' : 'these sites';
		lines.push(`Use only pages of ${sites}${o.includeSubdomains === false ? ' (not their subdomains)' : ''}.`);
	}
	if (o.enableWebSearch === true) lines.push('You may search the web for more data beyond these pages.');
	return lines;
}

const agentFallback = (input: ExtractInput): string =>
	input.schema ? 'Extract the data the JSON Schema describes from these pages.' : 'Extract the main facts of these pages as structured JSON.';

function agentBody(node: INode, input: ExtractInput, plan: ExtractPlan, i: number): IDataObject {
	const scope = agentScope(input);
	const prompt = joinedPrompt(node, { ...input, prompt: [input.prompt || agentFallback(input), ...scope].join('\n') }, undefined, i) as string;
	const body: IDataObject = { prompt };
	if (input.urls.length) body.urls = input.urls.map(withoutWildcard);
	if (input.schema) body.schema = input.schema;
	if (input.maxCredits !== undefined) body.maxCredits = input.maxCredits;
	const scrape = input.scrape ?? {};
	for (const [key, label] of Object.entries(AGENT_REFUSES)) {
		if (scrape[key] === undefined) continue;
		throw invalid(
			node,
			`Scrape Options → ${label}`,
			scrape[key],
			`this Extract runs on the agent (${plan.reason}), which fetches pages its own way and cannot use it. Give the pages as URLs without /* (then they are scraped with it), or remove the option`,
			i,
		);
	}
	const dropped = AGENT_DROPS.filter((k) => scrape[k] !== undefined);
	if (dropped.length) plan.notes.push(`Scrape Options (${dropped.join(', ')}) left out: the agent reads pages its own way.`);
	if (input.options.ignoreSitemap !== undefined) plan.notes.push('Ignore Sitemap left out: the agent finds pages its own way.');
	if (input.options.ignoreInvalidURLs === false) plan.notes.push('Ignore Invalid URLs (off) left out: the agent skips pages it cannot read.');
	if (plan.showSources) plan.notes.push('Show Sources: the agent reports no sources per field; "sources" lists the URLs it was given.');
	return body;
}

function pageNotes(input: ExtractInput, plan: ExtractPlan): void {
	const o = input.options;
	const unused = [o.includeSubdomains !== undefined ? 'Include Subdomains' : '', o.ignoreSitemap !== undefined ? 'Ignore Sitemap' : ''].filter(Boolean);
	if (unused.length) plan.notes.push(`${unused.join(' and ')} left out: they choose pages below a /* URL, and none was given.`);
	if (input.maxCredits !== undefined) plan.notes.push('Max Credits (Agent) left out: the pages are scraped, at 5 credits each.');
}

/** `starting`: Start, which needs a job to read later. */
export function planExtract(node: INode, params: ExtractParameters, i: number, starting: boolean): ExtractPlan {
	const input = checkExtractInput(node, params, i);
	const { route, reason } = chooseRoute(input, starting);
	const plan: ExtractPlan = { route, reason, body: {}, urls: input.urls, showSources: input.options.showSources === true, combine: input.combine, notes: [], asked: input.legacyBody };
	if (route === 'extract') {
		plan.body = input.legacyBody;
		return plan;
	}
	if (route === 'agent') {
		plan.body = agentBody(node, input, plan, i);
		return plan;
	}
	pageNotes(input, plan);
	const formats = [jsonFormat(node, input, i)];
	if (route === 'scrape') {
		plan.body = { url: input.urls[0], ...input.scrape, formats };
		return plan;
	}
	plan.body = { urls: input.urls, ...input.scrape, formats, ignoreInvalidURLs: input.options.ignoreInvalidURLs !== false };
	return plan;
}
