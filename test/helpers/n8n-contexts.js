'use strict';
/**
 * n8n stand-ins for running the built nodes' methods in n8n-core's own contexts (editor lists,
 * the trigger's webhook methods), shared by test/integration/editor-lists.test.js and trigger.test.js.
 *
 *   const helper = new TestCredentialsHelper({ apiKey, baseUrl });
 *   const context = loadOptionsContext(node, helper); // what a "From List" picker runs in
 *   instanceData(base, helper)                       // additional data of an instance at `base`
 */
const { nodeTypes } = require('./workflow-runner'); // sets up n8n-core's environment first
const core = require('n8n-core');
const workflowLib = require('n8n-workflow');

/**
 * Answers the node's credential from the test's values, with the credential's bearer auth.
 *   data        the decrypted values, read at each call (so a test may change them); null: no credential
 *   defaults    values `data` is laid over
 *   properties  the credential type's properties (getCredentialsProperties)
 * `reads` counts the reads (n8n's getDecrypted).
 */
class TestCredentialsHelper extends workflowLib.ICredentialsHelper {
	constructor(data, { defaults = { webhookSecret: '' }, properties = [] } = {}) {
		super();
		this.data = data;
		this.defaults = defaults;
		this.properties = properties;
		this.reads = 0;
	}
	getParentTypes() {
		return [];
	}
	isCredentialUsableByNode() {
		return true;
	}
	getCredentialsProperties() {
		return this.properties;
	}
	async getDecrypted() {
		this.reads++;
		if (!this.data) throw new Error('no credential given');
		return { ...this.defaults, ...this.data };
	}
	async getCredentials(nodeCredentials, type) {
		return new core.Credentials(nodeCredentials, type);
	}
	async authenticate(credentials, _type, requestOptions) {
		requestOptions.headers = { ...(requestOptions.headers || {}), Authorization: `Bearer ${credentials.apiKey}` };
		return requestOptions;
	}
	async preAuthentication() {}
	async runPreAuthentication() {}
	async updateCredentials() {}
	async updateCredentialsOauthTokenData() {}
}

/** A load-options context (editor lists) for `node` alone in a workflow, reading credentials through `credentialsHelper`. */
function loadOptionsContext(node, credentialsHelper) {
	const workflow = new workflowLib.Workflow({ id: 'w', nodes: [node], connections: {}, nodeTypes, active: false });
	return new core.LoadOptionsContext(workflow, workflow.getNode(node.name), { credentialsHelper, variables: {} }, '');
}

/**
 * n8n's additional data for a webhook or hook context of an instance served at `base`
 * (http://127.0.0.1:<port>): its credentials through `credentialsHelper`, its webhook URLs, and `extra`.
 */
function instanceData(base, credentialsHelper, extra = {}) {
	return {
		credentialsHelper,
		variables: {},
		instanceBaseUrl: `${base}/`,
		restApiUrl: `${base}/rest`,
		webhookBaseUrl: `${base}/webhook`,
		webhookTestBaseUrl: `${base}/webhook-test`,
		webhookWaitingBaseUrl: `${base}/webhook-waiting`,
		formWaitingBaseUrl: `${base}/form-waiting`,
		...extra,
	};
}

module.exports = { TestCredentialsHelper, loadOptionsContext, instanceData };
