import type { IDataObject } from 'n8n-workflow';

/**
 * De-duplication of deliveries that holds across n8n processes (queue mode: several webhook
 * processes behind one address).
 *
 * n8n gives webhook code no shared store of its own (its database-backed `checkProcessedAndRecord`
 * helper exists only for nodes that execute, not in webhook contexts). What it does give: the
 * workflow's static data. For every production delivery n8n reads the workflow, static data
 * included, from the database, and after the node's webhook() returns it saves the static data
 * back (when changed) BEFORE it answers the HTTP request. So an id recorded here is visible to
 * every later delivery, on any webhook process, once the sender got its answer.
 *
 * What it does not cover: two deliveries of the same id that arrive at the same moment on two
 * processes (both read before either saves) can both start. The service retries after minutes,
 * so in practice a retry always comes after the first answer.
 *
 * The ids live under one key of the node's static data: {webhookId: acceptedAtMs}; bounded by age
 * and count, because n8n writes the whole static data back on every accepted delivery.
 */
export const STATIC_KEY = 'deliveredWebhookIds';
export const SHARED_MAX_IDS = 300;
export const SHARED_TTL_MS = 2 * 60 * 60 * 1000;

/**
 * Records `id` in the node's static data; true when it was already there (and not expired).
 * Always assigns a fresh object, so n8n notices the change and saves it.
 */
export function seenInStaticData(
	staticData: IDataObject,
	id: string,
	now: number = Date.now(),
	maxIds: number = SHARED_MAX_IDS,
	ttlMs: number = SHARED_TTL_MS,
): boolean {
	const stored = staticData[STATIC_KEY];
	const ids: Array<[string, number]> = [];
	if (stored !== null && typeof stored === 'object' && !Array.isArray(stored)) {
		for (const [key, at] of Object.entries(stored as IDataObject)) {
			if (typeof at === 'number' && now - at < ttlMs && now - at >= -ttlMs) ids.push([key, at]);
		}
	}
	if (ids.some(([key]) => key === id)) return true;
	ids.push([id, now]);
	ids.sort((a, b) => a[1] - b[1]);
	const kept = ids.slice(Math.max(0, ids.length - maxIds));
	const next: IDataObject = {};
	for (const [key, at] of kept) next[key] = at;
	staticData[STATIC_KEY] = next;
	return false;
}

/** Removes the recorded ids (deactivation: the registration they belong to is over). */
export function forgetDeliveries(staticData: IDataObject): void {
	delete staticData[STATIC_KEY];
}
