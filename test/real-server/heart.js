'use strict';
/**
 * The package's heart against a real server (issue 24 point 3), run by test/real-server/run.js after
 * the web operations: Parse (HTML, Word, PDF; per page and per layout block), Monitor (create, run a
 * check and wait, list and read checks, pause, delete), the Web Data Trigger on a real monitor's
 * deliveries (activation creates the monitor, deactivation deletes it), Crawl and Batch Scrape → Run
 * and Wait with "Resume on Completion Webhook", and crawl and batch scrape job events into the
 * trigger (Source: Job Events).
 * What the server lacks is a `skip` line with the server's own answer (e.g. "has no endpoint
 * POST /v2/parse (HTTP 404)"), never a failure. Parts that need the server to call back (the trigger,
 * resume, job events) need a URL base at which it reaches the suite's receiver (WEBDATA_REAL_HOOK_URL;
 * on a server at a loopback address the receiver's own 127.0.0.1 address is used).
 */
const crypto = require('crypto');
const path = require('path');
const { startWorkflow } = require('../helpers/workflow-runner');
const { webDataWorkflow, WEB_DATA } = require('../helpers/workflows');

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PAGE_STATUSES = ['new', 'same', 'changed', 'removed', 'error'];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The error of a run that means "this server has no such endpoint", or undefined. */
function missingEndpoint(error) {
	// The node says "has no endpoint POST /v2/parse (HTTP 404)"; the trigger "has no monitor endpoints".
	return /has no (endpoint [A-Z]+ \S+|\w+ endpoints)/.test(error || '') ? error.split(' — ')[0] : undefined;
}

/**
 * @param s  the suite: {check, skip, note, runNode, short, isObject, isNonEmptyString, wanted, start,
 *           own, maxWait, apiKey, baseUrl, webhookSecret, receiver (or undefined), noReceiver (why)}
 */
async function heart(s) {
	const { check, skip, note, runNode, short, wanted } = s;
	const cleanup = []; // monitor ids to delete at the end, whatever happens
	try {
		if (wanted('Parse')) await parse(s);
		if (wanted('Monitor')) await monitor(s, cleanup);
		if (wanted('Trigger on a monitor')) await monitorTrigger(s, cleanup);
		for (const job of ['crawl', 'batchScrape']) {
			const label = job === 'crawl' ? 'Crawl' : 'Batch Scrape';
			if (wanted(`${label} Resume on Completion Webhook`)) await resume(s, job, label);
		}
		if (wanted('Job events into the trigger')) await jobEvents(s);
	} finally {
		for (const id of cleanup) {
			const run = await runNode({ resource: 'monitor', operation: 'delete', monitorId: rl(id) });
			if (!run.ok && !/not found|404/i.test(run.error)) note(`could not delete monitor ${id}: ${run.error}`);
		}
	}

	// ---- Parse ------------------------------------------------------------------------------------
	async function parse() {
		const file = (name) => [{ json: { name }, binary: { data: { path: path.join(FIXTURES, name) } } }];
		const KNOWN = { 'page.html': 'Opening Hours', 'memo.docx': 'the office moves on Monday', 'report.pdf': 'Quarterly Report' };
		for (const [name, text] of Object.entries(KNOWN)) {
			const title = `Parse ${name}`;
			console.log(`\n# ${title}`);
			const run = await runNode({ resource: 'parse', operation: 'parseFile' }, file(name));
			const missing = !run.ok && missingEndpoint(run.error);
			if (missing) return skip('Parse (HTML, Word, PDF, per page, per block)', missing);
			check(`${title}: the workflow succeeds${run.ok ? ` (${run.seconds} s)` : ''}`, () => (run.ok ? undefined : run.error));
			if (!run.ok) continue;
			const [item] = run.items;
			check(`${title}: one item with fileName ${name} and Markdown holding "${text}"`, () => {
				if (run.items.length !== 1) return `${run.items.length} items`;
				if (item.fileName !== name) return `fileName ${short(item.fileName)}`;
				return s.isNonEmptyString(item.markdown) && item.markdown.includes(text) ? undefined : `markdown: ${short(item.markdown)}`;
			});
			check(`${title}: paired to its input item`, () => (run.raw[0].pairedItem?.item === 0 ? undefined : short(run.raw[0].pairedItem)));
		}

		console.log('\n# Parse report.pdf, One Item per Page');
		const pages = await runNode({ resource: 'parse', operation: 'parseFile', output: 'pages' }, file('report.pdf'));
		check('Parse per page: the workflow succeeds', () => (pages.ok ? undefined : pages.error));
		if (pages.ok) {
			if (pages.items.length === 1 && pages.items[0].notice) skip('Parse per page', `the server returned no pages: ${pages.items[0].notice}`);
			else {
				check('Parse per page: one item per page of the 3-page PDF, numbered 1 to 3, each with Markdown', () => {
					const numbers = pages.items.map((p) => p.pageNumber);
					if (short(numbers) !== '[1,2,3]') return `page numbers ${short(numbers)}`;
					const bad = pages.items.find((p) => typeof p.markdown !== 'string' || p.fileName !== 'report.pdf');
					return bad ? short(bad) : undefined;
				});
				check('Parse per page: "Quarterly Report" is on page 1', () => (pages.items[0].markdown.includes('Quarterly Report') ? undefined : short(pages.items[0].markdown)));
			}
		}

		console.log('\n# Parse report.pdf, One Item per Layout Block');
		const blocks = await runNode({ resource: 'parse', operation: 'parseFile', output: 'blocks' }, file('report.pdf'));
		check('Parse per block: the workflow succeeds', () => (blocks.ok ? undefined : blocks.error));
		if (blocks.ok) {
			if (blocks.items.length === 1 && blocks.items[0].notice) skip('Parse per block', `the server returned no layout blocks: ${blocks.items[0].notice}`);
			else {
				check('Parse per block: every block has a type and its page number (1 to 3), in page order', () => {
					const bad = blocks.items.find((b) => !s.isNonEmptyString(b.type) || ![1, 2, 3].includes(b.pageNumber) || b.fileName !== 'report.pdf');
					if (bad) return short(bad);
					const numbers = blocks.items.map((b) => b.pageNumber);
					return numbers.every((n, i) => i === 0 || n >= numbers[i - 1]) ? undefined : `page numbers ${short(numbers)}`;
				});
				note(`Parse per block: ${blocks.items.length} blocks (${[...new Set(blocks.items.map((b) => b.type))].join(', ')})`);
			}
		}
	}

	// ---- Monitor ----------------------------------------------------------------------------------
	async function monitor() {
		console.log('\n# Monitor Create');
		const name = `webdata real-server suite ${new Date().toISOString()}`;
		const created = await runNode({ resource: 'monitor', operation: 'create', name, scheduleText: 'daily at 9am', targets: { scrape: [{ urls: s.start }] } });
		const missing = !created.ok && missingEndpoint(created.error);
		if (missing) return skip('Monitor (create, run and wait, checks, pause, delete)', missing);
		check(`Monitor Create: the workflow succeeds${created.ok ? ` (${created.seconds} s)` : ''}`, () => (created.ok ? undefined : created.error));
		if (!created.ok) return;
		const m = created.items[0] ?? {};
		check('Monitor Create: one item with the monitor id, its name and status active', () =>
			created.items.length === 1 && UUID.test(m.id) && m.name === name && m.status === 'active' ? undefined : short(m),
		);
		if (!UUID.test(m.id ?? '')) return;
		cleanup.push(m.id);

		console.log('\n# Monitor Run Check and Wait');
		const ran = await runNode({ resource: 'monitor', operation: 'runCheck', monitorId: rl(m.id), waitForCheck: true, maxWait: s.maxWait, onTimeout: 'fail' });
		check(`Monitor Run Check and Wait: the workflow succeeds${ran.ok ? ` (${ran.seconds} s)` : ''}`, () => (ran.ok ? undefined : ran.error));
		let checkId;
		if (ran.ok) {
			const c = ran.items[0] ?? {};
			checkId = c.id;
			check('Monitor Run Check and Wait: one item, the manual check of this monitor, completed', () =>
				ran.items.length === 1 && UUID.test(c.id) && c.monitorId === m.id && c.status === 'completed' && c.trigger === 'manual' ? undefined : short({ ...c, pages: undefined }),
			);
			check('Monitor Run Check and Wait: its pages hold the target URL, each with a known status', () => {
				if (!Array.isArray(c.pages) || c.pages.length === 0) return `pages: ${short(c.pages)}`;
				const bad = c.pages.find((p) => !PAGE_STATUSES.includes(p.status) || typeof p.url !== 'string');
				if (bad) return short(bad);
				return c.pages.some((p) => p.url.replace(/\/$/, '') === s.start.replace(/\/$/, '')) ? undefined : `urls ${short(c.pages.map((p) => p.url))}`;
			});
			if (Array.isArray(c.pages)) note(`Monitor check pages: ${c.pages.map((p) => `${p.url} ${p.status}`).join(', ')}`);
		}

		console.log('\n# Monitor checks');
		const list = await runNode({ resource: 'monitor', operation: 'getManyChecks', monitorId: rl(m.id), returnAll: true });
		check('Monitor Get Many Checks: lists the check just run', () =>
			list.ok ? (list.items.some((c) => c.id === checkId) ? undefined : short(list.items.map((c) => c.id))) : list.error,
		);
		if (checkId) {
			const one = await runNode({ resource: 'monitor', operation: 'getCheck', monitorId: rl(m.id), checkId: rl(checkId) });
			check('Monitor Get Check: the check with its pages', () =>
				one.ok ? (one.items[0]?.id === checkId && Array.isArray(one.items[0].pages) ? undefined : short({ ...one.items[0], pages: undefined })) : one.error,
			);
		}

		console.log('\n# Monitor pause, delete');
		const paused = await runNode({ resource: 'monitor', operation: 'update', monitorId: rl(m.id), updateFields: { status: 'paused' } });
		check('Monitor Update (pause): the monitor comes back paused', () => (paused.ok ? (paused.items[0]?.status === 'paused' ? undefined : short(paused.items[0])) : paused.error));
		const read = await runNode({ resource: 'monitor', operation: 'get', monitorId: rl(m.id) });
		check('Monitor Get: reads it paused', () => (read.ok ? (read.items[0]?.status === 'paused' ? undefined : short(read.items[0])) : read.error));
		const deleted = await runNode({ resource: 'monitor', operation: 'delete', monitorId: rl(m.id) });
		check('Monitor Delete: the workflow succeeds', () => (deleted.ok ? undefined : deleted.error));
		if (deleted.ok) cleanup.splice(cleanup.indexOf(m.id), 1);
		const gone = await runNode({ resource: 'monitor', operation: 'get', monitorId: rl(m.id) });
		check('Monitor Get after Delete: the monitor is gone (not found)', () => (gone.ok ? `still there: ${short(gone.items[0])}` : /not found|404|no monitor/i.test(gone.error) ? undefined : gone.error));
	}

	// ---- The trigger on a monitor's deliveries ------------------------------------------------------
	async function monitorTrigger() {
		const title = 'Trigger on a monitor';
		console.log(`\n# ${title}`);
		if (!s.receiver) return skip(title, s.noReceiver);
		const t = s.receiver.trigger({
			source: 'monitor',
			connection: 'create',
			events: ['monitor.page', 'monitor.check.completed'],
			monitorName: `webdata real-server trigger ${new Date().toISOString()}`,
			urls: s.start,
			scheduleType: 'text',
			scheduleText: 'daily at 9am',
		});
		try {
			let activated;
			try {
				activated = await t.activate();
			} catch (error) {
				const missing = missingEndpoint(`${error.message}${error.description ? ` — ${error.description}` : ''}`);
				if (missing) return skip(`${title} (activation creates, deliveries, deactivation deletes)`, missing);
				check(`${title}: activation succeeds`, () => `${error.message}${error.description ? ` — ${error.description}` : ''}`);
				return;
			}
			const reg = t.registration();
			check(`${title}: activation creates a monitor (checkExists said no, create stored its id)`, () =>
				activated.existed === false && UUID.test(reg.monitorId ?? '') ? undefined : short({ activated, reg }),
			);
			if (!UUID.test(reg.monitorId ?? '')) return;
			cleanup.push(reg.monitorId);
			const read = await runNode({ resource: 'monitor', operation: 'get', monitorId: rl(reg.monitorId) });
			check(`${title}: the server has the monitor, its webhook on the trigger's Production URL`, () => {
				if (!read.ok) return read.error;
				const w = read.items[0]?.webhook;
				if (w === undefined) return undefined; // a server that does not show the webhook: the deliveries below prove it
				return w?.url === t.productionUrl ? undefined : `webhook ${short(w)}`;
			});

			// A manual check now (scheduled runs may be off on a self-hosted server); its deliveries start executions.
			const ran = await runNode({ resource: 'monitor', operation: 'runCheck', monitorId: rl(reg.monitorId) });
			check(`${title}: a check is started`, () => (ran.ok ? undefined : ran.error));
			const done = (ex) => ex.some((e) => e.items.some((i) => i.event === 'monitor.check.completed'));
			const arrived = await t.until(done, s.maxWait);
			const events = t.executions.flatMap((e) => e.items.map((i) => i.event));
			check(`${title}: the deliveries start executions: monitor.page item(s), then monitor.check.completed`, () =>
				arrived && events.includes('monitor.page') ? undefined : `events within ${s.maxWait} s: ${short(events)}; answers ${short(t.answers.map((a) => a.status))}`,
			);
			const pages = t.executions.flatMap((e) => e.items).filter((i) => i.event === 'monitor.page');
			if (pages.length) {
				check(`${title}: each page item has the check id, the page URL and a known status`, () => {
					const bad = pages.find((p) => !UUID.test(p.checkId ?? '') || typeof p.url !== 'string' || !PAGE_STATUSES.includes(p.status));
					return bad ? short(bad) : undefined;
				});
			}
			check(`${title}: every delivery was accepted (HTTP 200)${s.webhookSecret ? ', signatures checked with the Webhook Signing Secret' : ''}`, () =>
				t.answers.length > 0 && t.answers.every((a) => a.status === 200) ? undefined : short(t.answers),
			);
			// The same URL without the registration's token (and signature) is refused.
			const before = t.executions.length;
			const forged = await fetch(t.productionUrl, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ success: true, type: 'monitor.check.completed', id: crypto.randomUUID(), data: [] }),
			});
			check(`${title}: a delivery without the token is refused (HTTP 401) and starts nothing`, () =>
				forged.status === 401 && t.executions.length === before ? undefined : `HTTP ${forged.status}, ${t.executions.length - before} executions`,
			);

			await t.deactivate();
			const gone = await runNode({ resource: 'monitor', operation: 'get', monitorId: rl(reg.monitorId) });
			check(`${title}: deactivation deletes the monitor`, () => (gone.ok ? `still there: ${short(gone.items[0]?.status)}` : /not found|404|no monitor/i.test(gone.error) ? undefined : gone.error));
			if (!gone.ok) cleanup.splice(cleanup.indexOf(reg.monitorId), 1);
		} finally {
			t.close();
		}
	}

	// ---- Run and Wait, Resume on Completion Webhook --------------------------------------------------
	async function resume(_s, job, label) {
		const title = `${label} Resume on Completion Webhook`;
		console.log(`\n# ${title}`);
		if (!s.receiver) return skip(title, s.noReceiver);
		const parameters =
			job === 'crawl'
				? { resource: 'crawl', operation: 'runAndWait', url: s.start, pageLimit: 10, options: { crawlEntireDomain: true }, waitMethod: 'completionWebhook', maxWait: s.maxWait }
				: { resource: 'batchScrape', operation: 'runAndWait', url: '={{ $json.link }}', waitMethod: 'completionWebhook', maxWait: s.maxWait };
		const items = job === 'crawl' ? [{ json: {} }] : s.batchUrls.map((link) => ({ json: { link } }));
		const wf = webDataWorkflow(parameters, items);
		const started = Date.now();
		const result = await startWorkflow(wf, { credentials: s.credentials, urlBase: s.receiver.base }).done;
		if (result.status !== 'waiting') {
			const error = result.error ? `${result.error.message}${result.error.description ? ` — ${result.error.description}` : ''}` : `status ${result.status}`;
			const missing = missingEndpoint(error);
			if (missing) return skip(title, missing);
			check(`${title}: the execution waits for the job's webhook`, () => error);
			return;
		}
		const waitingItems = result.json(WEB_DATA);
		check(`${title}: the execution waits; the node's item holds the job id and waitMethod completionWebhook`, () =>
			waitingItems.length === 1 && UUID.test(waitingItems[0].id) && waitingItems[0].waitMethod === 'completionWebhook' ? undefined : short(waitingItems),
		);
		const entry = result.run.data.executionData.nodeExecutionStack[0];
		const node = wf.nodes.find((n) => n.name === WEB_DATA);
		const outcome = await s.receiver.awaitResume({ signature: result.run.data.resumeToken, node, entry, apiKey: s.apiKey, seconds: s.maxWait });
		if (outcome.timedOut) {
			check(`${title}: the server calls the resume URL when the job ends`, () => `no resume call within ${s.maxWait} s (${outcome.unmatched} calls without the resume token)`);
			return;
		}
		const seconds = ((Date.now() - started) / 1000).toFixed(1);
		check(`${title}: the server calls the resume URL when the job ends (${seconds} s), and the node answers it`, () => (outcome.error ? outcome.error.message : undefined));
		if (outcome.error) return;
		// webhook() only wakes the execution; n8n then resumes it and the node's check reads the job. A
		// server that sends "completed" before its status says so: the check pauses again (at most 60 s),
		// and n8n resumes it when that time comes, as here.
		let resumed;
		let data = result.run.data;
		if (Array.isArray(outcome.returned?.workflowData)) {
			for (;;) {
				resumed = await startWorkflow(wf, { credentials: s.credentials, urlBase: s.receiver.base, resume: data }).done;
				if (resumed.status !== 'waiting' || Date.now() - started > s.maxWait * 1000) break;
				note(`${title}: the job did not read as ended at the check; the next check ${resumed.run.data.waitTill}`);
				await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(resumed.run.data.waitTill) - Date.now())));
				data = resumed.run.data;
			}
		}
		const pages = resumed && resumed.status === 'success' ? resumed.items(WEB_DATA) : [];
		check(`${title}: the resumed node outputs the job's pages (${pages.length}), each with jobId, jobStatus completed, url`, () => {
			if (pages.length === 0) return `no pages: ${short(outcome.returned)} then ${resumed ? `${resumed.status} ${short(resumed.error?.message ?? '')}` : 'no resume'}, answered ${short(outcome.response)} to ${short(outcome.call.rawBody.toString().slice(0, 200))}`;
			const bad = pages.find((p) => p.json.jobId !== waitingItems[0].id || p.json.jobStatus !== 'completed' || typeof p.json.url !== 'string');
			return bad ? short({ jobId: bad.json.jobId, jobStatus: bad.json.jobStatus, url: bad.json.url, error: bad.json.error }) : undefined;
		});
		if (job === 'batchScrape') {
			check(`${title}: one page per URL, each paired to the item of its URL`, () => {
				if (pages.length !== s.batchUrls.length) return `${pages.length} pages for ${s.batchUrls.length} URLs`;
				const bad = pages.find((p) => s.batchUrls[p.pairedItem?.item] !== (p.json.metadata?.sourceURL ?? p.json.url));
				return bad ? short({ pairedItem: bad.pairedItem, url: bad.json.url }) : undefined;
			});
		} else if (s.own) {
			check(`${title}: the 7 pages of the site`, () => (pages.length === 7 ? undefined : `${pages.length} pages`));
		}
	}

	// ---- Job events into the trigger ----------------------------------------------------------------
	async function jobEvents() {
		const title = 'Job events into the trigger';
		console.log(`\n# ${title}`);
		if (!s.receiver) return skip(title, s.noReceiver);
		const token = crypto.randomBytes(16).toString('hex');
		const t = s.receiver.trigger({
			source: 'jobs',
			jobEvents: ['crawl.started', 'crawl.page', 'crawl.completed', 'crawl.failed', 'batch_scrape.started', 'batch_scrape.page', 'batch_scrape.completed', 'batch_scrape.failed'],
			jobToken: token,
		});
		try {
			await t.activate();
			const sendToTrigger = { trigger: { url: t.productionUrl, token } };
			for (const [job, label, parameters, items] of [
				['crawl', 'crawl', { resource: 'crawl', operation: 'start', url: s.start, pageLimit: 10, options: { crawlEntireDomain: true, sendToTrigger } }, undefined],
				['batch_scrape', 'batch scrape', { resource: 'batchScrape', operation: 'start', url: '={{ $json.link }}', options: { sendToTrigger } }, s.batchUrls.map((link) => ({ json: { link } }))],
			]) {
				const started = await runNode(parameters, items);
				if (!started.ok) {
					const missing = missingEndpoint(started.error);
					if (missing) skip(`${title}: ${label}`, missing);
					else check(`${title}: the ${label} starts with Send Events to Web Data Trigger`, () => started.error);
					continue;
				}
				const jobId = started.items[0]?.id;
				const mine = (ex) => ex.flatMap((e) => e.items).filter((i) => i.jobId === jobId);
				const ended = await t.until((ex) => mine(ex).some((i) => /\.(completed|failed)$/.test(i.event)), s.maxWait);
				const got = mine(t.executions);
				const names = got.map((i) => i.event);
				check(`${title}: the ${label}'s events start executions, ending with ${job}.completed`, () =>
					ended && names.includes(`${job}.completed`) ? undefined : `events within ${s.maxWait} s: ${short(names)}`,
				);
				const pages = got.filter((i) => i.event === `${job}.page`);
				check(`${title}: ${job}.page gives one item per page (${pages.length}), with jobType, jobId and the page's Markdown`, () => {
					if (pages.length === 0) return `no page events: ${short(names)}`;
					const bad = pages.find((p) => p.jobType !== job || typeof p.markdown !== 'string');
					return bad ? short({ ...bad, markdown: typeof bad.markdown }) : undefined;
				});
				if (job === 'batch_scrape') check(`${title}: one batch_scrape.page per URL`, () => (pages.length === s.batchUrls.length ? undefined : `${pages.length} for ${s.batchUrls.length} URLs`));
				else if (s.own) check(`${title}: one crawl.page per page of the site (7)`, () => (pages.length === 7 ? undefined : `${pages.length}`));
				note(`${title}: ${label} events ${[...new Set(names)].map((n) => `${n} ×${names.filter((x) => x === n).length}`).join(', ')}`);
			}
			check(`${title}: every delivery was accepted (HTTP 200)${s.webhookSecret ? ', signatures checked' : ', token checked'}`, () =>
				t.answers.length > 0 && t.answers.every((a) => a.status === 200) ? undefined : short(t.answers),
			);
			const forged = await fetch(t.productionUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"success":true,"type":"crawl.completed","id":"x","data":[]}' });
			check(`${title}: a delivery without the token is refused (HTTP 401)`, () => (forged.status === 401 ? undefined : `HTTP ${forged.status}`));
			await t.deactivate();
		} finally {
			t.close();
		}
	}
}

const rl = (value) => ({ __rl: true, mode: 'id', value });

module.exports = { heart, missingEndpoint, sleep };
