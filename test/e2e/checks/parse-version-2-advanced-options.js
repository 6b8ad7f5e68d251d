'use strict';
// test/e2e/workflows/parse-version-2-advanced-options.json: Parse File at node version 2 with the
// settings of parse-version-1-moved-options.json, the moved ones under Advanced Options. Same request.
const check = require('./parse-version-1-moved-options');

module.exports = async (ctx) => await check(ctx);
module.exports.vars = {};
