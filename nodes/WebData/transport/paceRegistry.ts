import { Pace } from './pace';

/**
 * One pace per workflow execution and credential, so a `Retry-After` heard by one request is honoured
 * by all and the rate learned by one is the rate of all; bounded without timers (nodes/FACTS.md "Pace").
 */

export interface PaceRegistryOptions {
	/** An entry not looked up for this long is dropped (ms). */
	idleMs?: number;
	/** At most this many entries; the least recently used go first. */
	maxEntries?: number;
	/** The clock (epoch ms); tests inject one. */
	now?: () => number;
	/** Makes a new pace; tests inject one with a fake clock. */
	create?: () => Pace;
}

/** Entries unused for 10 minutes are dropped: a learned rate goes stale. */
export const PACE_IDLE_MS = 10 * 60 * 1000;
/** At most this many executions × credentials are remembered at once. */
export const PACE_MAX_ENTRIES = 1000;

interface Entry {
	pace: Pace;
	usedAt: number;
}

export class PaceRegistry {
	/** Insertion order = least recently used first (an entry is re-inserted on every use). */
	private readonly entries = new Map<string, Entry>();
	private readonly idleMs: number;
	private readonly maxEntries: number;
	private readonly now: () => number;
	private readonly create: () => Pace;

	constructor(options: PaceRegistryOptions = {}) {
		this.idleMs = options.idleMs ?? PACE_IDLE_MS;
		this.maxEntries = Math.max(1, options.maxEntries ?? PACE_MAX_ENTRIES);
		this.now = options.now ?? (() => Date.now());
		this.create = options.create ?? (() => new Pace());
	}

	/** The pace of this execution and credential: the same one for every run that asks within `idleMs`. */
	get(executionId: string, credentialId: string): Pace {
		const now = this.now();
		const key = `${executionId}\u0000${credentialId}`;
		const found = this.entries.get(key);
		this.entries.delete(key);
		let pace: Pace;
		if (found && now - found.usedAt < this.idleMs) {
			pace = found.pace;
		} else {
			pace = this.create();
		}
		this.entries.set(key, { pace, usedAt: now });
		this.evict(now);
		return pace;
	}

	/** How many entries are kept (for tests). */
	get size(): number {
		return this.entries.size;
	}

	/** Drops idle entries from the old end, then the least recently used beyond `maxEntries`. */
	private evict(now: number): void {
		for (const [key, entry] of this.entries) {
			if (this.entries.size <= this.maxEntries && now - entry.usedAt < this.idleMs) break;
			this.entries.delete(key);
		}
	}
}

/**
 * The pace of a node run: shared by the execution and credential when n8n names the execution,
 * else (no execution id, as in some test contexts) a pace of the run's own.
 */
export function paceFor(
	registry: PaceRegistry,
	executionId: string | undefined,
	credentialId: string | null | undefined,
): Pace {
	if (!executionId) return new Pace();
	return registry.get(executionId, credentialId ?? '');
}
