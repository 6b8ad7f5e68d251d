'use strict';
// The layout of nodes/ (nodes/README.md): imports run one way only, from the node file down through
// resources/ to transport/; nodes/shared/ holds what both nodes use; the triggers take nothing from
// WebData's resources; every resource's index.ts lists its operations, one file each.
const fs = require('fs');
const path = require('path');
const { tsFiles } = require('../helpers/source-files');

const NODES = path.join(__dirname, '../../nodes');
const ROOT = path.join(NODES, 'WebData');
const SHARED = path.join(NODES, 'shared');
/** Rooms of WebData/ that may import nodes/shared/ (what both nodes use: signatures, monitor rules). */
const USES_SHARED = ['methods', 'resources', 'jobs'];
/** What nodes/shared/ may import of WebData/: the rooms below jobs/. */
const SHARED_MAY_IMPORT = ['fields', 'helpers', 'transport', 'budget'];
/** Rooms from the top down: a file may import its own room and the rooms after it. */
const ORDER = ['methods', 'resources', 'jobs', 'fields', 'tool', 'helpers', 'transport'];
// fields/ and tool/ are siblings (see the test below): neither imports the other.

function roomOf(file) {
	return path.relative(ROOT, file).split(path.sep)[0];
}

describe('nodes/WebData layout', () => {
	test('no import runs back up to a room above its own', () => {
		const upward = [];
		for (const room of ORDER) {
			for (const file of tsFiles(path.join(ROOT, room))) {
				const text = fs.readFileSync(file, 'utf8');
				for (const match of text.matchAll(/from '(\.[^']+)'/g)) {
					const resolved = path.resolve(path.dirname(file), match[1]);
					const target = roomOf(resolved);
					if (resolved.startsWith(SHARED + path.sep) && USES_SHARED.includes(room)) continue;
					if (!ORDER.includes(target) && target.startsWith('..')) upward.push(`${path.relative(ROOT, file)} -> ${match[1]}`);
					else if (ORDER.includes(target) && ORDER.indexOf(target) < ORDER.indexOf(room)) upward.push(`${path.relative(ROOT, file)} -> ${match[1]}`);
				}
			}
		}
		expect(upward).toEqual([]);
	});

	test('nodes/shared/ (what both nodes use) imports only WebData/fields, helpers, transport and budget (the price table)', () => {
		const wrong = [];
		for (const file of tsFiles(SHARED)) {
			for (const match of fs.readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
				const resolved = path.resolve(path.dirname(file), match[1]);
				if (resolved.startsWith(SHARED + path.sep)) continue;
				const rel = path.relative(ROOT, resolved);
				if (rel.startsWith('..') || !SHARED_MAY_IMPORT.includes(rel.split(path.sep)[0])) wrong.push(`${path.relative(NODES, file)} -> ${match[1]}`);
			}
		}
		expect(wrong).toEqual([]);
	});

	test('the triggers import nothing from WebData/resources/ or WebData/methods/ (shared rules live in nodes/shared/)', () => {
		const wrong = [];
		for (const dir of ['WebDataTrigger', 'WebDataPollTrigger']) {
			if (!fs.existsSync(path.join(NODES, dir))) continue;
			for (const file of tsFiles(path.join(NODES, dir))) {
				for (const match of fs.readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
					const rel = path.relative(ROOT, path.resolve(path.dirname(file), match[1]));
					if (['resources', 'methods'].includes(rel.split(path.sep)[0])) wrong.push(`${path.relative(NODES, file)} -> ${match[1]}`);
				}
			}
		}
		expect(wrong).toEqual([]);
	});

	test("a resource imports another resource's shared files only, never its operations or index", () => {
		const resourcesDir = path.join(ROOT, 'resources');
		const names = fs.readdirSync(resourcesDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
		const operationFiles = new Set();
		for (const name of names) {
			const index = fs.readFileSync(path.join(resourcesDir, name, 'index.ts'), 'utf8');
			operationFiles.add(path.join(resourcesDir, name, 'index'));
			for (const [, from] of index.matchAll(/from '(\.\/[^']+)'/g)) operationFiles.add(path.resolve(resourcesDir, name, from));
		}
		const wrong = [];
		for (const name of names) {
			for (const file of tsFiles(path.join(resourcesDir, name))) {
				for (const match of fs.readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
					const resolved = path.resolve(path.dirname(file), match[1]);
					const rel = path.relative(resourcesDir, resolved).split(path.sep);
					if (rel[0] === '..' || rel[0] === name) continue;
					if (operationFiles.has(resolved)) wrong.push(`${path.relative(ROOT, file)} -> ${match[1]}`);
				}
			}
		}
		expect(wrong).toEqual([]);
	});

	test('fields/ and tool/ stand side by side: neither imports the other', () => {
		const crossing = [];
		for (const [room, other] of [['fields', 'tool'], ['tool', 'fields']]) {
			for (const file of tsFiles(path.join(ROOT, room))) {
				for (const match of fs.readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
					if (roomOf(path.resolve(path.dirname(file), match[1])) === other) crossing.push(`${path.relative(ROOT, file)} -> ${match[1]}`);
				}
			}
		}
		expect(crossing).toEqual([]);
	});

	test('tool/ names no resource or operation: each operation says what it is for a model (its own `tool`)', () => {
		const resources = fs.readdirSync(path.join(ROOT, 'resources'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
		const named = [];
		for (const file of tsFiles(path.join(ROOT, 'tool'))) {
			const text = fs.readFileSync(file, 'utf8');
			for (const resource of resources) {
				if (new RegExp(`['"\`]${resource}\\.\\w+['"\`]`).test(text)) named.push(`${path.relative(ROOT, file)}: ${resource}.…`);
			}
		}
		expect(named).toEqual([]);
	});

	test("each resource's index.ts imports only its own operation files, one per operation", () => {
		const problems = [];
		const resources = path.join(ROOT, 'resources');
		for (const entry of fs.readdirSync(resources, { withFileTypes: true })) {
			if (!entry.isDirectory()) continue;
			const text = fs.readFileSync(path.join(resources, entry.name, 'index.ts'), 'utf8');
			const imports = [...text.matchAll(/^import (type )?\{([^}]*)\} from '([^']+)';$/gm)];
			for (const [, isType, names, from] of imports) {
				if (isType && from === '../../types') continue;
				const name = names.trim().split(' as ')[0].trim();
				if (from !== `./${name}` && !(name === 'deleteOperation' && from === './delete')) {
					problems.push(`${entry.name}/index.ts: ${names.trim()} from ${from}`);
				}
			}
			if (/^export (?!const \w+: Resource)/m.test(text)) problems.push(`${entry.name}/index.ts exports more than its resource`);
		}
		expect(problems).toEqual([]);
	});
});

test('no circle of imports among the files of nodes/ (type imports included)', () => {
	const files = tsFiles(NODES);
	const deps = new Map();
	for (const file of files) {
		const targets = [];
		for (const match of fs.readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
			const resolved = path.resolve(path.dirname(file), match[1]);
			targets.push(fs.existsSync(`${resolved}.ts`) ? `${resolved}.ts` : path.join(resolved, 'index.ts'));
		}
		deps.set(file, targets);
	}
	const state = new Map();
	const trail = [];
	const circles = [];
	const visit = (file) => {
		state.set(file, 'open');
		trail.push(file);
		for (const next of deps.get(file) ?? []) {
			if (state.get(next) === 'open') circles.push([...trail.slice(trail.indexOf(next)), next].map((f) => path.relative(NODES, f)).join(' -> '));
			else if (!state.has(next)) visit(next);
		}
		trail.pop();
		state.set(file, 'done');
	};
	for (const file of files) if (!state.has(file)) visit(file);
	expect(circles).toEqual([]);
});
