#!/usr/bin/env node
'use strict';
/*
 * The Web Data Tool beside the official node's tool, in n8n's own AI Agent (issue 16.7):
 *
 *   npm run bench:ai-tool          (builds first; needs test/e2e/install.sh's n8n in .cache/)
 *
 * The official package (@mendable/n8n-nodes-firecrawl, version OFFICIAL_VERSION) is fetched from
 * the npm registry with `npm pack` into the ignored .cache/official-firecrawl/ at bench time
 * (nothing of it is committed) and untarred as a community package beside this one in the same
 * n8n user folder. One `n8n start` (the e2e harness: fake API, stub model, owner, API key), one
 * workflow: Webhook → AI Agent (3.1) + OpenAI Chat Model pointed at the stub model + both tools of
 * each operation. The official credential's Base URL points at the same fake (`<fake>/v2`: its
 * requests are `<Base URL>/<operation>`). The stub model plays the same calls to both and records
 * what it receives; the fake records what was sent. Measured per contender:
 *   - result size (characters of the tool message) for Scrape, Search, Search with scraped
 *     results, Map, Crawl (a 31 KB page, 5 results, 5 pages)
 *   - pages of a 5-page crawl whose content the model can read, and the largest message on the way
 *   - 5 Scrape calls in one model turn against a rate limit of 2 requests/s: pages received
 *   - the text the model reads for 400 (with the field the service named), 402, 429 (Retry-After
 *     20 s, every try) and 500 (every try), and how long it waited for it
 * Prints a Markdown table (copied to test/README.md) and the raw figures as JSON.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const proc = require('../e2e/lib/proc');
const { n8nEnv, freePort } = require('../e2e/lib/n8n');
const { packInto } = require('../e2e/lib/editor');
const { startStubModel } = require('../e2e/lib/stub-model');
const { AiAgentSuite, agentToolWorkflow, toolName } = require('../e2e/ai-agent');

const ROOT = path.resolve(__dirname, '..', '..');
const NODE_DIR = path.join(ROOT, '.cache', 'node24');
const HOST_DIR = path.join(ROOT, '.cache', 'n8n-host');
const OFFICIAL = '@mendable/n8n-nodes-firecrawl';
const OFFICIAL_VERSION = process.env.OFFICIAL_VERSION || '2.1.2';
const OFFICIAL_CACHE = path.join(ROOT, '.cache', 'official-firecrawl');
const LONG = 'fake-long-31000';

const fromAi = (key, what, type = 'string') => `={{ $fromAI('${key}', '${what}', '${type}') }}`;

/** Tools of each contender: label → node (name, type, parameters). */
const CONTENDERS = {
	'Web Data': {
		type: 'n8n-nodes-webdata.webDataTool',
		credential: 'webDataApi',
		tools: {
			scrape: { resource: 'scrape', operation: 'scrapeUrl' },
			search: { resource: 'search', operation: 'search' },
			searchScrape: { resource: 'search', operation: 'search', scrapeResults: true },
			map: { resource: 'map', operation: 'mapUrl' },
			crawl: { resource: 'crawl', operation: 'runAndWait' },
		},
	},
	official: {
		type: `${OFFICIAL}.firecrawlTool`,
		credential: 'firecrawlApi',
		tools: {
			scrape: { resource: 'Scraping', operation: 'scrape', url: fromAi('url', 'The URL to scrape') },
			search: { resource: 'MapSearch', operation: 'search', query: fromAi('query', 'What to search for'), limit: 5 },
			// Scrape options reach the official Search only through "Use Custom Body" → Additional Fields
			// → Custom Properties (which hides the Limit field, so the limit goes there too).
			searchScrape: {
				resource: 'MapSearch',
				operation: 'search',
				query: fromAi('query', 'What to search for'),
				useCustomBody: true,
				additionalFields: { customProperties: '{"limit":5,"scrapeOptions":{"formats":["markdown"]}}' },
			},
			map: { resource: 'MapSearch', operation: 'map', url: fromAi('url', 'The website to map') },
			crawl: { resource: 'Crawling', operation: 'crawl', url: fromAi('url', 'Where the crawl starts'), limit: 5 },
			crawlStatus: { resource: 'Crawling', operation: 'getCrawlStatus', crawlId: fromAi('crawlId', 'The crawl ID') },
		},
	},
};
const nodeName = (who, tool) => `${who === 'official' ? 'FC' : 'WD'} ${tool}`;

/** Fetches the official package's tarball once into .cache/official-firecrawl/ and untars it into the user folder. */
async function installOfficial(userFolder) {
	fs.mkdirSync(OFFICIAL_CACHE, { recursive: true });
	let tarball = fs.readdirSync(OFFICIAL_CACHE).find((f) => f.endsWith(`-${OFFICIAL_VERSION}.tgz`));
	if (!tarball) {
		const r = await proc.run('npm', ['pack', '--ignore-scripts', `${OFFICIAL}@${OFFICIAL_VERSION}`, '--pack-destination', OFFICIAL_CACHE], { cwd: OFFICIAL_CACHE, timeoutMs: 120000 });
		tarball = fs.readdirSync(OFFICIAL_CACHE).find((f) => f.endsWith(`-${OFFICIAL_VERSION}.tgz`));
		if (r.code !== 0 || !tarball) throw new Error(`npm pack ${OFFICIAL}@${OFFICIAL_VERSION} failed (exit ${r.code}): ${String(r.stderr).slice(-300)}`);
	}
	const target = path.join(userFolder, '.n8n', 'nodes', 'node_modules', ...OFFICIAL.split('/'));
	fs.mkdirSync(target, { recursive: true });
	const t = await proc.run('tar', ['xzf', path.join(OFFICIAL_CACHE, tarball), '-C', target, '--strip-components=1'], { timeoutMs: 60000 });
	if (t.code !== 0) throw new Error(`could not untar ${tarball}: ${t.stderr}`);
	const pkg = JSON.parse(fs.readFileSync(path.join(target, 'package.json'), 'utf8'));
	const deps = Object.keys(pkg.dependencies ?? {});
	if (deps.length) throw new Error(`${OFFICIAL} has runtime dependencies (${deps.join(', ')}); this bench untars packages without installing dependencies`);
	return { version: pkg.version, tarball };
}

class Bench extends AiAgentSuite {
	workflow() {
		const tools = [];
		for (const [who, c] of Object.entries(CONTENDERS)) {
			for (const [tool, parameters] of Object.entries(c.tools)) tools.push({ name: nodeName(who, tool), type: c.type, parameters, credentials: { [c.credential]: this.creds[who] } });
		}
		return agentToolWorkflow({ name: 'AI tool bench', hookPrefix: 'ai-tool-bench', openAi: this.openAi, tools, agentOptions: { maxIterations: 30 } });
	}

	/** One conversation; resolves the tool messages the model received, in order, with the execution's status. */
	async play(turns) {
		const e = await this.converse(this.w, [...turns, { content: 'Done.' }]);
		return { status: e.status, got: this.received() };
	}

	async run() {
		this.openAi = await this.openAiCredential();
		const official = await this.api('POST', '/credentials', { name: 'Firecrawl (fake)', type: 'firecrawlApi', data: { baseUrl: `${this.fake.url}/v2`, apiKey: this.apiKey } });
		this.creds = { 'Web Data': { id: this.credentials.tokenOnly.id, name: this.credentials.tokenOnly.name }, official: { id: official.id, name: 'Firecrawl (fake)' } };
		const { wf, hookPath } = this.workflow();
		this.w = await this.createWorkflow(wf, hookPath);
		const call = (who, tool, args) => ({ name: toolName(nodeName(who, tool)), args });
		const out = { sizes: {}, crawl: {}, rate: {}, errors: {} };

		// 1. Result size per operation.
		const ARGS = {
			scrape: { url: `https://example.com/docs/${LONG}`, offset: 0 },
			search: { query: 'vector databases', limit: 5, offset: 0, page: 0 },
			searchScrape: { query: `${LONG} vector databases`, limit: 5, offset: 0, page: 0 },
			map: { url: 'https://example.com', offset: 0 },
		};
		for (const who of Object.keys(CONTENDERS)) {
			out.sizes[who] = {};
			for (const [tool, args] of Object.entries(ARGS)) {
				await this.fake.reset();
				const { got } = await this.play([{ calls: [call(who, tool, args)] }]);
				const [sent] = (await this.fake.log()).filter((r) => r.method === 'POST');
				out.sizes[who][tool] = { chars: got[0]?.content.length ?? null, start: String(got[0]?.content ?? '').slice(0, 160), sent: sent?.body };
			}
		}

		// 2. Crawl of 5 pages of 31 KB: what the model can reach.
		const crawlUrl = `https://${LONG}.example.com/`;
		{
			await this.fake.reset();
			const first = await this.play([{ calls: [call('Web Data', 'crawl', { url: crawlUrl, limit: 5, offset: 0, page: 0, jobId: '' })] }]);
			const list = first.got[0];
			const jobId = /"jobId":"([0-9a-f-]{36})"/.exec(list?.content ?? '')?.[1];
			const pages = [1, 2, 3, 4, 5].map((page) => ({ calls: [call('Web Data', 'crawl', { url: crawlUrl, limit: 5, offset: 0, page, jobId: jobId ?? '' })] }));
			const read = await this.play(pages);
			const full = read.got.filter((r) => /"contentLength":\d+/.test(r.content) && r.content.includes('<<<web content'));
			out.sizes['Web Data'].crawl = { chars: list?.content.length ?? null, start: String(list?.content ?? '').slice(0, 160) };
			out.crawl['Web Data'] = {
				listed: Number(/"pages":(\d+)/.exec(list?.content ?? '')?.[1] ?? 0),
				readable: full.length,
				largest: Math.max(list?.content.length ?? 0, ...read.got.map((r) => r.content.length)),
				crawlsStarted: (await this.requests('POST', '/v2/crawl')).length,
			};
		}
		{
			await this.fake.reset();
			const first = await this.play([{ calls: [call('official', 'crawl', { url: crawlUrl })] }]);
			const started = first.got[0];
			const id = /"id":"([0-9a-f-]{36})"/.exec(started?.content ?? '')?.[1];
			out.sizes.official.crawl = { chars: started?.content.length ?? null, start: String(started?.content ?? '').slice(0, 160) };
			// The model cannot wait; the bench waits for the job to finish, then the model asks for its status.
			if (id) {
				await this.until(async () => {
					const r = await fetch(`${this.fake.url}/v2/crawl/${id}`, { headers: { authorization: `Bearer ${this.apiKey}` } });
					return (await r.json()).status === 'completed' ? true : undefined;
				}, 'the official crawl to finish', 60000);
			}
			const status = await this.play([{ calls: [call('official', 'crawlStatus', { crawlId: id ?? 'missing' })] }]);
			const msg = status.got[0]?.content ?? '';
			let pagesWithText = 0;
			try {
				// Pages wherever they sit in the message (n8n wraps the answer: [{data: {…, data: [pages]}}]).
				const walk = (x) => (Array.isArray(x) ? x.flatMap(walk) : x && typeof x === 'object' ? (typeof x.markdown === 'string' ? [x] : Object.values(x).flatMap(walk)) : []);
				pagesWithText = walk(JSON.parse(msg)).filter((d) => d.markdown.length > 0).length;
			} catch {
				/* not JSON: no pages */
			}
			out.crawl.official = {
				startAnswer: started?.content.slice(0, 200),
				statusChars: msg.length,
				// The tool has no way to follow the status answer's `next` link (more pages).
				hasNext: /"next":"http/.test(msg),
				statusStart: msg.slice(0, 200),
				readable: pagesWithText,
				largest: Math.max(started?.content.length ?? 0, msg.length),
				crawlsStarted: (await this.requests('POST', '/v2/crawl')).length,
			};
		}

		// 3. 5 Scrape calls in one turn against 2 requests/s.
		for (const who of Object.keys(CONTENDERS)) {
			await this.fake.reset();
			await this.fake.call('POST', '/__fake/rate-limit', { limit: 2, windowMs: 1000, path: '/v2/scrape' });
			const urls = [1, 2, 3, 4, 5].map((n) => `https://example.com/parallel-${n}`);
			const t0 = Date.now();
			const { got } = await this.play([{ calls: urls.map((url) => call(who, 'scrape', { url, offset: 0 })) }]);
			const ms = Date.now() - t0;
			await this.fake.call('POST', '/__fake/rate-limit', {});
			const log = await this.requests('POST', '/v2/scrape');
			out.rate[who] = {
				pages: got.filter((r) => urls.some((u) => r.content.includes(u)) && !/"error"/.test(r.content)).length,
				results: got.length,
				ms,
				requests: log.length,
				answered429: log.filter((r) => r.status === 429).length,
				errors: got.filter((r) => /"error"/.test(r.content)).map((r) => r.content.slice(0, 200)),
			};
		}

		// 4. What the model reads on each error (every attempt fails the same way).
		const FAULTS = {
			400: { statuses: [400], times: 20, body: { success: false, code: 'BAD_REQUEST', error: 'Bad Request', details: [{ code: 'invalid_string', path: ['url'], message: 'must be an absolute https URL' }] } },
			402: { statuses: [402], times: 20 },
			429: { statuses: [429], times: 20, retryAfter: 20 },
			500: { statuses: [500], times: 20 },
		};
		for (const who of Object.keys(CONTENDERS)) {
			out.errors[who] = {};
			for (const [status, rule] of Object.entries(FAULTS)) {
				await this.fake.reset();
				await this.fake.fault({ method: 'POST', path: '/v2/scrape', ...rule });
				const t0 = Date.now();
				const { got } = await this.play([{ calls: [call(who, 'scrape', { url: 'https://example.com/a', offset: 0 })] }]);
				out.errors[who][status] = { text: got[0]?.content ?? '(no tool message)', ms: Date.now() - t0, requests: (await this.requests('POST', '/v2/scrape')).length };
			}
		}
		return out;
	}
}

function table(out, version) {
	const W = 'Web Data';
	const O = 'official';
	const k = (n) => (n === null || n === undefined ? '—' : n.toLocaleString('en-US'));
	const rows = [
		`| measure | Web Data Tool | official tool (${OFFICIAL} ${version}) |`,
		'|---|---|---|',
		...['scrape', 'search', 'searchScrape', 'map', 'crawl'].map((t) => `| result size: ${{ scrape: 'Scrape (31 KB page)', search: 'Search (5 results)', searchScrape: 'Search with scraped results (5 × 31 KB)', map: 'Map', crawl: 'Crawl (5 × 31 KB), first answer' }[t]} | ${k(out.sizes[W][t]?.chars)} | ${k(out.sizes[O][t]?.chars)} |`),
		`| crawl: pages whose content the model can read | ${out.crawl[W].readable} of ${out.crawl[W].listed} (list, then page=N; largest message ${k(out.crawl[W].largest)}) | ${out.crawl[O].readable} of 5 (start, then Get Crawl Status: ${k(out.crawl[O].statusChars)} characters${out.crawl[O].hasNext ? '; the rest behind a `next` link the tool cannot follow' : ''}) |`,
		`| 5 Scrape calls in one turn at 2 requests/s: pages received | ${out.rate[W].pages} of 5 (${(out.rate[W].ms / 1000).toFixed(1)} s, ${out.rate[W].answered429} × 429) | ${out.rate[O].pages} of 5 (${(out.rate[O].ms / 1000).toFixed(1)} s, ${out.rate[O].answered429} × 429) |`,
		...Object.keys(out.errors[W]).map((s) => `| ${s}: what the model reads (requests, time to answer) | ${out.errors[W][s].text.replace(/\|/g, '\\|')} (${out.errors[W][s].requests}, ${(out.errors[W][s].ms / 1000).toFixed(1)} s) | ${out.errors[O][s].text.replace(/\|/g, '\\|')} (${out.errors[O][s].requests}, ${(out.errors[O][s].ms / 1000).toFixed(1)} s) |`),
	];
	return rows.join('\n');
}

async function main() {
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'webdata-ai-tool-bench-'));
	const userFolder = path.join(tmp, 'user');
	fs.mkdirSync(userFolder);
	const apiKey = `wd-bench-${crypto.randomBytes(16).toString('hex')}`;
	const lines = [];
	const record = (label, ok, reason) => {
		lines.push({ label, ok });
		console.log(`${ok ? 'ok' : 'not ok'} - ${label}${reason ? `: ${String(reason).slice(0, 300)}` : ''}`);
	};
	let suite;
	let model;
	let code = 0;
	try {
		if (!fs.existsSync(path.join(HOST_DIR, 'node_modules', 'n8n'))) throw new Error('n8n is not installed in .cache/: run bash test/e2e/install.sh');
		model = await startStubModel();
		await packInto(ROOT, tmp, userFolder);
		const { version } = await installOfficial(userFolder);
		const ctx = {
			nodeDir: NODE_DIR,
			hostDir: HOST_DIR,
			workDir: tmp,
			env: n8nEnv({ nodeDir: NODE_DIR, userFolder, encryptionKey: 'webdata-bench-encryption-key-0016', port: await freePort(), brokerPort: await freePort() }),
		};
		suite = new Bench({ root: ROOT, tmp, ctx, apiKey, record, captured: [], timings: [], substitute: (t) => t, oneLine: (t) => String(t).replace(/\s+/g, ' ').slice(0, 300) });
		suite.captured = [];
		suite.model = model;
		await suite.setup();
		const out = await suite.run();
		fs.writeFileSync(path.join(tmp, 'ai-tool-bench.json'), JSON.stringify(out, null, 2));
		console.log(`\n${table(out, version)}\n`);
		console.log(JSON.stringify(out, null, 1));
	} catch (e) {
		console.error(e.stack || e);
		if (suite?.n8nTail) console.error(suite.n8nTail(30));
		code = 1;
	} finally {
		if (suite) await suite.stopN8n();
		if (model) await model.close();
		await proc.stopAll();
	}
	if (code === 0 && !process.env.AI_TOOL_KEEP_TMP) fs.rmSync(tmp, { recursive: true, force: true });
	else console.log(`# logs kept in ${tmp}`);
	process.exit(code);
}

process.on('exit', () => proc.killAllSync());
main().catch((e) => {
	console.error(e);
	process.exit(1);
});
