// Builders for small workflows used by the integration tests: Manual Trigger → Test Items → Web Data.
const WEB_DATA = 'Web Data';

/**
 * @param parameters  the Web Data node's parameters (resource, operation, …)
 * @param items       entries for the Test Items node: {json, binary?: {data: {path, fileName?, mimeType?}}}
 * @param node        extra node fields, e.g. {onError: 'continueRegularOutput'}
 */
function webDataWorkflow(parameters, items = [{ json: {} }], node = {}) {
	return {
		nodes: [
			{ id: 'n1', name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{ id: 'n2', name: 'Test Items', type: 'test.items', typeVersion: 1, position: [200, 0], parameters: { items: JSON.stringify(items) } },
			{
				id: 'n3',
				name: WEB_DATA,
				type: 'n8n-nodes-webdata.webData',
				typeVersion: 1,
				position: [400, 0],
				parameters,
				credentials: { webDataApi: { id: 'cred-1', name: 'Web Data account' } },
				...node,
			},
		],
		connections: {
			Start: { main: [[{ node: 'Test Items', type: 'main', index: 0 }]] },
			'Test Items': { main: [[{ node: WEB_DATA, type: 'main', index: 0 }]] },
		},
	};
}

module.exports = { webDataWorkflow, WEB_DATA };
