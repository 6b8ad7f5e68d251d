// Copies the icons and codex files of nodes and credentials into dist (tsc only emits .js).
const path = require('path');
const { task, src, dest } = require('gulp');

function copyAssets() {
	return src(['nodes/**/*.{png,svg,json}', 'credentials/**/*.{png,svg}'], { base: '.', encoding: false }).pipe(
		dest(path.resolve('dist')),
	);
}

task('build', copyAssets);
