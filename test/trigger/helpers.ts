/**
 * The event types Knolyx delivers to a webhook besides PING (docs/api.md, Webhook deliveries),
 * written out here, not imported from the node, so that a type the node drops shows in the tests.
 */
export const STUDENT_EVENTS = [
	'COURSE_STARTED',
	'COURSE_COMPLETED',
	'COURSE_PAYMENT_RECEIVED',
	'BUNDLE_PAYMENT_RECEIVED',
];
