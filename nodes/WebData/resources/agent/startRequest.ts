import type { IDataObject, IExecuteFunctions, INode } from 'n8n-workflow';

import { invalid, isHttpUrl, parseJsonText } from '../../helpers/validation';
import { DEFAULT_AGENT_MAX_CREDITS } from '../../budget/cost';
import { type JobStart, reserveJob, startUnderBudget } from '../../budget/jobs';
import { startJob } from '../../jobs/start';
import { assertWebhookUsable, buildEventWebhook } from '../../jobs/triggerTarget';
import type { RunContext } from '../../types';
import { defaultDeps } from '../../transport';
import { AGENT_HINTS, jobItem } from './shared';
import { isPlainObject } from '../../helpers/objects';

export const MAX_PROMPT_LENGTH = 10_000;
export const MAX_AUDIT_USERNAME = 1024;
export const MODELS = ['spark-1-pro', 'spark-1-mini', 'spark-2'];
const JSON_SCHEMA_TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'];

/** The start parameters as the node holds them. */
export interface StartParameters {
	prompt: unknown;
	urls: unknown;
	strictConstrainToURLs: unknown;
	outputShape: unknown;
	jsonSchema?: unknown;
	jsonExample?: unknown;
	options: IDataObject;
}

export function readStartParameters(ctx: IExecuteFunctions, i: number): StartParameters {
	const outputShape = ctx.getNodeParameter('outputShape', i, 'free');
	return {
		prompt: ctx.getNodeParameter('prompt', i, ''),
		urls: ctx.getNodeParameter('urls', i, ''),
		strictConstrainToURLs: ctx.getNodeParameter('strictConstrainToURLs', i, false),
		outputShape,
		jsonSchema: outputShape === 'schema' ? ctx.getNodeParameter('jsonSchema', i, '') : undefined,
		jsonExample: outputShape === 'example' ? ctx.getNodeParameter('jsonExample', i, '') : undefined,
		options: ctx.getNodeParameter('options', i, {}) as IDataObject,
	};
}

function parseJsonField(node: INode, field: string, value: unknown, i: number): unknown {
	return parseJsonText(node, field, value, 'a JSON object', i);
}

/** The first problem of a JSON Schema the service would refuse with 400 (nodes/FACTS.md "Server request rules"), with its path. */
export function jsonSchemaProblem(schema: unknown, where = '#'): string | undefined {
	if (!isPlainObject(schema)) return `${where} must be a JSON object`;
	const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
	for (const t of types) {
		if (typeof t !== 'string' || !JSON_SCHEMA_TYPES.includes(t)) {
			return `${where}/type ${JSON.stringify(t)} is not a JSON Schema type (${JSON_SCHEMA_TYPES.join(', ')})`;
		}
	}
	if (schema.properties !== undefined) {
		if (!isPlainObject(schema.properties)) return `${where}/properties must be an object of schemas`;
		for (const [key, sub] of Object.entries(schema.properties)) {
			const problem = jsonSchemaProblem(sub, `${where}/properties/${key}`);
			if (problem) return problem;
		}
	}
	if (schema.items !== undefined) {
		const list = Array.isArray(schema.items) ? schema.items : [schema.items];
		for (const [n, sub] of list.entries()) {
			const problem = jsonSchemaProblem(sub, Array.isArray(schema.items) ? `${where}/items/${n}` : `${where}/items`);
			if (problem) return problem;
		}
	}
	if (
		schema.required !== undefined &&
		!(Array.isArray(schema.required) && schema.required.every((r) => typeof r === 'string'))
	) {
		return `${where}/required must be a list of field names`;
	}
	return undefined;
}

/**
 * A JSON Schema generated from an example value: objects list their keys as properties (all
 * required), lists are described by their first entry, numbers become "number", null allows any value.
 */
export function schemaFromExample(value: unknown): IDataObject {
	if (value === null || value === undefined) return {};
	if (Array.isArray(value)) return value.length > 0 ? { type: 'array', items: schemaFromExample(value[0]) } : { type: 'array' };
	if (typeof value === 'object') {
		const properties: IDataObject = {};
		for (const [key, sub] of Object.entries(value as IDataObject)) properties[key] = schemaFromExample(sub);
		return { type: 'object', properties, required: Object.keys(properties) };
	}
	if (typeof value === 'number') return { type: 'number' };
	if (typeof value === 'boolean') return { type: 'boolean' };
	return { type: 'string' };
}

/** URLs from a string (commas, new lines or spaces between them) or from a list given by an expression. */
/** The field names and rules of one resource's Output Shape (Free Form / JSON Schema / From a JSON Example). */
export interface OutputShapeLabels {
	/** Display name of the JSON Schema field. */
	schemaField: string;
	/** Start of the rule shown when the schema has a problem ("<rule>: <problem>"). */
	schemaRule: string;
	/** The resource's schema check: the first problem with its path, or undefined. */
	schemaProblem: (schema: unknown) => string | undefined;
	/** Display name of the JSON Example field. */
	exampleField: string;
	/** An example object shown in the rule when the example is not an object. */
	exampleSample: string;
}

/**
 * The `schema` to send for an Output Shape: the given JSON Schema (checked), one generated from the
 * JSON example, or undefined for Free Form. Shared by Agent and Extract, which take the same shapes.
 */
export function outputShapeSchema(
	node: INode,
	params: { outputShape: unknown; jsonSchema?: unknown; jsonExample?: unknown },
	i: number,
	labels: OutputShapeLabels,
): IDataObject | undefined {
	if (params.outputShape === 'schema') {
		const schema = parseJsonField(node, labels.schemaField, params.jsonSchema, i);
		const problem = labels.schemaProblem(schema);
		if (problem) throw invalid(node, labels.schemaField, schema, `${labels.schemaRule}: ${problem}`, i);
		return schema as IDataObject;
	}
	if (params.outputShape === 'example') {
		const example = parseJsonField(node, labels.exampleField, params.jsonExample, i);
		if (!isPlainObject(example)) {
			throw invalid(node, labels.exampleField, example, `it must be a JSON object such as ${labels.exampleSample}`, i);
		}
		return schemaFromExample(example);
	}
	if (params.outputShape !== 'free' && params.outputShape !== undefined) {
		throw invalid(node, 'Output Shape', params.outputShape, 'choose Free Form, JSON Schema or From a JSON Example', i);
	}
	return undefined;
}

export function urlList(value: unknown): string[] {
	if (value === undefined || value === null) return [];
	const parts = Array.isArray(value) ? value.map((v) => String(v ?? '')) : String(value).split(/[\s,]+/);
	return parts.map((u) => u.trim()).filter((u) => u !== '');
}

/** An agent run's Max Credits: undefined when not set, else a number above 0 (an error naming `field`). */
export function readMaxCredits(node: INode, field: string, raw: unknown, i: number): number | undefined {
	if (raw === undefined || raw === null || raw === '') return undefined;
	const max = Number(raw);
	if (typeof raw === 'boolean' || !Number.isFinite(max) || max <= 0) {
		throw invalid(node, field, raw, 'it must be a number above 0 (the service default is 2500)', i);
	}
	return max;
}

/** The body of POST /v2/agent: every rule checked first, naming the field; only what the user set is sent. */
export function buildStartBody(node: INode, params: StartParameters, i: number): IDataObject {
	const body: IDataObject = {};

	const prompt = typeof params.prompt === 'string' ? params.prompt : params.prompt === undefined || params.prompt === null ? '' : String(params.prompt);
	if (prompt.trim() === '') throw invalid(node, 'Prompt', prompt, 'it is required; say what the agent should find out', i);
	if (prompt.length > MAX_PROMPT_LENGTH) {
		throw invalid(node, 'Prompt', prompt, `it has ${prompt.length} characters; at most ${MAX_PROMPT_LENGTH} are allowed. Shorten it.`, i);
	}
	body.prompt = prompt;

	const urls = urlList(params.urls);
	const bad = urls.find((u) => !isHttpUrl(u));
	if (bad !== undefined) {
		throw invalid(node, 'URLs', bad, 'each URL must be absolute and start with http:// or https:// (separate several with commas)', i);
	}
	if (urls.length) body.urls = urls;

	if (params.strictConstrainToURLs === true) {
		if (!urls.length) {
			throw invalid(node, 'Strict to URLs', true, 'it needs at least one URL in "URLs"; add the pages or switch it off', i);
		}
		body.strictConstrainToURLs = true;
	}

	const schema = outputShapeSchema(node, params, i, {
		schemaField: 'Output JSON Schema',
		schemaRule: 'it is not a valid JSON Schema',
		schemaProblem: jsonSchemaProblem,
		exampleField: 'Output JSON Example',
		exampleSample: '{"name": "Acme", "price": 20}',
	});
	if (schema) body.schema = schema;

	const o = params.options ?? {};
	const maxCredits = readMaxCredits(node, 'Max Credits', o.maxCredits, i);
	if (maxCredits !== undefined) body.maxCredits = maxCredits;
	if (o.model !== undefined && o.model !== '') {
		if (typeof o.model !== 'string' || !MODELS.includes(o.model)) {
			throw invalid(node, 'Model', o.model, `it must be one of ${MODELS.join(', ')}`, i);
		}
		body.model = o.model;
	}
	if (o.auditUsername !== undefined && o.auditUsername !== '') {
		const username = String(o.auditUsername);
		if (username.length > MAX_AUDIT_USERNAME) {
			throw invalid(node, 'User Name for Audit Logs', username, `it has ${username.length} characters; at most ${MAX_AUDIT_USERNAME} are allowed`, i);
		}
		body.auditMetadata = { username };
	}
	// Not in the public OpenAPI: nodes/FACTS.md "Server request rules".
	const webhook = buildEventWebhook(node, o, 'agent', i);
	if (webhook) body.webhook = webhook;
	return body;
}

/** POST /v2/agent; returns the job item ({id, …} of the answer, without `success`). */
export async function startAgentRun(
	ctx: IExecuteFunctions,
	body: IDataObject,
	i: number,
	run?: RunContext,
): Promise<IDataObject> {
	await assertWebhookUsable(ctx, body.webhook, i);
	const reserved = await reserveAgentRun(body, i, run);
	return await startUnderBudget(reserved, i, async () => {
		const { id, answer } = await startJob(ctx, { method: 'POST', path: '/agent', body, itemIndex: i, hints: AGENT_HINTS }, run?.transportDeps ?? defaultDeps, {
			message: 'The service accepted the run but returned no job ID',
			description: 'The run may or may not have started. Check the recent runs (Agent → Get Many) before starting it again.',
		});
		return jobItem(id, answer);
	});
}

/**
 * Under a budget the run's Max Credits is what is left, when less than asked (issue 35.3): the service
 * stops the run there itself (spec 3, `credit_limit_reached`). That much is held until the run ends.
 */
async function reserveAgentRun(body: IDataObject, i: number, run?: RunContext): Promise<JobStart | undefined> {
	const budget = run?.transportDeps.budget;
	if (!budget) return undefined;
	await budget.ready();
	const asked = typeof body.maxCredits === 'number' ? body.maxCredits : DEFAULT_AGENT_MAX_CREDITS;
	const left = budget.left(i);
	if (asked > left && left >= 1) {
		body.maxCredits = Math.floor(left);
		budget.note(i, { maxCreditsLowered: { from: asked, to: body.maxCredits } });
	}
	const bound = typeof body.maxCredits === 'number' ? body.maxCredits : asked;
	return reserveJob(run, { credits: bound, what: `this agent run (Max Credits ${bound})`, lower: 'set a lower Max Credits' }, i);
}
