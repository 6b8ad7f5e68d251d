import type { IAuthenticateGeneric, ICredentialType, INodeProperties } from 'n8n-workflow';

export class WebDataApi implements ICredentialType {
	name = 'webDataApi';

	displayName = 'Web Data API';

	documentationUrl = 'https://docs.firecrawl.dev/introduction#api-key';

	icon = 'file:webdata.svg' as const;

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description: 'The API key from the service dashboard. It is sent as a bearer token.',
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
			hint: 'For example https://api.firecrawl.dev, or http://localhost:3002 for a self-hosted service. No endpoint path: the node adds /v2/… itself. Test checks it.',
		},
		{
			displayName: 'Webhook Signing Secret',
			name: 'webhookSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Optional. The HMAC secret from the dashboard (Settings → Advanced). When set, the Web Data Trigger accepts only deliveries whose X-Firecrawl-Signature matches.',
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

	// Test: the nodes' `testedBy: 'webDataApiTest'` (nodes/WebData/methods/checkCredential.ts) checks the
	// Base URL first and says what is wrong and what to do (unreachable host, wrong scheme, 401, 402).
}
