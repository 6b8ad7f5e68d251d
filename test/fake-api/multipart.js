'use strict';
// Streaming multipart/form-data reader. Parts are hashed and counted as they stream; only the first
// HEAD_LIMIT bytes of each part are kept, so a 50 MB upload costs a few hundred KiB of memory.
const crypto = require('crypto');

const HEAD_LIMIT = 64 * 1024;
const FIELD_LIMIT = 1024 * 1024; // non-file parts are kept whole up to this size
const HEADER_LIMIT = 16 * 1024;
const CRLF2 = Buffer.from('\r\n\r\n');
const TEXTISH_TYPE = /^(text\/|application\/(json|xml|xhtml\+xml|csv|javascript))/i;
const TEXTISH_EXT = /\.(html?|xhtml|csv|txt|md|json|xml)$/i;

/** Byte strings searched for in every part while it streams (the parse fake reacts to them). */
const MARKERS = ['IGNORE ALL PREVIOUS INSTRUCTIONS', 'TRIGGER_WARNING'];
const MARKER_OVERLAP = Math.max(...MARKERS.map((m) => m.length)) - 1;

function boundaryOf(contentType) {
	if (!/^multipart\/form-data\b/i.test(contentType || '')) return null;
	const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
	return m ? m[1] || m[2] : null;
}

function parseHeaders(buf) {
	const headers = {};
	for (const line of buf.toString('utf8').split('\r\n')) {
		const i = line.indexOf(':');
		if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
	}
	const disp = headers['content-disposition'] || '';
	const params = {};
	for (const m of disp.matchAll(/;\s*([^=;\s]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g)) {
		params[m[1].toLowerCase()] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3].trim();
	}
	let filename = params.filename;
	if (params['filename*']) {
		const m = /^[\w-]+'[^']*'(.*)$/.exec(params['filename*']);
		try {
			filename = decodeURIComponent(m ? m[1] : params['filename*']);
		} catch {
			/* keep plain filename */
		}
	}
	return {
		isFormData: /^form-data\b/i.test(disp),
		name: params.name,
		filename,
		contentType: headers['content-type'] || null,
	};
}

class Part {
	constructor(info) {
		Object.assign(this, info);
		this.size = 0;
		this.hash = crypto.createHash('sha256');
		this.chunks = [];
		this.kept = 0;
		this.markers = new Set();
		this.edge = Buffer.alloc(0); // tail of the previous chunk, for markers spanning chunks
	}

	write(data) {
		this.size += data.length;
		this.hash.update(data);
		const limit = this.filename === undefined ? FIELD_LIMIT : HEAD_LIMIT;
		if (this.kept < limit) {
			const take = data.subarray(0, limit - this.kept);
			this.chunks.push(Buffer.from(take));
			this.kept += take.length;
		}
		const seam = Buffer.concat([this.edge, data.subarray(0, MARKER_OVERLAP)]);
		for (const m of MARKERS) if (data.includes(m) || seam.includes(m)) this.markers.add(m);
		this.edge = Buffer.from(data.subarray(Math.max(0, data.length - MARKER_OVERLAP)));
	}

	finish() {
		this.head = Buffer.concat(this.chunks);
		this.sha256 = this.hash.digest('hex');
		delete this.chunks;
		delete this.hash;
		delete this.edge;
	}

	/** The public record stored in the request log. */
	summary() {
		const isFile = this.filename !== undefined;
		const textish = !isFile || TEXTISH_TYPE.test(this.contentType || '') || TEXTISH_EXT.test(this.filename || '');
		return {
			name: this.name ?? null,
			filename: this.filename ?? null,
			contentType: this.contentType,
			size: this.size,
			sha256: this.sha256,
			...(textish ? { text: this.head.toString('utf8') } : {}),
		};
	}
}

/**
 * Reads a multipart body from an async-iterable stream. Never throws for malformed input:
 * returns {parts, error?} so the caller can answer like the service (and still log what arrived).
 * Body bytes are never copied: the delimiter is searched in each incoming chunk, and only a carry
 * of < delimiter-length bytes is kept between chunks.
 */
async function readMultipart(stream, boundary) {
	const delim = Buffer.from(`\r\n--${boundary}`);
	const keep = delim.length - 1;
	const EMPTY = Buffer.alloc(0);
	const parts = [];
	let carry = Buffer.from('\r\n'); // lets the very first boundary match `delim`
	let buf = EMPTY; // accumulates the small delimiter-line and header sections
	let state = 'preamble';
	let part = null;
	let error = null;
	const emit = (data) => part && data.length && part.write(data);

	const feed = (chunk) => {
		while (chunk.length && !error && state !== 'done') {
			if (state === 'preamble' || state === 'body') {
				if (carry.length && chunk.length < delim.length) [chunk, carry] = [Buffer.concat([carry, chunk]), EMPTY];
				let after = -1; // index in `chunk` just past a found delimiter
				if (carry.length) {
					const i = Buffer.concat([carry, chunk.subarray(0, keep)]).indexOf(delim);
					emit(i === -1 ? carry : carry.subarray(0, i));
					if (i !== -1) after = i + delim.length - carry.length;
					carry = EMPTY;
				}
				if (after === -1) {
					const j = chunk.indexOf(delim);
					if (j === -1) {
						const safe = Math.max(0, chunk.length - keep);
						emit(chunk.subarray(0, safe));
						carry = Buffer.from(chunk.subarray(safe));
						return;
					}
					emit(chunk.subarray(0, j));
					after = j + delim.length;
				}
				if (part) part.finish();
				part = null;
				chunk = chunk.subarray(after);
				state = 'delimiter';
				continue;
			}
			buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
			chunk = EMPTY;
			if (state === 'delimiter') {
				if (buf.length < 2) return;
				const two = buf.toString('latin1', 0, 2);
				if (two === '--') state = 'done';
				else if (two !== '\r\n') error = 'malformed boundary line';
				else [chunk, state] = [buf.subarray(2), 'headers'];
			} else {
				const idx = buf.indexOf(CRLF2);
				if (idx === -1) {
					if (buf.length > HEADER_LIMIT) error = 'part headers too large';
					return;
				}
				const info = parseHeaders(buf.subarray(0, idx));
				if (!info.isFormData) error = 'part without Content-Disposition: form-data';
				else [part, chunk, state] = [new Part(info), buf.subarray(idx + 4), 'body'];
				if (part) parts.push(part);
			}
			buf = EMPTY;
		}
	};

	for await (const chunk of stream) if (!error && state !== 'done') feed(chunk); // else drain the rest
	if (!error && state !== 'done') error = 'unexpected end of multipart body';
	if (part) part.finish();
	return { parts, error };
}

module.exports = { readMultipart, boundaryOf, HEAD_LIMIT, MARKERS };
