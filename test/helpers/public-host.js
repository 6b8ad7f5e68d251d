'use strict';
/**
 * A Base URL that the node takes for a public service but that reaches the local fake API: names
 * under `.invalid` (RFC 6761: never a real host) resolve to 127.0.0.1 in this process, for the
 * node's requests and the fake's deliveries alike. So a test of the private-host rule, which holds
 * only for a public service, sends nothing off this machine even when the rule fails.
 */
const dns = require('dns');

const ALIAS = 'api.webdata.invalid';
let installed = false;

function installLoopbackLookup() {
	if (installed) return;
	installed = true;
	const original = dns.lookup;
	dns.lookup = function lookup(hostname, options, callback) {
		const cb = typeof options === 'function' ? options : callback;
		const opts = typeof options === 'function' || options === undefined ? {} : typeof options === 'number' ? { family: options } : options;
		if (typeof hostname === 'string' && /\.invalid\.?$/i.test(hostname)) {
			if (opts.all) return process.nextTick(cb, null, [{ address: '127.0.0.1', family: 4 }]);
			return process.nextTick(cb, null, '127.0.0.1', 4);
		}
		return original.call(dns, hostname, options, callback);
	};
}

/** `http://127.0.0.1:<port>` → `http://api.webdata.invalid:<port>`. */
function publicAlias(localUrl) {
	installLoopbackLookup();
	const url = new URL(localUrl);
	url.hostname = ALIAS;
	return url.origin;
}

module.exports = { publicAlias, installLoopbackLookup, ALIAS };
