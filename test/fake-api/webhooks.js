'use strict';
// Outgoing webhook deliveries (api-facts 3): JSON POSTs, optional HMAC signature, recorded for tests.
// Used by monitor checks (monitor.js), agent runs (agent.js) and crawl / batch-scrape jobs (crawl.js).
//
// How jobs deliver (switches: setDelivery(), POST /__fake/webhook-delivery, reset() restores them):
//  - retries (default true): a job delivery not answered 2xx is sent again after 1, 5 and 15 minutes
//    (the docs' queue mode). false = like the open-source server: ONE attempt, 10 s timeout, no retry;
//  - dropCustomHeaders (default false): the webhook's configured `headers` are not sent (a service
//    that does not forward them); the signature header still is, when a signing secret is set;
//  - loseEvents (default []): job AND monitor deliveries of these `type`s are recorded but never sent
//    (as if lost on the way: n8n down, a proxy error), with `lost: true` and no retry. Monitor checks
//    are always sent once (no retry), whatever `retries` says.
const http = require('http');
const https = require('https');
const crypto = require('crypto');

const DELIVERY_TIMEOUT_MS = 10000;

function post(url, headers, raw) {
	return new Promise((resolve) => {
		let u;
		try {
			u = new URL(url);
		} catch {
			return resolve({ status: null, error: 'Invalid URL' });
		}
		const lib = u.protocol === 'https:' ? https : http;
		const req = lib.request(u, { method: 'POST', headers, agent: false, timeout: DELIVERY_TIMEOUT_MS }, (res) => {
			const chunks = [];
			res.on('data', (c) => chunks.length < 16 && chunks.push(c)); // the answer's start, for tests
			res.on('end', () => resolve({ status: res.statusCode, error: null, body: Buffer.concat(chunks).toString('utf8').slice(0, 2000) }));
			res.on('error', (e) => resolve({ status: res.statusCode, error: e.message }));
		});
		req.on('timeout', () => req.destroy(new Error('Webhook delivery timed out')));
		req.on('error', (e) => resolve({ status: null, error: e.message }));
		req.end(raw);
	});
}

const DEFAULT_DELIVERY = Object.freeze({ retries: true, dropCustomHeaders: false, loseEvents: [] });

class Webhooks {
	constructor(state) {
		this.state = state;
		this.deliveries = [];
		this.pending = new Set();
		this.delivery = { ...DEFAULT_DELIVERY };
	}

	reset() {
		this.deliveries.length = 0;
		this.delivery = { ...DEFAULT_DELIVERY };
	}

	/** Sets the delivery switches ({retries, dropCustomHeaders, loseEvents}); returns them all. */
	setDelivery(patch = {}) {
		const next = { ...this.delivery };
		if (patch.retries !== undefined) next.retries = Boolean(patch.retries);
		if (patch.dropCustomHeaders !== undefined) next.dropCustomHeaders = Boolean(patch.dropCustomHeaders);
		if (patch.loseEvents !== undefined) {
			if (!Array.isArray(patch.loseEvents) || !patch.loseEvents.every((t) => typeof t === 'string')) throw new Error('loseEvents must be a list of event types');
			next.loseEvents = [...patch.loseEvents];
		}
		this.delivery = next;
		return { ...next, loseEvents: [...next.loseEvents] };
	}

	/** Sends `payload` (an envelope object) to `url` with the configured extra headers. */
	send(url, payload, extraHeaders = {}, meta = {}, { lose = false } = {}) {
		const raw = JSON.stringify(payload);
		const headers = { ...extraHeaders, 'Content-Type': 'application/json', 'User-Agent': 'WebDataService-Webhooks/2 (fake)' };
		const secret = this.state.options.webhookSigningSecret;
		if (secret) headers['X-Firecrawl-Signature'] = `sha256=${crypto.createHmac('sha256', secret).update(raw).digest('hex')}`;
		return this.transmit({ url, headers, raw, meta, attempt: 1, lose });
	}

	/** Re-sends a recorded delivery with the identical body and headers (same webhookId), like a service retry. */
	redeliver(webhookId) {
		const original = this.deliveries.find((d) => d.webhookId === webhookId);
		if (!original) return null;
		const attempts = this.deliveries.filter((d) => d.webhookId === webhookId).length;
		const { monitorId, checkId, jobId } = original;
		const meta = Object.fromEntries(Object.entries({ monitorId, checkId, jobId }).filter(([, v]) => v !== undefined));
		return this.transmit({ url: original.url, headers: original.headers, raw: original.rawBody, meta, attempt: attempts + 1 });
	}

	async transmit({ url, headers, raw, meta, attempt, lose = false }) {
		const body = JSON.parse(raw);
		const record = {
			webhookId: body.webhookId,
			type: body.type,
			url,
			headers: { ...headers, 'Content-Length': String(Buffer.byteLength(raw)) },
			body,
			rawBody: raw,
			attempt,
			...meta,
			responseStatus: null,
			error: null,
			at: Date.now(),
		};
		this.deliveries.push(record);
		if (lose) {
			record.lost = true;
			record.error = 'lost on the way (fake switch loseEvents)';
			return record;
		}
		const promise = post(url, record.headers, raw).then(({ status, error, body: answer }) => {
			record.responseStatus = status;
			record.responseBody = answer ?? null;
			record.error = error;
			return record;
		});
		this.pending.add(promise);
		promise.finally(() => this.pending.delete(promise));
		return promise;
	}

	async idle() {
		while (this.pending.size) await Promise.all([...this.pending]);
	}
}

/** The docs' queue mode retries a delivery that was not answered 2xx after 1, 5 and 15 minutes (api-facts 3); the open-source server does not (switch `retries`). */
const RETRY_DELAYS_MS = [60_000, 300_000, 900_000];

/**
 * A job's webhook delivery in the envelope {success, type, id, webhookId, data, error?, metadata},
 * sent as the switches say (Webhooks.setDelivery): with retries, again with the same bytes after
 * RETRY_DELAYS_MS (scaled by the fake's timeScale) while it is not answered 2xx and `stillWanted()`
 * holds; `later(ms, fn)` is the job store's reset-aware timer.
 */
function sendJobWebhook(state, later, stillWanted, job, type, success, data, error) {
	const envelope = { success, type, id: job.id, webhookId: crypto.randomUUID(), data };
	if (error !== undefined) envelope.error = error;
	envelope.metadata = job.webhook.metadata;
	const how = state.webhooks.delivery;
	const retry = (record, n) => {
		const answered = record && record.responseStatus >= 200 && record.responseStatus < 300;
		if (!how.retries || record.lost || answered || n >= RETRY_DELAYS_MS.length || !stillWanted()) return;
		later(state.scaled(RETRY_DELAYS_MS[n]), () => {
			const again = state.webhooks.redeliver(envelope.webhookId);
			if (again) again.then((r) => retry(r, n + 1));
		});
	};
	const headers = how.dropCustomHeaders ? {} : job.webhook.headers;
	const lose = how.loseEvents.includes(type);
	return state.webhooks.send(job.webhook.url, envelope, headers, { jobId: job.id }, { lose }).then((record) => {
		retry(record, 0);
		return record;
	});
}

module.exports = { Webhooks, sendJobWebhook };
