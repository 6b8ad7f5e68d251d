'use strict';
// examples/rag/site-to-vector-store.json and its partner site-to-vector-store-answer.json, in one
// real `n8n start` (run by test/e2e/lib/vector-store-phase.js from the trigger phase): the index
// workflow runs five times against the fake's crawl with change tracking (the fake remembers each
// page per URL and tag, and the site is edited between runs), its Simple Vector Store insert goes
// through the Embeddings OpenAI node to the stub model's /v1/embeddings, which counts the calls; then
// the AI Agent asks the store through its retrieve tool.
//
// The Simple Vector Store can only clear a whole memory key (no delete by page or metadata), so the
// example adds new pages alone and rebuilds the key from the crawl when a page changed or went away.
// What is asserted is exactly that: nothing changed → 0 embedding calls; only a new page → only its
// chunks; a changed or removed page → every current page once, the old text and the removed page gone.
const assert = require('node:assert/strict');

const SITE = 'https://docs.example.com';
const PRICING = `${SITE}/pricing`;
const CAREERS = `${SITE}/careers`;
const LATE = `${SITE}/blog/second-post`; // not on the site at first, then published
const TAG = 'n8n-site-pages';
// The changed pricing page: long enough for several chunks (the Default Data Loader's simple
// splitter: 1000 characters with 200 of overlap); each paragraph names what it is about.
const NEW_PRICING = [
	'# Pricing',
	...Array.from({ length: 6 }, (_, k) => `Paragraph ${k + 1} of the new pricing page. The Enterprise plan costs 990 euros a month and includes single sign-on, an audit log, a dedicated support engineer and a service level of 99.95 percent. The Team plan costs 190 euros a month for up to 20 people. Every plan can be cancelled at the end of a month; prices are without VAT.`),
].join('\n\n');

const changeStatuses = (run) => Object.fromEntries((run.nodes['Crawl the site'] ?? []).map((p) => [p.url, p.changeStatus]));
const texts = (run) => run.embedded.flat();
/** Which page an embedded text comes from: the fake's default page text names its URL; the new pricing page says so. */
const pageOf = (text) => (text.includes('of the new pricing page') ? PRICING : (/This is the content of (\S+?)\.\s/.exec(text) || [])[1]);
const ran = (run, node) => Object.prototype.hasOwnProperty.call(run.nodes, node);

function assertSuccess(run) {
	assert.equal(run.status, 'success', `execution ${run.id} ${run.status}${run.error ? `: ${run.error.message}` : ''}`);
}

module.exports = async ({ step, fake, runIndex, ask }) => {
	let pagesNow = [];
	let lastRebuild = [];
	const setSite = (pages) => fake.call('POST', '/__fake/site', pages);

	const ok1 = await step('first run: every page is new → each page embedded once and added; the crawl asked for change tracking with the tag', async () => {
		await fake.reset();
		await setSite({ [LATE]: { removed: true } });
		const run = await runIndex();
		assertSuccess(run);
		const [crawl] = (await fake.log()).filter((r) => r.method === 'POST' && r.path === '/v2/crawl');
		assert.ok(crawl, 'the fake received POST /v2/crawl');
		const formats = crawl.body.scrapeOptions?.formats ?? [];
		assert.ok(formats.some((f) => f === 'markdown'), `markdown requested (${JSON.stringify(formats)})`);
		assert.ok(formats.some((f) => f?.type === 'changeTracking' && f.tag === TAG), `change tracking with tag ${TAG} requested (${JSON.stringify(formats)})`);
		const statuses = changeStatuses(run);
		pagesNow = Object.keys(statuses);
		assert.equal(pagesNow.length, 11, `11 pages crawled (${pagesNow.join(', ')})`);
		assert.ok(Object.values(statuses).every((s) => s === 'new'), JSON.stringify(statuses));
		assert.ok(!ran(run, 'Rebuild the store'), 'no rebuild');
		assert.equal(run.nodes['Add the new pages'].length, 11, 'one chunk per short page added');
		assert.ok(run.embedded.length > 0, 'the embeddings were asked for');
		assert.deepEqual(texts(run).map(pageOf).sort(), [...pagesNow].sort(), 'each page embedded exactly once');
		return `11 new pages → ${run.embedded.length} embedding call(s) for ${texts(run).length} chunks`;
	});
	if (!ok1) return;

	await step('second run, nothing changed: 0 embedding calls, no store node runs', async () => {
		const run = await runIndex();
		assertSuccess(run);
		const statuses = changeStatuses(run);
		assert.deepEqual(Object.keys(statuses).sort(), [...pagesNow].sort());
		assert.ok(Object.values(statuses).every((s) => s === 'same'), JSON.stringify(statuses));
		assert.equal(run.embedded.length, 0, `embedding calls: ${JSON.stringify(run.embedded)}`);
		assert.ok(!ran(run, 'Rebuild the store') && !ran(run, 'Add the new pages'), `store nodes ran: ${Object.keys(run.nodes).join(', ')}`);
		return '11 × same → 0 embedding calls';
	});

	await step('a page is published: only its chunk is embedded and added (no rebuild)', async () => {
		await setSite({ [LATE]: null });
		const run = await runIndex();
		assertSuccess(run);
		const statuses = changeStatuses(run);
		assert.equal(statuses[LATE], 'new');
		assert.equal(Object.values(statuses).filter((s) => s !== 'same').length, 1, JSON.stringify(statuses));
		pagesNow = Object.keys(statuses);
		assert.ok(!ran(run, 'Rebuild the store'), 'no rebuild');
		assert.deepEqual(texts(run).map(pageOf), [LATE], `embedded: ${JSON.stringify(texts(run))}`);
		return `1 new page → ${run.embedded.length} embedding call(s) for ${texts(run).length} chunk`;
	});

	await step('a page changed: the memory key is rebuilt from this crawl (the Simple Vector Store cannot delete one page) → every page once, the new text in chunks, the old text gone', async () => {
		await setSite({ [PRICING]: { markdown: NEW_PRICING } });
		const run = await runIndex();
		assertSuccess(run);
		const statuses = changeStatuses(run);
		assert.equal(statuses[PRICING], 'changed');
		assert.ok(ran(run, 'Rebuild the store') && !ran(run, 'Add the new pages'), `ran: ${Object.keys(run.nodes).join(', ')}`);
		const embedded = texts(run);
		const pricingChunks = embedded.filter((t) => pageOf(t) === PRICING);
		assert.ok(pricingChunks.length >= 2, `the new pricing page in several chunks (${pricingChunks.length})`);
		assert.ok(!embedded.some((t) => t.includes(`This is the content of ${PRICING}.`)), 'the old pricing text is not embedded');
		assert.deepEqual([...new Set(embedded.map(pageOf))].sort(), [...pagesNow].sort(), 'every current page, and only those');
		assert.equal(embedded.length, pagesNow.length - 1 + pricingChunks.length, 'each other page once');
		lastRebuild = embedded;
		return `1 changed page → rebuild: ${run.embedded.length} embedding call(s) for ${embedded.length} chunks (${pricingChunks.length} of the changed page)`;
	});

	await step('a page removed: rebuilt without it', async () => {
		await setSite({ [CAREERS]: { removed: true } });
		const run = await runIndex();
		assertSuccess(run);
		const statuses = changeStatuses(run);
		assert.equal(statuses[CAREERS], 'removed');
		const embedded = texts(run);
		assert.ok(!embedded.some((t) => pageOf(t) === CAREERS), 'the removed page is not embedded');
		pagesNow = pagesNow.filter((u) => u !== CAREERS);
		assert.deepEqual([...new Set(embedded.map(pageOf))].sort(), [...pagesNow].sort());
		lastRebuild = embedded;
		return `1 removed page → rebuild: ${embedded.length} chunks of ${pagesNow.length} pages`;
	});

	await step('the AI Agent answers from the store: one query embedding; its retrieve tool returns the whole store once (no copies, no old or removed page); the scripted answer comes back', async () => {
		const question = 'What does the Enterprise plan cost?';
		const answer = `The Enterprise plan costs 990 euros a month (${PRICING}).`;
		const run = await ask(question, [{ calls: (body) => [{ name: (body.tools ?? []).map((t) => t.function?.name).find((n) => /site/i.test(n ?? '')), args: { input: question } }] }, { content: answer }]);
		assertSuccess(run);
		assert.equal(run.nodes['AI Agent']?.[0]?.output, answer);
		assert.deepEqual(run.embedded, [[question]], 'one embedding call: the question');
		const [result] = run.toolResults;
		assert.ok(result, `the model received a tool result (tools offered: ${run.tools.map((t) => t.name).join(', ')})`);
		assert.match(result.name, /site/i);
		// The tool's answer as the model gets it: [{response: [{type: 'text', text: '<a Document as JSON>'}, …]}].
		const top = JSON.parse(result.content);
		const parts = (Array.isArray(top) ? top : [top]).flatMap((x) => x.response ?? [x]);
		const docs = parts.map((p) => JSON.parse(p.text));
		const contents = docs.map((d) => d.pageContent);
		assert.equal(new Set(contents).size, contents.length, 'no chunk twice');
		assert.equal(docs.length, lastRebuild.length, `the store holds ${docs.length} chunks, the last rebuild embedded ${lastRebuild.length}`);
		assert.ok(docs.every((d) => typeof d.metadata?.url === 'string' && d.metadata.url.startsWith(SITE)), 'each chunk carries its page URL');
		assert.ok(!docs.some((d) => d.metadata.url === CAREERS), 'the removed page is gone');
		assert.ok(!contents.some((c) => c.includes(`This is the content of ${PRICING}.`)), 'the old pricing text is gone');
		assert.equal(docs[0].metadata.url, PRICING, `the nearest chunk is from the pricing page (got ${docs[0].metadata.url})`);
		return `tool ${result.name}: ${docs.length} chunks of ${new Set(docs.map((d) => d.metadata.url)).size} pages, nearest ${docs[0].metadata.url}`;
	});
};

// Runs in the trigger phase's n8n with its partner (lib/vector-store-phase.js). topK: the check
// raises the retrieve tool's Limit so that the model's tool result shows the whole store.
module.exports.trigger = { vectorStore: { answer: 'site-to-vector-store-answer', topK: 100 } };
