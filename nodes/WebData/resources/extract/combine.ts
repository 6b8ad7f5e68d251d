import type { IDataObject } from 'n8n-workflow';

import { isPlainObject } from '../../helpers/objects';

export type CombinePages = 'merge' | 'perPage';

/** A page's JSON format answer. */
export interface PageAnswer {
	url: string;
	data: unknown;
	warning?: string;
	error?: string;
	creditsUsed?: number;
}

/** null, '', or lists / objects of such values only. */
export function isEmptyValue(value: unknown): boolean {
	if (value === undefined || value === null || value === '') return true;
	if (Array.isArray(value)) return value.every(isEmptyValue);
	if (isPlainObject(value)) return Object.values(value).every(isEmptyValue);
	return false;
}

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Two pages' data as one: the first non-empty value wins; lists join (equal entries once); objects merge by field. */
export function mergeTwo(a: unknown, b: unknown): unknown {
	if (isEmptyValue(a)) return isEmptyValue(b) ? (a ?? b) : b;
	if (isEmptyValue(b)) return a;
	if (Array.isArray(a) && Array.isArray(b)) return [...a, ...b.filter((v) => !a.some((w) => sameJson(v, w)))];
	if (isPlainObject(a) && isPlainObject(b)) {
		const out: IDataObject = {};
		for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) out[key] = mergeTwo(a[key], b[key]) as IDataObject[string];
		return out;
	}
	return a;
}

export function pageAnswer(doc: IDataObject, fallbackUrl: string, warning?: unknown): PageAnswer {
	const meta = isPlainObject(doc.metadata) ? doc.metadata : {};
	const url = [meta.sourceURL, meta.url, fallbackUrl].find((u): u is string => typeof u === 'string' && u !== '') ?? fallbackUrl;
	const page: PageAnswer = { url, data: doc.json ?? null };
	const said = doc.warning ?? warning;
	if (typeof said === 'string' && said !== '') page.warning = said;
	const status = Number(meta.statusCode);
	if (Number.isInteger(status) && status >= 400) page.error = typeof meta.error === 'string' && meta.error !== '' ? `HTTP ${status}: ${meta.error}` : `HTTP ${status}`;
	if (typeof meta.creditsUsed === 'number') page.creditsUsed = meta.creditsUsed;
	return page;
}

/** Show Sources: the pages that gave each field. */
function sourcesOf(data: unknown, pages: PageAnswer[]): IDataObject | string[] {
	const answered = pages.filter((p) => !isEmptyValue(p.data));
	if (!isPlainObject(data)) return answered.map((p) => p.url);
	const sources: IDataObject = {};
	for (const key of Object.keys(data)) {
		sources[key] = answered.filter((p) => isPlainObject(p.data) && !isEmptyValue(p.data[key])).map((p) => p.url);
	}
	return sources;
}

const failed = (p: PageAnswer): IDataObject => ({ url: p.url, ...(p.error ? { error: p.error } : {}), ...(p.warning ? { warning: p.warning } : {}) });

/** The pages (in URL order) as one merged item, or one per page. */
export function combinePages(pages: PageAnswer[], combine: CombinePages, showSources: boolean): IDataObject[] {
	if (combine === 'perPage') {
		return pages.map((p) => ({
			url: p.url,
			status: p.error ? 'failed' : 'completed',
			data: p.data as IDataObject,
			...(p.warning ? { warning: p.warning } : {}),
			...(p.error ? { error: p.error } : {}),
			...(p.creditsUsed !== undefined ? { creditsUsed: p.creditsUsed } : {}),
		}));
	}
	const data = pages.reduce<unknown>((merged, p) => mergeTwo(merged, p.data), null);
	const item: IDataObject = { status: 'completed', data: data as IDataObject };
	if (showSources) item.sources = sourcesOf(data, pages) as IDataObject;
	const without = pages.filter((p) => p.error || isEmptyValue(p.data));
	if (without.length) item.pagesWithoutData = without.map(failed);
	return [item];
}
