'use strict';
// examples/rag/site-to-vector-store-answer.json runs with its partner, in the same n8n process (the
// Simple Vector Store lives in one process's memory): its proofs are in ./site-to-vector-store.js.
module.exports = async () => {
	throw new Error('run by test/e2e/checks/site-to-vector-store.js (lib/vector-store-phase.js), not on its own');
};
module.exports.trigger = { partOf: 'site-to-vector-store' };
