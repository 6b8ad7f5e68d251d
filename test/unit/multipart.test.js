const { Readable } = require('stream');
const { openMultipart, multipartFrame } = require('../../dist/nodes/WebData/helpers/multipart');

async function collect(body) {
	if (Buffer.isBuffer(body)) return body;
	const chunks = [];
	for await (const c of body) chunks.push(c);
	return Buffer.concat(chunks);
}

const spec = (bytes, open) => ({
	file: { field: 'file', fileName: 'report "q1".pdf', contentType: 'application/pdf', size: bytes.length, open },
	fields: [{ part: 'options', text: '{"formats":[{"type":"markdown"}]}', contentType: 'application/json' }],
});

describe('multipart body without dependencies', () => {
	const bytes = Buffer.from('%PDF-1.4\r\n--not-a-boundary\r\nbinary\x00\xff');

	test('stream source: exact bytes, exact Content-Length, a real Readable', async () => {
		const { body, headers } = await openMultipart(spec(bytes, async () => Readable.from([bytes.subarray(0, 5), bytes.subarray(5)])));
		expect(typeof body.pipe).toBe('function');
		const raw = await collect(body);
		expect(Number(headers['Content-Length'])).toBe(raw.length);
		const boundary = headers['Content-Type'].match(/boundary=(.+)$/)[1];
		const expected = Buffer.concat([
			Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="report %22q1%22.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
			bytes,
			Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="options"\r\nContent-Type: application/json\r\n\r\n{"formats":[{"type":"markdown"}]}\r\n--${boundary}--\r\n`),
		]);
		expect(raw.equals(expected)).toBe(true);
	});

	test('buffer source gives the same bytes in one buffer', async () => {
		const { body, headers } = await openMultipart(spec(bytes, async () => bytes));
		expect(Buffer.isBuffer(body)).toBe(true);
		expect(body.length).toBe(Number(headers['Content-Length']));
	});

	test('each open uses a fresh boundary and re-opens the source', async () => {
		let opened = 0;
		const s = spec(bytes, async () => {
			opened++;
			return Readable.from([bytes]);
		});
		const a = await openMultipart(s);
		const b = await openMultipart(s);
		expect(opened).toBe(2);
		expect(a.headers['Content-Type']).not.toBe(b.headers['Content-Type']);
	});

	test('a stream shorter or longer than the metadata size fails instead of sending a wrong body', async () => {
		const short = await openMultipart(spec(bytes, async () => Readable.from([bytes.subarray(0, 3)])));
		await expect(collect(short.body)).rejects.toThrow(/ended after 3 of/);
		const long = await openMultipart(spec(bytes, async () => Readable.from([bytes, Buffer.from('x')])));
		await expect(collect(long.body)).rejects.toThrow(/larger than/);
	});

	test('the frame length is head + file + tail', () => {
		const f = multipartFrame(spec(bytes), 'b');
		expect(f.length).toBe(f.head.length + bytes.length + f.tail.length);
	});
});
