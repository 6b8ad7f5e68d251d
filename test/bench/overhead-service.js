#!/usr/bin/env node
'use strict';
// The service of test/bench/node-overhead.js, in its own process: answers every request at once
// with one fixed Document (spec 4.2 shape) and sends its port to the parent.
const http = require('http');
const body = JSON.stringify({
	success: true,
	data: {
		markdown: '# Example\n\nA page.',
		metadata: { title: 'Example', sourceURL: 'https://example.com/', url: 'https://example.com/', statusCode: 200 },
	},
});
const server = http.createServer((req, res) => {
	req.resume();
	req.on('end', () => {
		res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
		res.end(body);
	});
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
