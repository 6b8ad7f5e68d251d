'use strict';
/**
 * The real-server suite (npm run test:real-server) pointed at the project's fake API
 * (WEBDATA_REAL_URL=fake), so that its parts are known to work: every part passes, none is skipped;
 * and, with the fake answering like a server without /v2/parse and /v2/monitor (Express's 404), those
 * parts are skipped with the server's answer and nothing fails. One run of the whole suite (about
 * 20 s on a quiet machine) and one of the parts that skip. Build first: `npm run build`.
 */
const { spawn } = require('child_process');
const path = require('path');

jest.setTimeout(240000);

const SCRIPT = path.join(__dirname, '..', 'real-server', 'run.js');

function runSuite(extra) {
	const env = { ...process.env };
	for (const key of Object.keys(env)) if (key.startsWith('WEBDATA_REAL_')) delete env[key];
	Object.assign(env, { WEBDATA_REAL_URL: 'fake', WEBDATA_REAL_MAX_WAIT: '60' }, extra);
	return new Promise((resolve) => {
		const child = spawn(process.execPath, [SCRIPT], { env });
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => (stdout += d));
		child.stderr.on('data', (d) => (stderr += d));
		child.on('close', (status) => {
			const lines = stdout.trim().split('\n');
			resolve({ status, stdout, stderr, lines, last: lines.at(-1) });
		});
	});
}

const linesOf = (run, kind) => run.lines.filter((l) => l.startsWith(`${kind} - `)).map((l) => l.slice(kind.length + 3));

test('against the fake API every part passes, the heart included, and nothing is skipped', async () => {
	const run = await runSuite({});
	const failed = linesOf(run, 'FAIL');
	expect({ failed, last: run.last }).toEqual({ failed: [], last: expect.stringMatching(/^\d+ passed, 0 failed, 0 skipped$/) });
	expect(run.status).toBe(0);
	const ok = linesOf(run, 'ok  ').join('\n');
	for (const part of [
		// the web operations (issue 14)
		'Crawl Run and Wait: every item has jobId',
		// Parse: HTML, Word, PDF, per page, per block
		'Parse page.html: one item with fileName page.html',
		'Parse memo.docx: one item with fileName memo.docx',
		'Parse report.pdf: one item with fileName report.pdf and Markdown holding "Quarterly Report"',
		'Parse per page: one item per page of the 3-page PDF',
		'Parse per block: every block has a type and its page number',
		// Monitor
		'Monitor Create: one item with the monitor id',
		'Monitor Run Check and Wait: one item, the manual check of this monitor, completed',
		'Monitor Get Many Checks: lists the check just run',
		'Monitor Update (pause): the monitor comes back paused',
		'Monitor Get after Delete: the monitor is gone',
		// the trigger on a monitor's signed deliveries
		'Trigger on a monitor: activation creates a monitor',
		'Trigger on a monitor: the deliveries start executions: monitor.page item(s), then monitor.check.completed',
		'Trigger on a monitor: every delivery was accepted (HTTP 200), signatures checked with the Webhook Signing Secret',
		'Trigger on a monitor: a delivery without the token is refused (HTTP 401)',
		'Trigger on a monitor: deactivation deletes the monitor',
		// Run and Wait with Resume on Completion Webhook
		'Crawl Resume on Completion Webhook: the execution waits',
		'Crawl Resume on Completion Webhook: the server calls the resume URL when the job ends',
		"Crawl Resume on Completion Webhook: the resumed node outputs the job's pages",
		'Batch Scrape Resume on Completion Webhook: the server calls the resume URL when the job ends',
		'Batch Scrape Resume on Completion Webhook: one page per URL, each paired to the item of its URL',
		// job events into the trigger
		"Job events into the trigger: the crawl's events start executions, ending with crawl.completed",
		"Job events into the trigger: the batch scrape's events start executions, ending with batch_scrape.completed",
		'Job events into the trigger: crawl.page gives one item per page',
		'Job events into the trigger: every delivery was accepted (HTTP 200), signatures checked',
		'Job events into the trigger: a delivery without the token is refused (HTTP 401)',
	]) {
		expect(ok).toContain(part);
	}
});

test('a server without /v2/parse and /v2/monitor: those parts are skipped with its answer, nothing fails', async () => {
	const run = await runSuite({ WEBDATA_REAL_FAKE_WITHOUT: 'parse,monitor', WEBDATA_REAL_ONLY: 'parse,monitor,trigger on a monitor' });
	expect(linesOf(run, 'FAIL')).toEqual([]);
	expect(run.status).toBe(0);
	const host = /The server at http:\/\/127\.0\.0\.1:\d+ has no endpoint/;
	const skips = linesOf(run, 'skip');
	expect(skips).toEqual([
		expect.stringMatching(/^Parse \(HTML, Word, PDF, per page, per block\): The server at .* has no endpoint POST \/v2\/parse \(HTTP 404\)$/),
		expect.stringMatching(/^Monitor \(create, run and wait, checks, pause, delete\): The server at .* has no endpoint POST \/v2\/monitor \(HTTP 404\)$/),
		// the trigger's own word for the same 404 (its activation needs the monitor endpoints)
		expect.stringMatching(/^Trigger on a monitor \(activation creates, deliveries, deactivation deletes\): The server at the Base URL has no monitor endpoints/),
	]);
	for (const s of skips.slice(0, 2)) expect(s).toMatch(host);
	// The one web part whose name matches ("Monitor Get Many") still runs and passes on the missing endpoint.
	expect(run.last).toMatch(/^\d+ passed, 0 failed, 3 skipped$/);
});
