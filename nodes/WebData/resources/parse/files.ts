import { NodeOperationError } from 'n8n-workflow';
import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import { isToolRun } from '../../helpers/toolMode';
import { invalid } from '../../helpers/validation';

export const PARSE_TOOL_DESCRIPTION =
	'Not usable by a model: it parses a file of the item the workflow gives this node, and a tool call carries no file. To read a public PDF or document by its URL, use a scrape tool.';

/** Extensions the parse endpoint accepts (spec 2.1), with the MIME type used when a name has none. */
export const PARSE_EXTENSIONS: Record<string, string[]> = {
	html: ['text/html'],
	htm: [],
	xhtml: ['application/xhtml+xml'],
	pdf: ['application/pdf', 'application/x-pdf'],
	docx: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
	doc: ['application/msword'],
	docm: ['application/vnd.ms-word.document.macroenabled.12'],
	odt: ['application/vnd.oasis.opendocument.text'],
	ods: ['application/vnd.oasis.opendocument.spreadsheet'],
	odp: ['application/vnd.oasis.opendocument.presentation'],
	rtf: ['application/rtf', 'text/rtf'],
	xlsx: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
	xls: ['application/vnd.ms-excel'],
	xlsm: ['application/vnd.ms-excel.sheet.macroenabled.12'],
	xlsb: ['application/vnd.ms-excel.sheet.binary.macroenabled.12'],
	pptx: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
	ppt: ['application/vnd.ms-powerpoint'],
	pptm: ['application/vnd.ms-powerpoint.presentation.macroenabled.12'],
	epub: ['application/epub+zip'],
	csv: ['text/csv', 'application/csv'],
};

/** 50 MB per request (spec 2.1, 8), counted as the service counts it. */
export const MAX_FILE_BYTES = 50 * 1024 * 1024;

export interface FileToParse {
	/** The name sent to the service: it decides the file kind, so it always ends in an allowed extension. */
	fileName: string;
	/** The name as it came in, for the output. */
	originalName: string;
	contentType: string;
	size: number;
	binary: IBinaryData;
}

function extensionOf(name: string): string {
	const dot = name.lastIndexOf('.');
	return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

function extensionForMime(mime: string): string | undefined {
	const wanted = mime.split(';')[0].trim().toLowerCase();
	return Object.keys(PARSE_EXTENSIONS).find((ext) => PARSE_EXTENSIONS[ext].includes(wanted));
}

/** Bytes held in a base64 string, without decoding it. */
export function base64Bytes(data: string): number {
	const clean = data.replace(/\s/g, '');
	const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
	return Math.floor((clean.length * 3) / 4) - padding;
}

/**
 * Checks the file of an item before anything is sent: kind (from the file name, else the MIME type)
 * and size (from n8n's binary metadata, without reading the file).
 */
export async function inspectFile(
	ctx: IExecuteFunctions,
	itemIndex: number,
	property: string,
): Promise<FileToParse> {
	const node = ctx.getNode();
	// n8n's own check says only "expects the node's input data to contain a binary file 'data'"; this
	// names the field, what the item holds, and where a file comes from.
	const held = Object.keys(ctx.getInputData()[itemIndex]?.binary ?? {});
	if (!held.includes(property) && isToolRun(ctx)) {
		throw new NodeOperationError(node, 'Parse File cannot run as a model\'s tool: it parses a file of the item the node gets, and a tool call carries no file', {
			itemIndex,
			description: 'To read a public PDF or document, call a scrape tool with its URL. Nothing was sent to the service.',
		});
	}
	if (!held.includes(property)) {
		throw new NodeOperationError(
			node,
			`Input Binary Field "${property}" is not valid: item ${itemIndex + 1} has no file in the binary field "${property}" (${held.length ? `its binary fields: ${held.join(', ')}` : 'it has no file at all'})`,
			{
				itemIndex,
				description: held.length
					? `Set "Input Binary Field" to the field that holds the file (${held.join(', ')}). Nothing was sent to the service.`
					: 'Parse File reads a file from the item it gets, e.g. from Read/Write Files from Disk, HTTP Request (Response Format: File), Google Drive or a Form Trigger; put such a node before it. Nothing was sent to the service.',
			},
		);
	}
	const binary = ctx.helpers.assertBinaryData(itemIndex, property);
	const originalName = binary.fileName ?? '';
	const mime = binary.mimeType ?? '';
	let ext = extensionOf(originalName);
	let fileName = originalName;
	if (!(ext in PARSE_EXTENSIONS)) {
		const fromMime = mime ? extensionForMime(mime) : undefined;
		if (!fromMime) {
			throw invalid(
				node,
				`Input Binary Field "${property}"`,
				originalName || mime || 'a file without a name',
				`the file must be one of ${Object.keys(PARSE_EXTENSIONS)
					.map((e) => `.${e}`)
					.join(' ')} (judged by its name${mime ? `, then its MIME type ${mime}` : ''})`,
				itemIndex,
			);
		}
		ext = fromMime;
		fileName = `${originalName || 'file'}.${ext}`;
	}

	let size: number;
	if (binary.id) {
		const metadata = await ctx.helpers.getBinaryMetadata(binary.id);
		size = Number(metadata.fileSize);
	} else {
		size = base64Bytes(binary.data ?? '');
	}
	if (!Number.isFinite(size) || size <= 0) {
		throw invalid(node, `Input Binary Field "${property}"`, originalName, 'the file is empty', itemIndex);
	}
	if (size > MAX_FILE_BYTES) {
		throw invalid(
			node,
			`Input Binary Field "${property}"`,
			originalName,
			`the file has ${(size / 1024 / 1024).toFixed(1)} MB; the service takes at most 50 MB per file`,
			itemIndex,
		);
	}
	const contentType = mime && mime !== 'application/octet-stream' ? mime : (PARSE_EXTENSIONS[ext][0] ?? 'application/octet-stream');
	return { fileName, originalName: originalName || fileName, contentType, size, binary };
}
