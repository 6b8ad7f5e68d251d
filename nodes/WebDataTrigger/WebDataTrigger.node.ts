import { NodeConnectionTypes } from 'n8n-workflow';
import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { itemsForDelivery, parseDelivery, redactedHeaders } from './delivery';
import { triggerProperties } from './description';
import { searchMonitors } from './listSearch';
import { checkExists, create, registrationOf, remove, type Connection } from './registration';
import { authenticateDelivery, DeliveryDeduper, type HeaderBag } from './verify';

/** Accepted webhookIds of every trigger node in this n8n process (bounded; see DeliveryDeduper). */
const deliveries = new DeliveryDeduper();

/** What n8n's request object offers here (n8n reads the raw bytes before the node runs). */
interface WebhookRequest {
	rawBody?: Buffer;
	body?: unknown;
	headers?: HeaderBag;
	readRawBody?: () => Promise<void>;
}

interface WebhookResponse {
	status(code: number): WebhookResponse;
	json(body: unknown): unknown;
}

function refuse(ctx: IWebhookFunctions, status: 400 | 401, message: string): IWebhookResponseData {
	const res = ctx.getResponseObject() as unknown as WebhookResponse;
	res.status(status).json({ success: false, error: message });
	return { noWebhookResponse: true };
}

async function signingSecretOf(ctx: IWebhookFunctions): Promise<string | undefined> {
	let credentials: IDataObject;
	try {
		credentials = await ctx.getCredentials('webDataApi');
	} catch {
		return undefined; // manual mode without a credential: no signature to check
	}
	const secret = typeof credentials.webhookSecret === 'string' ? credentials.webhookSecret.trim() : '';
	return secret === '' ? undefined : secret;
}

export class WebDataTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Web Data Trigger',
		name: 'webDataTrigger',
		icon: { light: 'file:webdatatrigger.svg', dark: 'file:webdatatrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["events"].join(", ")}}',
		description: 'Starts the workflow when a web monitor checks a page or finishes a check',
		eventTriggerDescription: 'Waiting for the monitor to send an event',
		activationMessage: 'Monitor events now start this workflow.',
		defaults: { name: 'Web Data Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'webDataApi', required: true }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: triggerProperties,
	};

	methods = {
		listSearch: { searchMonitors },
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await checkExists(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await create(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await remove(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const node = this.getNode();
		const connection = this.getNodeParameter('connection', 'create') as Connection;
		const req = this.getRequestObject() as unknown as WebhookRequest;
		const headers = (req.headers ?? this.getHeaderData()) as HeaderBag;

		// 1. Authenticate, before anything else is looked at.
		let expectedToken: string | undefined;
		if (connection === 'manual') {
			const token = String(this.getNodeParameter('secretToken', '') ?? '').trim();
			expectedToken = token === '' ? undefined : token;
		} else {
			expectedToken = registrationOf(this).secretToken;
			if (!expectedToken) {
				this.logger.warn(
					`Web Data Trigger "${node.name}" refused a delivery: no secret token is stored for this registration. Deactivate and activate the workflow again to re-register.`,
					{ workflowId: this.getWorkflow().id },
				);
				return refuse(this, 401, 'Unauthorized');
			}
		}
		const signingSecret = await signingSecretOf(this);
		if (signingSecret && req.rawBody === undefined && typeof req.readRawBody === 'function') {
			await req.readRawBody();
		}
		const auth = authenticateDelivery({ headers, rawBody: req.rawBody, expectedToken, signingSecret });
		if (!auth.ok) {
			this.logger.warn(`Web Data Trigger "${node.name}" refused a delivery: ${auth.reason}`, {
				workflowId: this.getWorkflow().id,
			});
			return refuse(this, 401, 'Unauthorized');
		}

		// 2. The envelope.
		const parsed = parseDelivery(req.rawBody, req.body ?? this.getBodyData());
		if (!parsed.ok) return refuse(this, 400, parsed.reason);
		const { envelope } = parsed;

		// 3. A retry of a delivery already accepted starts nothing.
		if (typeof envelope.webhookId === 'string' && envelope.webhookId !== '') {
			const scope = `${this.getWorkflow().id ?? ''}:${node.id ?? node.name}`;
			if (deliveries.seen(scope, envelope.webhookId)) {
				return { webhookResponse: { received: true, duplicate: true } };
			}
		}

		// 4. Events, filters and items.
		const options = this.getNodeParameter('options', {}) as IDataObject;
		const decision = itemsForDelivery(envelope, {
			events: this.getNodeParameter('events', []) as string[],
			statuses: (options.statuses as string[] | undefined) ?? [],
			onlyMeaningful: options.onlyMeaningful === true,
			passUnknownEvents: options.passUnknownEvents === true,
			headers: options.includeHeaders === true ? redactedHeaders(headers) : undefined,
		});
		if (!decision.run) return { webhookResponse: { received: true, ignored: decision.reason } };
		return { workflowData: [this.helpers.returnJsonArray(decision.items)] };
	}
}
