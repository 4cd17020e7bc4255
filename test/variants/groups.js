/**
 * The groups of sandbox variants the operations' suite runs under (jest.variants.config.js), one
 * run per group. Variants in a group do not hide each other; together the groups play every
 * variant at least once, but for the solo ones (test/variants/groups.test.ts checks both).
 */
const groups = [
	['unpagedLists', 'textWrites', 'webhookCreateNoId', 'underscoreEnums'],
	['pageObjects', 'emptyWrites', 'webhookCreateText', 'webhooksWithoutUrl', 'putProvisioning'],
	['attend409Text', 'webhookCreate502', 'webhooksWithoutName', 'provisionNoIdOn200'],
	['smallPages', 'wrappingPages', 'pagedWebhooks', 'webhookCreateJsonText'],
	['largePages', 'pageTotals', 'webhookCreateNullId'],
];

/**
 * Variants the operations' suite cannot run under: lists served in a new order on each read (its
 * tests read the order of a Limit), page objects that contradict what came, a page shortened in
 * the middle (its lists are too short to show it) and write answers that confirm nothing (the
 * node must fail). Each is played by a test of its own in test/variants.
 */
const solo = [
	'shuffledLists',
	'ownPagesIgnoringNumber',
	'shortenedPages',
	// Issue 55: answers that do not confirm a write (the node must report it not confirmed) and
	// creation answers that one group's other webhookCreate* variant would hide.
	'textWritesUnchecked',
	'writesRefusedQuota',
	'writesRefusedForbidden',
	'writesRefusedNotFound',
	'writesRefusedNull',
	'writesRefusedFalse',
	'webhookCreateCompleted',
	'webhookCreatePending',
	'webhookCreateNone',
	'webhookCreateDash',
	'webhookCreateIdZero',
	'webhookCreateIdSpaced',
	'webhookDeleteRefused',
];

module.exports = { groups, solo };
