'use strict';
// Refinements of the real server's request schemas that the fake enforces (issue 14), written for
// the fake from the facts of firecrawl/firecrawl (no code copied):
//   types.ts          apps/api/src/controllers/v2/types.ts @ 81015eb1f2c2d7533b3a2b8bfccc09b2a34406f1
//   validate-country  apps/api/src/lib/validate-country.ts (the table locationSchema looks codes up in)
//   crawl-regex       apps/api/src/lib/crawl-regex.ts (newest stored: 1000 patterns per field, 2000 chars
//                     each, 1000 / 100,000 chars for both fields, Rust `regex` syntax)
//   webhook           apps/api/src/services/webhook/schema.ts + headers.ts (managed header names)
// Each check pushes zod-like issues {code: 'custom', path, message} like validate.js.
const { isPlainObject } = require('./util');
const { custom } = require('./validate');

// validate-country: 249 ISO 3166-1 alpha-2 codes + XK. Looked up upper-cased (lower case is fine).
const COUNTRIES = new Set(
	`AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC
	CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE
	GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM
	KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ
	NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH
	SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG
	VI VN VU WF WS XK YE YT ZA ZM ZW`.split(/\s+/),
);
// types.ts locationSchema also takes these two service-internal names.
const SPECIAL_COUNTRIES = ['us-generic', 'us-whitelist'];

const country = (v, p, out) => {
	if (typeof v !== 'string') return void out.push({ code: 'invalid_type', path: p, expected: 'string', message: 'Expected string' });
	if (v && !COUNTRIES.has(v.toUpperCase()) && !SPECIAL_COUNTRIES.includes(v.toLowerCase()))
		out.push(custom(p, 'Invalid country code. Use a valid ISO 3166-1 alpha-2 country code.'));
};

// types.ts: ACTIONS_MAX_WAIT_TIME (60 s) over the wait actions; a selector wait counts 1000 ms.
const ACTIONS_MAX_WAIT_MS = 60000;
function actionsTotal(v, p, out) {
	if (!Array.isArray(v)) return;
	let ms = 0;
	for (const a of v) {
		if (!a || a.type !== 'wait') continue;
		ms += a.milliseconds ? Number(a.milliseconds) || 0 : a.selector ? 1000 : 0;
	}
	if (ms > ACTIONS_MAX_WAIT_MS) out.push(custom(p, 'Total wait time (waitFor + wait actions) cannot exceed 60 seconds'));
}

// types.ts @ 61e38dc8 (2025-08, self-hosted servers of that time): with actions, waitFor + the wait
// actions together at most 60 s (scrapeOptions refine over calculateTotalWaitTime(actions, waitFor)).
function totalWaitWithActions(v, p, out) {
	if (!Array.isArray(v.actions) || v.actions.length === 0) return;
	let ms = Number(v.waitFor) || 0;
	for (const a of v.actions) {
		if (!a || a.type !== 'wait') continue;
		ms += a.milliseconds ? Number(a.milliseconds) || 0 : a.selector ? 1000 : 0;
	}
	if (ms > ACTIONS_MAX_WAIT_MS) out.push(custom(p, 'Total wait time (waitFor + wait actions) cannot exceed 60 seconds'));
}

// types.ts waitForRefine: with both set, waitFor may be at most half of timeout.
function waitForHalfOfTimeout(v, p, out) {
	if (v.waitFor && v.timeout && v.waitFor > v.timeout / 2) out.push(custom([...p, 'waitFor'], 'waitFor must not exceed half of timeout'));
}

// types.ts validateSchemaForOpenAI: no {type: object, additionalProperties: true} without properties /
// patternProperties anywhere (nodes with $ref are not entered).
const OPENAI_SCHEMA_MESSAGE =
	"Schema contains invalid structure for OpenAI: object type with no 'properties' defined but 'additionalProperties: true' (schema-less dictionary not supported by OpenAI). Please define specific properties for your object. Note: Recursive schemas using '$ref' are supported.";
function freeFormObjectIn(schema) {
	const stack = [schema];
	const seen = new Set();
	while (stack.length) {
		const node = stack.pop();
		if (!node || typeof node !== 'object' || seen.has(node)) continue;
		seen.add(node);
		if ('$ref' in node) continue;
		if (node.type === 'object' && !('properties' in node) && !('patternProperties' in node) && node.additionalProperties === true) return true;
		stack.push(...Object.values(node));
	}
	return false;
}
const structuredSchema = (v, p, out) => {
	if (freeFormObjectIn(v)) out.push(custom(p, OPENAI_SCHEMA_MESSAGE));
};

// crawl-regex.ts: caps, then the engine's syntax (Rust regex: no look-around, no backreferences).
const PATHS = { perField: 1000, length: 2000, total: 1000, totalChars: 100000 };
function engineError(pattern) {
	// Walk the pattern once; escapes and [...] classes cannot start a group or a backreference.
	for (let k = 0, inClass = false; k < pattern.length; k++) {
		const ch = pattern[k];
		if (ch === '\\') {
			if (!inClass && /^\\([1-9]|k<)/.test(pattern.slice(k, k + 3))) return 'backreferences are not supported';
			k += 1;
		} else if (inClass) {
			inClass = ch !== ']';
		} else if (ch === '[') {
			inClass = true;
		} else if (ch === '(' && /^\(\?<?[=!]/.test(pattern.slice(k, k + 4))) {
			return 'look-around, including look-ahead and look-behind, is not supported';
		}
	}
	try {
		new RegExp(pattern.replace(/^\(\?[imsUux]+\)/, ''));
		return null;
	} catch (e) {
		return e.message;
	}
}
function pathPatterns(v, p, out) {
	const lists = { includePaths: v.includePaths, excludePaths: v.excludePaths };
	for (const [field, list] of Object.entries(lists)) {
		if (list !== undefined && !(Array.isArray(list) && list.every((x) => typeof x === 'string')))
			return void out.push(custom([...p, field], `${field} must be an array of strings.`));
	}
	const inc = lists.includePaths || [];
	const exc = lists.excludePaths || [];
	let capped = false;
	for (const [field, list] of [['includePaths', inc], ['excludePaths', exc]]) {
		if (list.length > PATHS.perField) out.push(custom([...p, field], `includePaths and excludePaths each accept at most ${PATHS.perField} patterns.`));
		if (list.some((x) => x.length > PATHS.length)) out.push(custom([...p, field], `Each includePaths/excludePaths pattern must be at most ${PATHS.length} characters.`));
		capped = capped || list.length > PATHS.perField || list.some((x) => x.length > PATHS.length);
	}
	if (capped) return;
	const all = [...inc, ...exc];
	if (all.length > PATHS.total) return void out.push(custom(p, `includePaths and excludePaths together accept at most ${PATHS.total} patterns (got ${all.length}).`));
	const chars = all.reduce((n, x) => n + x.length, 0);
	if (chars > PATHS.totalChars) return void out.push(custom(p, `includePaths and excludePaths together accept at most ${PATHS.totalChars} characters of patterns (got ${chars}).`));
	for (const [field, list] of [['includePaths', inc], ['excludePaths', exc]]) {
		for (const pattern of list) {
			const error = engineError(pattern);
			if (error) out.push(custom([...p, field], `Invalid ${field} pattern ${JSON.stringify(pattern)}: ${error}. ${field} patterns use Rust regex (RE2-style) syntax.`));
		}
	}
}

/** A JS RegExp for filtering the fake's pages (a leading (?i) becomes the i flag). */
function pathRegExp(pattern) {
	const m = /^\(\?([imsUux]+)\)/.exec(pattern);
	return new RegExp(m ? pattern.slice(m[0].length) : pattern, m && m[1].includes('i') ? 'i' : '');
}

// types.ts crawlerOptions.delay: z.number().positive() — plus issue 14's 60 s ceiling (see README).
const MAX_DELAY_S = 60;
const delay = (v, p, out) => {
	if (typeof v !== 'number' || !Number.isFinite(v)) return void out.push({ code: 'invalid_type', path: p, expected: 'number', message: 'Expected number' });
	if (v <= 0) out.push({ code: 'too_small', path: p, minimum: 0, message: 'Number must be greater than 0' });
	if (v > MAX_DELAY_S) out.push({ code: 'too_big', path: p, maximum: MAX_DELAY_S, message: `Number must be less than or equal to ${MAX_DELAY_S}` });
};

// webhook headers.ts: names the service sets on deliveries and refuses in webhook.headers.
const MANAGED_WEBHOOK_HEADERS = ['X-Firecrawl-Signature', 'X-Firecrawl-Webhook-Id', 'X-Firecrawl-Event', 'X-Firecrawl-Job-Id', 'X-Firecrawl-Scrape-Id', 'X-Firecrawl-Delivery-Mode'];
const managedHeaders = (v, p, out) => {
	if (!isPlainObject(v.headers)) return;
	const managed = MANAGED_WEBHOOK_HEADERS.map((h) => h.toLowerCase());
	if (Object.keys(v.headers).some((h) => managed.includes(h.toLowerCase())))
		out.push(custom([...p, 'headers'], `The following headers are not allowed: ${MANAGED_WEBHOOK_HEADERS.join(', ')}`));
};

// types.ts searchRequestSchema.scrapeOptions.formats (no changeTracking, branding, attributes, audio, video).
const SEARCH_FORMATS = ['markdown', 'html', 'rawHtml', 'links', 'images', 'summary', 'json', 'question', 'highlights', 'query', 'screenshot'];

module.exports = {
	country,
	actionsTotal,
	waitForHalfOfTimeout,
	totalWaitWithActions,
	structuredSchema,
	pathPatterns,
	pathRegExp,
	delay,
	managedHeaders,
	SEARCH_FORMATS,
	MAX_WAIT_FOR_MS: 60000,
};
