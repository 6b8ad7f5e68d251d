'use strict';
// The one private-host rule (helpers/validation.ts isPrivateHost, unreachableByService) in every
// spelling the WHATWG URL parser gives, and hideSecrets, which keeps tokens out of messages. The
// fields it guards are in test/integration/private-targets.test.js. Build first: `npm run build`.
const { isPrivateHost, unreachableByService, hideSecrets } = require('../../dist/nodes/WebData/helpers/validation');

const hostOf = (url) => new URL(url).hostname;

test('IPv4-mapped, -compatible, -translated and NAT64 IPv6 spellings of private IPv4 addresses are private', () => {
	// The URL parser turns [::ffff:127.0.0.1] into [::ffff:7f00:1].
	expect(hostOf('http://[::ffff:127.0.0.1]/x')).toBe('[::ffff:7f00:1]');
	for (const url of ['http://[::ffff:127.0.0.1]/x', 'http://[::ffff:10.0.0.1]/', 'http://[0:0:0:0:0:ffff:c0a8:1]/', 'http://[::ffff:a9fe:a9fe]/', 'http://[::7f00:1]/', 'http://[::ffff:0:7f00:1]/', 'http://[64:ff9b::7f00:1]/']) {
		expect([url, isPrivateHost(hostOf(url))]).toEqual([url, true]);
	}
	for (const host of ['::ffff:127.0.0.1', '[::ffff:192.168.1.1]', 'fc00::1', 'fec0::1', 'ff02::1', '64:ff9b:1::1', 'not:an:address']) {
		expect([host, isPrivateHost(host)]).toEqual([host, true]);
	}
	for (const url of ['http://[::ffff:8.8.8.8]/', 'http://[64:ff9b::8.8.8.8]/', 'http://[2001:db8::1]/', 'http://[2a00:1450:4001::200e]/']) {
		expect([url, isPrivateHost(hostOf(url))]).toEqual([url, false]);
	}
});

test('a trailing dot changes nothing: localhost., foo.localhost., n8n., box.local., 127.0.0.1.', () => {
	for (const url of ['http://localhost./x', 'http://foo.localhost./x', 'http://n8n./x', 'http://box.local./', 'http://127.0.0.1./x', 'http://LOCALHOST../x']) {
		expect([url, isPrivateHost(hostOf(url))]).toEqual([url, true]);
	}
	for (const host of ['localhost.', 'app.localhost.', 'n8n.', 'db.internal.']) expect([host, isPrivateHost(host)]).toEqual([host, true]);
	expect(isPrivateHost('n8n.example.com.')).toBe(false);
	// Other spellings of loopback the parser turns into dotted form.
	for (const url of ['http://2130706433/', 'http://0x7f.1/', 'http://0177.0.0.1/']) expect([url, hostOf(url), isPrivateHost(hostOf(url))]).toEqual([url, '127.0.0.1', true]);
});

test('unreachableByService: only a service on a public host is held to it (a self-hosted one may call a private n8n)', () => {
	expect(unreachableByService('https://api.firecrawl.dev', 'http://[::ffff:127.0.0.1]:5678/webhook/x')).toBe(true);
	expect(unreachableByService('https://api.firecrawl.dev', 'http://localhost.:5678/x')).toBe(true);
	expect(unreachableByService('https://api.firecrawl.dev', 'https://n8n.example.com/webhook/x')).toBe(false);
	expect(unreachableByService('http://localhost:3002', 'http://localhost.:5678/x')).toBe(false);
	expect(unreachableByService('http://[::ffff:127.0.0.1]:3002', 'http://n8n:5678/x')).toBe(false);
	expect(unreachableByService('not a url', 'http://localhost/x')).toBe(false);
});

test('hideSecrets: token, signature, key and password values in a URL, and its password, become [hidden]', () => {
	expect(hideSecrets('https://n8n.example.com/webhook/a/webhook?token=s3cret&run=7')).toBe('https://n8n.example.com/webhook/a/webhook?token=[hidden]&run=7');
	expect(hideSecrets('http://n8n/webhook-waiting/9?signature=abc&webdataToken=def#x')).toBe('http://n8n/webhook-waiting/9?signature=[hidden]&webdataToken=[hidden]#x');
	expect(hideSecrets('n8n.example.com/x?api_key=k1&Access_Token=k2')).toBe('n8n.example.com/x?api_key=[hidden]&Access_Token=[hidden]');
	expect(hideSecrets('https://user:pa55@host.example.com/x?q=1')).toBe('https://user:[hidden]@host.example.com/x?q=1');
	expect(hideSecrets('https://example.com/page?q=token')).toBe('https://example.com/page?q=token');
});

test('issue 45: multicast 224/4, reserved 240/4 (and broadcast), benchmarking 198.18/15 and shared 100.64/10 are private; their neighbours are not', () => {
	for (const host of ['224.0.0.1', '239.255.255.250', '240.0.0.1', '255.255.255.255', '198.18.0.1', '198.19.255.254', '100.64.0.1', '100.127.255.254']) {
		expect([host, isPrivateHost(host)]).toEqual([host, true]);
	}
	for (const host of ['223.255.255.254', '198.17.255.254', '198.20.0.1', '100.63.255.254', '100.128.0.1']) {
		expect([host, isPrivateHost(host)]).toEqual([host, false]);
	}
	expect(isPrivateHost(hostOf('http://[::ffff:224.0.0.1]/'))).toBe(true);
});
