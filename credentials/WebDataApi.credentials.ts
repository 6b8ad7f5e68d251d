import type { IAuthenticateGeneric, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

/** The free request of the Test (spec: GET /v2/team/credit-usage costs no credits). */
export const TEST_PATH = '/v2/team/credit-usage';

/** What a refusal of the Test means, and what to do (n8n shows the message of the first rule whose status matches). */
const TEST_RULES: ICredentialTestRequest['rules'] = [
	[401, 'The service refused the API key (401). Copy the key again from the dashboard (API Keys) into API Key.'],
	[402, 'The API key is valid, but the team has no credits left (402). Add credits or upgrade the plan in the dashboard; until then the operations that spend credits fail.'],
	[403, 'The API key may not use this service (403). Ask an administrator of your team.'],
	[404, `No Web Data API v2 at this Base URL (404 to GET ${TEST_PATH}). Check Base URL: the address of the API, not of the dashboard or a web page (for the public service: https://api.firecrawl.dev).`],
	[405, `No Web Data API v2 at this Base URL (405 to GET ${TEST_PATH}). Check Base URL (for the public service: https://api.firecrawl.dev).`],
	[429, 'The service is rate limiting this key (429). The key itself works; test again in a minute.'],
	[500, 'The service failed (500). Try the Test again later.'],
	[502, 'The service or a proxy in front of it failed (502). Try the Test again later; for a self-hosted service, check that it is running.'],
	[503, 'The service is unavailable (503). Try the Test again later.'],
	[504, 'The service did not answer in time (504). Try the Test again later.'],
].map(([value, message]) => ({ type: 'responseCode' as const, properties: { value: value as number, message: message as string } }));

export class WebDataApi implements ICredentialType {
	name = 'webDataApi';

	displayName = 'Web Data API';

	documentationUrl = 'https://github.com/n8n-nodes-webdata/n8n-nodes-webdata#get-an-api-key-and-add-the-credential';

	icon = { light: 'file:webdata.svg', dark: 'file:webdata.dark.svg' } as const;

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			// A hint shows under the field; a description only behind the "?".
			hint: 'From the service dashboard (API Keys). It is sent as a bearer token.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://api.firecrawl.dev',
			required: true,
			placeholder: 'https://api.firecrawl.dev',
			description:
				'Address of the service, with http:// or https://. Change it only for a self-hosted service. A trailing slash or a trailing /v2 is fine.',
			// n8n shows its own network code when the credential Test cannot connect; the hint, shown right
			// beside that message, says what it means.
			hint: 'E.g. http://localhost:3002 if self-hosted (no /v2 needed). ECONNREFUSED or ENOTFOUND in Test: nothing answers at this address.',
		},
		{
			displayName: 'Credit Budget per Execution',
			name: 'creditBudget',
			type: 'number',
			typeOptions: { minValue: 0, numberPrecision: 0 },
			default: 0,
			hint: 'Optional. The most credits one workflow execution may spend with this credential, across all Web Data nodes and the Web Data Tool; a request that cannot fit is not sent. A sub-workflow, the error workflow and each MCP tool call are executions of their own, each with this whole budget. 0 or empty: no budget.',
		},
		{
			displayName: 'Webhook Signing Secret',
			name: 'webhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			hint: 'Optional. From the dashboard (Settings → Advanced). When set, the Web Data Trigger accepts only events signed with it.',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
			},
		},
	};

	/** Test: one free request with the key, Base URL read as the nodes read it; n8n shows network codes itself. */
	test: ICredentialTestRequest = {
		request: {
			baseURL:
				"={{ String($credentials.baseUrl || 'https://api.firecrawl.dev').trim().replace(/\\/+$/, '').replace(/\\/v2$/i, '') }}",
			url: TEST_PATH,
			method: 'GET',
			headers: { Accept: 'application/json' },
			timeout: 10_000,
		},
		rules: TEST_RULES,
	};
}
