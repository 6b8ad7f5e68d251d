import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { applyCustomBody, customBodyOption } from '../../fields/customBody';
import type { Operation, RunContext } from '../../types';
import { invalid } from '../../helpers/validation';
import { apiRequest, defaultDeps } from '../../transport';
import { browserCredits } from '../../budget/cost';
import { optionalInteger, readTarget, readTargetId, type Target, TARGET_ID_FROM_AI, targetFields, targetHints, targetIdKey } from './shared';
import { aiValue } from '../../tool/fromAi';

const CODE_MAX = 100000;
const PROMPT_MAX = 10000;
const LANGUAGES = ['node', 'python', 'bash'] as const;

/** Language and Code, without a display rule (added below: shown for a session, and for a scraped page run with code). */
const codeProperties: INodeProperties[] = [
	{
		displayName: 'Language',
		name: 'language',
		type: 'options',
		default: 'node',
		options: [
			{ name: 'JavaScript (Node.js)', value: 'node', description: 'Playwright-style code with a "page" object' },
			{ name: 'Python', value: 'python' },
			{ name: 'Bash', value: 'bash', description: 'Commands of the agent-browser command line' },
		],
	},
	{
		displayName: 'Code',
		name: 'code',
		type: 'string',
		typeOptions: { rows: 8 },
		default: '',
		required: true,
		placeholder: "e.g. await page.click('text=Next'); console.log(await page.title());",
		description:
			'Code to run in the browser (1 to 100,000 characters). What it prints is in "stdout" of the output.',
	},
];

/**
 * Shown for every session, and for a scraped page when Execute With is Code. Two copies with their
 * own display rules: a hidden Execute With (sessions run code only) never hides the code.
 */
const codeFields: INodeProperties[] = [
	...codeProperties.map((p) => ({ ...p, displayOptions: { show: { target: ['session'] } } })),
	...codeProperties.map((p) => ({ ...p, displayOptions: { show: { target: ['scrapeJob'], executeWith: ['code'] } } })),
];

/**
 * The request of Execute: POST /v2/interact/{sessionId}/execute {code, language, timeout?} for a
 * session (code only), or POST /v2/scrape/{jobId}/interact {code, language, timeout?} or
 * {prompt, timeout?} for a scraped page. Checked completely before anything is sent.
 */
export function executeRequest(
	ctx: IExecuteFunctions,
	i: number,
): { target: Target; id: string; path: string; body: IDataObject } {
	const node = ctx.getNode();
	const target = readTarget(ctx, i);
	const id = readTargetId(ctx, target, i);
	const executeWith = target === 'scrapeJob' ? ctx.getNodeParameter('executeWith', i, 'code') : 'code';
	if (executeWith !== 'code' && executeWith !== 'prompt') {
		throw invalid(node, 'Execute With', executeWith, 'one of code, prompt', i);
	}
	const body: IDataObject = {};
	if (executeWith === 'code') {
		const code = ctx.getNodeParameter('code', i, '');
		if (typeof code !== 'string' || code.trim() === '') {
			throw invalid(node, 'Code', code, 'it must not be empty', i);
		}
		if (code.length > CODE_MAX) {
			throw invalid(node, 'Code', code, `it may have at most ${CODE_MAX} characters (it has ${code.length})`, i);
		}
		const language = ctx.getNodeParameter('language', i, 'node');
		if (!LANGUAGES.includes(language as (typeof LANGUAGES)[number])) {
			throw invalid(node, 'Language', language, `one of ${LANGUAGES.join(', ')}`, i);
		}
		body.code = code;
		body.language = language;
	} else {
		const prompt = ctx.getNodeParameter('prompt', i, '');
		if (typeof prompt !== 'string' || prompt.trim() === '') {
			throw invalid(node, 'Prompt', prompt, 'it must not be empty', i);
		}
		if (prompt.length > PROMPT_MAX) {
			throw invalid(node, 'Prompt', prompt, `it may have at most ${PROMPT_MAX} characters (it has ${prompt.length})`, i);
		}
		body.prompt = prompt;
	}
	const options = ctx.getNodeParameter('options', i, {}) as IDataObject;
	const timeout = optionalInteger(ctx, 'Timeout (Seconds)', options.timeout, 1, 300, 'seconds', i);
	if (timeout !== undefined) body.timeout = timeout;
	const path = target === 'session' ? `/interact/${id}/execute` : `/scrape/${id}/interact`;
	return { target, id, path, body };
}

/** Interact → Execute: run code (or, on a scraped page, a natural-language prompt) in a browser. */
export const execute: Operation = {
	spends: true,
	tool: {
		description:
			'Act in an open browser: run code in a browser session (its id from the tool that starts a session), or on the page of an earlier scrape run code or a plain-words task. Returns what the code prints (stdout) or the answer of the task. Costs credits while the browser is open.',
		fromAi: {
			...TARGET_ID_FROM_AI,
			code: aiValue('code', 'JavaScript to run in the browser with a Playwright page object, e.g. await page.click("text=Next"); console.log(await page.title()); what it prints comes back'),
			prompt: aiValue('task', 'What to do on the page in plain words, e.g. open the Pricing tab and tell me the price of the Pro plan'),
		},
	},
	properties: [
		...targetFields,
		{
			displayName: 'Execute With',
			name: 'executeWith',
			type: 'options',
			noDataExpression: true,
			default: 'code',
			displayOptions: { show: { target: ['scrapeJob'] } },
			options: [
				{ name: 'Code', value: 'code', description: 'Run code you write in the browser sandbox' },
				{
					name: 'Prompt',
					value: 'prompt',
					description: 'Describe the task in plain language; an AI agent clicks, types and navigates for you',
				},
			],
		},
		...codeFields,
		{
			displayName: 'Prompt',
			name: 'prompt',
			type: 'string',
			typeOptions: { rows: 4 },
			default: '',
			required: true,
			displayOptions: { show: { target: ['scrapeJob'], executeWith: ['prompt'] } },
			placeholder: 'e.g. Accept the cookie banner, open the "Pricing" tab and tell me the price of the Pro plan',
			description: 'What the AI agent should do on the page (1 to 10,000 characters). Its answer is in "output".',
		},
		{
			displayName: 'Options',
			name: 'options',
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				customBodyOption,
				{
					displayName: 'Timeout (Seconds)',
					name: 'timeout',
					type: 'number',
					typeOptions: { minValue: 1, maxValue: 300 },
					default: 30,
					description: 'Stop the execution after this many seconds (1 to 300); the output then has "killed": true',
				},
			],
		},
	],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const request = executeRequest(this, i);
		applyCustomBody(this, i, execute, request.body);
		const deps = run?.transportDeps ?? defaultDeps;
		// A browser this execution holds is paid by its hold; another one counts its minutes here.
		const held = (deps.budget?.jobHold(request.id) ?? 0) > 0;
		const seconds = (request.body.timeout as number | undefined) ?? 30;
		const credits = browserCredits(seconds, request.body.prompt !== undefined);
		const answer = await apiRequest<IDataObject>(
			this,
			{
				method: 'POST',
				path: request.path,
				body: request.body,
				itemIndex: i,
				hints: targetHints(request.target),
				// A run may take up to its own timeout (default 30 s, at most 300 s); leave room for opening
				// the browser (on a scraped page the first call replays the page) and for the answer.
				timeoutMs: seconds * 1000 + 120_000,
				cost: held ? undefined : { credits, what: `running this in the browser (up to ${seconds} s, by the browser minute)`, lower: 'set a lower Options → Timeout (Seconds)' },
			},
			deps,
		);
		return [{ json: { [targetIdKey(request.target)]: request.id, ...answer } }];
	},
};
