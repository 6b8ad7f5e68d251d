'use strict';
// What an end-to-end script prints: one "ok - …" / "not ok - …: <reason>" line per proof (a failed
// one's details as "#   " lines), "# time" lines, and the last line "N passed, N failed" (CI reads
// those lines).

const secs = (ms) => `${(ms / 1000).toFixed(1)} s`;
const oneLine = (text) => String(text).replace(/\s+/g, ' ').trim().slice(0, 500);
const indent = (text) =>
	String(text)
		.split('\n')
		.map((l) => `#   ${l}`)
		.join('\n');

/**
 * A script's report: `record(label, ok, reason?, details?)` prints and counts one line (`strip`: a
 * pattern taken off the front of each label, /^trigger: / for the lines of ./trigger-phase.js
 * Phase.step()); `captured` ({source, text}: what n8n printed or returned, scanned for the canary
 * API key) and `timings` ([name, ms, note?]) are filled by the script and its Phase.
 */
function reporter({ strip } = {}) {
	const results = [];
	const timings = [];
	function record(label, ok, reason, details) {
		const name = strip ? label.replace(strip, '') : label;
		results.push({ name, ok });
		console.log(ok ? `ok - ${name}` : `not ok - ${name}: ${oneLine(reason)}`);
		if (!ok && details) console.log(indent(details));
	}
	const failed = () => results.filter((r) => !r.ok).length;
	/** Prints "N passed, N failed"; returns the number failed. */
	function summary() {
		const n = failed();
		console.log(`${results.length - n} passed, ${n} failed`);
		return n;
	}
	/** Prints a "# time <name>: <s> (<note>)" line per timing. */
	function printTimings() {
		for (const [name, ms, note] of timings) console.log(`# time ${name}: ${secs(ms)}${note ? ` (${note})` : ''}`);
	}
	return { results, captured: [], timings, record, failed, summary, printTimings };
}

module.exports = { secs, oneLine, indent, reporter };
