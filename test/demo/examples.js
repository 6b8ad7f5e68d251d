'use strict';
// What the demo knows about an example workflow: what it is for, whether it spends credits or
// changes the account, and how to show its result to a person (results, not ids).

const NODE_TYPE = 'n8n-nodes-webdata.webData';
const TRIGGER_TYPE = 'n8n-nodes-webdata.webDataTrigger';

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
	if (workflow.nodes.some((n) => n.type === TRIGGER_TYPE)) return { kind: 'trigger', operations: [] };
	const operations = workflow.nodes
		.filter((n) => n.type === NODE_TYPE)
		.map((n) => `${n.parameters?.resource ?? '?'}.${n.parameters?.operation ?? '?'}`);
	const spends = operations.filter((op) => !READ_ONLY.has(op));
	return { kind: spends.length ? 'spend' : 'read', operations, spends };
}

/**
 * One line saying what the example is for: the first paragraph of its sticky note (after the title,
 * without set-up sentences such as "Replace the first node…"), else its name.
 */
function purpose(workflow) {
	const note = workflow.nodes.find((n) => n.type === 'n8n-nodes-base.stickyNote')?.parameters?.content;
	const name = String(workflow.name ?? '').replace(/^Web Data:\s*/, '');
	if (typeof note !== 'string') return name;
	const paragraphs = note
		.split('\n')
		.filter((line) => !line.trim().startsWith('#'))
		.join('\n')
		.split(/\n\s*\n/)
		.map((p) => plain(p))
		.filter((p) => p && !/^To use it/i.test(p) && !/^\d+\./.test(p));
	for (const paragraph of paragraphs) {
		const sentences = paragraph.split(/(?<=[.!?])\s+/);
		while (sentences.length && /^(Replace|The first (two )?nodes?)\b/i.test(sentences[0])) sentences.shift();
		// one line: the first sentence, and the next ones while it stays short
		let text = sentences.shift() ?? '';
		while (sentences.length && text.length + sentences[0].length < 170) text += ` ${sentences.shift()}`;
		text = text.trim();
		if (text) return text;
	}
	return name;
}

function plain(markdown) {
	return markdown
		.replace(/\*\*([^*]+)\*\*/g, '$1')
		.replace(/\*([^*]+)\*/g, '$1')
		.replace(/`([^`]+)`/g, '$1')
		.replace(/\s+/g, ' ')
		.trim();
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
	}
	return lines;
}

module.exports = { READ_ONLY, classify, purpose, describeItems, describeRun, lastNodes, NODE_TYPE, TRIGGER_TYPE };
