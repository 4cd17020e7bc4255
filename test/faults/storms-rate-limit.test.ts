/** The 429 storm of storms.ts, in a file of its own (see there). */
import { describeStorms, RATE_LIMIT_STORM, STORMS } from './storms';

describeStorms(STORMS.filter((storm) => storm.name === RATE_LIMIT_STORM));
