'use strict';
// Times from the service are times, in whatever form it writes them (issue 34; nodes/FACTS.md
// "Service times"): ISO 8601 and Postgres text alike. Build first.
const { serviceTime, isoTime, utcLabel } = require('../../dist/nodes/WebData/helpers/serviceTime');

const at = (iso) => Date.parse(iso);

describe('serviceTime: one instant, whatever the form', () => {
	test.each([
		['2026-11-28T17:39:27.210Z', '2026-11-28T17:39:27.210Z'],
		['2026-11-28T17:39:27Z', '2026-11-28T17:39:27.000Z'],
		['2026-11-28T17:39Z', '2026-11-28T17:39:00.000Z'],
		['2026-11-28t17:39:27.2z', '2026-11-28T17:39:27.200Z'],
		['2026-11-28T18:39:27.210+01:00', '2026-11-28T17:39:27.210Z'],
		['2026-11-28T12:09:27.210-05:30', '2026-11-28T17:39:27.210Z'],
		// Postgres text (timestamptz as the open-source server passes it through): a space, 0–6
		// fraction digits, +00 / +0000 / +00:00 offsets.
		['2026-11-28 17:39:27.210714+00', '2026-11-28T17:39:27.210Z'],
		['2026-11-28 17:39:27.21+00', '2026-11-28T17:39:27.210Z'],
		['2026-11-28 17:39:27+00', '2026-11-28T17:39:27.000Z'],
		['2026-11-28 17:39:27.5+0000', '2026-11-28T17:39:27.500Z'],
		['2026-11-28 19:39:27.210714+02', '2026-11-28T17:39:27.210Z'],
		['2026-11-28 23:09:27.210714+05:30', '2026-11-28T17:39:27.210Z'],
		['2026-11-28 17:39:27.210714123+00', '2026-11-28T17:39:27.210Z'],
		['2026-11-28 17:53:55+00:14:28', '2026-11-28T17:39:27.000Z'],
		['  2026-11-28 17:39:27+00 ', '2026-11-28T17:39:27.000Z'],
		['2024-02-29 00:00:00+00', '2024-02-29T00:00:00.000Z'],
		['0099-01-01T00:00:00Z', '0099-01-01T00:00:00.000Z'],
	])('%s', (text, iso) => {
		expect(serviceTime(text)).toBe(at(iso));
		expect(isoTime(text)).toBe(iso);
	});

	test('the case of issue 34: a check of the activation\'s day, written as Postgres text, is after the activation', () => {
		const activation = '2026-11-28T17:39:26.502Z';
		const check = '2026-11-28 17:39:27.210714+00';
		expect(check < activation).toBe(true); // as text: " " sorts before "T"
		expect(serviceTime(check) > serviceTime(activation)).toBe(true);
	});

	test.each([
		[undefined],
		[null],
		[1764351567210],
		[''],
		['yesterday'],
		['2026-11-28'],
		['2026-11-28 17:39:27'], // no zone: which one?
		['2026-11-28T17:39:27.210'],
		['2026-13-01T00:00:00Z'],
		['2026-02-29T00:00:00Z'],
		['2026-11-31 00:00:00+00'],
		['2026-11-28 24:00:00+00'],
		['2026-11-28 17:60:00+00'],
		['2026-11-28 17:39:27+19'],
		['infinity'],
		['2026-11-28 17:39:27.210714+00 BC'],
		['Sat, 28 Nov 2026 17:39:27 GMT'],
	])('not a time: %p', (value) => {
		expect(serviceTime(value)).toBeUndefined();
		expect(isoTime(value)).toBeUndefined();
		expect(utcLabel(value)).toBeUndefined();
	});

	test('utcLabel: the instant in UTC, to the second', () => {
		expect(utcLabel('2026-11-28 23:09:27.9+05:30')).toBe('2026-11-28 17:39:27 UTC');
		expect(utcLabel('2026-11-22T10:00:00.000Z')).toBe('2026-11-22 10:00:00 UTC');
	});
});
