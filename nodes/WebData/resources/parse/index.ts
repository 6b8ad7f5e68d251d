import type { Resource } from '../../types';
import { parseFile } from './parseFile';

export const parse: Resource = {
	operationProperty: {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		default: 'parseFile',
		options: [
			{
				name: 'Parse File',
				value: 'parseFile',
				action: 'Parse file',
				description: 'Turn a PDF, Word, Excel, PowerPoint, EPUB, CSV or HTML file into Markdown, JSON and more (costs credits)',
			},
		],
	},
	operations: { parseFile },
};
