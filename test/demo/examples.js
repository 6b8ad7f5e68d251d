'use strict';
// What the demo knows about an example workflow: what it is for, whether it spends credits or
// changes the account, and how to show its result to a person (results, not ids).

const NODE_TYPE = 'n8n-nodes-webdata.webData';
const TRIGGER_TYPE = 'n8n-nodes-webdata.webDataTrigger';
const POLL_TRIGGER_TYPE = 'n8n-nodes-webdata.webDataPollTrigger';

/**
 * Operations that only read: they cost no credits and change nothing. Everything else (parse,
 * scrape, search, map, crawl, batch scrape, interact, agent runs, monitor create / update / delete /
 * run, cancel, …) counts as spending; a new operation is treated as spending until it is listed here.
 */
const READ_ONLY = new Set([
	'account.getCreditUsage',
	'account.getCreditUsageHistory',
	'account.getQueueStatus',
	'account.getActivity',
	'account.getTokenUsage',
	'account.getTokenUsageHistory',
	'agent.get',
	'agent.getMany',
	'agent.getTrace',
	'agent.getSnapshot',
	'monitor.get',
	'monitor.getMany',
	'monitor.getCheck',
	'monitor.getManyChecks',
	'crawl.getStatus',
	'crawl.getErrors',
	'crawl.getActive',
	'batchScrape.getStatus',
	'batchScrape.getErrors',
	'extract.getStatus',
	'interact.getMany',
]);

/** 'trigger' (runs only inside n8n), 'read' (read-only operations only) or 'spend'; with the operations. */
function classify(workflow) {
	if (workflow.nodes.some((n) => n.type === TRIGGER_TYPE || n.type === POLL_TRIGGER_TYPE)) return { kind: 'trigger', operations: [] };
	// A start that sends its events to a Web Data Trigger needs that trigger active in an n8n (issue 18.2).
	if (workflow.nodes.some((n) => n.type === NODE_TYPE && n.parameters?.options?.sendToTrigger?.trigger)) return { kind: 'trigger', operations: [] };
	const operations = workflow.nodes
		.filter((n) => n.type === NODE_TYPE)
		.map((n) => `${n.parameters?.resource ?? '?'}.${n.parameters?.operation ?? '?'}`);
	const spends = operations.filter((op) => !READ_ONLY.has(op));
	return { kind: spends.length ? 'spend' : 'read', operations, spends };
}

/**
 * What each example shows, in one line for a person who has not opened it: the single source of the
 * demo's "What it is for" line (the sticky notes describe the workflows node by node, for people
 * building with them). Keyed by the file name in examples/ without `.json`; a new example needs a line
 * here (test/unit/demo-results.test.js fails without one).
 */
const PURPOSES = {
	'account-credit-usage': 'Reads how many credits your team has left in the current billing period, and works out the share of the plan that is left.',
	'agent-get-status': 'Finds your most recent research agent run and reads its status and, once it has finished, its result.',
	'agent-run-and-wait':
		'Gives a research agent a question (three robotics start-ups founded after 2018) and an example of the answer it should give, waits until it has finished and outputs its answer.',
	'agent-start-then-poll-later':
		'Starts a research agent run (the pricing of three project management tools), lets a Wait node pause while it works, then reads its status and answer: the pattern for long research.',
	'batch-scrape-urls':
		"Scrapes many pages in one batch job: lists a site's blog pages, sends all their URLs to the service in a single job, waits for it and outputs one item per page with its Markdown.",
	'crawl-to-trigger-start':
		'Starts a crawl that reports to another workflow: each page it scrapes starts one execution of the Web Data Trigger workflow, with this run\'s name as metadata (pair it with trigger-on-crawl-page).',
	'crawl-with-credit-budget': 'Crawls a website under a credit budget: the page limit is lowered to what the budget can pay for, and each page says what the crawl cost and what is left.',
	'crawl-site-and-wait': 'Crawls a website from one URL, following its links up to a page limit, waits until the crawl has finished and outputs one item per page (URL, title, Markdown).',
	'extract-structured-data':
		"Pulls facts about the company behind a website (its name, what it does, whether it offers single sign-on) out of its pages, as one item with the pages each fact came from.",
	'interact-with-page': 'Drives a browser two ways: runs code in a browser session it opens and stops, and has an AI look up a price on a page it has just scraped, following a prompt.',
	'map-website': "Lists a website's pages in seconds without scraping them, puts the docs pages first with search words, then scrapes those pages to Markdown.",
	'monitor-create': 'Creates a monitor that checks two competitor pricing pages every morning, searches the news for price changes and e-mails a summary of what changed.',
	'monitor-run-and-read-changes':
		"Runs a check of your newest monitor now, waits for it, and outputs each changed, new or removed page with its diff and the model's judgment of whether the change matters.",
	'parse-pdf-per-page':
		'Turns a PDF into one item per page (page number, Markdown), ready for a loop or an AI node. Max Pages stops it early: the sample has 3 pages and Max Pages is 2, so 2 items come out marked truncated.',
	'parse-pdf-to-markdown': "Turns a PDF file into Markdown: one item with the document's text, its title and its number of pages.",
	'scrape-page-to-markdown': 'Scrapes one web page: its content as Markdown, its links, its title and status code, and a screenshot saved as an image file.',
	'scrape-with-custom-body-fields':
		'Scrapes one page and sends two request fields the node has no field for (Options → Custom Body Fields), one of them from the incoming item: the escape hatch for new API fields.',
	'search-and-scrape-results': 'Searches the web for a query and scrapes every result: one item per result with its title, link and description, and the Markdown of the page.',
	'trigger-on-crawl-page':
		'Starts a workflow once for every page a crawl scrapes, for a crawl started elsewhere that sends its events here; each page becomes one line of report with its run name.',
	'trigger-on-page-change': 'Starts a workflow whenever a watched page changes: activating it in n8n creates a monitor, and every change the monitor finds becomes one line of report.',
	'trigger-on-page-change-polling':
		"Starts a workflow whenever an existing monitor's check finds changes, without a public URL: n8n asks the service for new checks every few minutes, and every page becomes one line of report.",
};

/** One line saying what the example (file name without `.json`) is for; its workflow's name when it has none. */
function purpose(workflow, base) {
	if (Object.prototype.hasOwnProperty.call(PURPOSES, base)) return PURPOSES[base];
	return String(workflow.name ?? base).replace(/^Web Data:\s*/, '');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Fields a person does not need to see in a demo: ids, links to the API, internal envelope fields. */
function isNoise(key, value) {
	if (/^(id|.*Id|.*Ids|__.*|success|url\w*Api|expiresAt|pairedItem)$/.test(key)) return true;
	if (typeof value === 'string' && UUID.test(value)) return true;
	return false;
}

/** The value without ids at any depth (nested targets, checks…). */
function scrub(value) {
	if (Array.isArray(value)) return value.map(scrub);
	if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).filter(([k, v]) => !isNoise(k, v)).map(([k, v]) => [k, scrub(v)]));
	return value;
}

function short(value, max) {
	let text = typeof value === 'string' ? value : JSON.stringify(scrub(value));
	if (text === undefined) text = String(value);
	const flat = text.replace(/\s+/g, ' ').trim();
	return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * Lines showing items: readable fields (those in `prefer` first); multi-line text (diffs, Markdown) as
 * a few indented lines.
 */
function describeItems(items, { maxItems = 3, maxFields = 6, prefer = [] } = {}) {
	const lines = [];
	const rank = (k) => (prefer.includes(k) ? prefer.indexOf(k) : prefer.length);
	for (const item of items.slice(0, maxItems)) {
		const fields = Object.entries(item.json ?? {})
			.filter(([k, v]) => !isNoise(k, v) && v !== null && v !== '' && v !== undefined)
			.sort(([a], [b]) => rank(a) - rank(b));
		const blocks = fields.filter(([, v]) => typeof v === 'string' && v.includes('\n'));
		const inline = fields.filter(([, v]) => !(typeof v === 'string' && v.includes('\n'))).slice(0, maxFields);
		lines.push(`• ${inline.map(([k, v]) => `${k}: ${short(v, 80)}`).join('  ') || '(no readable fields)'}`);
		for (const [k, v] of blocks.slice(0, 2)) {
			const text = v.split('\n').filter((l) => l.trim() !== '');
			lines.push(`  ${k}:`);
			for (const l of text.slice(0, 8)) lines.push(`    ${short(l, 100)}`);
			if (text.length > 8) lines.push(`    … ${text.length - 8} more line(s)`);
		}
		const binaries = Object.values(item.binary ?? {});
		for (const b of binaries) lines.push(`  file: ${b.fileName ?? 'unnamed'} (${b.mimeType ?? 'unknown type'}${b.fileSize ? `, ${b.fileSize}` : ''})`);
	}
	if (items.length > maxItems) lines.push(`… ${items.length - maxItems} more item(s)`);
	return lines;
}

/** The nodes that end the workflow (no outgoing main connection), in the order they appear. */
function lastNodes(workflow) {
	const from = new Set(Object.keys(workflow.connections ?? {}).filter((name) => (workflow.connections[name].main ?? []).some((out) => (out ?? []).length)));
	return workflow.nodes.filter((n) => n.type !== 'n8n-nodes-base.stickyNote' && !from.has(n.name)).map((n) => n.name);
}

/** The nodes fed by `name`. */
function nextNodes(workflow, name) {
	return (workflow.connections?.[name]?.main ?? []).flat().filter(Boolean).map((c) => c.node);
}

/**
 * What a run produced, for a person: the result of the workflow's last node(s); when a node output
 * nothing and so the rest did not run, which node and why (e.g. no agent runs on the account yet).
 */
function describeRun(workflow, runData) {
	const lines = [];
	const ran = (name) => Array.isArray(runData[name]) && runData[name].length > 0;
	const itemsOf = (name) => {
		const runs = runData[name];
		const last = runs[runs.length - 1];
		return last?.data?.main?.[0] ?? [];
	};
	for (const node of workflow.nodes) {
		if (!ran(node.name) || node.type !== NODE_TYPE) continue;
		const next = nextNodes(workflow, node.name);
		if (itemsOf(node.name).length === 0 && next.length && !next.some(ran)) {
			const op = `${node.parameters?.resource}.${node.parameters?.operation}`;
			const what = op === 'agent.getMany' ? 'no agent runs on this account yet' : op === 'monitor.getMany' ? 'no monitors on this account yet' : 'nothing to hand on';
			lines.push(`${node.name} found none (${what}), so ${next.join(', ')} did not run.`);
		}
	}
	for (const name of lastNodes(workflow)) {
		if (!ran(name)) continue;
		const items = itemsOf(name);
		// an Edit Fields (Set) node at the end says what matters: show its fields first
		const node = workflow.nodes.find((n) => n.name === name);
		const prefer = (node?.parameters?.assignments?.assignments ?? []).map((a) => a.name);
		lines.push(`${name}: ${items.length} item(s)`);
		lines.push(...describeItems(items, { prefer }).map((l) => `  ${l}`));
		const why = truncatedWhy(node, items);
		if (why) lines.push(`  ${why}`);
	}
	return lines;
}

/**
 * Why parse items say `truncated: true`, in words: the file has more pages than were parsed
 * (metadata.totalPages > numPages, spec 2.8), because of the node's Max Pages.
 */
function truncatedWhy(node, items) {
	const item = items.find((i) => i.json?.truncated === true);
	if (!item) return undefined;
	const { numPages, totalPages } = item.json.metadata ?? {};
	if (!Number.isFinite(numPages) || !Number.isFinite(totalPages)) return 'truncated: true means the service did not parse the whole file.';
	const maxPages = node?.parameters?.pdfOptions?.maxPages;
	const limit = Number.isFinite(maxPages) ? `Max Pages is ${maxPages}` : 'Max Pages was set';
	return `truncated: true because the PDF has ${totalPages} pages and ${limit}, so the service parsed only the first ${numPages}.`;
}

module.exports = { READ_ONLY, PURPOSES, classify, purpose, describeItems, describeRun, lastNodes, NODE_TYPE, TRIGGER_TYPE, POLL_TRIGGER_TYPE };
