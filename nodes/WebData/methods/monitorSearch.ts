import { NodeOperationError } from 'n8n-workflow';
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { utcLabel } from '../helpers/serviceTime';
import { isUuid } from '../helpers/validation';
import { listChecks, listMonitors, MAX_PAGE_SIZE } from '../../shared/monitor/api';

function offsetOf(token: string | undefined): number {
	return token && /^\d+$/.test(token) ? Number(token) : 0;
}

function summaryText(summary: unknown): string {
	if (summary === null || typeof summary !== 'object') return '';
	const s = summary as IDataObject;
	const parts = ['changed', 'new', 'removed', 'error']
		.filter((k) => typeof s[k] === 'number' && (s[k] as number) > 0)
		.map((k) => `${s[k] as number} ${k}`);
	return parts.length ? `, ${parts.join(', ')}` : typeof s.totalPages === 'number' ? ', no changes' : '';
}

/** The team's monitors (GET /v2/monitor, 100 per page), filtered by name. */
export async function searchMonitors(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const offset = offsetOf(paginationToken);
	const monitors = await listMonitors(this, { limit: MAX_PAGE_SIZE, offset });
	const needle = (filter ?? '').trim().toLowerCase();
	return {
		results: monitors
			.filter((m) => needle === '' || String(m.name ?? '').toLowerCase().includes(needle) || String(m.id) === needle)
			.map((m) => ({
				name: `${String(m.name ?? m.id)}${m.status && m.status !== 'active' ? ` (${String(m.status)})` : ''}`,
				value: String(m.id),
			})),
		paginationToken: monitors.length === MAX_PAGE_SIZE ? String(offset + monitors.length) : undefined,
	};
}

/** The checks of the monitor chosen in the same node (GET /v2/monitor/{id}/checks), newest first. */
export async function searchMonitorChecks(
	this: ILoadOptionsFunctions,
	_filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const monitorId = this.getCurrentNodeParameter('monitorId', { extractValue: true });
	if (!isUuid(monitorId)) {
		throw new NodeOperationError(this.getNode(), 'Choose the monitor first', {
			description: 'The list shows the checks of the monitor chosen in "Monitor".',
		});
	}
	const offset = offsetOf(paginationToken);
	const checks = await listChecks(this, monitorId.trim(), { limit: MAX_PAGE_SIZE, offset });
	return {
		results: checks.map((c) => ({
			name: `${utcLabel(c.createdAt) ?? utcLabel(c.scheduledFor) ?? String(c.createdAt ?? c.scheduledFor ?? c.id)} (${String(c.status ?? 'unknown')}, ${String(c.trigger ?? 'check')}${summaryText(c.summary)})`,
			value: String(c.id),
		})),
		paginationToken: checks.length === MAX_PAGE_SIZE ? String(offset + checks.length) : undefined,
	};
}
