import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { applyCustomBody, customBodyOption } from '../../fields/customBody';
import { documentJson, downloadScreenshot, fileBaseName, outputModeField, readOutputMode } from '../../fields/document';
import { readScrapeOptions, requireHttpUrl, scrapeAnswerTimeoutMs, SCRAPE_HINTS, SCRAPE_OPTION_BODY_KEYS, scrapeOptionProperties } from '../../fields/scrapeOptions';
import { errorItem, isCancellation } from '../../helpers/items';
import type { Operation, RunContext } from '../../types';
import { invalid } from '../../helpers/validation';
import { documentCredits, reportedCredits } from '../../budget/cost';
import { apiRequest, defaultDeps } from '../../transport';

const DEFAULT_CONCURRENCY = 5;
const MAX_CONCURRENCY = 20;

const properties: INodeProperties[] = [
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. https://example.com/pricing',
		description:
			'The page to scrape: an absolute http or https address. Public PDF and document URLs work too. Each input item scrapes its own URL.',
	},
	...scrapeOptionProperties(),
	outputModeField('the URL, the title and the Markdown (or the summary), plus JSON and the change status when asked for'),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		description: 'How this node runs the scrapes: how many items at once, the screenshot file, zero data retention. How each page is read is under Scrape Options.',
		options: [
			{
				displayName: 'Concurrency',
				name: 'concurrency',
				type: 'number',
				typeOptions: { minValue: 1, maxValue: 20, numberPrecision: 0 },
				default: 5,
				description:
					'How many URLs to scrape at once (1 to 20). The node slows down by itself when the service says the rate limit is reached.',
			},
			customBodyOption,
			{
				displayName: 'Download Screenshot',
				name: 'downloadScreenshot',
				type: 'boolean',
				default: false,
				description:
					'Whether to download the screenshot into a binary field (needs the Screenshot format). The link expires after 24 hours; the file does not.',
			},
			{
				displayName: 'On Screenshot Download Failure',
				name: 'onScreenshotFailure',
				type: 'options',
				default: 'keepPage',
				description:
					'What to do when the page was scraped but its screenshot file cannot be downloaded (the link expired after 24 hours, or its storage cannot be reached)',
				options: [
					{
						name: 'Keep Page, Note the Error',
						value: 'keepPage',
						description: 'Output the scraped page without the file; "screenshotError" on the item says what failed, where, and what to do',
					},
					{
						name: 'Fail the Item',
						value: 'fail',
						description: 'An error that names the screenshot download; under Continue On Fail the error item still carries the page',
					},
				],
			},
			{
				displayName: 'Screenshot Binary Field',
				name: 'screenshotBinaryProperty',
				type: 'string',
				default: 'screenshot',
				description: 'Name of the binary field that receives the screenshot when Download Screenshot is on',
			},
			{
				displayName: 'Zero Data Retention',
				name: 'zeroDataRetention',
				type: 'boolean',
				default: false,
				description: 'Whether the service must keep nothing of this scrape. Works only when your account has it enabled.',
			},
		],
	},
];


/** Scrape → Scrape URL: one POST /v2/scrape per input item, one output item per URL. */
export const scrapeUrl: Operation = {
	spends: true,
	bodyKeys: SCRAPE_OPTION_BODY_KEYS,
	tool: {
		description:
			'Read ONE web page whose URL you already know (a public PDF or document URL works too). Returns the page title and its main content as Markdown. Long content is cut at a marker that names the offset to ask for next. Costs one scrape (credits) per call. Pick it for a known page; use search when you do not know the page, map to list the URLs of a site, crawl to read many pages of one site.',
		fromAi: { url: "={{ /*n8n-auto-generated-fromAI-override*/ $fromAI('url', 'An absolute https URL of the one page to read, e.g. https://example.com/pricing', 'string') }}" },
	},
	properties,

	concurrency(this: IExecuteFunctions): number {
		const options = this.getNodeParameter('options', 0, {}) as IDataObject;
		const raw = options.concurrency ?? DEFAULT_CONCURRENCY;
		const value = Number(raw);
		if (!Number.isInteger(value) || value < 1 || value > MAX_CONCURRENCY) {
			throw invalid(this.getNode(), 'Options → Concurrency', raw, `a whole number from 1 to ${MAX_CONCURRENCY}`, 0);
		}
		return value;
	},

	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const node = this.getNode();
		const url = requireHttpUrl(node, 'URL', this.getNodeParameter('url', i, ''), i);
		const scrapeOptions = readScrapeOptions(this, i);
		const mode = readOutputMode(this, i);
		const options = this.getNodeParameter('options', i, {}) as IDataObject;
		const wantsScreenshot = (scrapeOptions.formats as Array<string | IDataObject>).some(
			(f) => f === 'screenshot' || (typeof f === 'object' && f.type === 'screenshot'),
		);
		const download = options.downloadScreenshot === true;
		if (download && !wantsScreenshot) {
			throw invalid(node, 'Options → Download Screenshot', true, 'choose the Screenshot format as well, or turn this option off', i);
		}
		const binaryField = String(options.screenshotBinaryProperty ?? 'screenshot').trim();
		if (download && !binaryField) {
			throw invalid(node, 'Options → Screenshot Binary Field', options.screenshotBinaryProperty, 'give the binary field a name', i);
		}

		const onShotFailure = options.onScreenshotFailure ?? 'keepPage';
		if (onShotFailure !== 'keepPage' && onShotFailure !== 'fail') {
			throw invalid(node, 'Options → On Screenshot Download Failure', onShotFailure, 'choose one of keepPage, fail', i);
		}

		const body: IDataObject = { url, ...scrapeOptions };
		if (options.zeroDataRetention !== undefined) body.zeroDataRetention = Boolean(options.zeroDataRetention);
		applyCustomBody(this, i, scrapeUrl, body);

		const pageCost = documentCredits(body, { zdr: body.zeroDataRetention === true });
		const answer = await apiRequest<IDataObject>(
			this,
			{
				method: 'POST',
				path: '/scrape',
				body,
				itemIndex: i,
				hints: SCRAPE_HINTS,
				timeoutMs: scrapeAnswerTimeoutMs(scrapeOptions),
				cost: { credits: pageCost, what: 'this scrape', lower: pageCost > 1 ? 'choose fewer premium formats (JSON makes a page 5 credits) or the basic proxy' : undefined, reported: reportedCredits },
			},
			run?.transportDeps ?? defaultDeps,
		);
		const doc = (answer.data ?? {}) as IDataObject;
		const item: INodeExecutionData = { json: documentJson(doc, mode, url) };
		if (answer.warning !== undefined && item.json.warning === undefined) item.json.warning = answer.warning as string;
		if (download && typeof doc.screenshot === 'string' && doc.screenshot) {
			let failed: { error: unknown } | undefined;
			try {
				item.binary = { [binaryField]: await downloadScreenshot(this, doc.screenshot, fileBaseName(url, 'screenshot'), i) };
			} catch (error) {
				failed = { error };
			}
			if (failed) return screenshotFailed(this, item, doc.screenshot, failed.error, onShotFailure, i);
		}
		return [item];
	},
};

/** A page whose screenshot could not be downloaded: the scrape is charged, so the page is never thrown away for the file. */
function screenshotFailed(
	ctx: IExecuteFunctions,
	item: INodeExecutionData,
	link: string,
	error: unknown,
	onFailure: string,
	i: number,
): INodeExecutionData[] {
	if (isCancellation(error)) throw error;
	const failure = screenshotFailure(link, error);
	if (onFailure === 'keepPage') {
		item.json.screenshotError = failure;
		return [item];
	}
	const failed = new NodeOperationError(ctx.getNode(), `The screenshot download from ${String(failure.host)} failed: ${String(failure.message)}`, {
		itemIndex: i,
		description: `The page was scraped (and charged); only its screenshot file could not be downloaded. ${String(failure.hint)} Set Options → On Screenshot Download Failure to "Keep Page, Note the Error" to get the page without the file.`,
	});
	if (!ctx.continueOnFail()) throw failed;
	const failedItem = errorItem(failed, i, ctx.getNode());
	return [{ ...failedItem, json: { ...item.json, ...failedItem.json, screenshotError: failure } }];
}

const SCREENSHOT_HINT =
	'Screenshot links expire 24 hours after the scrape: scrape the page again for a fresh link. If the link is fresh, n8n cannot reach the service\'s screenshot storage at this host (a firewall, proxy or DNS; on a self-hosted service, its storage address must be reachable from n8n).';

const NETWORK_ERRORS: Record<string, string> = {
	ECONNREFUSED: 'the connection was refused',
	ENOTFOUND: 'the host name was not found',
	EAI_AGAIN: 'the host name could not be looked up',
	ETIMEDOUT: 'the connection timed out',
	ECONNRESET: 'the connection was closed',
	ECONNABORTED: 'the connection was aborted',
	EHOSTUNREACH: 'the host is unreachable',
	ENETUNREACH: 'the network is unreachable',
};

/**
 * What failed in a screenshot download, for the item (`screenshotError`) or the error: the cause in
 * words (HTTP status, or the network error code), the storage host (not the signed link), a hint.
 */
function screenshotFailure(link: string, error: unknown): IDataObject {
	let host = 'the screenshot link';
	try {
		host = new URL(link).host || host;
	} catch {
		// not a URL: downloadScreenshot said so in its message
	}
	const e = error as {
		message?: string;
		code?: string;
		httpCode?: string | number;
		status?: number;
		statusCode?: number;
		response?: { status?: number };
		cause?: { code?: string; message?: string };
	};
	const status = Number(e.response?.status ?? e.statusCode ?? e.status ?? e.httpCode);
	const code = e.code ?? e.cause?.code;
	let message: string;
	if (Number.isInteger(status) && status >= 400) {
		const meaning = status === 400 || status === 403 || status === 404 || status === 410 ? ' (the link has expired or is not valid)' : '';
		message = `the storage answered HTTP ${status}${meaning}`;
	} else if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
		// In words: n8n hides messages with network codes (nodes/FACTS.md "n8n editor behaviour").
		message = `the storage could not be reached (${NETWORK_ERRORS[code] ?? 'network error'})`;
	} else {
		message = e.message ?? String(error);
	}
	const failure: IDataObject = { message, host, hint: SCREENSHOT_HINT };
	if (Number.isInteger(status) && status >= 400) failure.httpStatus = status;
	if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) failure.code = code;
	return failure;
}
