/** Every storm of storms.ts but the 429 storm (storms-rate-limit.test.ts; see storms.ts). */
import { describeStorms, RATE_LIMIT_STORM, STORMS } from './storms';

describeStorms(STORMS.filter((storm) => storm.name !== RATE_LIMIT_STORM));
