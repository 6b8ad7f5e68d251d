'use strict';
// Web Data's one webhook is the resume URL of a paused execution (restartWebhook). Its
// webhookMethods (n8n's lint rule webhook-lifecycle-complete asks for all three) say what is true
// of that URL: n8n serves it itself, nothing is registered at the service, so each answers at once,
// without a request. (n8n does not call them for a restart webhook: its activation and test
// listening collect webhooks with ignoreRestartWebhooks; see WebData.node.ts.)
const { WebData } = require('../../dist/nodes/WebData/WebData.node');

const node = new WebData();

test('the one webhook is the resume URL (restartWebhook), and its lifecycle group has all three methods', () => {
	expect(node.description.webhooks).toEqual([expect.objectContaining({ name: 'default', restartWebhook: true })]);
	expect(Object.keys(node.webhookMethods)).toEqual(['default']);
	expect(Object.keys(node.webhookMethods.default).sort()).toEqual(['checkExists', 'create', 'delete']);
});

test.each(['checkExists', 'create', 'delete'])('%s answers true and touches nothing: no request, no static data, no parameter read', async (method) => {
	const touched = [];
	const context = new Proxy(
		{},
		{
			get: (_target, key) => {
				touched.push(String(key));
				return () => {
					throw new Error(`${String(key)} must not be used`);
				};
			},
		},
	);
	await expect(node.webhookMethods.default[method].call(context)).resolves.toBe(true);
	expect(touched).toEqual([]);
});
