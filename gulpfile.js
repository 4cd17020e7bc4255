const path = require('path');
const { task, src, dest } = require('gulp');

// tsc builds only the TypeScript: copy the icons and the nodes' codex files
// (*.node.json: categories and documentation links) beside the built files.
function copyIcons() {
	const nodeSource = path.resolve('nodes', '**', '*.{png,svg,node.json}');
	const nodeDestination = path.resolve('dist', 'nodes');
	src(nodeSource, { encoding: false }).pipe(dest(nodeDestination));

	const credSource = path.resolve('credentials', '**', '*.{png,svg}');
	const credDestination = path.resolve('dist', 'credentials');
	return src(credSource, { encoding: false }).pipe(dest(credDestination));
}

task('build:icons', copyIcons);
