// n8n's own rules for community nodes (what n8n checks before verifying a package).
import tsParser from '@typescript-eslint/parser';
import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';

export default [
	{ ignores: ['dist/**', 'node_modules/**', 'sandbox/**', 'test/**', 'scripts/**', 'bench/**', 'examples/**'] },
	{
		files: ['nodes/**/*.ts', 'credentials/**/*.ts'],
		languageOptions: { parser: tsParser, parserOptions: { project: false } },
	},
	n8nCommunityNodesPlugin.configs.recommended,
	{ files: ['package.json'], rules: {} },
];
