// Every examples/*.json also runs here, through n8n-core with the stand-in base nodes, and must
// pass the same check as in the real-n8n e2e suite (test/e2e/checks/<name>.js).
const fs = require('fs');
const path = require('path');
const { startFakeApi } = require('../fake-api/server');
const { runWorkflow } = require('../helpers/workflow-runner');
const { fakeClient } = require('../e2e/lib/fake');
const { CANARY_KEY, record } = require('../helpers/canary');

const ROOT = path.resolve(__dirname, '..', '..');
const examples = fs.readdirSync(path.join(ROOT, 'examples')).filter((f) => f.endsWith('.json')).sort();
// A webhook or polling trigger example cannot run here (nothing calls its webhook or its poll): it is proven in the real
// n8n by the e2e trigger phase, and in-process by test/integration/trigger.test.js.
// The same for a workflow that starts a job reporting to a trigger (its check exports trigger.reportsTo).
const isTrigger = (file) =>
	/"n8n-nodes-webdata\.webData(Poll)?Trigger"/.test(fs.readFileSync(path.join(ROOT, 'examples', file), 'utf8')) ||
	Boolean(require(path.join(ROOT, 'test', 'e2e', 'checks', file.replace(/\.json$/, '.js'))).trigger?.reportsTo);

let api;
beforeAll(async () => {
	api = await startFakeApi({ apiKey: CANARY_KEY });
});
afterAll(async () => api.close());

test('there are examples, each with a check', () => {
	expect(examples.length).toBeGreaterThan(0);
	for (const file of examples) {
		expect(fs.existsSync(path.join(ROOT, 'test', 'e2e', 'checks', file.replace(/\.json$/, '.js')))).toBe(true);
	}
});

test.each(examples.filter((file) => !isTrigger(file)))('%s', async (file) => {
	api.reset();
	const check = require(path.join(ROOT, 'test', 'e2e', 'checks', file.replace(/\.json$/, '.js')));
	const fake = fakeClient(api.url);
	const vars = { ...(check.vars ?? {}), ...((check.before && (await check.before(fake, { ...(check.vars ?? {}) }))) ?? {}) };
	const text = fs
		.readFileSync(path.join(ROOT, 'examples', file), 'utf8')
		.replace(/\{\{([A-Z][A-Z0-9_]*)\}\}/g, (m, key) => JSON.stringify(String(vars[key])).slice(1, -1));
	const workflow = JSON.parse(text);
	const result = await runWorkflow(workflow, { credentials: { webDataApi: { apiKey: CANARY_KEY, baseUrl: api.url } } });
	record(result.run);
	await check({
		output: result.run,
		outputSource: 'runner',
		exitCode: result.status === 'success' ? 0 : 1,
		stdout: '',
		stderr: '',
		fake,
		vars,
		apiKey: CANARY_KEY,
		workflow,
	});
}, 120000);
