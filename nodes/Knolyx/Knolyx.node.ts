import type { IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { router } from './actions/router';
import { versionDescription } from './actions/versionDescription';
import { searchCourses, searchWorkgroups } from './methods/listSearch';

export class Knolyx implements INodeType {
	description: INodeTypeDescription = {
		...versionDescription,
		icon: { light: 'file:knolyx.svg', dark: 'file:knolyx.dark.svg' },
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		usableAsTool: true,
	};

	methods = {
		listSearch: { searchCourses, searchWorkgroups },
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
