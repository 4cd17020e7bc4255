/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * The README's operation and AI agents tables are written from the operations' declarations
 * (scripts/readme-tables.ts): README.md must be what `npm run docs:tables` writes.
 */
import { readFileSync } from 'node:fs';

import { resources } from '../../nodes/Knolyx/actions/operations';
import { ENDPOINTS } from '../../nodes/Knolyx/transport';
import {
	agentsTable,
	ALSO_NEEDED_BY,
	operationsTable,
	permissionsTable,
	README,
	withTables,
} from '../../scripts/readme-tables';

const readme = readFileSync(README, 'utf8');

test.each(['operations', 'permissions', 'agents'])(
	'README.md holds the %s table between its markers, as npm run docs:tables writes it',
	(name) => {
		const start = readme.indexOf(`<!-- ${name}:start -->`);
		const end = readme.indexOf(`<!-- ${name}:end -->`);
		expect([start > 0, end > start]).toEqual([true, true]);
		const written = withTables(readme);
		const section = (text: string) =>
			text.slice(text.indexOf(`<!-- ${name}:start -->`), text.indexOf(`<!-- ${name}:end -->`));
		expect(section(readme)).toEqual(section(written));
	},
);

test('README.md is as npm run docs:tables writes it', () => {
	expect(readme).toBe(withTables(readme));
});

test('every operation has a row in both tables', () => {
	const cells = (table: string[]) => table.slice(2).map((row) => row.split(' | '));
	for (const { name, operations } of Object.values(resources)) {
		for (const { option } of Object.values(operations)) {
			const row = cells(operationsTable()).find(
				([resource, operation]) =>
					resource === `| ${name}` && operation.split(/ \/ | \(/).includes(option.name),
			);
			expect([name, option.name, row !== undefined]).toEqual([name, option.name, true]);
			const agentRow = cells(agentsTable()).find(([operationsCell]) =>
				operationsCell
					.replace(/^\| /, '')
					.split('; ')
					.some((entry) => {
						const [resource, list] = entry.split(' → ');
						return resource === name && list.split(', ').includes(option.name);
					}),
			);
			expect([name, option.name, agentRow !== undefined]).toEqual([name, option.name, true]);
		}
	}
});

test('a shared row names an operation of its resource; otherwise the table is not written', () => {
	const { webhook } = resources;
	const get = webhook.operations.get;
	const saved = get.readme;
	get.readme = { sameRowAs: 'missing' };
	try {
		expect(() => operationsTable()).toThrow(
			'Webhook → get: sameRowAs names no operation of Webhook',
		);
	} finally {
		get.readme = saved;
	}
});

test('the permission table names the permissions of the API catalogue only, each once', () => {
	const known = new Set(
		Object.values(ENDPOINTS).map((endpoint) => (endpoint as { permission?: string }).permission),
	);
	const named = permissionsTable()
		.slice(2)
		.map((row) => row.split(' | ')[0].replace(/^\| /, ''));
	expect(named.filter((permission) => permission !== 'none' && !known.has(permission))).toEqual([]);
	expect(new Set(named).size).toBe(named.length);
	expect(Object.keys(ALSO_NEEDED_BY).filter((p) => !named.includes(p))).toEqual([]);
});
