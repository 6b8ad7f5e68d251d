'use strict';
// Memory benchmark of Parse → Parse File (a script, not a test): `npm run bench:parse-memory`.
//
// Generates a 50 MB file, starts the fake API in its own process, then measures in fresh child
// processes, alternating: (a) the Web Data node parsing it through a real n8n-core workflow run
// with n8n's filesystem binary mode, (b) a naive upload that buffers the whole file and body.
// Each reports peak RSS (VmHWM) minus the RSS after warm-up. Prints each run and the medians.
// Options: RUNS=<n> (default 5).
const { spawn, execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const RUNS = Number(process.env.RUNS || 5);
const SIZE = 50 * 1024 * 1024 - 4096; // just under the 50 MB limit
const KEY = `bench-${process.pid}-key`;

function makeFile(dir) {
	const file = path.join(dir, 'big.pdf');
	const fd = fs.openSync(file, 'w');
	const head = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Pages /Count 200 >> endobj\n');
	fs.writeSync(fd, head);
	const chunk = Buffer.alloc(1024 * 1024);
	for (let i = 0; i < chunk.length; i++) chunk[i] = 32 + ((i * 7) % 90);
	let written = head.length;
	while (written < SIZE) {
		const n = Math.min(chunk.length, SIZE - written);
		fs.writeSync(fd, chunk, 0, n);
		written += n;
	}
	fs.closeSync(fd);
	return file;
}

function startFake() {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [path.join(__dirname, '..', 'fake-api', 'server.js'), '--port', '0', '--key', KEY], { stdio: ['ignore', 'pipe', 'inherit'] });
		child.stdout.on('data', (d) => {
			const m = /FAKE_API_URL=(\S+)/.exec(String(d));
			if (m) resolve({ child, url: m[1] });
		});
		child.on('exit', (code) => reject(new Error(`fake API exited with ${code}`)));
	});
}

function measure(mode, file, url) {
	const out = execFileSync(process.execPath, ['--expose-gc', path.join(__dirname, 'parse-memory-child.js'), mode, file, url, KEY], { encoding: 'utf8' });
	return JSON.parse(out.trim().split('\n').pop());
}

const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

(async () => {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webdata-bench-'));
	const fake = await startFake();
	try {
		const file = makeFile(dir);
		console.log(`file: ${(fs.statSync(file).size / 1024 / 1024).toFixed(1)} MB; node ${process.version}; ${os.cpus().length} cores; runs: ${RUNS}`);
		const results = { node: [], naive: [] };
		for (let i = 0; i < RUNS; i++) {
			for (const mode of ['node', 'naive']) {
				const r = measure(mode, file, fake.url);
				results[mode].push(r);
				console.log(`run ${i + 1} ${mode.padEnd(5)} baseline ${r.baselineMb} MB, peak ${r.peakMb} MB, extra ${r.extraMb} MB, ${r.seconds} s`);
			}
		}
		const node = median(results.node.map((r) => r.extraMb));
		const naive = median(results.naive.map((r) => r.extraMb));
		console.log('');
		console.log('| upload of a 50 MB file | median extra peak RSS | median time |');
		console.log('|---|---|---|');
		console.log(`| Web Data node, filesystem binary mode (streamed) | ${node} MB | ${median(results.node.map((r) => r.seconds))} s |`);
		console.log(`| naive: whole file and body in memory | ${naive} MB | ${median(results.naive.map((r) => r.seconds))} s |`);
		console.log(`ratio naive / node: ${(naive / Math.max(node, 0.1)).toFixed(1)}×; goal for the node: ≤ 8 MB → ${node <= 8 ? 'met' : 'NOT met'}`);
	} finally {
		fake.child.kill('SIGTERM');
		fs.rmSync(dir, { recursive: true, force: true });
	}
})().catch((error) => {
	console.error(error);
	process.exit(1);
});
