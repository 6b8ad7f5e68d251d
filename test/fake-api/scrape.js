'use strict';
// Skeleton: routes of this group are being written (see issue 9).
module.exports = { routes: (state) => [] };
