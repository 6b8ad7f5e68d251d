import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Operation, RunContext } from '../../types';
import { invalid, requireUuid } from '../../helpers/validation';
import { isPlainObject } from '../../helpers/objects';
import { defaultDeps } from '../../transport';
import type { CombinePages } from './combine';
import { combinePagesOption, extractIdField } from './fields';
import { readExtractJob } from './routes';
import { aiValue } from '../../tool/fromAi';

/** Extract → Get Status: the status and, when finished, the extracted data of a job. */
export const getStatus: Operation = {
	tool: {
		description: 'Read an extract job by its id: its status and, once completed, the extracted data (JSON). Costs nothing extra.',
		fromAi: { extractId: aiValue('extractId', 'The id of the extract job (a UUID), from the answer that started it') },
	},
	properties: [
		extractIdField,
		{ displayName: 'Options', name: 'options', type: 'collection', placeholder: 'Add Option', default: {}, options: [combinePagesOption] },
	],
	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const raw = this.getNodeParameter('extractId', i, '', { extractValue: true });
		// The server refuses an id that is not a UUID: check it first.
		const id = requireUuid(this.getNode(), 'Extract Job ID', raw, i);
		const options = this.getNodeParameter('options', i, {}) as IDataObject;
		const combine = (isPlainObject(options) ? options.combinePages : undefined) ?? 'merge';
		if (combine !== 'merge' && combine !== 'perPage') {
			throw invalid(this.getNode(), 'Options → Combine Pages', combine, 'choose "Merge Into One Item" or "One Item per Page"', i);
		}
		const items = await readExtractJob(this, id, combine as CombinePages, i, run?.transportDeps ?? defaultDeps);
		return items.map((json) => ({ json }));
	},
};
