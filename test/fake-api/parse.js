'use strict';
// POST /v2/parse: strict multipart + ParseOptions validation (spec 2.1-2.6, 4.1, 8) and a
// deterministic document derived from the uploaded bytes.
const path = require('path');
const zlib = require('zlib');
const { HttpError, badRequest, isPlainObject, uuidFrom, sampleFromSchema } = require('./util');
const { str, int, bool, arr, obj, rec, union, nullable, custom, assertValid } = require('./validate');

const MAX_FILE_BYTES = 50 * 1024 * 1024;
const ALLOWED_EXT = 'html htm xhtml pdf docx doc docm odt ods odp rtf xlsx xls xlsm xlsb pptx ppt pptm epub csv'.split(' ');
const FORMATS = ['markdown', 'summary', 'html', 'rawHtml', 'links', 'images', 'json'];
const UNSUPPORTED_FORMATS = ['screenshot', 'changeTracking', 'branding'];
const PII_ENTITIES = ['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'];
const PAGE_MARKER = (n) => `\n\n---\n\n<!-- page ${n} -->\n\n`;
const CONTENT_TYPES = {
	pdf: 'application/pdf',
	html: 'text/html',
	htm: 'text/html',
	xhtml: 'application/xhtml+xml',
	csv: 'text/csv',
	rtf: 'application/rtf',
	epub: 'application/epub+zip',
	doc: 'application/msword',
	docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
	xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
	pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
};

const parseBad = (error, details) => badRequest(error, details);
const unsupported = (error) => new HttpError(400, { success: false, code: 'PARSE_UNSUPPORTED_OPTIONS', error });

// `integration`: one of the service's known integrations or a value starting with "_"
// (yzkee/firecrawl, a mirror of firecrawl/firecrawl, apps/api/src/utils/integration.ts 10ac4b1d,
// HEAD ca0be9b7d91e; parseRequestSchemaBase in controllers/v2/types.ts). null stays accepted:
// the spec (2.2) says "string or null".
const INTEGRATIONS = 'dify zapier pipedream raycast langchain crewai llamaindex n8n camelai make flowise metagpt relevanceai viasocket cli hermes gstack prometheus'.split(' ');
const integrationValue = (v, p, out) => {
	str()(v, p, out);
	if (typeof v === 'string' && !v.startsWith('_') && !INTEGRATIONS.includes(v))
		out.push(custom(p, `Invalid enum value. Expected ${INTEGRATIONS.map((i) => `'${i}'`).join(' | ')}`));
};

// ---- ParseOptions schema (spec 2.2-2.4) ----
const formatItem = (v, p, out) => {
	if (isPlainObject(v) && v.type === 'json') return obj({ type: str(), prompt: str(), schema: obj({}, { loose: true }) })(v, p, out);
	return obj({ type: str({ enum: FORMATS }) }, { required: ['type'] })(v, p, out);
};
const parserItem = obj(
	{
		type: str({ enum: ['pdf'] }),
		mode: str({ enum: ['fast', 'auto', 'ocr'] }),
		maxPages: int({ min: 1, max: 10000 }),
		blocks: bool(),
		pages: bool(),
		pageMarkers: bool(),
	},
	{ required: ['type'] },
);
const redactObject = obj({
	mode: str({ enum: ['accurate', 'aggressive', 'fast'] }),
	replaceStyle: str({ enum: ['tag', 'mask', 'remove'] }),
	entities: arr(str({ enum: PII_ENTITIES })),
});
const parseOptionsSchema = obj({
	formats: arr(formatItem),
	onlyMainContent: bool(),
	includeTags: arr(str()),
	excludeTags: arr(str()),
	blockAds: bool(),
	removeBase64Images: bool(),
	skipTlsVerification: bool(),
	headers: rec(str()),
	timeout: int({ min: 1000, max: 300000 }),
	proxy: str(),
	parsers: arr(parserItem),
	redactPII: union(bool(), redactObject),
	checkPromptInjection: bool(),
	zeroDataRetention: bool(),
	auditMetadata: obj({ username: str({ max: 1024 }) }, { required: ['username'] }),
	integration: nullable(integrationValue),
	origin: str(),
});

function validateOptions(options) {
	// Options parse cannot honour get their own code (api-facts 1) before the generic schema runs.
	for (const f of Array.isArray(options.formats) ? options.formats : []) {
		const type = isPlainObject(f) ? f.type : undefined;
		if (UNSUPPORTED_FORMATS.includes(type)) throw unsupported(`Parse does not support the '${type}' format.`);
	}
	if (typeof options.proxy === 'string' && !['basic', 'auto'].includes(options.proxy))
		throw unsupported(`Parse supports only the 'basic' and 'auto' proxy modes, got '${options.proxy}'.`);
	assertValid(parseOptionsSchema, options);
}

// ---- multipart request checks (spec 2.1) ----
function readRequest(body) {
	if (body.kind !== 'multipart') throw parseBad('Invalid multipart request: expected multipart/form-data with a boundary.');
	if (body.error) throw parseBad(`Invalid multipart request: ${body.error}.`);
	const parts = body.parts;
	const stray = parts.find((p) => p.name !== 'file' && p.name !== 'options');
	if (stray) throw parseBad(`Unexpected field '${stray.name ?? ''}'. Allowed parts: file, options.`);
	const files = parts.filter((p) => p.name === 'file');
	if (files.length !== 1 || files[0].filename === undefined)
		throw parseBad(files.length > 1 ? 'Only one file may be uploaded.' : 'No file uploaded. Send it in a part named "file" with a filename.');
	const file = files[0];
	if (file.size > MAX_FILE_BYTES) throw parseBad('Uploaded file exceeds maximum size of 50MB.');
	const ext = path.extname(file.filename).slice(1).toLowerCase();
	if (!ALLOWED_EXT.includes(ext))
		throw new HttpError(400, {
			success: false,
			code: 'UNSUPPORTED_FILE_TYPE',
			error: `Unsupported file type${ext ? ` '.${ext}'` : ''}. Supported extensions: ${ALLOWED_EXT.map((e) => '.' + e).join(', ')}.`,
		});

	const optionParts = parts.filter((p) => p.name === 'options');
	if (optionParts.length > 1) throw parseBad("Only one 'options' part is allowed.");
	let options = {};
	if (optionParts.length) {
		const part = optionParts[0];
		if (part.filename !== undefined) throw parseBad("The 'options' field must be a JSON string.");
		if (!/^application\/json\s*(;|$)/i.test(part.contentType || ''))
			throw parseBad("The 'options' part must be sent with content type application/json.");
		try {
			options = JSON.parse(part.head.toString('utf8'));
		} catch {
			throw parseBad("The 'options' field must contain valid JSON.");
		}
		if (!isPlainObject(options)) throw parseBad("The 'options' field must be a JSON object.");
		validateOptions(options);
	}
	return { file, ext, options };
}

// ---- deterministic document model ----
const latin1 = (buf) => buf.toString('latin1');
const stripTags = (html) =>
	html
		.replace(/<(script|style|noscript|head)\b[\s\S]*?<\/\1>/gi, ' ')
		.replace(/<[^>]+>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();

function pdfInfo(head) {
	const text = latin1(head);
	const pageObjects = (text.match(/\/Type\s*\/Page(?![a-zA-Z])/g) || []).length;
	const counts = [...text.matchAll(/\/Count\s+(\d+)/g)].map((m) => Number(m[1]));
	const totalPages = Math.max(pageObjects, ...counts, 0) || 3;
	const title = /\/Title\s*\(((?:[^()\\]|\\.)*)\)/.exec(text)?.[1];
	// Text of each content stream with Tj/TJ strings, in file order (assigned to pages in order).
	const streams = [];
	for (const m of text.matchAll(/stream\r?\n([\s\S]*?)endstream/g)) {
		const strings = [...m[1].matchAll(/\(((?:[^()\\]|\\.)*)\)\s*T[jJ]/g)].map((s) => s[1].replace(/\\(.)/g, '$1'));
		if (strings.length) streams.push(strings.join(' '));
	}
	return { totalPages, title, streams };
}

/** The text of word/document.xml in a .docx (a zip) whose first 64 KiB hold it, or '' (no such entry, not readable). */
function docxText(head) {
	const name = Buffer.from('word/document.xml');
	for (let at = head.indexOf('PK\x03\x04', 0, 'latin1'); at >= 0 && at + 30 <= head.length; at = head.indexOf('PK\x03\x04', at + 4, 'latin1')) {
		const method = head.readUInt16LE(at + 8);
		const size = head.readUInt32LE(at + 18);
		const nameLength = head.readUInt16LE(at + 26);
		const start = at + 30 + nameLength + head.readUInt16LE(at + 28);
		if (!head.subarray(at + 30, at + 30 + nameLength).equals(name)) continue;
		try {
			const data = head.subarray(start, size ? start + size : head.length);
			const xml = (method === 8 ? zlib.inflateRawSync(data) : data).toString('utf8');
			return stripTags(xml.replace(/<\/w:p>/g, '\n'));
		} catch {
			return '';
		}
	}
	return '';
}

/** Builds pages of fragments {type, label, content, ...}; `content` of null means "not in markdown". */
function buildDocument(file, ext, parser) {
	const base = path.basename(file.filename, path.extname(file.filename));
	const headText = file.head.toString('utf8');
	if (ext === 'pdf') {
		const info = pdfInfo(file.head);
		const title = info.title || base;
		const numPages = Math.min(info.totalPages, parser.maxPages ?? Infinity);
		const pages = [];
		for (let n = 1; n <= numPages; n++) {
			const frags = [];
			if (n === 1) frags.push({ type: 'title', label: 'doc_title', content: `# ${title}` });
			frags.push({ type: 'section_header', label: 'section_header', content: `## Page ${n}` });
			frags.push({
				type: 'text',
				label: 'text',
				content: info.streams[n - 1] || `Text of page ${n} of ${file.filename} (sha256 ${file.sha256.slice(0, 12)}).`,
			});
			if (n === 1) frags.push({ type: 'chart', label: 'chart', content: '[Chart: quarterly totals]', chartType: 'bar', series: [{ name: 'total', points: 4 }] });
			if (n === 2) frags.push({ type: 'table', label: 'table', content: '| Item | Value |\n| --- | --- |\n| pages | ' + info.totalPages + ' |' });
			frags.push({ type: 'page_footer', label: 'page_footer', content: null, text: String(n) });
			pages.push(frags);
		}
		return { title, pages, numPages, totalPages: info.totalPages, text: info.streams.join('\n') };
	}
	if (['html', 'htm', 'xhtml'].includes(ext)) {
		const title = stripTags(/<title[^>]*>([\s\S]*?)<\/title>/i.exec(headText)?.[1] || '') || base;
		const body = stripTags(headText.replace(/<title[^>]*>[\s\S]*?<\/title>/i, '')) || `Content of ${file.filename}.`;
		return { title, pages: [[{ type: 'title', label: 'doc_title', content: `# ${title}` }, { type: 'text', label: 'text', content: body }]], html: headText };
	}
	if (ext === 'csv') {
		const rows = headText.split(/\r?\n/).filter(Boolean).slice(0, 20).map((l) => l.split(','));
		const width = Math.max(1, ...rows.map((r) => r.length));
		const line = (r) => `| ${Array.from({ length: width }, (_, i) => (r[i] ?? '').trim()).join(' | ')} |`;
		const table = rows.length ? [line(rows[0]), line(Array(width).fill('---')), ...rows.slice(1).map(line)].join('\n') : '(empty)';
		return { title: base, pages: [[{ type: 'table', label: 'table', content: table }]] };
	}
	// A Word file: its text, as a real server reads it (the real-server suite checks it on both).
	const words = ext === 'docx' ? docxText(file.head) : '';
	return {
		title: base,
		pages: [[
			{ type: 'title', label: 'doc_title', content: `# ${base}` },
			{ type: 'text', label: 'text', content: words || `Content of ${file.filename} (${file.size} bytes, sha256 ${file.sha256.slice(0, 12)}).` },
		]],
	};
}

function redactor(opt) {
	if (!opt) return (s) => s;
	const { replaceStyle = 'tag', entities = PII_ENTITIES } = opt === true ? {} : opt;
	const rules = [
		['EMAIL', /[\w.+-]+@[\w-]+\.[\w.-]+/g],
		['PHONE', /\+?\d[\d ()-]{7,}\d/g],
	].filter(([e]) => entities.includes(e));
	return (s) =>
		rules.reduce(
			(acc, [tag, re]) => acc.replace(re, (m) => (replaceStyle === 'tag' ? `<${tag}>` : replaceStyle === 'mask' ? '*'.repeat(m.length) : '')),
			s,
		);
}

/** Joins fragments into the document markdown and records each fragment's [start, end) span. */
function assemble(doc, { pageMarkers, redact }) {
	let markdown = '';
	const pageMarkdown = [];
	doc.pages.forEach((frags, i) => {
		if (i > 0) markdown += pageMarkers ? PAGE_MARKER(i + 1) : '\n\n';
		let pageMd = '';
		for (const f of frags) {
			if (f.content === null) {
				f.span = null;
				continue;
			}
			f.content = redact(f.content);
			if (pageMd) {
				pageMd += '\n\n';
				markdown += '\n\n';
			}
			f.span = [markdown.length, markdown.length + f.content.length];
			markdown += f.content;
			pageMd += f.content;
		}
		pageMarkdown.push(pageMd);
	});
	return { markdown, pageMarkdown };
}

function blocksOf(doc, mode) {
	return doc.pages.map((frags, i) => ({
		pageNumber: i + 1,
		status: 'ok',
		width: 1700,
		height: 2200,
		items: frags.map((f, j) => {
			const { type, label, content, span, text, ...extra } = f;
			const r = (x) => Math.round(x * 1000) / 1000;
			const y0 = r(Math.min(0.8, 0.05 + j * 0.18));
			return {
				id: `p${i + 1}.b${j}`,
				type,
				label,
				content: content ?? text ?? '',
				readingOrder: j,
				bbox: type === 'page_footer' ? [0.45, 0.95, 0.55, 0.98] : [0.08, y0, 0.92, r(y0 + 0.12)],
				markdownSpan: span,
				source: mode === 'ocr' ? 'layout_ocr' : type === 'table' ? 'tsr' : 'native_text',
				confidence: { layout: r(0.9 + (j % 5) / 100), ocr: mode === 'ocr' ? 0.93 : null },
				...extra,
			};
		}),
	}));
}

function markdownToHtml(md) {
	return md
		.split(/\n\n+/)
		.map((b) => {
			const h = /^(#{1,6}) (.*)$/.exec(b);
			return h ? `<h${h[1].length}>${h[2]}</h${h[1].length}>` : `<p>${b.replace(/\n/g, '<br>')}</p>`;
		})
		.join('\n');
}

function handleParse(ctx) {
	const { file, ext, options } = readRequest(ctx.body);
	const parser = (options.parsers || [{ type: 'pdf' }]).find((p) => p.type === 'pdf') || {};
	const doc = buildDocument(file, ext, ext === 'pdf' ? parser : {});
	const isPdf = ext === 'pdf';

	if (options.checkPromptInjection && file.markers.has('IGNORE ALL PREVIOUS INSTRUCTIONS'))
		throw new HttpError(403, {
			success: false,
			code: 'SCRAPE_PROMPT_INJECTION_DETECTED',
			error: 'Prompt injection detected in the processed content. The request was stopped.',
		});

	const { markdown, pageMarkdown } = assemble(doc, {
		pageMarkers: isPdf && parser.pageMarkers === true,
		redact: redactor(options.redactPII),
	});
	const formats = (options.formats || [{ type: 'markdown' }]).map((f) => f.type);
	const hint = { title: doc.title, number: doc.numPages ?? 1, source: file.filename };
	const html = doc.html ? doc.html.replace(/<(script|style|noscript|head)\b[\s\S]*?<\/\1>|<meta\b[^>]*>/gi, '') : markdownToHtml(markdown);
	const allText = `${doc.html || ''}\n${markdown}`;
	const producers = {
		markdown: () => markdown,
		summary: () => `Summary of ${file.filename}: "${doc.title}", ${doc.numPages ?? 1} page(s).`,
		html: () => html,
		rawHtml: () => doc.html ?? html,
		links: () => [...new Set([...allText.matchAll(/https?:\/\/[^\s"'<>)]+/g)].map((m) => m[0]))],
		images: () => [...allText.matchAll(/<img\b[^>]*\bsrc=["']([^"']+)["']/gi)].map((m) => m[1]),
		json: () => {
			const spec = options.formats.find((f) => f.type === 'json');
			if (spec.schema) return sampleFromSchema(spec.schema, hint);
			return { title: doc.title, pages: doc.numPages ?? 1, ...(spec.prompt ? { answer: `Answer to "${spec.prompt}" from ${file.filename}` } : {}) };
		},
	};
	const data = {};
	for (const f of formats) data[f] = producers[f]();
	if (isPdf && parser.pages) data.pages = pageMarkdown.map((md, i) => ({ pageNumber: i + 1, markdown: md }));
	if (isPdf && parser.blocks) data.blocks = blocksOf(doc, parser.mode);
	if (file.markers.has('TRIGGER_WARNING'))
		data.warning = 'LLM extraction could not process all of the content; results may be incomplete.';

	const creditsUsed = (isPdf ? doc.numPages : 1) + (options.checkPromptInjection ? 4 : 0);
	data.metadata = {
		title: doc.title,
		...(isPdf ? { numPages: doc.numPages, totalPages: doc.totalPages } : {}),
		sourceURL: file.filename,
		statusCode: 200,
		contentType: CONTENT_TYPES[ext] || (file.contentType ?? 'application/octet-stream'),
		creditsUsed,
		scrapeId: uuidFrom(file.sha256, JSON.stringify(options)),
		concurrencyLimited: false,
	};
	return { status: 200, body: { success: true, data } };
}

module.exports = {
	routes: [['POST', /^\/v2\/parse$/, handleParse]],
	MAX_FILE_BYTES,
	PAGE_MARKER,
};
