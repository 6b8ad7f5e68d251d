import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';
import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { jobItemsForDelivery, needsJobEndRead, parseDelivery, redactedHeaders } from './delivery';
import { forgetToldChecks, rememberListeningStart, tellMonitorDelivery } from './monitorDelivery';
import { readJobEnd } from './jobEnd';
import { triggerProperties } from './description';
import { chosenNamesExpression } from '../WebData/fields/description';
import { searchMonitors } from './listSearch';
import { checkExists, create, registrationOf, remove, type Connection } from './registration';
import { SigningSecretCache } from './secretCache';
import { authenticateDelivery, credentialSigningSecret, type HeaderBag, refuse, signingSecret, TRIGGER_TOKEN, type WebhookRequest } from '../shared/signature';
import { DeliveryDeduper, newSecretToken } from './verify';
import { isPlainObject } from '../WebData/helpers/objects';

/** Bounded; see DeliveryDeduper. */
const deliveries = new DeliveryDeduper();
/** Read once per activation (see SigningSecretCache). */
const signingSecrets = new SigningSecretCache();

/** The same for all deliveries to one trigger node of one workflow. */
function scopeOf(ctx: IHookFunctions | IWebhookFunctions): string {
	const node = ctx.getNode();
	return `${ctx.getWorkflow().id ?? ''}:${node.id ?? node.name}`;
}

type Source = 'monitor' | 'jobs';

function sourceOf(ctx: IHookFunctions | IWebhookFunctions): Source {
	return ctx.getNodeParameter('source', 'monitor') === 'jobs' ? 'jobs' : 'monitor';
}

/** Job events need no registration, but activation fails when neither a Token nor the signing secret is set. */
async function assertJobEventsVerifiable(ctx: IHookFunctions): Promise<void> {
	const token = String(ctx.getNodeParameter('jobToken', '') ?? '').trim();
	if (token !== '') return;
	if ((await credentialSigningSecret(ctx)) === '') {
		// n8n 2.41's editor shows only the message (a toast), so the suggested value is in it.
		const suggestion = newSecretToken();
		throw new NodeOperationError(ctx.getNode(), `Job events need a Token or a signing secret: set Token, e.g. to ${suggestion}`, {
			description: `Set Token on this node to a long random value, for example ${suggestion} (freshly made for you), and give the same Token in the job's "Send Events to Web Data Trigger" option; or put your team's Webhook Signing Secret into the credential. Without either, anyone who knows the URL could start this workflow.`,
		});
	}
}

/** n8n answers "Respond Immediately" webhooks with it. */
const ACCEPTED = { received: true };

async function readSigningSecret(ctx: IWebhookFunctions): Promise<{ secret: string | undefined; read: boolean }> {
	let credentials: IDataObject;
	try {
		credentials = await ctx.getCredentials('webDataApi');
	} catch {
		return { secret: undefined, read: false }; // no credential (manual mode)
	}
	const secret = signingSecret(credentials);
	return { secret: secret === '' ? undefined : secret, read: true };
}

/** `fresh` forces a read of the credential. */
async function signingSecretOf(ctx: IWebhookFunctions, scope: string, fresh = false): Promise<string | undefined> {
	const credentialId = ctx.getNode().credentials?.webDataApi?.id ?? undefined;
	if (!fresh) {
		const cached = signingSecrets.get(scope, credentialId);
		if (cached) return cached.secret;
	}
	const { secret, read } = await readSigningSecret(ctx);
	if (read) signingSecrets.set(scope, credentialId, secret); // a failed read is not kept
	return secret;
}

export class WebDataTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Web Data Trigger',
		name: 'webDataTrigger',
		icon: { light: 'file:webdatatrigger.svg', dark: 'file:webdatatrigger.dark.svg' },
		group: ['trigger'],
		// From here on, a change of behaviour is a new version.
		version: 1,
		// The chosen events' names, not their internal values.
		subtitle: chosenNamesExpression(
			'($parameter["source"] === "jobs" ? $parameter["jobEvents"] : $parameter["events"])',
			triggerProperties.filter((p) => p.name === 'events' || p.name === 'jobEvents').flatMap((p) => p.options ?? []),
		),
		// FACTS.md "n8n editor behaviour" (node creator).
		description:
			'Scrape, search, map and crawl the web, parse PDFs and other files to Markdown, run research agents, and start workflows when a watched page changes',
		eventTriggerDescription: 'Waiting for the service to send an event',
		// Where the user clicks "Listen for test event"; the notices say the same beside the fields.
		triggerPanel: {
			header: 'A test waits for one event from the service',
			executionsHelp: {
				inactive:
					"<b>While building</b>, click 'Execute step': monitor events come at the monitor's next scheduled check (up to its interval, e.g. 30 minutes), or at once when 'Run a Check Now When Listening' is on (costs credits). Job events come when a job whose \"Send Events to Web Data Trigger\" option has this trigger's <b>Test URL</b> reports (the Production URL once published). <br /><br /><b>Once published</b>, every event starts the workflow.",
				active:
					"<b>While building</b>, click 'Execute step': monitor events come at the monitor's next scheduled check (up to its interval, e.g. 30 minutes), or at once when 'Run a Check Now When Listening' is on (costs credits). <br /><br /><b>The workflow is published</b>: every event starts it; those executions are in the Executions list.",
			},
			activationHint: 'Once the workflow is published, every event from the service starts it.',
		},
		activationMessage: 'Events from the service now start this workflow.',
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
				// FACTS.md "n8n editor behaviour" (webhook answers).
				responseData: '',
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
				signingSecrets.forget(scopeOf(this)); // read the credential afresh
				if (sourceOf(this) === 'jobs') {
					await assertJobEventsVerifiable(this);
					return true; // the job's webhook option points here
				}
				const exists = await checkExists(this);
				if (exists) rememberListeningStart(this); // the floor of catch-ups
				return exists;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				signingSecrets.forget(scopeOf(this));
				if (sourceOf(this) === 'jobs') {
					await assertJobEventsVerifiable(this);
					return true;
				}
				const created = await create(this);
				rememberListeningStart(this);
				return created;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				signingSecrets.forget(scopeOf(this));
				const removed = await remove(this);
				if (removed) forgetToldChecks(this, scopeOf(this)); // a failed removal keeps all
				return removed;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const node = this.getNode();
		const source = sourceOf(this);
		const connection = this.getNodeParameter('connection', 'create') as Connection;
		const req = this.getRequestObject() as unknown as WebhookRequest;
		const headers = (req.headers ?? this.getHeaderData()) as HeaderBag;

		// 1. Authenticate before anything else.
		let expectedToken: string | undefined;
		if (source === 'jobs') {
			const token = String(this.getNodeParameter('jobToken', '') ?? '').trim();
			expectedToken = token === '' ? undefined : token;
		} else if (connection === 'manual') {
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
		const scope = scopeOf(this);
		const check = async (signingSecret: string | undefined) => {
			if (signingSecret && req.rawBody === undefined && typeof req.readRawBody === 'function') {
				await req.readRawBody();
			}
			return authenticateDelivery({
				headers,
				query: this.getQueryData(),
				rawBody: req.rawBody,
				places: TRIGGER_TOKEN,
				expectedToken,
				signingSecret,
				// The user's choice, flagged by a notice; job events refuse to activate without a secret.
				allowUnverified: source === 'monitor' && connection === 'manual',
			});
		};
		let auth = await check(await signingSecretOf(this, scope));
		if (!auth.ok && auth.failed !== 'token' && signingSecrets.mayRefresh(scope)) {
			// The secret may have changed in the credential: check once more afresh.
			auth = await check(await signingSecretOf(this, scope, true));
		}
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
			if (deliveries.seen(scope, envelope.webhookId)) {
				return { webhookResponse: { received: true, duplicate: true } };
			}
		}

		// 4. Events, filters and items.
		const options = this.getNodeParameter('options', {}) as IDataObject;
		if (source === 'jobs') {
			const events = this.getNodeParameter('jobEvents', []) as string[];
			// A crawl / batch end: its real end is read once (FACTS.md "Webhook deliveries").
			const end = needsJobEndRead(envelope.type, events) ? await readJobEnd(this, envelope) : undefined;
			if (end && 'readError' in end) {
				this.logger.warn(`Web Data Trigger "${node.name}" could not read how job ${String(envelope.id)} ended: ${end.readError}`, {
					workflowId: this.getWorkflow().id,
				});
			}
			const decision = jobItemsForDelivery(envelope, {
				events,
				end,
				passUnknownEvents: options.passUnknownEvents === true,
				headers: options.includeHeaders === true ? redactedHeaders(headers) : undefined,
			});
			if (!decision.run) return { webhookResponse: { received: true, ignored: decision.reason } };
			return { workflowData: [this.helpers.returnJsonArray(decision.items)], webhookResponse: ACCEPTED };
		}
		// Monitor events: missed checks come first.
		const decision = await tellMonitorDelivery(this, envelope, {
			scope,
			connection,
			verified: auth.verifiedBy.length > 0,
			output: {
				events: this.getNodeParameter('events', []) as string[],
				statuses: (options.statuses as string[] | undefined) ?? [],
				onlyMeaningful: options.onlyMeaningful === true,
				passUnknownEvents: options.passUnknownEvents === true,
				headers: options.includeHeaders === true ? redactedHeaders(headers) : undefined,
			},
		});
		if (!decision.run) return { webhookResponse: { received: true, ignored: decision.reason } };
		// Issue 35.5; a plain copy: static data is an observed object.
		const kept = connection === 'create' ? registrationOf(this).dailyEstimate : undefined;
		const daily = isPlainObject(kept) ? { ...kept } : undefined;
		const items = daily ? decision.items.map((item) => (item.event === 'monitor.check.completed' ? { ...item, dailyEstimate: daily } : item)) : decision.items;
		return { workflowData: [this.helpers.returnJsonArray(items)], webhookResponse: ACCEPTED };
	}
}
