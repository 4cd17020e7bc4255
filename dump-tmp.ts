import { writeFileSync } from 'node:fs';
import { Knolyx } from './nodes/Knolyx/Knolyx.node';
writeFileSync(process.argv[2], JSON.stringify(new Knolyx().description.properties, null, '\t') + '\n');
