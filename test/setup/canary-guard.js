// Runs in every test file: whatever the file recorded (items, errors) or printed must not contain
// the canary API key.
const { CANARY_KEY, record, recordedText } = require('../helpers/canary');

const printed = [];
for (const method of ['log', 'info', 'warn', 'error', 'debug']) {
	const original = console[method];
	console[method] = (...args) => {
		printed.push(args);
		return original.apply(console, args);
	};
}

afterAll(() => {
	record(printed);
	const text = recordedText();
	expect(text.includes(CANARY_KEY)).toBe(false);
});
