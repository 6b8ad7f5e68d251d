'use strict';
// Comments say why, briefly (nodes/README.md): line and block comments stay at most 12 % of the
// characters of nodes/ and credentials/; where a fact came from goes to nodes/FACTS.md.
// `node test/unit/comment-share.test.js` prints the share and the heaviest files.
const fs = require('fs');
const path = require('path');
const { tsFiles } = require('../helpers/source-files');

const ROOT = path.join(__dirname, '../..');
const LIMIT = 0.12;

/** Characters of `//` and `/* *\/` comments in TypeScript text, strings and template literals skipped. */
function commentChars(text) {
	let count = 0;
	let quote = null;
	for (let i = 0; i < text.length; i++) {
		const ch = text[i];
		if (quote) {
			if (ch === '\\') i++;
			else if (ch === quote) quote = null;
			continue;
		}
		if (ch === '"' || ch === "'" || ch === '`') quote = ch;
		else if (ch === '/' && text[i + 1] === '/') {
			const end = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
			count += end - i;
			i = end;
		} else if (ch === '/' && text[i + 1] === '*') {
			const close = text.indexOf('*/', i + 2);
			const end = close < 0 ? text.length : close + 2;
			count += end - i;
			i = end - 1;
		}
	}
	return count;
}

function share() {
	const files = ['nodes', 'credentials'].flatMap((dir) => tsFiles(path.join(ROOT, dir)));
	const per = files.map((file) => {
		const text = fs.readFileSync(file, 'utf8');
		return { file: path.relative(ROOT, file), comments: commentChars(text), total: text.length };
	});
	const comments = per.reduce((sum, f) => sum + f.comments, 0);
	const total = per.reduce((sum, f) => sum + f.total, 0);
	return { ratio: comments / total, comments, total, per };
}

if (require.main === module) {
	const s = share();
	console.log(`comments ${(100 * s.ratio).toFixed(1)} % (${s.comments} of ${s.total} characters)`);
	for (const f of s.per.sort((a, b) => b.comments - a.comments).slice(0, 10)) console.log(`${f.comments}\t${f.file}`);
} else {
	test('the counter counts comments, not strings that look like them', () => {
		expect(commentChars('const a = 1; // two\n')).toBe(6);
		expect(commentChars('/* x */ const u = "http://example.com"; const t = `/* no */`;')).toBe(7);
		expect(commentChars("const s = 'it\\'s // not';")).toBe(0);
	});

	test('comments are at most 12 % of the characters of nodes/ and credentials/', () => {
		const s = share();
		expect(s.per.length).toBeGreaterThan(50);
		expect(Math.round(1000 * s.ratio) / 10).toBeLessThanOrEqual(100 * LIMIT);
	});
}
