'use strict';
// One measurement of the parse memory benchmark (run by parse-memory.js in a fresh process).
//   node parse-memory-child.js <node|naive> <file> <fake API url> <api key>
// Prints one JSON line: {mode, baselineMb, peakMb, extraMb, seconds}.
// Peak RSS is the kernel's high-water mark (VmHWM), reset after warm-up via /proc/self/clear_refs.
const fs = require('fs');
const http = require('http');
const path = require('path');

const [mode, file, url, apiKey] = process.argv.slice(2);

function status(field) {
	const line = fs.readFileSync('/proc/self/status', 'utf8').split('\n').find((l) => l.startsWith(field + ':'));
	return Number(line.replace(/\D+/g, '')) / 1024; // kB → MB
}

function resetPeak() {
	fs.writeFileSync('/proc/self/clear_refs', '5');
}

function settle() {
	if (global.gc) {
		global.gc();
		global.gc();
	}
}

async function viaNode() {
	process.env.N8N_LOG_LEVEL = 'silent';
	const { runWorkflow } = require('../helpers/workflow-runner');
	const { webDataWorkflow, WEB_DATA } = require('../helpers/workflows');
	const credentials = { webDataApi: { apiKey, baseUrl: url } };
	const parse = { resource: 'parse', operation: 'parseFile' };
	const item = (p) => [{ json: {}, binary: { data: { path: p } } }];
	// Put the file into n8n's filesystem binary store first (as an upstream node would have done),
	// so the measurement covers only what the Web Data node does with it.
	const store = await runWorkflow(webDataWorkflow(parse, item(file)), { credentials, binaryMode: 'filesystem' });
	const stored = store.items('Test Items');
	if (!stored[0].binary.data.id) throw new Error('the file is not in the filesystem store');
	const pinned = (items) => ({ ...webDataWorkflow(parse, []), pinData: { 'Test Items': items.map(({ json, binary }) => ({ json, binary })) } });
	// Warm-up: the same path with a small file.
	const small = await runWorkflow(webDataWorkflow(parse, item(path.join(__dirname, '..', 'fixtures', 'report.pdf'))), { credentials, binaryMode: 'filesystem' });
	const warm = await runWorkflow(pinned(small.items('Test Items')), { credentials, binaryMode: 'filesystem' });
	if (warm.status !== 'success') throw new Error(`warm-up failed: ${warm.error && warm.error.message}`);
	settle();
	resetPeak();
	const baseline = status('VmRSS');
	const started = Date.now();
	const result = await runWorkflow(pinned(stored), { credentials, binaryMode: 'filesystem' });
	if (result.status !== 'success') throw new Error(`parse failed: ${result.error && result.error.message}`);
	const seconds = (Date.now() - started) / 1000;
	if (!result.json(WEB_DATA)[0].markdown) throw new Error('no markdown in the output');
	const peak = status('VmHWM');
	await checkUploaded();
	return { baseline, peak, seconds };
}

/** The fake API's log must show the whole file arriving in the last upload. */
async function checkUploaded() {
	const log = await (await fetch(`${url}/__fake/log`)).json();
	const last = log.filter((r) => r.path === '/v2/parse').pop();
	const part = last && last.body.parts.find((p) => p.name === 'file');
	if (!part || part.size !== fs.statSync(file).size || last.status !== 200) throw new Error('the fake API did not receive the whole file');
}

/** The naive way: read the whole file, build the whole multipart body in memory, send it. */
async function naive() {
	const send = (body, boundary) =>
		new Promise((resolve, reject) => {
			const req = http.request(`${url}/v2/parse`, {
				method: 'POST',
				headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': body.length },
			});
			req.on('response', (res) => {
				const chunks = [];
				res.on('data', (c) => chunks.push(c));
				res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(Buffer.concat(chunks))) : reject(new Error(`HTTP ${res.statusCode}`))));
			});
			req.on('error', reject);
			req.end(body);
		});
	const upload = async (p) => {
		const bytes = fs.readFileSync(p);
		const boundary = 'naive-boundary-1234567890';
		const body = Buffer.concat([
			Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${path.basename(p)}"\r\nContent-Type: application/pdf\r\n\r\n`),
			bytes,
			Buffer.from(`\r\n--${boundary}--\r\n`),
		]);
		return await send(body, boundary);
	};
	await upload(path.join(__dirname, '..', 'fixtures', 'report.pdf'));
	settle();
	resetPeak();
	const baseline = status('VmRSS');
	const started = Date.now();
	const out = await upload(file);
	if (!out.data || !out.data.markdown) throw new Error('no markdown in the output');
	const seconds = (Date.now() - started) / 1000;
	const peak = status('VmHWM');
	await checkUploaded();
	return { baseline, peak, seconds };
}

(async () => {
	const r = mode === 'node' ? await viaNode() : await naive();
	const round = (x) => Math.round(x * 10) / 10;
	process.stdout.write(
		JSON.stringify({ mode, baselineMb: round(r.baseline), peakMb: round(r.peak), extraMb: round(r.peak - r.baseline), seconds: round(r.seconds) }) + '\n',
	);
	process.exit(0);
})().catch((error) => {
	process.stderr.write(`${error.stack}\n`);
	process.exit(1);
});
