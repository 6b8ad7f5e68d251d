'use strict';
/**
 * Runs a credential's declarative `test` (ICredentialTestRequest) the way n8n's CredentialsTester
 * does (n8n 2.41 packages/cli/src/services/credentials-tester.service.ts, testCredentials): a
 * temporary node whose one property routes `test.request`, run by n8n-core's own RoutingNode in an
 * ExecuteContext with the credential; a thrown HTTP error is matched against the `responseCode`
 * rules in order (first match: its message), else any non-2xx is "Received HTTP status code: N"
 * (or the status text), an error without a response gives its `cause.code`, anything else its
 * message; success checks the `responseSuccessBody` rules, then "Connection successful!".
 * The n8n CLI itself is not a dependency here; the e2e suites run the real one.
 */
const { makeAdditionalData } = require('./workflow-runner');
const core = require('n8n-core');
const { Workflow, NodeHelpers } = require('n8n-workflow');

async function testCredential(credentialType, data) {
	const test = credentialType.test;
	const nodeType = {
		description: {
			displayName: 'Temp',
			name: 'webDataCredentialTest',
			group: ['transform'],
			version: 1,
			defaults: { name: 'Temp' },
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: credentialType.name, required: true }],
			properties: [{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request: test.request }, default: '' }],
		},
	};
	const node = {
		id: 'temp',
		parameters: {},
		name: 'Temp-Node',
		type: nodeType.description.name,
		typeVersion: 1,
		position: [0, 0],
		credentials: { [credentialType.name]: { id: 'c1', name: 'Web Data account' } },
	};
	const nodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: (_name, version) => NodeHelpers.getVersionedNodeType(nodeType, version),
		getKnownTypes: () => ({}),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	// Like n8n: fields that are not stored get their defaults.
	const full = {};
	for (const property of credentialType.properties) if (property.default !== undefined) full[property.name] = property.default;
	Object.assign(full, data);
	const additionalData = makeAdditionalData({ [credentialType.name]: full });
	const context = new core.ExecuteContext(workflow, node, additionalData, 'internal', { resultData: { runData: {} } }, 0, [], { main: [[{ json: {} }]] }, { node, data: {}, source: null }, []);
	const decrypted = { id: 'c1', name: 'Web Data account', type: credentialType.name, data: full };
	let response;
	try {
		response = await new core.RoutingNode(context, nodeType, decrypted).runNode();
	} catch (error) {
		if (error.cause?.response) {
			const statusCode = error.cause.response.status;
			const statusMessage = error.cause.response.statusText;
			for (const rule of test.rules ?? []) {
				if (rule.type === 'responseCode' && statusCode === rule.properties.value) return { status: 'Error', message: rule.properties.message };
			}
			if (statusCode < 199 || statusCode > 299) return { status: 'Error', message: statusMessage || `Received HTTP status code: ${statusCode}` };
		} else if (error.cause?.code) {
			return { status: 'Error', message: error.cause.code };
		}
		return { status: 'Error', message: String(error.message) };
	}
	for (const rule of test.rules ?? []) {
		if (rule.type === 'responseSuccessBody') {
			const json = response[0][0].json;
			const value = rule.properties.key.split('.').reduce((o, k) => (o == null ? undefined : o[k]), json);
			if (value === rule.properties.value) return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

module.exports = { testCredential };
