'use strict';
// `npm run demo` as a person who does not build workflows reads it (issue 17.9): each example's
// "What it is for" line is about that example, a truncated parse says why, and links in results
// point at the address the demo announced for the service.
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');

const { startFakeApi } = require('../fake-api/server');
const { startGuard } = require('../demo/guard');
const { PURPOSES, purpose, describeRun } = require('../demo/examples');

jest.setTimeout(60000);

const ROOT = path.resolve(__dirname, '..', '..');
const DEMO = path.join(ROOT, 'test', 'demo', 'demo.js');
const FILES = fs.readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.json'));
const example = (name) => JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', `${name}.json`), 'utf8'));
const KEY = 'demo-results-key';

describe('"What it is for"', () => {
	test('every example has its own line, and every line belongs to an example', () => {
		const bases = FILES.map((f) => path.basename(f, '.json')).sort();
		expect(Object.keys(PURPOSES).sort()).toEqual(bases);
		const lines = bases.map((b) => purpose(example(b), b));
		expect(new Set(lines).size).toBe(lines.length);
		for (const [b, line] of bases.map((x, i) => [x, lines[i]])) {
			expect([b, line.length > 30 && line.length < 260 && !line.includes('\n')]).toEqual([b, true]);
			// about the whole example, not a sentence of its sticky note about one of its nodes
			const nodes = example(b).nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote').map((n) => n.name);
			for (const name of nodes) expect([b, line.startsWith(name)]).toEqual([b, false]);
			expect([b, /^(Top|Bottom) row|^Replace|^The first/i.test(line)]).toEqual([b, false]);
		}
	});

	test('the batch example says it scrapes in one batch job (its note starts with Map Website), the browser example names both its rows', () => {
		expect(purpose(example('batch-scrape-urls'), 'batch-scrape-urls')).toMatch(/^Scrapes many pages in one batch job/);
		expect(purpose(example('interact-with-page'), 'interact-with-page')).toMatch(/runs code in a browser session.*page it has just scraped/);
	});

	test('lines that name what the example does match its parameters', () => {
		const pdf = example('parse-pdf-per-page').nodes.find((n) => n.name === 'Parse PDF per page').parameters;
		expect(purpose(example('parse-pdf-per-page'), 'parse-pdf-per-page')).toContain(`Max Pages is ${pdf.pdfOptions.maxPages}`);
		const agent = example('agent-run-and-wait').nodes.find((n) => n.name === 'Run agent').parameters;
		expect(agent.prompt).toContain('three robotics start-ups founded after 2018');
		expect(purpose(example('agent-run-and-wait'), 'agent-run-and-wait')).toContain('three robotics start-ups founded after 2018');
	});

	test('an example without a line shows its name', () => {
		expect(purpose({ name: 'Web Data: something new', nodes: [] }, 'something-new')).toBe('something new');
	});
});

describe('a truncated parse says why', () => {
	const page = (n) => ({
		json: { pageNumber: n, markdown: `## Page ${n}\ntext`, fileName: 'quarterly-report.pdf', metadata: { title: 'Quarterly Report', numPages: 2, totalPages: 3 }, truncated: true },
	});
	test('items marked truncated: the file has more pages than Max Pages let the service parse', () => {
		const text = describeRun(example('parse-pdf-per-page'), { 'Parse PDF per page': [{ data: { main: [[page(1), page(2)]] } }] });
		expect(text).toContain('  truncated: true because the PDF has 3 pages and Max Pages is 2, so the service parsed only the first 2.');
	});
	test('nothing to explain when the whole file was parsed', () => {
		const whole = { json: { fileName: 'a.pdf', markdown: '# A\nx', metadata: { numPages: 3, totalPages: 3 } } };
		const text = describeRun(example('parse-pdf-to-markdown'), { 'Parse PDF to Markdown': [{ data: { main: [[whole]] } }] });
		expect(text.join('\n')).not.toMatch(/truncated/);
	});
});

describe('links in results', () => {
	let api;
	let guard;
	beforeAll(async () => {
		api = await startFakeApi({ apiKey: KEY });
		guard = await startGuard({ upstream: api.url, apiKey: KEY, allowWrites: true });
	});
	afterAll(async () => {
		await guard.close();
		await api.close();
	});
	const post = (route, body) =>
		fetch(`${guard.url}${route}`, { method: 'POST', headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json());

	test('through the guard, a screenshot link keeps the address of the service; API links (jobs) lead to the guard', async () => {
		const scraped = await post('/v2/scrape', { url: 'https://example.com/pricing', formats: ['screenshot'] });
		expect(scraped.data.screenshot.startsWith(`${api.url}/fake-screenshots/`)).toBe(true);
		expect((await fetch(scraped.data.screenshot)).status).toBe(200);
		const crawl = await post('/v2/crawl', { url: 'https://example.com', limit: 2 });
		expect(crawl.url).toBe(`${guard.url}/v2/crawl/${crawl.id}`);
		// the marker of unreachable screenshot storage still points where it says
		const unreachable = await post('/v2/scrape', { url: 'https://example.com/fake-screenshot-port-9', formats: ['screenshot'] });
		expect(unreachable.data.screenshot.startsWith('http://127.0.0.1:9/fake-screenshots/')).toBe(true);
	});
});

describe('npm run demo on the embedded fake API', () => {
	test('purpose lines, the reason for truncated, an agent answer that is not the prompt, the screenshot at the announced address', async () => {
		const env = { ...process.env, N8N_LOG_LEVEL: 'silent', DEMO_TIME_SCALE: '10' };
		delete env.WEBDATA_API_KEY;
		delete env.WEBDATA_BASE_URL;
		const out = await new Promise((resolve, reject) => {
			const child = spawn(process.execPath, [DEMO, '--only', 'batch-scrape-urls,parse-pdf-per-page,agent-run-and-wait,scrape-page-to-markdown'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
			let text = '';
			child.stdout.on('data', (d) => (text += d));
			child.stderr.on('data', (d) => (text += d));
			const timer = setTimeout(() => child.kill('SIGKILL'), 50000);
			child.on('error', reject);
			child.on('exit', (code) => {
				clearTimeout(timer);
				resolve({ code, text });
			});
		});
		expect(out.code).toBe(0);
		const announced = /using the embedded fake API at (http:\/\/127\.0\.0\.1:\d+)/.exec(out.text)?.[1];
		expect(announced).toBeDefined();
		const shot = /screenshot: (http:\/\/\S+\.png)/.exec(out.text)?.[1];
		expect(shot).toBeDefined();
		expect(new URL(shot).origin).toBe(announced);
		expect(out.text).toContain(`What it is for: ${PURPOSES['batch-scrape-urls']}`);
		expect(out.text).toContain('truncated: true because the PDF has 3 pages and Max Pages is 2');
		const agentRun = out.text.slice(out.text.indexOf('▶ run a research agent'));
		expect(agentRun).toMatch(/data: \{"companies":\[\{"name":"[A-Z][a-z]+ Robotics","founded":20(19|2\d)/);
		expect(agentRun.slice(agentRun.indexOf('Run agent:'))).not.toContain('Find three robotics');
	});
});
