'use strict';
// A tiny strict schema checker that reports zod-like issues {code, path, message, ...}.
// Every schema is a function (value, path, issues) => void that pushes issues.
const { badRequest, isPlainObject, isHttpUrl, isUuid } = require('./util');

const UNRECOGNIZED =
	'Unrecognized key in body -- please review the v2 API documentation for request body changes';
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const typeName = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const typeIssue = (path, expected, v) => ({
	code: 'invalid_type',
	path,
	expected,
	received: typeName(v),
	message: v === undefined ? 'Required' : `Expected ${expected}, received ${typeName(v)}`,
});
const custom = (path, message) => ({ code: 'custom', path, message });

function str(o = {}) {
	return (v, p, out) => {
		if (typeof v !== 'string') return void out.push(typeIssue(p, 'string', v));
		if (o.min !== undefined && v.length < o.min)
			out.push({ code: 'too_small', path: p, minimum: o.min, message: `String must contain at least ${o.min} character(s)` });
		if (o.max !== undefined && v.length > o.max)
			out.push({ code: 'too_big', path: p, maximum: o.max, message: `String must contain at most ${o.max} character(s)` });
		if (o.enum && !o.enum.includes(v))
			out.push({
				code: 'invalid_enum_value',
				path: p,
				options: o.enum,
				received: v,
				message: `Invalid enum value. Expected ${o.enum.map((e) => `'${e}'`).join(' | ')}, received '${v}'`,
			});
		if (o.url && !isHttpUrl(v)) out.push({ code: 'invalid_string', validation: 'url', path: p, message: 'Invalid URL' });
		if (o.email && !EMAIL_RE.test(v)) out.push({ code: 'invalid_string', validation: 'email', path: p, message: 'Invalid email' });
		if (o.uuid && !isUuid(v)) out.push({ code: 'invalid_string', validation: 'uuid', path: p, message: 'Invalid uuid' });
	};
}

function num(o = {}) {
	return (v, p, out) => {
		if (typeof v !== 'number' || !Number.isFinite(v)) return void out.push(typeIssue(p, o.int ? 'integer' : 'number', v));
		if (o.int && !Number.isInteger(v)) return void out.push(typeIssue(p, 'integer', v));
		if (o.min !== undefined && v < o.min)
			out.push({ code: 'too_small', path: p, minimum: o.min, message: `Number must be greater than or equal to ${o.min}` });
		if (o.gt !== undefined && v <= o.gt)
			out.push({ code: 'too_small', path: p, minimum: o.gt, message: `Number must be greater than ${o.gt}` });
		if (o.max !== undefined && v > o.max)
			out.push({ code: 'too_big', path: p, maximum: o.max, message: `Number must be less than or equal to ${o.max}` });
	};
}
const int = (o = {}) => num({ ...o, int: true });
const bool = () => (v, p, out) => void (typeof v !== 'boolean' && out.push(typeIssue(p, 'boolean', v)));
const any = () => () => {};
const nullable = (s) => (v, p, out) => void (v !== null && s(v, p, out));

function arr(item, o = {}) {
	return (v, p, out) => {
		if (!Array.isArray(v)) return void out.push(typeIssue(p, 'array', v));
		if (o.min !== undefined && v.length < o.min)
			out.push({ code: 'too_small', path: p, minimum: o.min, message: `Array must contain at least ${o.min} element(s)` });
		if (o.max !== undefined && v.length > o.max)
			out.push({ code: 'too_big', path: p, maximum: o.max, message: `Array must contain at most ${o.max} element(s)` });
		v.forEach((x, i) => item(x, [...p, i], out));
	};
}

/** Strict object (unknown keys rejected) unless o.loose. `required` lists mandatory keys. */
function obj(props, o = {}) {
	return (v, p, out) => {
		if (!isPlainObject(v)) return void out.push(typeIssue(p, 'object', v));
		const unknown = Object.keys(v).filter((k) => !(k in props));
		if (unknown.length && !o.loose) out.push({ code: 'unrecognized_keys', path: p, keys: unknown, message: UNRECOGNIZED });
		for (const k of o.required || []) if (v[k] === undefined) out.push(typeIssue([...p, k], 'value', undefined));
		for (const [k, s] of Object.entries(props)) if (v[k] !== undefined) s(v[k], [...p, k], out);
		if (o.refine) o.refine(v, p, out);
	};
}

/** Record<string, T>. */
const rec = (value) => (v, p, out) => {
	if (!isPlainObject(v)) return void out.push(typeIssue(p, 'object', v));
	for (const [k, x] of Object.entries(v)) value(x, [...p, k], out);
};

/** First alternative without issues wins; otherwise report the closest alternative's issues. */
const union = (...alts) => (v, p, out) => {
	let best;
	let bestScore = Infinity;
	for (const alt of alts) {
		const issues = [];
		alt(v, p, issues);
		if (!issues.length) return;
		// A type mismatch of the value itself means "wrong alternative", so rank it last.
		const score = issues.length + (issues[0].code === 'invalid_type' && issues[0].path.length === p.length ? 1000 : 0);
		if (score < bestScore) [best, bestScore] = [issues, score];
	}
	out.push(...best);
};

/** Runs a schema and throws the service's 400 when issues were found. */
function assertValid(schema, value, path = []) {
	const issues = [];
	schema(value, path, issues);
	if (issues.length) throw validationError(issues);
}

function validationError(issues) {
	const first = issues[0];
	const error = first.code === 'unrecognized_keys' || first.code === 'custom' ? first.message : 'Bad Request';
	return badRequest(error, issues);
}

module.exports = { str, num, int, bool, any, nullable, arr, obj, rec, union, custom, assertValid, validationError, UNRECOGNIZED };
