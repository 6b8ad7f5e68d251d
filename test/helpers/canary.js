// The canary API key: every test that needs a key uses this one, and test/setup/canary-guard.js
// fails a test file when the key shows up in anything recorded or printed during it.
const CANARY_KEY = 'wd-canary-7f3c9e1a-NEVER-PRINT-ME-5b2d';

const seen = [];

/** Records a value the suite produced (output items, errors) for the canary check. */
function record(value) {
	seen.push(value);
	return value;
}

function flatten(value) {
	if (value instanceof Error) {
		const own = {};
		for (const key of Object.getOwnPropertyNames(value)) own[key] = value[key];
		return JSON.stringify(own, safeReplacer());
	}
	if (typeof value === 'string') return value;
	try {
		return JSON.stringify(value, safeReplacer());
	} catch {
		return String(value);
	}
}

function safeReplacer() {
	const stack = new WeakSet();
	return (_key, v) => {
		if (v instanceof Error) {
			const own = {};
			for (const key of Object.getOwnPropertyNames(v)) own[key] = v[key];
			v = own;
		}
		if (v && typeof v === 'object') {
			if (stack.has(v)) return '[circular]';
			stack.add(v);
		}
		return v;
	};
}

/** Everything recorded so far as text. */
function recordedText() {
	return seen.map(flatten).join('\n');
}

module.exports = { CANARY_KEY, record, recordedText, flatten };
