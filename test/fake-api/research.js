'use strict';
// The fake agent's answer (agent.js resultData): what a research run could plausibly have found for
// the prompt, in the shape of the request's JSON Schema. Deterministic (same prompt and schema, same
// answer), never the prompt echoed back as a value: names, years, prices, links and counts are made
// up from the field names and from what the prompt asks (how many things, "founded after 2018"…).
const crypto = require('crypto');
const { isPlainObject } = require('./util');

const NUMBER_WORDS = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };
const STEMS = ['Northwind', 'Kestrel', 'Bluefin', 'Larkspur', 'Meridian', 'Halcyon', 'Tamarack', 'Juniper', 'Corvid', 'Alder'];
const PEOPLE = ['Maya Lindqvist', 'Tomás Ferreira', 'Priya Raman', 'Jonas Weber', 'Aiko Tanaka', 'Samuel Okafor'];
const PLACES = ['Berlin, Germany', 'Austin, USA', 'Toronto, Canada', 'Lyon, France', 'Singapore', 'Melbourne, Australia'];
/** What the prompt is about → the last word of the names made up for it, and what to call the things. */
const KINDS = [
	[/robot/i, 'Robotics', 'robotics companies', 'builds robots that pick and pack orders in warehouses'],
	[/project management|task/i, 'Tasks', 'project management tools', 'is a project management tool for small teams, with boards, timelines and time tracking'],
	[/database/i, 'DB', 'databases', 'is an open-source database built for fast search'],
	[/bank|fintech|payment/i, 'Pay', 'payment companies', 'handles card payments and payouts for online shops'],
	[/restaurant|café|cafe|food/i, 'Kitchen', 'restaurants', 'serves seasonal dishes made from local produce'],
	[/hotel|travel/i, 'Stays', 'hotels', 'runs boutique hotels in city centres'],
	[/tool|software|app|platform|saas/i, 'Software', 'tools', 'makes software that teams use every day'],
	[/compan|start-?up|business|vendor|competitor/i, 'Labs', 'companies', 'makes software that helps businesses work with their data'],
];
const DEFAULT_KIND = [null, 'Group', 'results', 'works with businesses of every size'];

/** The prompt without the fake's own markers (FAKE_DURATION_MS=…), whitespace collapsed. */
function topicOf(prompt) {
	return String(prompt ?? '')
		.replace(/\bFAKE_[A-Z_]+(?:=[\w.-]+)?/g, '')
		.replace(/\s+/g, ' ')
		.trim();
}

/** How many things the prompt asks for ("three robotics start-ups", "top 5 tools"): 2 to 10, else 3. */
function countOf(topic) {
	// not "one" ("in one sentence"), not years, percentages or durations
	const m = /\b(two|three|four|five|six|seven|eight|nine|ten|\d{1,2})\b(?!\s*(?:%|percent|years?\b|months?\b|days?\b))/i.exec(topic.replace(/\b(19|20)\d\d\b/g, ''));
	if (!m) return 3;
	const n = NUMBER_WORDS[m[1].toLowerCase()] ?? Number(m[1]);
	return Math.min(10, Math.max(1, n));
}

/** Facts about one research run, shared by every field of the answer. */
function context(request) {
	const topic = topicOf(request.prompt);
	const seed = crypto.createHash('sha256').update(topic).digest().readUInt32BE(0);
	const [, suffix, plural, does] = KINDS.find(([re]) => re.test(topic)) ?? DEFAULT_KIND;
	const count = countOf(topic);
	const after = /\b(?:after|since|from)\s+((?:19|20)\d\d)\b/i.exec(topic);
	const names = Array.from({ length: Math.max(count, 3) }, (_, i) => `${STEMS[(seed + i) % STEMS.length]} ${suffix}`);
	return { topic, seed, plural, does, count, firstYear: after ? Number(after[1]) + (/since|from/i.test(after[0]) ? 0 : 1) : 2012 + (seed % 6), names, urls: request.urls ?? [] };
}

const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const words = (field) => field.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase();

function stringFor(field, ctx, i, entity, parent) {
	const f = field.toLowerCase();
	const person = /ceo|founder|person|author|contact|owner|lead|people|manager/;
	if (/name/.test(f) && person.test(String(parent).toLowerCase())) return PEOPLE[(ctx.seed + i) % PEOPLE.length];
	const site = `https://${slug(entity)}.example`;
	if (/url|link|homepage|website|site/.test(f)) return `${site}/`;
	if (/email/.test(f)) return `hello@${slug(entity)}.example`;
	if (person.test(f)) return PEOPLE[(ctx.seed + i) % PEOPLE.length];
	if (/country|location|city|headquarter|hq|region|address/.test(f)) return PLACES[(ctx.seed + i) % PLACES.length];
	if (/currency/.test(f)) return 'USD';
	if (/date|(^|_)at$|At$/.test(field)) return `${ctx.firstYear + i}-0${(i % 9) + 1}-15`;
	if (/price|cost|fee/.test(f)) return `$${priceOf(i)} per seat per month`;
	if (/summary|answer|conclusion|overview/.test(f))
		return `Found ${ctx.count} ${ctx.plural}: ${list(ctx.names.slice(0, ctx.count))}. ${ctx.names[0]} is the one most sources mention.`;
	if (/description|about|mission|what|pitch|note|does|summary/.test(f)) return `${entity} ${ctx.does}.`;
	if (/name|title|company|tool|product|brand|vendor|organi[sz]ation/.test(f)) return entity;
	return `${words(field)} of ${entity}`.replace(/^./, (c) => c.toUpperCase());
}

const PRICES = [9.5, 12, 16, 7.99, 24, 19];
const priceOf = (i) => PRICES[i % PRICES.length];

function numberFor(field, ctx, i, integer) {
	const f = field.toLowerCase();
	let n;
	if (/year|founded|established|since/.test(f)) n = Math.min(ctx.firstYear + i, 2026);
	else if (/price|cost|fee|amount|usd|eur|revenue/.test(f)) n = /revenue/.test(f) ? 1200000 * (i + 2) : priceOf(i);
	else if (/employee|staff|headcount|team|size/.test(f)) n = 40 + 35 * i;
	else if (/rating|score|stars/.test(f)) n = Math.round((4.6 - i * 0.2) * 10) / 10;
	else if (/percent|share|rate|growth/.test(f)) n = 12 + 7 * i;
	else if (/count|number|total|num|results/.test(f)) n = ctx.count;
	else n = 3 + i;
	return integer ? Math.round(n) : n;
}

function list(items) {
	return items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}` : items.join('');
}

/** A value for `schema` (the value of `field`, inside `parent`) found for the i-th thing (`entity`) of the research. */
function valueFor(schema, field, ctx, i, entity, depth, parent = '') {
	if (!isPlainObject(schema) || depth > 6) return null;
	if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[i % schema.enum.length];
	if ('const' in schema) return schema.const;
	const types = Array.isArray(schema.type) ? schema.type : [schema.type];
	const type = types.find((t) => t && t !== 'null') ?? (schema.properties ? 'object' : schema.items ? 'array' : undefined);
	switch (type) {
		case 'object':
			return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, valueFor(s, k, ctx, i, entity, depth + 1, field)]));
		case 'array': {
			const items = isPlainObject(schema.items) ? schema.items : { type: 'string' };
			const itemType = items.type ?? (items.properties ? 'object' : 'string');
			if (itemType === 'object') return Array.from({ length: ctx.count }, (_, n) => valueFor(items, field, ctx, n, ctx.names[n], depth + 1));
			const f = field.toLowerCase();
			if (itemType === 'string' && /source|url|link/.test(f)) return ctx.urls.length ? [...ctx.urls] : [`https://${slug(entity)}.example/about`, `https://news.example/${slug(entity)}`];
			if (itemType === 'string' && /tag|keyword|categor|topic|feature/.test(f)) return ctx.plural.split(' ').concat(slug(entity).split('-')[0]).slice(0, 3);
			const n = Math.min(ctx.count, 3);
			return Array.from({ length: n }, (_, k) => valueFor(items, field.replace(/s$/, ''), ctx, k, ctx.names[k], depth + 1));
		}
		case 'integer':
		case 'number':
			return numberFor(field, ctx, i, type === 'integer');
		case 'boolean':
			return i % 2 === 0;
		case 'string':
			return stringFor(field, ctx, i, entity, parent);
		default:
			return null; // no type: nothing the research could fill in
	}
}

/**
 * The answer of a completed run: `request` = {prompt, schema?, urls?}. With a schema, a value of
 * that shape; without one, {answer (a short finding), sources (the request's urls or [])}.
 */
function researchResult(request) {
	const ctx = context(request);
	if (isPlainObject(request.schema)) return valueFor(request.schema, 'result', ctx, 0, ctx.names[0], 0);
	const found = ctx.names.slice(0, ctx.count);
	return {
		answer: `Fake research result for "${ctx.topic}": ${found.length} ${ctx.plural} found (${list(found)}); ${found[0]} is the one most sources mention.`,
		sources: ctx.urls,
	};
}

/**
 * The data of a completed extract job with a schema (extract.js): the same made-up values, about the
 * site at the first URL (https://acme.example/* → "Acme") instead of things a research run found.
 */
function extractResult(request) {
	const ctx = context(request);
	const host = (() => {
		try {
			return new URL(String(request.urls?.[0] ?? '').replace(/\*$/, '')).hostname;
		} catch {
			return '';
		}
	})();
	const label = host.replace(/^www\./, '').split('.')[0];
	if (label) ctx.names[0] = label.charAt(0).toUpperCase() + label.slice(1);
	return valueFor(request.schema, 'result', ctx, 0, ctx.names[0], 0);
}

module.exports = { researchResult, extractResult, topicOf, countOf };
