import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { withoutEnvelope } from '../../helpers/objects';
import type { Operation, RunContext } from '../../types';
import { invalid } from '../../helpers/validation';
import { defaultDeps } from '../../transport';
import { readJobId } from './get';
import { agentJobRequest, JOB_ID_FROM_AI, jobIdField } from './shared';
import { aiValue } from '../../tool/fromAi';

/** The client check of a snapshot id: rejects only what can never be an id and would change the request path. */
export const SNAPSHOT_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function requireSnapshotId(ctx: IExecuteFunctions, value: unknown, i: number): string {
	const text = typeof value === 'string' ? value.trim() : value;
	if (typeof text !== 'string' || !SNAPSHOT_ID.test(text)) {
		throw invalid(
			ctx.getNode(),
			'Snapshot ID',
			value,
			'it must be one ID of letters, digits, "-" and "_" (such as a UUID): the "artifact.snapshotId" of an "artifact.updated" event from Agent → Get Trace',
			i,
		);
	}
	return text;
}

/** Agent → Get Snapshot: GET /v2/agent/{jobId}/snapshots/{snapshotId}. */
export const getSnapshot: Operation = {
	tool: {
		description: 'Read one artifact of a research agent run: the content of a snapshot named by an artifact.updated event of its trace. Costs nothing extra.',
		fromAi: {
			jobId: JOB_ID_FROM_AI,
			snapshotId: aiValue('snapshotId', 'The artifact.snapshotId of an artifact.updated event in the trace of the run'),
		},
	},
	properties: [
		jobIdField,
		{
			displayName: 'Snapshot ID',
			name: 'snapshotId',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. 7d0f9c56-2b1e-4c3a-9e8f-5a6b7c8d9e0f',
			hint: 'From an "artifact.updated" event of Get Trace, e.g. {{ $json.artifact.snapshotId }}',
			description: 'Which snapshot of the run to get',
		},
	],

	async execute(this: IExecuteFunctions, i: number, run?: RunContext): Promise<INodeExecutionData[]> {
		const jobId = readJobId(this, i);
		const snapshotId = requireSnapshotId(this, this.getNodeParameter('snapshotId', i, ''), i);
		const body = await agentJobRequest(this, 'GET', jobId, `/snapshots/${snapshotId}`, i, run?.transportDeps ?? defaultDeps);
		const json: IDataObject = { id: jobId, snapshotId, ...withoutEnvelope(body) };
		// The snapshot is a string holding JSON or text; JSON is also given parsed, as "content".
		if (typeof json.snapshot === 'string') {
			try {
				const parsed: unknown = JSON.parse(json.snapshot);
				if (parsed !== null && typeof parsed === 'object') json.content = parsed as IDataObject;
			} catch {
				// plain text: "snapshot" holds it as it is
			}
		}
		return [{ json }];
	},
};
