/**
 * The groups of sandbox variants the operations' suite runs under (jest.variants.config.js), one
 * run per group. Variants in a group do not hide each other; together the groups play every
 * variant at least once (test/variants/groups.test.ts checks it).
 */
module.exports = [
	['unpagedLists', 'textWrites', 'webhookCreateNoId', 'underscoreEnums'],
	['pageObjects', 'emptyWrites', 'webhookCreateText', 'webhooksWithoutUrl', 'putProvisioning'],
	['attend409Text', 'webhookCreate502', 'webhooksWithoutName', 'provisionNoIdOn200'],
	['smallPages', 'wrappingPages', 'pagedWebhooks', 'webhookCreateJsonText'],
	['largePages', 'pageTotals', 'webhookCreateNullId'],
];
