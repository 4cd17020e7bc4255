/** What every route module receives: the state and the services around it. */
import type { DeliveryService } from './deliveries';
import type { FaultInjector } from './faults';
import type { SandboxState } from './state';
import type { StatsTracker } from './stats';
import type { SandboxConfig } from './types';
import type { Variants } from './variants';

export interface SandboxContext {
	state: SandboxState;
	stats: StatsTracker;
	faults: FaultInjector;
	deliveries: DeliveryService;
	config: SandboxConfig;
	/** The open answers played another way (variants.ts). */
	variants: Variants;
}
