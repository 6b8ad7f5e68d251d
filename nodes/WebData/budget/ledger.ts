import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * Where an execution's credits are written down: n8n's execution custom data
 * (`$execution.customData`), which travels with the execution through waits and to queue-mode
 * workers (nodes/FACTS.md "Credit budget"). Two keys at most: the total, readable by any later node,
 * and with a budget the ledger behind it.
 */

/** Credits spent by every Web Data node of this execution, as a whole number in a string. */
export const TOTAL_KEY = 'webdata_credits';
/** JSON: per credential spent, reserved and held by running jobs; per node spent. Only with a budget. */
export const LEDGER_KEY = 'webdata_budget';
/** n8n keeps at most this many characters of a custom data value. */
export const MAX_VALUE_CHARS = 512;

export interface CreditStore {
	get(key: string): unknown;
	set(key: string, value: string): void;
}

/** One credential's account in the execution. */
export interface CredentialAccount {
	/** Spent: what the service reported (or the documented estimate where it reports nothing). */
	s: number;
	/** Reserved by requests on their way. */
	r: number;
	/** Held by running jobs, by job ID (first 12 characters). */
	j?: Record<string, number>;
}

export interface Ledger {
	c: Record<string, CredentialAccount>;
	/** Spent by node name. */
	n: Record<string, number>;
	/** The execution that wrote it: another one holds a copy (n8n's Retry copies custom data). */
	x?: string;
}

const emptyLedger = (): Ledger => ({ c: {}, n: {} });

const whole = (v: unknown): number => {
	const n = Number(v);
	return Number.isFinite(n) && n > 0 ? Math.round(n) : 0;
};

export function parseLedger(raw: unknown): Ledger {
	if (typeof raw !== 'string' || raw === '') return emptyLedger();
	try {
		const value = JSON.parse(raw) as Partial<Ledger>;
		const ledger = emptyLedger();
		for (const [id, a] of Object.entries(value.c ?? {})) {
			const account: CredentialAccount = { s: whole(a?.s), r: whole(a?.r) };
			const jobs = Object.entries(a?.j ?? {}).filter(([, v]) => whole(v) > 0);
			if (jobs.length > 0) account.j = Object.fromEntries(jobs.map(([k, v]) => [k, whole(v)]));
			ledger.c[id] = account;
		}
		for (const [name, v] of Object.entries(value.n ?? {})) ledger.n[name] = whole(v);
		if (typeof value.x === 'string' && value.x !== '') ledger.x = value.x;
		return ledger;
	} catch {
		return emptyLedger();
	}
}

/** The ledger as stored: node names beyond the room there is are summed under "other nodes". */
export function serializeLedger(ledger: Ledger): string | undefined {
	const names = Object.entries(ledger.n).sort((a, b) => b[1] - a[1]);
	for (let keep = names.length; keep >= 0; keep--) {
		const rest = names.slice(keep).reduce((sum, [, v]) => sum + v, 0);
		const n: Record<string, number> = Object.fromEntries(names.slice(0, keep));
		if (rest > 0) n['other nodes'] = (n['other nodes'] ?? 0) + rest;
		const text = JSON.stringify({ c: ledger.c, n, ...(ledger.x ? { x: ledger.x } : {}) });
		if (text.length <= MAX_VALUE_CHARS) return text;
	}
	return undefined;
}

/**
 * A ledger copied from another execution (a Retry): what was spent stays spent; its reservations and
 * job holds belong to requests and jobs of that execution, so they are let go.
 */
export function adoptLedger(ledger: Ledger, executionId: string | undefined): Ledger {
	if (!executionId) return ledger;
	if (ledger.x !== undefined && ledger.x !== executionId) {
		for (const account of Object.values(ledger.c)) {
			account.r = 0;
			delete account.j;
		}
	}
	ledger.x = executionId;
	return ledger;
}

/** Held by running jobs. */
export const heldByJobs = (account: CredentialAccount): number => Object.values(account.j ?? {}).reduce((sum, v) => sum + v, 0);

/** The execution's custom data, or undefined where n8n gives none (then an in-process store is used). */
export function executionStore(ctx: IExecuteFunctions): CreditStore | undefined {
	try {
		const store = (ctx.getWorkflowDataProxy(0).$execution as { customData?: CreditStore } | undefined)?.customData;
		if (store && typeof store.get === 'function' && typeof store.set === 'function') return store;
	} catch {
		// no execution data in this context
	}
	return undefined;
}

/** Where n8n gives no custom data: kept in this process, by execution, bounded. */
const local = new Map<string, Map<string, string>>();
const LOCAL_MAX = 1000;

export function localStore(executionId: string): CreditStore {
	let entry = local.get(executionId);
	if (!entry) {
		entry = new Map();
		local.set(executionId, entry);
		if (local.size > LOCAL_MAX) local.delete(local.keys().next().value as string);
	}
	const values = entry;
	return { get: (key) => values.get(key), set: (key, value) => void values.set(key, value) };
}
