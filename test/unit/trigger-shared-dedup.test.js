// Web Data Trigger de-duplication across n8n processes (queue mode). Each "process" is its own
// module instance of the built node (jest.isolateModules: its own in-memory de-dup), and the
// workflow's static data goes through JSON between deliveries, the way n8n reads it from the
// database before each delivery and saves it after. Build first.
const crypto = require('crypto');
const {
	seenInStaticData,
	STATIC_KEY,
	SHARED_MAX_IDS,
	SHARED_TTL_MS,
} = require('../../dist/nodes/WebDataTrigger/sharedDedup');

const TOKEN = 'a'.repeat(64);

function loadProcess() {
	let mod;
	jest.isolateModules(() => {
		mod = require('../../dist/nodes/WebDataTrigger/WebDataTrigger.node');
	});
	return new mod.WebDataTrigger();
}

/** Stands in for n8n's database row of the workflow: static data as JSON text. */
function database() {
	return { staticData: JSON.stringify({ 'node:Web Data Trigger': { connection: 'create', monitorId: crypto.randomUUID(), secretToken: TOKEN } }) };
}

/** One delivery to one process, as n8n's LiveWebhooks does it: read static data, webhook(), save. */
async function deliver(proc, db, body, token = TOKEN) {
	const all = JSON.parse(db.staticData);
	const nodeData = all['node:Web Data Trigger'];
	const raw = Buffer.from(JSON.stringify(body));
	const response = { code: undefined, status(c) { this.code = c; return this; }, json() { return this; } };
	const ctx = {
		getNode: () => ({ id: 'n1', name: 'Web Data Trigger', credentials: { webDataApi: { id: 'c1', name: 'c' } } }),
		getWorkflow: () => ({ id: 'wf1' }),
		getNodeParameter: (name, fallback) => ({ connection: 'create', events: ['monitor.page', 'monitor.check.completed'], options: {} })[name] ?? fallback,
		getRequestObject: () => ({ rawBody: raw, body, headers: { 'x-webdata-trigger-token': token } }),
		getHeaderData: () => ({ 'x-webdata-trigger-token': token }),
		getBodyData: () => body,
		getResponseObject: () => response,
		getWorkflowStaticData: () => nodeData,
		getCredentials: async () => ({ apiKey: 'k', webhookSecret: '' }),
		logger: { warn() {}, debug() {}, info() {}, error() {} },
		helpers: { returnJsonArray: (items) => items.map((json) => ({ json })) },
	};
	const result = await proc.webhook.call(ctx);
	db.staticData = JSON.stringify(all); // n8n saves the static data after webhook() returns
	return { started: Array.isArray(result.workflowData), result, status: response.code };
}

const envelope = (webhookId) => ({ success: true, type: 'monitor.check.completed', id: crypto.randomUUID(), webhookId, data: [{ status: 'completed' }] });

describe('de-duplication shared through static data', () => {
	test('the same webhookId three times, alternately to two processes, starts one execution', async () => {
		const a = loadProcess();
		const b = loadProcess();
		const db = database();
		const body = envelope(crypto.randomUUID());
		const runs = [await deliver(a, db, body), await deliver(b, db, body), await deliver(a, db, body)];
		expect(runs.map((r) => r.started)).toEqual([true, false, false]);
		expect(runs[1].result.webhookResponse).toEqual({ received: true, duplicate: true });
		expect(Object.keys(JSON.parse(db.staticData)['node:Web Data Trigger'][STATIC_KEY])).toEqual([body.webhookId]);
	});

	test('20 distinct deliveries, each sent 3 times round the processes, start 20 executions', async () => {
		const procs = [loadProcess(), loadProcess()];
		const db = database();
		let started = 0;
		let n = 0;
		for (let i = 0; i < 20; i++) {
			const body = envelope(crypto.randomUUID());
			for (let k = 0; k < 3; k++) if ((await deliver(procs[n++ % 2], db, body)).started) started++;
		}
		expect(started).toBe(20);
	});

	test('a forged delivery records nothing: the real one still starts afterwards on the other process', async () => {
		const a = loadProcess();
		const b = loadProcess();
		const db = database();
		const body = envelope(crypto.randomUUID());
		const forged = await deliver(a, db, body, 'b'.repeat(64));
		expect(forged).toMatchObject({ started: false, status: 401 });
		expect(JSON.parse(db.staticData)['node:Web Data Trigger'][STATIC_KEY]).toBeUndefined();
		expect((await deliver(b, db, body)).started).toBe(true);
	});

	test('a second process without the shared record would have started a second execution (the record is what stops it)', async () => {
		const a = loadProcess();
		const b = loadProcess();
		const db = database();
		const body = envelope(crypto.randomUUID());
		expect((await deliver(a, db, body)).started).toBe(true);
		const all = JSON.parse(db.staticData);
		delete all['node:Web Data Trigger'][STATIC_KEY];
		db.staticData = JSON.stringify(all);
		expect((await deliver(b, db, body)).started).toBe(true);
	});
});

describe('seenInStaticData', () => {
	test('records, recognises, expires and bounds', () => {
		const data = {};
		expect(seenInStaticData(data, 'x', 1000)).toBe(false);
		expect(seenInStaticData(data, 'x', 2000)).toBe(true);
		expect(seenInStaticData(data, 'x', 1000 + SHARED_TTL_MS)).toBe(false); // expired: new again
		for (let i = 0; i < SHARED_MAX_IDS + 50; i++) seenInStaticData(data, `id${i}`, 10_000_000 + i);
		expect(Object.keys(data[STATIC_KEY])).toHaveLength(SHARED_MAX_IDS);
		expect(data[STATIC_KEY].id0).toBeUndefined(); // oldest dropped first
		expect(seenInStaticData(data, `id${SHARED_MAX_IDS + 49}`, 10_000_100)).toBe(true);
	});

	test('ignores junk in the stored value', () => {
		const data = { [STATIC_KEY]: { a: 'not a time', b: null } };
		expect(seenInStaticData(data, 'a', 5)).toBe(false);
		expect(data[STATIC_KEY]).toEqual({ a: 5 });
		const arr = { [STATIC_KEY]: ['x'] };
		expect(seenInStaticData(arr, 'x', 5)).toBe(false);
	});
});
