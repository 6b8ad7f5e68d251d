'use strict';
// Issue 45: the screenshot download fetches only what a service may name. A service on the internet
// never stores screenshots on a private address (cloud metadata, the LAN): such a link is refused
// before any request; a self-hosted service on a private address may name one. Build first.
const { downloadScreenshot } = require('../../dist/nodes/WebData/fields/document');

function ctxWith(baseUrl) {
	const calls = [];
	return {
		calls,
		getNode: () => ({ name: 'Web Data', type: 'n8n-nodes-webdata.webData', typeVersion: 1, parameters: {} }),
		getCredentials: async () => ({ apiKey: 'k', baseUrl }),
		helpers: {
			httpRequest: async (options) => {
				calls.push(options.url);
				return { body: Buffer.from('png'), headers: { 'content-type': 'image/png' } };
			},
			prepareBinaryData: async (data, fileName, mimeType) => ({ data: data.toString('base64'), fileName, mimeType }),
		},
	};
}

test('the hosted service naming a metadata or LAN address: refused, nothing fetched', async () => {
	for (const link of ['http://169.254.169.254/latest/meta-data/', 'http://10.0.0.5/shot.png', 'http://[::ffff:127.0.0.1]/x.png', 'http://224.0.0.1/x.png']) {
		const ctx = ctxWith('');
		await expect(downloadScreenshot(ctx, link, 'shot', 0)).rejects.toThrow(/named a local or private address for the screenshot file/);
		expect(ctx.calls).toEqual([]);
	}
});

test('a public link from the hosted service, and a private one from a self-hosted service, are fetched', async () => {
	const hosted = ctxWith('https://api.firecrawl.dev');
	await downloadScreenshot(hosted, 'https://storage.googleapis.com/shots/a.png', 'shot', 0);
	expect(hosted.calls).toEqual(['https://storage.googleapis.com/shots/a.png']);
	const selfHosted = ctxWith('http://10.0.0.2:3002');
	await downloadScreenshot(selfHosted, 'http://10.0.0.3:9000/shots/a.png', 'shot', 0);
	expect(selfHosted.calls).toEqual(['http://10.0.0.3:9000/shots/a.png']);
});
