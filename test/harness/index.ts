export { HarnessCredentialsHelper, type HarnessCredentials } from './credentials-helper';
export { createAdditionalData } from './context';
export { createNodeTypes, MANUAL_TRIGGER_TYPE, SET_ITEMS_TYPE } from './node-types';
export {
	runWorkflow,
	runNode,
	type RunWorkflowOptions,
	type RunWorkflowResult,
	type RunNodeOptions,
} from './run';
export { testCredential } from './credential-test';
export {
	startTriggerHost,
	triggerHosts,
	type TriggerHost,
	type TriggerHostOptions,
	type TriggerHosts,
	type TriggerMode,
} from './trigger-host';
export { callListSearch, type ListSearchCall } from './list-search';
export {
	manualWorkflow,
	stepNode,
	TRIGGER_NAME,
	type ManualWorkflow,
	type ManualWorkflowOptions,
	type WorkflowStep,
} from './workflow';
export { clearEdges, edgeReport, setEdge, settledEdgeReport, type EdgeReport } from './edges';
