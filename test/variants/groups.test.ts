/** The variants suite plays every variant of the sandbox at least once. */
import { VARIANT_NAMES } from '../../sandbox';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS file jest's config reads too
const groups = require('./groups.js') as string[][];

it('every variant is in a group of the operations runs, and every name in a group is a variant', () => {
	expect(new Set(groups.flat())).toEqual(new Set(VARIANT_NAMES));
});
