'use strict';
// One fresh n8n instance for an end-to-end script: its folders, a canary API key, the package
// installed as a community package, and the context ./trigger-phase.js Phase runs n8n with; and
// runPhaseSuite, a whole script's run of a Phase suite in it.
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const proc = require('./proc');
const { hostProfile } = require('./hosts');
const { n8nEnv, freePort } = require('./n8n');
const { packInto } = require('./editor');
const { secs, oneLine } = require('./report');

/**
 * The instance's temporary folder (`prefix`…), its n8n user folder and a canary API key (which must
 * never appear in anything n8n prints or returns). `install()` then checks that test/e2e/install.sh
 * installed the host's n8n, packs the package into the user folder, picks free ports and gives the
 * Phase context; call it inside the script's try, so a failure is reported as the set-up's.
 */
function prepareInstance({ root, prefix, encryptionKey, host = hostProfile(process.env.E2E_N8N) }) {
	const tmp = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
	const userFolder = path.join(tmp, 'user');
	fs.mkdirSync(userFolder);
	const apiKey = `wd-canary-${crypto.randomBytes(16).toString('hex')}`;
	async function install() {
		if (!fs.existsSync(path.join(host.hostDir, 'node_modules', 'n8n'))) {
			throw new Error(`${host.name} is not installed in .cache/: run bash test/e2e/install.sh ${host.installArg}`);
		}
		await packInto(root, tmp, userFolder);
		return {
			nodeDir: host.nodeDir,
			hostDir: host.hostDir,
			workDir: tmp,
			env: n8nEnv({ nodeDir: host.nodeDir, userFolder, encryptionKey, port: await freePort(), brokerPort: await freePort(), host }),
		};
	}
	return { tmp, userFolder, apiKey, host, install };
}

/**
 * A script's whole run of a suite built on ./trigger-phase.js Phase, ending the process: a fresh
 * instance (prepareInstance), `n8n start` and its set-up (suite.setup()), the line
 * `setupLabel(startMs)`, `run(suite, apiKey)`; then n8n and every child stopped (n8n's output joins
 * the canary scan), the line `leakLabel` (the canary API key is in nothing captured), the "# time"
 * lines, "# total", the logs removed unless something failed or process.env[keepTmpEnv] is set, the
 * last line "N passed, N failed", and exit 1 on any failure.
 *
 * opts: report (./report.js reporter), root, host, prefix, encryptionKey, keepTmpEnv, Suite (the
 * Phase class), setupLabel, setupFailedLabel (the line when set-up or run throws), leakLabel, run;
 * optional: before() (first, before the install), configure(suite) (before its set-up), after()
 * (after n8n has stopped), checkLeaks(apiKey, suite) (more canary lines, before leakLabel's),
 * notes() (lines printed before "# total"), timingLines (false: no "# time" lines), failDetails
 * (false: n8n's last lines in the reason of the failed set-up line instead of "#" lines with the stack).
 */
async function runPhaseSuite(opts) {
	const { report, root, Suite } = opts;
	const { record, captured, timings } = report;
	const t0 = Date.now();
	const { tmp, apiKey, install } = prepareInstance({ root, prefix: opts.prefix, encryptionKey: opts.encryptionKey, host: opts.host });
	let suite;
	let code = 0;
	try {
		if (opts.before) await opts.before();
		const ctx = await install();
		suite = new Suite({ root, tmp, ctx, apiKey, record, captured, timings, substitute: (t) => t, oneLine });
		if (opts.configure) opts.configure(suite);
		const startMs = await suite.setup();
		record(opts.setupLabel(startMs), true);
		await opts.run(suite, apiKey);
	} catch (e) {
		if (opts.failDetails === false) record(opts.setupFailedLabel, false, `${e.message} ${suite?.n8nTail?.(30) ?? ''}`);
		else record(opts.setupFailedLabel, false, e.message, [e.stack, suite?.n8nTail?.(30)].filter(Boolean).join('\n'));
		code = 1;
	} finally {
		if (suite) {
			await suite.stopN8n();
			captured.push({ source: 'n8n start (stdout+stderr)', text: suite.n8nOutput.join('') });
		}
		if (opts.after) await opts.after();
		await proc.stopAll();
	}
	if (opts.checkLeaks) opts.checkLeaks(apiKey, suite);
	const leaked = captured.filter((c) => String(c.text).includes(apiKey)).map((c) => c.source);
	record(opts.leakLabel, leaked.length === 0, `found in ${leaked.join(', ')}`);
	const failed = report.failed();
	if (opts.timingLines !== false) report.printTimings();
	for (const line of opts.notes ? opts.notes() : []) console.log(line);
	console.log(`# total ${secs(Date.now() - t0)}`);
	if (failed === 0 && code === 0 && !process.env[opts.keepTmpEnv]) fs.rmSync(tmp, { recursive: true, force: true });
	else console.log(`# logs kept in ${tmp}`);
	report.summary();
	process.exit(failed > 0 || code !== 0 ? 1 : 0);
}

/** Runs `main` as the script: every child is killed when the process exits; a throw exits 1. */
function runScript(main) {
	process.on('exit', () => proc.killAllSync());
	main().catch((e) => {
		console.error(e);
		process.exit(1);
	});
}

module.exports = { prepareInstance, runPhaseSuite, runScript };
