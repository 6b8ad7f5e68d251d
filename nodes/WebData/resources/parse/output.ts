import type { IDataObject } from 'n8n-workflow';

/** True when the PDF had more pages than were processed (metadata.totalPages > numPages). */
export function isTruncated(data: IDataObject): boolean {
	const metadata = (data.metadata ?? {}) as IDataObject;
	const total = Number(metadata.totalPages);
	const done = Number(metadata.numPages);
	return Number.isFinite(total) && Number.isFinite(done) && total > done;
}

/** One item per file: the `data` object as returned, plus the file name and `truncated`. */
export function fileItem(data: IDataObject, fileName: string): IDataObject {
	const item: IDataObject = { fileName, ...data };
	if (isTruncated(data)) item.truncated = true;
	return item;
}

/**
 * One item per page: page number, its Markdown, the file name and the document metadata.
 * A file without pages (not a PDF) gives one item holding the whole Markdown.
 */
export function pageItems(data: IDataObject, fileName: string): IDataObject[] {
	const metadata = (data.metadata ?? {}) as IDataObject;
	const shared: IDataObject = { fileName, metadata };
	if (isTruncated(data)) shared.truncated = true;
	if (data.warning) shared.warning = data.warning;
	const pages = Array.isArray(data.pages) ? (data.pages as IDataObject[]) : undefined;
	if (!pages) {
		return [
			{
				pageNumber: null,
				markdown: data.markdown ?? null,
				...shared,
				notice: 'The service returned no pages for this file (only PDF files have pages), so the whole document is one item.',
			},
		];
	}
	return pages.map((page) => ({ ...page, pageNumber: page.pageNumber, markdown: page.markdown, ...shared }));
}

/**
 * One item per layout block, in page and reading order, with the page's number, status and size.
 * Unknown block types and extra keys pass through untouched.
 */
export function blockItems(data: IDataObject, fileName: string): IDataObject[] {
	const pages = Array.isArray(data.blocks) ? (data.blocks as IDataObject[]) : [];
	const out: IDataObject[] = [];
	for (const page of pages) {
		const { items, ...pageFields } = page;
		for (const block of (Array.isArray(items) ? items : []) as IDataObject[]) {
			out.push({
				...block,
				pageNumber: pageFields.pageNumber,
				pageStatus: pageFields.status,
				pageWidth: pageFields.width ?? null,
				pageHeight: pageFields.height ?? null,
				fileName,
			});
		}
	}
	if (out.length === 0) {
		return [
			{
				fileName,
				metadata: data.metadata ?? {},
				notice: 'The service returned no layout blocks for this file (only PDF files have them).',
			},
		];
	}
	return out;
}
