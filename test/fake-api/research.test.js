'use strict';
// The fake agent's answer (research.js) reads like a research result: made-up findings in the shape
// of the schema, never the prompt copied into a value (issue 17.9). Run: npx jest test/fake-api/research.test.js
const fs = require('fs');
const path = require('path');
const { startFakeApi } = require('./server');
const { researchResult, extractResult, topicOf, countOf } = require('./research');

const KEY = 'test-key';
const ROOT = path.resolve(__dirname, '..', '..');
const exampleNode = (file, name, dir = 'examples') => JSON.parse(fs.readFileSync(path.join(ROOT, dir, file), 'utf8')).nodes.find((n) => n.name === name).parameters;

/** Every string anywhere in a value. */
const strings = (v) => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.flatMap(strings) : v && typeof v === 'object' ? Object.values(v).flatMap(strings) : []);

// The schema the node makes from the run-and-wait example's JSON example (test/integration/agent.test.js checks that conversion).
const COMPANIES = {
	type: 'object',
	properties: {
		companies: {
			type: 'array',
			items: { type: 'object', properties: { name: { type: 'string' }, founded: { type: 'number' }, homepage: { type: 'string' } }, required: ['name', 'founded', 'homepage'] },
		},
	},
	required: ['companies'],
};

describe('the answer of a completed run', () => {
	test('the robotics example: three different start-ups founded after 2018, each with its own home page; no value repeats the prompt', () => {
		const { prompt, urls } = exampleNode('agent-run-and-wait.json', 'Run agent');
		expect(prompt).toMatch(/three robotics start-ups founded after 2018/); // what the checks below rely on
		const data = researchResult({ prompt, urls: [urls], schema: COMPANIES });
		expect(data.companies).toHaveLength(3);
		for (const c of data.companies) {
			expect(c.name).toMatch(/^[A-Z][a-z]+ Robotics$/);
			expect(c.founded).toBeGreaterThan(2018);
			expect(c.homepage).toMatch(/^https:\/\/[a-z-]+\.example\/$/);
		}
		expect(new Set(data.companies.map((c) => c.name)).size).toBe(3);
		expect(new Set(data.companies.map((c) => c.homepage)).size).toBe(3);
		for (const s of strings(data)) expect(prompt.toLowerCase()).not.toContain(s.toLowerCase());
	});

	test('the pricing example: as many tools as asked for, each with a price; names are not the prompt', () => {
		const { prompt, jsonSchema } = exampleNode('agent-start-then-poll-later.json', 'Start agent run');
		const data = researchResult({ prompt, schema: JSON.parse(jsonSchema) });
		expect(data.tools).toHaveLength(3);
		for (const t of data.tools) {
			expect(typeof t.monthlyPricePerSeat).toBe('number');
			expect(t.monthlyPricePerSeat).toBeGreaterThan(0);
			expect(t.monthlyPricePerSeat).toBeLessThan(100);
			expect(prompt).not.toContain(t.name);
			expect(t.name.split(' ').length).toBeLessThanOrEqual(3);
		}
		expect(researchResult({ prompt: 'Compare five note-taking apps', schema: JSON.parse(jsonSchema) }).tools).toHaveLength(5);
	});

	test('field names steer the values: a person for ceo.name, a year, a boolean, an e-mail address, an enum value, integers stay integers', () => {
		const schema = {
			type: 'object',
			properties: {
				company: { type: 'string' },
				founded: { type: 'integer' },
				public: { type: 'boolean' },
				contactEmail: { type: 'string' },
				stage: { type: 'string', enum: ['seed', 'series-a'] },
				employees: { type: 'integer' },
				ceo: { type: 'object', properties: { name: { type: 'string' } } },
			},
		};
		const data = researchResult({ prompt: 'Describe the start-up behind example.com FAKE_DURATION_MS=300', schema });
		expect(data.company).toMatch(/^[A-Z][a-z]+ Labs$/);
		expect(Number.isInteger(data.founded) && data.founded >= 2000 && data.founded <= 2026).toBe(true);
		expect(typeof data.public).toBe('boolean');
		expect(data.contactEmail).toMatch(/^[a-z]+@[a-z-]+\.example$/);
		expect(['seed', 'series-a']).toContain(data.stage);
		expect(Number.isInteger(data.employees)).toBe(true);
		expect(data.ceo.name).not.toBe(data.company);
		expect(data.ceo.name).toMatch(/^\S+ \S+$/);
		expect(strings(data).join(' ')).not.toMatch(/FAKE_|Describe the start-up/);
	});

	test('without a schema: a short finding that names the question (markers removed) and what was found, with the given URLs as sources', () => {
		const prompt = 'Which robotics start-ups raised money this year FAKE_DURATION_MS=10 FAKE_COST=3';
		const data = researchResult({ prompt, urls: ['https://news.example/'] });
		expect(data.sources).toEqual(['https://news.example/']);
		expect(data.answer).toMatch(/^Fake research result for "Which robotics start-ups raised money this year": 3 robotics companies found \([A-Z]\w+ Robotics, [A-Z]\w+ Robotics and [A-Z]\w+ Robotics\)/);
		expect(data.answer).not.toContain('FAKE_');
		expect(researchResult({ prompt: 'x' }).sources).toEqual([]);
	});

	test('the same request gives the same answer; another prompt another one', () => {
		const a = researchResult({ prompt: 'Find three robotics start-ups', schema: COMPANIES });
		expect(researchResult({ prompt: 'Find three robotics start-ups', schema: COMPANIES })).toEqual(a);
		expect(researchResult({ prompt: 'Find three robotics start-ups in Japan', schema: COMPANIES })).not.toEqual(a);
	});

	test('how many things a prompt asks for, and its topic without markers', () => {
		expect(countOf('Find three robotics start-ups founded after 2018')).toBe(3);
		expect(countOf('the top 7 tools of 2024')).toBe(7);
		expect(countOf('what it does in one sentence')).toBe(3);
		expect(countOf('companies that grew 40% in 2 years')).toBe(3);
		expect(topicOf('Quick research FAKE_DURATION_MS=2000 FAKE_COST=17')).toBe('Quick research');
	});
});

describe('the data of a completed extract job', () => {
	test('the extract example as 1.0.0 shipped it: facts about the site at its URL, not "<field> from <url>"', () => {
		const { prompt, urls } = exampleNode('extract-v1-wildcard-agent.json', 'Extract company facts', 'test/e2e/workflows');
		const schema = { type: 'object', properties: { company: { type: 'string' }, mission: { type: 'string' }, supportsSso: { type: 'boolean' } } };
		const data = extractResult({ prompt, urls: [urls], schema });
		expect(urls).toBe('https://example.com/*');
		expect(data.company).toBe('Example');
		expect(data.mission).toMatch(/^Example [a-z]+ .+\.$/);
		expect(typeof data.supportsSso).toBe('boolean');
		for (const s of strings(data)) expect(s).not.toMatch(/ from https?:|\*/);
	});
});

describe('through the fake API', () => {
	let api;
	beforeAll(async () => {
		api = await startFakeApi({ apiKey: KEY, extract: 'routed' });
	});
	afterAll(() => api.close());

	test('GET /v2/agent/{id} and the last snapshot hold the research result for the prompt and schema', async () => {
		const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
		const prompt = 'Find three robotics start-ups founded after 2018 FAKE_DURATION_MS=0';
		const started = await fetch(`${api.url}/v2/agent`, { method: 'POST', headers, body: JSON.stringify({ prompt, schema: COMPANIES }) }).then((r) => r.json());
		const done = await fetch(`${api.url}/v2/agent/${started.id}`, { headers }).then((r) => r.json());
		expect(done.status).toBe('completed');
		expect(done.data).toEqual(researchResult({ prompt, schema: COMPANIES }));
		expect(done.data.companies[0].name).not.toMatch(/Find/);
		const trace = await fetch(`${api.url}/v2/agent/${started.id}/trace`, { headers }).then((r) => r.json());
		const snapshotId = trace.events.filter((e) => e.type === 'artifact.updated').at(-1).artifact.snapshotId;
		const snap = await fetch(`${api.url}/v2/agent/${started.id}/snapshots/${snapshotId}`, { headers }).then((r) => r.json());
		expect(JSON.parse(snap.snapshot)).toEqual(done.data);
	});

	test('GET /v2/extract/{id} of a finished job holds the extract data for the schema and URLs', async () => {
		const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };
		const request = { urls: ['https://www.acme.example/*'], prompt: 'The company behind this site', schema: { type: 'object', properties: { company: { type: 'string' }, about: { type: 'string' } } } };
		const started = await fetch(`${api.url}/v2/extract`, { method: 'POST', headers, body: JSON.stringify(request) }).then((r) => r.json());
		let job;
		for (let i = 0; i < 100 && job?.status !== 'completed'; i++) {
			await new Promise((r) => setTimeout(r, 100));
			job = await fetch(`${api.url}/v2/extract/${started.id}`, { headers }).then((r) => r.json());
		}
		expect(job.status).toBe('completed');
		expect(job.data).toEqual(extractResult(request));
		expect(job.data.company).toBe('Acme');
	});
});
