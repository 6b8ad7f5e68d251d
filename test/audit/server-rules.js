#!/usr/bin/env node
'use strict';
/**
 * Every rule of nodes/FACTS.md "Server request rules" has a test that fails without it (issue 37.3),
 * checked by mutation (a script, not a test; about 40 minutes on 2 cores):
 *
 *   npm run build && node test/audit/server-rules.js [label pattern]
 *
 * Each entry breaks one rule in the built dist/ (a limit moved by one, a check switched off, a value
 * added to an allowed list), runs the test files that mention its keyword (unit tests first, then the
 * integration tests when no unit test failed) and puts the file back. "CAUGHT" means a test failed, as
 * it must; "MISSED" means no test holds the rule. Ends with exit 1 when any rule is missed. Run it on a
 * checkout nobody else is testing at the time: it changes dist/ while it runs.
 */
const fs = require('fs');
const path = require('path');
const cp = require('child_process');

const ROOT = path.resolve(__dirname, '..', '..');
const SR = 'dist/nodes/WebData/fields/serverRules.js';

/** [label, built file, text of the rule, what it becomes, keyword of the tests (grep -E)] */
const MUTATIONS = [
	['waitFor max 60000', SR, 'exports.MAX_WAIT_FOR_MS = 60_000;', 'exports.MAX_WAIT_FOR_MS = 60_001;', 'waitFor|Wait For'],
	['waitFor half of timeout', SR, 'waitFor > timeout / 2', 'waitFor > timeout', 'half of the timeout'],
	['max 50 actions', SR, 'exports.MAX_ACTIONS = 50;', 'exports.MAX_ACTIONS = 51;', 'actions'],
	['wait actions 60 s', SR, 'exports.MAX_ACTIONS_WAIT_MS = 60_000;', 'exports.MAX_ACTIONS_WAIT_MS = 60_001;', 'wait actions'],
	['selector wait counts 1 s', SR, 'exports.SELECTOR_WAIT_MS = 1_000;', 'exports.SELECTOR_WAIT_MS = 0;', 'selector'],
	['combined wait cap', SR, 'if (actions.length === 0 || total <= exports.MAX_ACTIONS_WAIT_MS)', 'if (true)', 'add up to'],
	['json prompt 10000', 'dist/nodes/WebData/fields/scrapeOptions.js', 'exports.MAX_JSON_PROMPT_LENGTH = 10_000;', 'exports.MAX_JSON_PROMPT_LENGTH = 10_001;', 'prompt'],
	['schema-less dictionary', SR, 'o.additionalProperties === true) {', 'o.additionalProperties === "never") {', 'additionalProperties'],
	['$ref not looked into', SR, "Object.prototype.hasOwnProperty.call(o, '$ref'))", "Object.prototype.hasOwnProperty.call(o, '$never'))", 'additionalProperties'],
	['search has no change tracking', SR, "'summary', 'json', 'screenshot'];", "'summary', 'json', 'screenshot', 'changeTracking'];", 'changeTracking|Change Tracking'],
	['proxies', SR, "exports.PROXIES = ['auto', 'basic', 'enhanced', 'stealth'];", "exports.PROXIES = ['auto', 'basic', 'enhanced', 'stealth', 'turbo'];", 'proxy|Proxy'],
	['proxies: stealth accepted', SR, "exports.PROXIES = ['auto', 'basic', 'enhanced', 'stealth'];", "exports.PROXIES = ['auto', 'basic', 'enhanced'];", 'stealth'],
	['monitor target proxies', SR, "exports.MONITOR_TARGET_PROXIES = ['basic', 'enhanced', 'auto'];", "exports.MONITOR_TARGET_PROXIES = ['basic', 'enhanced', 'auto', 'stealth'];", 'proxy|Proxy'],
	['parse proxies', SR, "exports.PARSE_PROXIES = ['basic', 'auto'];", "exports.PARSE_PROXIES = ['basic', 'auto', 'enhanced'];", 'proxy|Proxy'],
	['countries: XK', SR, 'WF WS XK YE', 'WF WS YE', 'XK'],
	['countries: not any code', SR, 'return ISO_COUNTRIES.has(code.toUpperCase());', 'return /^[A-Za-z]{2}$/.test(code);', 'country|Country'],
	['countries: any case', SR, 'return ISO_COUNTRIES.has(code.toUpperCase());', 'return ISO_COUNTRIES.has(code);', 'country|Country'],
	['search domains', SR, 'return SEARCH_DOMAIN.test(domain.trim().toLowerCase());', 'return true;', 'omain'],
	['search domains: last label 2 chars', SR, '[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;', '[a-z0-9-]{1,63}$/;', 'omain'],
	['crawl delay > 0', SR, 'delay <= 0 ||', 'delay < 0 ||', 'delay|Delay'],
	['crawl delay <= 60', SR, 'exports.MAX_CRAWL_DELAY_S = 60;', 'exports.MAX_CRAWL_DELAY_S = 61;', 'delay|Delay'],
	['paths: 1000 per field', SR, 'exports.MAX_PATH_PATTERNS = 1000;', 'exports.MAX_PATH_PATTERNS = 1001;', 'Paths'],
	['paths: 2000 chars each', SR, 'exports.MAX_PATH_PATTERN_LENGTH = 2000;', 'exports.MAX_PATH_PATTERN_LENGTH = 2001;', 'Paths'],
	['paths: 1000 together', SR, 'exports.MAX_TOTAL_PATH_PATTERNS = 1000;', 'exports.MAX_TOTAL_PATH_PATTERNS = 1001;', 'Paths'],
	['paths: 100000 chars together', SR, 'exports.MAX_TOTAL_PATH_PATTERN_CHARS = 100_000;', 'exports.MAX_TOTAL_PATH_PATTERN_CHARS = 100_001;', 'Paths'],
	['paths: backreferences', SR, "(/[1-9]/.test(next) || (next === 'k' && pattern[k + 2] === '<'))", 'false', 'backreference'],
	['paths: look-around', SR, "/^\\(\\?(=|!|<=|<!)/.test(pattern.slice(k, k + 4))", 'false', 'look-ahead|lookahead|look-around'],
	['paths: inline flags allowed', SR, "new RegExp(pattern.replace(INLINE_FLAGS, ''));", 'new RegExp(pattern);', 'Paths|pathPattern'],
	['webhook: X-Firecrawl- prefix', SR, "return name.trim().toLowerCase().startsWith('x-firecrawl-');", "return name.trim().toLowerCase() === 'x-firecrawl-signature';", 'X-Firecrawl-'],
	['webhook: metadata strings', SR, "typeof metadata[key] !== 'string'", 'false', 'etadata'],
	['extract: 10 urls', 'dist/nodes/WebData/resources/extract/request.js', 'exports.MAX_URLS = 10;', 'exports.MAX_URLS = 11;', 'xtract'],
	['extract: prompt 10000', 'dist/nodes/WebData/resources/extract/request.js', 'exports.MAX_PROMPT_LENGTH = 10_000;', 'exports.MAX_PROMPT_LENGTH = 10_001;', 'xtract'],
	['extract: urls or prompt', 'dist/nodes/WebData/resources/extract/request.js', 'if (!urls.length && !prompt) {', 'if (false) {', 'xtract'],
	['extract: no format keyword', 'dist/nodes/WebData/resources/extract/request.js', "if (schema.format !== undefined && typeof schema.format === 'string') {", 'if (false) {', 'format'],
	['scrape proxy gate', 'dist/nodes/WebData/fields/scrapeOptions.js', 'if (!serverRules_1.PROXIES.includes(String(o.proxy)))', 'if (false)', 'proxy|Proxy'],
	['monitor target proxy gate', 'dist/nodes/shared/monitor/targets.js', "if (typeof value !== 'string' || !serverRules_1.MONITOR_TARGET_PROXIES.includes(value)) {", 'if (false) {', 'proxy|Proxy'],
	['parse proxy gate', 'dist/nodes/WebData/resources/parse/options.js', 'if (!serverRules_1.PARSE_PROXIES.includes(String(o.proxy))) {', 'if (false) {', 'proxy|Proxy'],
	['monitor crawl target: path patterns', 'dist/nodes/shared/monitor/targets.js', 'const issue = (0, serverRules_1.pathPatternsIssue)(include, exclude);', 'const issue = undefined;', 'Paths|includePaths|excludePaths'],
	['monitor crawl target: delay', 'dist/nodes/shared/monitor/targets.js', 'const problem = (0, serverRules_1.crawlDelayProblem)(options.delay);', 'const problem = undefined;', 'delay|Delay'],
	['crawl: path patterns', 'dist/nodes/WebData/resources/crawl/start.js', 'const issue = (0, serverRules_1.pathPatternsIssue)(include, exclude);', 'const issue = undefined;', 'Paths|includePaths|excludePaths'],
	['crawl: delay', 'dist/nodes/WebData/resources/crawl/start.js', 'const problem = (0, serverRules_1.crawlDelayProblem)(d);', 'const problem = undefined;', 'delay|Delay'],
	['search: country table', 'dist/nodes/WebData/resources/search/search.js', 'if (!(0, serverRules_1.isCountryCode)(country))', 'if (false)', 'country|Country'],
	['map: location country', 'dist/nodes/WebData/resources/map/mapUrl.js', 'if (!(0, serverRules_1.isCountryCode)(country))', 'if (false)', 'country|Country'],
	['scrape: location country', 'dist/nodes/WebData/fields/scrapeOptions.js', 'if (!(0, serverRules_1.isCountryCode)(code))', 'if (false)', 'country|Country'],
	['search: domain gate', 'dist/nodes/WebData/resources/search/search.js', 'if (!(0, serverRules_1.isSearchDomain)(d))', 'if (false)', 'omain'],
	['agent: snapshot id 1-128', 'dist/nodes/WebData/resources/agent/getSnapshot.js', 'exports.SNAPSHOT_ID = /^[A-Za-z0-9_-]{1,128}$/;', 'exports.SNAPSHOT_ID = /^[A-Za-z0-9_-]{1,129}$/;', 'napshot'],
	['agent: error text max credits', 'dist/nodes/WebData/resources/agent/outcome.js', 'if (/\\b(max(imum)?[\\s_-]*credits?|credit[\\s_-]*limit)\\b/i.test(value))', 'if (false)', 'credit'],
	['agent: error text cancelled', 'dist/nodes/WebData/resources/agent/outcome.js', 'if (/\\bcancel/i.test(value))', 'if (false)', 'cancel'],
	['agent: error text refused', 'dist/nodes/WebData/resources/agent/outcome.js', 'if (/\\brefus/i.test(value))', 'if (false)', 'refus'],
	['agent: stopReason credit_limit_reached', 'dist/nodes/WebData/resources/agent/outcome.js', "    credit_limit_reached: 'credit_limit_reached',\n", '', 'credit_limit_reached'],
	['parse: integration "_" prefix', 'dist/nodes/WebData/resources/parse/options.js', "return value.startsWith('_') || exports.INTEGRATIONS.includes(value);", 'return exports.INTEGRATIONS.includes(value);', 'ntegration'],
	['parse: integration known list', 'dist/nodes/WebData/resources/parse/options.js', "return value.startsWith('_') || exports.INTEGRATIONS.includes(value);", 'return true;', 'ntegration'],
];

let restore;
process.on('SIGINT', () => {
	if (restore) restore();
	process.exit(130);
});

const only = process.argv[2] ? new RegExp(process.argv[2]) : undefined;
const missed = [];
for (const [label, file, rule, broken, keyword] of MUTATIONS) {
	if (only && !only.test(label)) continue;
	const target = path.join(ROOT, file);
	const original = fs.readFileSync(target, 'utf8');
	if (!original.includes(rule)) {
		console.log(`STALE   ${label}: its rule is no longer in ${file}; update this entry`);
		missed.push(label);
		continue;
	}
	const files = cp
		.execFileSync('grep', ['-rlE', keyword, 'test/unit', 'test/integration', '--include=*.test.js'], { cwd: ROOT })
		.toString()
		.trim()
		.split('\n')
		.filter(Boolean);
	restore = () => fs.writeFileSync(target, original);
	fs.writeFileSync(target, original.split(rule).join(broken));
	let caught = '';
	try {
		for (const group of [files.filter((f) => f.startsWith('test/unit/')), files.filter((f) => !f.startsWith('test/unit/'))]) {
			if (!group.length) continue;
			const run = cp.spawnSync('npx', ['jest', '--config', 'test/jest.config.js', '--silent', ...group], { cwd: ROOT, encoding: 'utf8', maxBuffer: 1e8 });
			if (run.status !== 0) {
				caught = [...new Set([...`${run.stdout}${run.stderr}`.matchAll(/● (.+)$/gm)].map((m) => m[1]))].slice(0, 2).join(' | ');
				break;
			}
		}
	} finally {
		restore();
		restore = undefined;
	}
	if (caught) console.log(`CAUGHT  ${label}: ${caught.slice(0, 200)}`);
	else {
		console.log(`MISSED  ${label} (${files.length} test files mention "${keyword}")`);
		missed.push(label);
	}
}
console.log(missed.length ? `${missed.length} rule(s) held by no test: ${missed.join('; ')}` : 'every rule is held by a test');
process.exit(missed.length ? 1 : 0);
