'use strict';
const fs = require('fs');
const path = require('path');

/** Every .ts file below `dir`, at any depth. */
function tsFiles(dir) {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(dir, entry.name);
		if (entry.isDirectory()) return tsFiles(full);
		return entry.name.endsWith('.ts') ? [full] : [];
	});
}

module.exports = { tsFiles };
