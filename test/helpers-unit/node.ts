import type { INode } from 'n8n-workflow';

/** The Knolyx node the helpers' unit tests hand to errors and decoders (they only name it). */
export const node: INode = {
	id: '1',
	name: 'Knolyx',
	type: 'knolyx',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
