'use strict';
/**
 * Runs real n8n workflows in-process with n8n-core's WorkflowExecute (no n8n server, no database),
 * using this package's built nodes (package.json `n8n.nodes`, so run `npm run build` first) plus the
 * stand-ins of ./test-nodes.js.
 *
 *   const { runWorkflow, startWorkflow } = require('../helpers/workflow-runner');
 *   const result = await runWorkflow(workflowJson, { credentials: { webDataApi: {...} } });
 *   result.status; result.error; result.items('Web Data'); result.json('Web Data');
 *   const run = startWorkflow(workflowJson, options); run.cancel(); await run.done;
 *
 * It relies on internal n8n-core APIs (DI container, BinaryDataService, ExecutionLifecycleHooks),
 * so n8n-core and n8n-workflow are pinned to exact versions in package.json.
 */
const fs = require('fs');
const os = require('os');
const path = require('path');
const { createRequire } = require('module');

const ROOT = path.resolve(__dirname, '..', '..');
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'webdata-runner-'));

// --- Environment: must be set before n8n-core is loaded --------------------------------------
process.env.N8N_USER_FOLDER = TMP; // n8n-core writes its settings file (encryption key) here.
process.env.N8N_ENCRYPTION_KEY = process.env.N8N_ENCRYPTION_KEY || 'webdata-runner-test-key';
process.env.N8N_SSRF_PROTECTION_ENABLED = 'false'; // the default; the fake APIs live on 127.0.0.1.
process.env.N8N_LOG_LEVEL = process.env.N8N_LOG_LEVEL || 'silent'; // node errors are in the result.
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
// An HTTP(S)_PROXY from the environment must not catch requests to the local fake servers.
const noProxy = [process.env.NO_PROXY || process.env.no_proxy, '127.0.0.1', 'localhost', '::1'];
process.env.NO_PROXY = process.env.no_proxy = noProxy.filter(Boolean).join(',');

const core = require('n8n-core');
const workflowLib = require('n8n-workflow');
// n8n-core has its own copies of some @n8n/* packages; use the ones it uses (same DI container).
const coreRequire = createRequire(require.resolve('n8n-core'));
const { Container } = coreRequire('@n8n/di');
const { Logger } = coreRequire('@n8n/backend-common');
const { testNodeTypes } = require('./test-nodes');

// --- Node and credential types -----------------------------------------------------------------
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** Instances of every class exported by the built files listed in package.json. */
function loadExported(files, kind) {
	const out = [];
	for (const rel of files || []) {
		const file = path.join(ROOT, rel);
		if (!fs.existsSync(file)) throw new Error(`${kind} file ${rel} is missing: run "npm run build"`);
		// Nodes and the runner must share one n8n-workflow, or instanceof NodeApiError breaks.
		const theirs = require.resolve('n8n-workflow', { paths: [path.dirname(file)] });
		if (theirs !== coreRequire.resolve('n8n-workflow')) {
			throw new Error(`${rel} resolves another n8n-workflow (${theirs}) than n8n-core`);
		}
		for (const Exported of Object.values(require(file))) {
			if (typeof Exported === 'function') out.push(new Exported());
		}
	}
	return out;
}

/** The INodeTypes the workflows see: package nodes as `<package>.<name>`, plus the stand-ins. */
class NodeTypes {
	constructor() {
		this.types = new Map();
	}
	register(typeName, nodeType) {
		this.types.set(typeName, nodeType);
		return this;
	}
	has(typeName) {
		return this.types.has(typeName);
	}
	getByName(typeName) {
		const nodeType = this.types.get(typeName);
		if (!nodeType) throw new Error(`Unknown node type "${typeName}"`);
		return nodeType;
	}
	getByNameAndVersion(typeName, version) {
		return workflowLib.NodeHelpers.getVersionedNodeType(this.getByName(typeName), version);
	}
	getKnownTypes() {
		return {};
	}
}

const nodeTypes = new NodeTypes();
for (const node of loadExported(pkg.n8n.nodes, 'Node')) {
	const description = node.description || Object.values(node.nodeVersions || {})[0].description;
	nodeTypes.register(`${pkg.name}.${description.name}`, node);
}
for (const [typeName, node] of Object.entries(testNodeTypes)) nodeTypes.register(typeName, node);

const credentialTypes = new Map(
	loadExported(pkg.n8n.credentials, 'Credential').map((type) => [type.name, type]),
);

// --- Credentials -------------------------------------------------------------------------------
/** Answers every credential reference of a node by its type, from the `credentials` option. */
class CredentialsHelper extends workflowLib.ICredentialsHelper {
	/**
	 * `hooks` (runner option `credentialHooks`): `read()` is awaited on every credential read (in n8n a
	 * database read, so a test can make it slow), `send()` is called when a request is authenticated,
	 * the last step of n8n's request helper before the request goes out.
	 */
	constructor(byType, hooks = {}) {
		super();
		this.byType = byType || {};
		this.hooks = hooks;
	}
	getCredentialType(type) {
		const credentialType = credentialTypes.get(type);
		if (!credentialType) throw new Error(`Unknown credential type "${type}"`);
		return credentialType;
	}
	getParentTypes(type) {
		const parents = (credentialTypes.get(type) || {}).extends || [];
		return parents.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}
	isCredentialUsableByNode() {
		return true;
	}
	getCredentialsProperties(type) {
		return this.getCredentialType(type).properties;
	}
	async getDecrypted(_additionalData, _nodeCredentials, type) {
		if (this.hooks.read) await this.hooks.read();
		const given = this.byType[type];
		if (!given) throw new Error(`The runner was given no credentials of type "${type}"`);
		// Like n8n: fields that are not stored get their defaults.
		const data = {};
		for (const property of this.getCredentialsProperties(type)) {
			if (property.default !== undefined) data[property.name] = property.default;
		}
		return { ...data, ...structuredClone(given) };
	}
	async getCredentials(nodeCredentials, type) {
		return new core.Credentials(nodeCredentials, type);
	}
	async authenticate(credentials, type, requestOptions, workflow, node) {
		this.hooks.send?.();
		const { authenticate } = this.getCredentialType(type);
		if (typeof authenticate === 'function') return await authenticate(credentials, requestOptions);
		if (authenticate && authenticate.type === 'generic') {
			// e.g. { headers: { Authorization: '=Bearer {{$credentials.apiKey}}' } }
			const resolve = (value) =>
				typeof value === 'string' && value.startsWith('=')
					? workflow.expression.getParameterValue(value, null, 0, 0, node.name, [], 'internal', {
							$credentials: credentials,
						})
					: value;
			for (const [target, entries] of Object.entries(authenticate.properties)) {
				requestOptions[target] = requestOptions[target] || {};
				for (const [key, value] of Object.entries(entries)) {
					requestOptions[target][resolve(key)] = resolve(value);
				}
			}
		}
		return requestOptions;
	}
	// No expirable (token-refresh) credentials in this package.
	async preAuthentication() {}
	async runPreAuthentication() {}
	async updateCredentials() {}
	async updateCredentialsOauthTokenData() {}
}

// --- Binary data -------------------------------------------------------------------------------
// n8n-core's binary helpers take the BinaryDataService from the DI container, so there is one
// service per mode and runs of different modes must not overlap.
const binaryServices = new Map(); // mode → Promise<BinaryDataService>
const binaryRuns = { mode: undefined, count: 0 };

/** Claims the binary mode for one run (synchronously, so overlapping starts are caught). */
function claimBinaryMode(mode) {
	if (mode !== 'default' && mode !== 'filesystem') throw new Error(`Unknown binaryMode "${mode}"`);
	if (binaryRuns.count > 0 && binaryRuns.mode !== mode) {
		throw new Error(`A "${mode}" binary run cannot start while a "${binaryRuns.mode}" run is going`);
	}
	binaryRuns.mode = mode;
	binaryRuns.count++;
	return () => binaryRuns.count--;
}

async function useBinaryService(mode) {
	if (!binaryServices.has(mode)) {
		// A copy of the global config with this mode; files live in the runner's temp dir.
		const config = Object.assign(
			Object.create(core.BinaryDataConfig.prototype),
			Container.get(core.BinaryDataConfig),
			{ mode, localStoragePath: path.join(TMP, 'binary-data') },
		);
		const service = new core.BinaryDataService(
			config,
			Container.get(core.ErrorReporter),
			Container.get(Logger),
		);
		// init() registers the filesystem store; in 'default' mode no store serves the mode, so
		// store() keeps the data in memory (base64 in the item), as n8n does.
		binaryServices.set(mode, service.init().then(() => service));
	}
	Container.set(core.BinaryDataService, await binaryServices.get(mode));
}

/** The bytes of a binary property of an item, whatever the mode it was stored in. */
async function readBinary(binaryData) {
	return await Container.get(core.BinaryDataService).getAsBuffer(binaryData);
}

// --- Running -----------------------------------------------------------------------------------
let executionCounter = 0;

/** An IRun-like record for a workflow that failed before any node ran. */
function failedRun(error) {
	const { name, message, stack, description = null, context = {} } = error;
	const plain = { ...error, name, message, description, context, stack };
	return { status: 'error', data: { resultData: { runData: {}, error: plain } } };
}

/**
 * Wraps an IRun in the result the tests use: { status ('success' | 'error' | 'canceled'), error
 * (the failure as n8n stores it: message, description, context, node, httpCode…), runData, run
 * (the raw IRun), items(node) (items of the node's first output, last run), json(node) }.
 */
/** The execution id each run's data belongs to, so that `resume` resumes the same execution. */
const executionIds = new WeakMap();

function makeResult(run, canceled = false) {
	const { runData } = run.data.resultData;
	const { error } = run.data.resultData;
	const status = canceled ? 'canceled' : run.status;
	const items = (nodeName) => {
		const runs = runData[nodeName];
		if (!runs || runs.length === 0) {
			const ran = Object.keys(runData).join(', ') || 'none';
			const why = error ? ` The workflow failed: ${error.message}` : '';
			throw new Error(`Node "${nodeName}" did not run (nodes that ran: ${ran}).${why}`);
		}
		const last = runs[runs.length - 1];
		return (last.data && last.data.main && last.data.main[0]) || [];
	};
	return {
		status,
		error: error || undefined,
		runData,
		run,
		items,
		json: (nodeName) => items(nodeName).map((item) => item.json),
	};
}

/** The IWorkflowExecuteAdditionalData of one run: what n8n's server would provide. */
function makeAdditionalData(credentials, hooks, executionId, urlBase = 'http://127.0.0.1:5678', credentialHooks = {}) {
	const unsupported = (what) => async () => {
		throw new Error(`${what} are not supported by the test runner`);
	};
	// By default nothing listens there (URLs are only shown); the real-server suite gives a receiver's base.
	const url = (p) => `${urlBase.replace(/\/+$/, '')}/${p}`;
	return {
		credentialsHelper: new CredentialsHelper(credentials, credentialHooks),
		hooks,
		executionId,
		currentNodeExecutionIndex: 0,
		variables: {},
		instanceBaseUrl: url(''),
		restApiUrl: url('rest'),
		formBaseUrl: url('form'),
		formWaitingBaseUrl: url('form-waiting'),
		formTestBaseUrl: url('form-test'),
		webhookBaseUrl: url('webhook'),
		webhookWaitingBaseUrl: url('webhook-waiting'),
		webhookTestBaseUrl: url('webhook-test'),
		mcpBaseUrl: url('mcp'),
		mcpTestBaseUrl: url('mcp-test'),
		logAiEvent: () => {},
		setExecutionStatus: () => {},
		sendDataToUI: () => {},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		executeWorkflow: unsupported('Sub-workflows'),
		startRunnerTask: unsupported('Task runners (Code node)'),
	};
}

/**
 * Starts a workflow. Options:
 *   credentials  { <credential type>: { ...fields } }  (every node reference resolves by type)
 *   binaryMode   'default' (in memory, the default) | 'filesystem' (files in a temp dir)
 *   mode         the execution mode (default 'manual')
 *   startNode    name of the node to start from (default: n8n's choice, the trigger)
 *   urlBase      the instance's URL base for webhook and resume URLs (default http://127.0.0.1:5678)
 *   resume       the run data (result.run.data) of a WAITING execution: it is resumed as n8n's wait
 *                tracker does when its wait time comes (through JSON, as n8n's database gives it back)
 *   executionId  the execution's id (default: with `resume`, the waiting run's own, as n8n resumes
 *                the same execution; else a new one. A Retry is a new execution: pass another id)
 *   credentialHooks  { read?: async () => {}, send?: () => {} }: see CredentialsHelper
 *   customData   the custom data the execution starts with (n8n's Retry copies the first execution's
 *                `resultData.metadata`; pass it with another executionId)
 * Returns { done: Promise<result>, cancel() }.
 */
function startWorkflow(workflowJson, options = {}) {
	const binaryMode = options.binaryMode || 'default';
	let execution; // the PCancelable of WorkflowExecute
	let cancelRequested = false;

	// Mistakes in the test itself throw here, synchronously; node errors go into the result.
	const wf = structuredClone(workflowJson); // n8n mutates nodes (parameter defaults, etc.)
	const unknown = wf.nodes.find((node) => !nodeTypes.has(node.type));
	if (unknown) {
		const known = [...nodeTypes.types.keys()].join(', ');
		throw new Error(`Node "${unknown.name}" has the unknown type "${unknown.type}" (known: ${known})`);
	}
	const releaseBinaryMode = claimBinaryMode(binaryMode);

	const done = (async () => {
		try {
			await useBinaryService(binaryMode);
			const waitingId = options.resume ? executionIds.get(options.resume) : undefined;
			const executionId = options.executionId !== undefined ? String(options.executionId) : (waitingId ?? String(++executionCounter));
			const mode = options.mode || 'manual';
			const workflow = new workflowLib.Workflow({
				id: String(wf.id || 'test-workflow'),
				name: wf.name || 'Test workflow',
				nodes: wf.nodes,
				connections: wf.connections || {},
				nodeTypes,
				staticData: wf.staticData,
				settings: { executionOrder: 'v1', ...wf.settings },
				active: false,
			});
			const startNode = options.startNode
				? workflow.getNode(options.startNode)
				: workflow.getStartNode();
			if (!startNode) return makeResult(failedRun(new Error('No node to start the workflow from')));

			const { id, name, nodes, connections, settings } = workflow;
			const workflowData = { id, name, nodes: Object.values(nodes), connections, settings };
			const hooks = new core.ExecutionLifecycleHooks(mode, executionId, workflowData);
			const additionalData = makeAdditionalData(options.credentials, hooks, executionId, options.urlBase, options.credentialHooks);
			const runExecutionData = options.resume
				? JSON.parse(JSON.stringify(options.resume))
				: workflowLib.createRunExecutionData({
						executionData: {
							nodeExecutionStack: [{ node: startNode, data: { main: [[{ json: {} }]] }, source: null }],
						},
						resultData: { pinData: wf.pinData, ...(options.customData ? { metadata: { ...options.customData } } : {}) },
					});

			const workflowExecute = new core.WorkflowExecute(additionalData, mode, runExecutionData);
			try {
				// Checks the workflow (e.g. missing required parameters) synchronously, then runs.
				execution = workflowExecute.processRunExecutionData(workflow);
			} catch (error) {
				return makeResult(failedRun(error));
			}
			if (cancelRequested) execution.cancel();
			// On cancel, n8n aborts the signal given to the nodes and ends after the running node.
			// n8n records such a run as canceled (its onCancel hook), even when the node then fails
			// with an abort error and WorkflowExecute's own IRun says 'error'.
			const run = await execution;
			executionIds.set(run.data, executionId);
			return makeResult(run, execution.isCanceled);
		} finally {
			releaseBinaryMode();
		}
	})();

	return {
		done,
		/** Cancels like n8n's "Stop": getExecutionCancelSignal() of the running node fires. */
		cancel() {
			cancelRequested = true;
			if (execution) execution.cancel();
		},
	};
}

/** Runs a workflow to its end; node errors are in result.status/result.error, not thrown. */
async function runWorkflow(workflowJson, options) {
	return await startWorkflow(workflowJson, options).done;
}

/** Removes the runner's temp dir (settings, binary files). Registered with afterAll under jest. */
function cleanup() {
	fs.rmSync(TMP, { recursive: true, force: true });
}
if (typeof afterAll === 'function') {
	try {
		afterAll(cleanup);
	} catch {
		// required from inside a test or hook: leave the temp dir to the OS
	}
} else {
	process.once('exit', cleanup);
}

module.exports = { runWorkflow, startWorkflow, nodeTypes, readBinary, cleanup, TMP, makeAdditionalData };
