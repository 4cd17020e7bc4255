import { Knolyx } from '../../nodes/Knolyx/Knolyx.node';
import saved from './properties.fixture.json';

/**
 * Workflows users saved must still load: every parameter keeps its name, type, default,
 * display name, options (in their order) and the conditions under which it is shown. The
 * fixture is the node's description as it was before the code was reorganised (issue 12);
 * change it only together with a deliberate change of the node's parameters.
 */
describe('Knolyx node parameters', () => {
	const properties = JSON.parse(JSON.stringify(new Knolyx().description.properties)) as unknown[];

	it('are the saved ones, in the same order', () => {
		expect(properties).toEqual(saved);
	});
});
