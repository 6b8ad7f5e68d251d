import { randomBytes } from 'crypto';

import type { BinaryStream, UploadBody } from '../transport';

/** One file part and any number of text parts of a multipart/form-data body. */
export interface MultipartSpec {
	file: {
		field: string;
		fileName: string;
		contentType: string;
		/** Exact size in bytes: the body's Content-Length is computed from it. */
		size: number;
		/** Opens the file's bytes: a stream (read once per attempt) or a buffer already in memory. */
		open: () => Promise<BinaryStream | Buffer>;
	};
	fields: Array<{ part: string; text: string; contentType?: string }>;
}

const CRLF = '\r\n';

function quote(value: string): string {
	return value.replace(/["\r\n\\]/g, (c) => ({ '"': '%22', '\r': '%0D', '\n': '%0A', '\\': '\\\\' })[c] ?? c);
}

/** The parts of the body around the file's bytes, and the headers, for a given boundary. */
export function multipartFrame(spec: MultipartSpec, boundary: string) {
	const { file } = spec;
	const head = Buffer.from(
		`--${boundary}${CRLF}` +
			`Content-Disposition: form-data; name="${quote(file.field)}"; filename="${quote(file.fileName)}"${CRLF}` +
			`Content-Type: ${file.contentType}${CRLF}${CRLF}`,
		'utf8',
	);
	let tailText = CRLF;
	for (const field of spec.fields) {
		tailText +=
			`--${boundary}${CRLF}` +
			`Content-Disposition: form-data; name="${quote(field.part)}"${CRLF}` +
			(field.contentType ? `Content-Type: ${field.contentType}${CRLF}` : '') +
			CRLF +
			field.text +
			CRLF;
	}
	tailText += `--${boundary}--${CRLF}`;
	const tail = Buffer.from(tailText, 'utf8');
	const length = head.length + file.size + tail.length;
	return {
		head,
		tail,
		headers: {
			'Content-Type': `multipart/form-data; boundary=${boundary}`,
			'Content-Length': String(length),
		},
		length,
	};
}

function isBuffer(value: unknown): value is Buffer {
	return Buffer.isBuffer(value);
}

/**
 * Builds a multipart/form-data body without runtime dependencies. A file held as a stream is sent
 * as a stream (never loaded whole); each call opens the file anew, so a retry re-reads it.
 * The Readable class is taken from the stream n8n hands over: n8n Cloud forbids importing 'stream'.
 */
export async function openMultipart(spec: MultipartSpec): Promise<UploadBody> {
	const boundary = `----webdata-${randomBytes(12).toString('hex')}`;
	const frame = multipartFrame(spec, boundary);
	const source = await spec.file.open();
	if (isBuffer(source)) {
		if (source.length !== spec.file.size) {
			throw new Error(`The file has ${source.length} bytes, not the ${spec.file.size} its metadata says`);
		}
		// Already in memory (n8n's default binary mode): one buffer is as cheap as it gets.
		const body = Buffer.concat([frame.head, source, frame.tail]);
		return { body, headers: frame.headers };
	}
	const ReadableClass = source.constructor as unknown as {
		from: (iterable: AsyncIterable<Buffer>, options?: { objectMode: boolean }) => BinaryStream;
	};
	const expected = spec.file.size;
	async function* chunks(): AsyncGenerator<Buffer> {
		yield frame.head;
		let sent = 0;
		for await (const chunk of source as AsyncIterable<Buffer | string>) {
			const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
			sent += bytes.length;
			if (sent > expected) throw new Error(`The file is larger than the ${expected} bytes its metadata says`);
			yield bytes;
		}
		if (sent !== expected) throw new Error(`The file ended after ${sent} of ${expected} bytes`);
		yield frame.tail;
	}
	return { body: ReadableClass.from(chunks(), { objectMode: false }), headers: frame.headers };
}
