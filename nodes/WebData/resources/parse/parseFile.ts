import type { IBinaryKeyData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { openMultipart } from '../../helpers/multipart';
import type { Operation, RunContext } from '../../types';
import { documentCredits, pdfPagesCredits, reportedCredits } from '../../budget/cost';
import { apiRequest, defaultDeps } from '../../transport';
import { PARSE_OPTION_GROUPS, PARSE_OPTION_LABELS, parseFileProperties } from './description';
import { inspectFile, PARSE_TOOL_DESCRIPTION } from './files';
import { blockItems, fileItem, pageItems } from './output';
import { buildParseOptions, httpTimeoutFor, type ParseParameters } from './options';

function readParameters(ctx: IExecuteFunctions, i: number): ParseParameters {
	const redaction = ctx.getNodeParameter('redaction', i, 'off') as ParseParameters['redaction'];
	const formats = ctx.getNodeParameter('formats', i, ['markdown']) as string[];
	const wantsJson = Array.isArray(formats) && formats.includes('json');
	return {
		formats,
		jsonPrompt: wantsJson ? (ctx.getNodeParameter('jsonPrompt', i, '') as string) : undefined,
		jsonSchema: wantsJson ? ctx.getNodeParameter('jsonSchema', i, '') : undefined,
		output: ctx.getNodeParameter('output', i, 'file') as ParseParameters['output'],
		pdfOptions: ctx.getNodeParameter('pdfOptions', i, {}) as IDataObject,
		redaction,
		redactMode: redaction === 'tuned' ? (ctx.getNodeParameter('redactMode', i) as string) : undefined,
		redactReplaceStyle: redaction === 'tuned' ? (ctx.getNodeParameter('redactReplaceStyle', i) as string) : undefined,
		redactEntities: redaction === 'tuned' ? (ctx.getNodeParameter('redactEntities', i, []) as string[]) : undefined,
		options: readOptions(ctx, i),
		optionLabels: PARSE_OPTION_LABELS,
	};
}

/**
 * The options as one object: Options and the collections after it (Advanced Options) hold different settings under the API's names, so they merge without clashes.
 */
export function readOptions(ctx: IExecuteFunctions, i: number): IDataObject {
	const options = ctx.getNodeParameter('options', i, {}) as IDataObject;
	return Object.assign({ ...options }, ...PARSE_OPTION_GROUPS.map((group) => ctx.getNodeParameter(group.name, i, {}) as IDataObject)) as IDataObject;
}

const PARSE_HINTS: Record<string, string> = {
	'400': 'The service rejected the upload. Check the file and the options named in the message.',
	'408': 'The service ran out of time on this file. Raise Options → Timeout (at most 300000 ms), or lower PDF Options → Max Pages.',
	'413': 'The file is too large for the service: at most 50 MB per file.',
};

export const parseFile: Operation = {
	tool: { description: PARSE_TOOL_DESCRIPTION },
	spends: true,
	properties: parseFileProperties,

	concurrency(this: IExecuteFunctions): number {
		const options = this.getNodeParameter('options', 0, {}) as IDataObject;
		const value = Number(options.concurrency ?? 3);
		return Number.isInteger(value) && value >= 1 ? Math.min(value, 20) : 3;
	},

	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const property = this.getNodeParameter('binaryPropertyName', i, 'data') as string;
		const params = readParameters(this, i);
		// Everything is checked before the upload starts.
		const options = buildParseOptions(this.getNode(), params, i);
		const file = await inspectFile(this, i, property);

		const binary = file.binary;
		const pdfPages = pdfPagesCredits(options);
		const body = await apiRequest<IDataObject>(
			this,
			{
				method: 'POST',
				path: '/parse',
				itemIndex: i,
				timeoutMs: httpTimeoutFor(options),
				hints: PARSE_HINTS,
				// A file's pages are known only to the service: PDF Options → Max Pages bounds them.
				cost: {
					credits: documentCredits(options) + pdfPages,
					what: `parsing ${file.fileName}${pdfPages > 0 ? ' (up to PDF Options → Max Pages)' : ''}`,
					lower: pdfPages > 0 ? 'lower PDF Options → Max Pages' : 'turn off the options that add credits per page',
					reported: reportedCredits,
				},
				openUpload: async () =>
					await openMultipart({
						file: {
							field: 'file',
							fileName: file.fileName,
							contentType: file.contentType,
							size: file.size,
							open: async () =>
								binary.id
									? await this.helpers.getBinaryStream(binary.id)
									: Buffer.from(binary.data, 'base64'),
						},
						// The options part is optional: with nothing set the service applies its defaults.
						fields: Object.keys(options).length
							? [{ part: 'options', text: JSON.stringify(options), contentType: 'application/json' }]
							: [],
					}),
			},
			run?.transportDeps ?? defaultDeps,
		);
		const data = (body.data ?? {}) as IDataObject;

		let rows: IDataObject[];
		if (params.output === 'pages') rows = pageItems(data, file.originalName);
		else if (params.output === 'blocks') rows = blockItems(data, file.originalName);
		else rows = [fileItem(data, file.originalName)];

		const o = params.options;
		const items: INodeExecutionData[] = [];
		for (const json of rows) {
			const out: INodeExecutionData = { json };
			const binaries: IBinaryKeyData = {};
			if (o.keepInputBinary) Object.assign(binaries, this.getInputData()[i].binary ?? {});
			if (o.markdownToBinary && typeof json.markdown === 'string') {
				const base = file.originalName.replace(/\.[^.]+$/, '') || 'document';
				const suffix = params.output === 'pages' && json.pageNumber ? `-page-${json.pageNumber}` : '';
				const field = String(o.markdownBinaryProperty || 'markdown');
				binaries[field] = await this.helpers.prepareBinaryData(
					Buffer.from(json.markdown, 'utf8'),
					`${base}${suffix}.md`,
					'text/markdown',
				);
			}
			if (Object.keys(binaries).length) out.binary = binaries;
			items.push(out);
		}
		return items;
	},
};
