import type { IBinaryData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { invalid, unreachableByService } from '../helpers/validation';
import { DEFAULT_BASE_URL } from '../transport/baseUrl';

/**
 * Output shaping of a scraped Document (the `data` of POST /v2/scrape, an item of a search, crawl or
 * batch result): the full document, or a compact form for AI agents, and the screenshot as a file.
 */

export type OutputMode = 'full' | 'compact';

/** "Output": Full or Compact (the fields an LLM needs). */
export function outputModeField(compactFields: string): INodeProperties {
	return {
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'full',
		description: 'How much of each result to return',
		options: [
			{ name: 'Full', value: 'full', description: 'Every field the service returned, with the page metadata' },
			{
				name: 'Compact',
				value: 'compact',
				description: `Only ${compactFields}: small enough for an AI agent's context`,
			},
		],
	};
}

export function readOutputMode(ctx: IExecuteFunctions, i: number): OutputMode {
	const value = ctx.getNodeParameter('output', i, 'full');
	if (value !== 'full' && value !== 'compact') {
		throw invalid(ctx.getNode(), 'Output', value, 'one of full, compact', i);
	}
	return value;
}

function metadataOf(doc: IDataObject): IDataObject {
	const m = doc.metadata;
	return m !== null && typeof m === 'object' && !Array.isArray(m) ? (m as IDataObject) : {};
}

/** The URL a document stands for: the requested one, else what the service reports. */
export function documentUrl(doc: IDataObject, requested?: string): string | undefined {
	const m = metadataOf(doc);
	const url = requested ?? m.sourceURL ?? m.url ?? doc.url;
	return typeof url === 'string' ? url : undefined;
}

/** One item for a scraped page: Full (`url` first, then the Document) or Compact (what an LLM needs). */
export function documentJson(doc: IDataObject, mode: OutputMode, requestedUrl?: string): IDataObject {
	const url = documentUrl(doc, requestedUrl);
	if (mode === 'full') return { url, ...doc };
	const m = metadataOf(doc);
	const out: IDataObject = { url, title: m.title ?? doc.title ?? null };
	if (typeof doc.markdown === 'string') out.markdown = doc.markdown;
	else if (typeof doc.summary === 'string') out.summary = doc.summary;
	if (doc.json !== undefined && doc.json !== null) out.json = doc.json;
	const change = doc.changeTracking as IDataObject | undefined;
	if (change && typeof change === 'object' && change.changeStatus !== undefined) out.changeStatus = change.changeStatus;
	if (typeof m.statusCode === 'number' && m.statusCode >= 400) out.statusCode = m.statusCode;
	if (m.error) out.error = m.error;
	return out;
}

const EXTENSIONS: Record<string, string> = {
	'image/png': 'png',
	'image/jpeg': 'jpg',
	'image/webp': 'webp',
	'image/gif': 'gif',
};

/**
 * Downloads a screenshot link into n8n binary data. The link points to the service's storage (a
 * signed URL), so it is fetched with n8n's plain HTTP helper and WITHOUT the API key: the key never
 * leaves for another address. A `data:` URI (self-hosted services) is decoded in place.
 */
export async function downloadScreenshot(
	ctx: IExecuteFunctions,
	link: string,
	baseName: string,
	itemIndex: number,
): Promise<IBinaryData> {
	const dataUri = /^data:([^;,]+)?(;base64)?,(.*)$/s.exec(link);
	if (dataUri) {
		const mime = dataUri[1] || 'image/png';
		const bytes = dataUri[2] ? Buffer.from(dataUri[3], 'base64') : Buffer.from(decodeURIComponent(dataUri[3]), 'utf8');
		return await ctx.helpers.prepareBinaryData(bytes, `${baseName}.${EXTENSIONS[mime] ?? 'png'}`, mime);
	}
	let parsed: URL;
	try {
		parsed = new URL(link);
	} catch {
		throw invalid(ctx.getNode(), 'screenshot', link, 'the service returned a screenshot link that is not a URL', itemIndex);
	}
	if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
		throw invalid(ctx.getNode(), 'screenshot', link, 'the screenshot link must be http or https', itemIndex);
	}
	// A service on the internet never stores screenshots on a private address; a self-hosted one may.
	const credentials = await ctx.getCredentials('webDataApi');
	const base = typeof credentials.baseUrl === 'string' && credentials.baseUrl.trim() !== '' ? credentials.baseUrl : DEFAULT_BASE_URL;
	if (unreachableByService(base, parsed.toString())) {
		throw invalid(ctx.getNode(), 'screenshot', parsed.host, 'the service on the internet named a local or private address for the screenshot file, so it is not downloaded (a self-hosted service on a private address may)', itemIndex);
	}
	const response = (await ctx.helpers.httpRequest({
		method: 'GET',
		url: parsed.toString(),
		encoding: 'arraybuffer',
		returnFullResponse: true,
		timeout: 60_000,
	})) as { body: ArrayBuffer | Buffer; headers: Record<string, string | string[] | undefined> };
	const body = Buffer.isBuffer(response.body) ? response.body : Buffer.from(response.body);
	const header = response.headers?.['content-type'];
	const mime = String(Array.isArray(header) ? header[0] : (header ?? 'image/png')).split(';')[0].trim() || 'image/png';
	return await ctx.helpers.prepareBinaryData(body, `${baseName}.${EXTENSIONS[mime] ?? 'png'}`, mime);
}

/** A file name from a page URL: host and path, safe for any file system. */
export function fileBaseName(url: string | undefined, fallback = 'page'): string {
	if (!url) return fallback;
	try {
		const u = new URL(url);
		const name = `${u.hostname}${u.pathname}`.replace(/[^A-Za-z0-9.-]+/g, '-').replace(/^-+|-+$/g, '');
		return (name || fallback).slice(0, 100);
	} catch {
		return fallback;
	}
}
