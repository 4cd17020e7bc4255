#!/usr/bin/env node
// The part the six payment and CRM templates (examples/template-*.json) share, written once:
// skipping and remembering handled events, the pending-writes table, keeping a failed Knolyx
// write as pending, the retry schedule's claims, closing and dropping rows, and the stop that
// tells a person (docs/templates.md, "A failed Knolyx write heals itself").
//
//   node scripts/templates.mjs           writes these nodes and their connections into each template
//   node scripts/templates.mjs --check   exits 1 naming each template whose shared part differs
//
// A change to the shared logic is made here and written into the six files by the first command;
// test/repo/templates.test.ts runs the second, so a template whose shared nodes were edited by hand
// (or copied from another template) fails. What differs per tool is in TOOLS below: the key of an
// event, the words that name what was written, and the detail of a dropped row. The tool's own
// nodes (the reads, the mapping, "Each pending write as its event", "Which write") stay in the
// templates; this script never changes them.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
// `--dir <folder>`: the templates of another folder (the repository's test checks a changed copy).
const dirAt = process.argv.indexOf('--dir');
const EXAMPLES = dirAt > 0 ? path.resolve(process.argv[dirAt + 1]) : path.join(ROOT, 'examples');
const PRETTIER = path.join(ROOT, 'node_modules', 'prettier', 'bin', 'prettier.cjs');

/**
 * Per template: what the shared nodes say about its tool.
 *
 * LIGHT (`light`, issue 56 point 3: a canvas that reads in a minute, left to right): the schedule
 * starts the table and the sweep only; the drop and what to tell a person follow the claim (after
 * the claimed writes, placed higher) or a failed sweep; what the schedule must tell stops at the
 * template's early stop ("Stop with the reason", in the middle), which, like the last stop, takes
 * an item naming its own `problem` too; a claimed row goes as it is to `light.first` (no "Each
 * pending write as its event", unless `light.first` is that node); with `light.pendingKey`, "Close
 * its pending write" reads the write's key there (no Set node after the write); the note's shared
 * step is shorter; with `light.tellAfterDrop`, what to tell a person follows the drop, not the claim
 * (a template whose steps are many: the stop in the middle stands further right). A light template
 * has a sweep.
 */
const TOOLS = {
	'template-hubspot-deal-won-enrolment.json': {
		light: {
			first: 'Pipeline → workgroup (edit me)',
			pendingKey: "$('Contact and workgroup').item.json.pendingKey",
		},
		keyLine: "HubSpot's event ID.",
		keyOf: 'return String(event.eventId);',
		subject: 'HubSpot deal',
		reread: 'the deal from HubSpot',
		dropped: "HubSpot's current state asks for no write (the deal not in a won stage)",
		// The sweep: the deals HubSpot's search finds won (`hs_is_closed_won`) and changed since the
		// last sweep, each as the write of its deal ID, once per close date.
		sweep: {
			list: 'What changed at HubSpot',
			each: 'Each deal won at HubSpot',
			key: 'String($json.id)',
			event: "'won:' + $json.id + ':' + (($json.properties || {}).closedate || '')",
			tool: 'HubSpot',
		},
	},
	'template-paypal-enrolment.json': {
		light: { first: 'Each pending write as its event', tellAfterDrop: true },
		keyLine: "PayPal's event ID.",
		keyOf: 'return String(event.id);',
		subject: 'PayPal capture or refund',
		reread: 'the capture from PayPal',
		dropped:
			"PayPal's current state asks for no write (the capture not paid, or not fully refunded)",
		// The sweep: the event notifications PayPal lists since the last sweep (GET
		// /v1/notifications/webhooks-events, delivered or not), each capture completed as the write
		// `capture:<id>`, each refund as `refund:<id>` (the keys of a delivery), once per event.
		sweep: {
			list: 'What changed at PayPal',
			each: 'Each change at PayPal',
			key: '$json.key',
			event: '$json.event',
			tool: 'PayPal',
		},
	},
	'template-pipedrive-deal-won-enrolment.json': {
		light: {
			first: 'Pipeline → workgroup (edit me)',
			pendingKey: "$('Person and workgroup').item.json.pendingKey",
		},
		keyLine: "Pipedrive's event ID (v2), or the object and the time of the change (v1).",
		keyOf:
			"const meta = event.meta || {};\n\treturn meta.version === '2.0' ? `v2:${meta.id}` : `v1:${meta.object}:${meta.id}:${meta.timestamp_micro}`;",
		subject: 'Pipedrive deal',
		reread: 'the deal from Pipedrive',
		dropped: "Pipedrive's current state asks for no write (the deal not won)",
		// The sweep: the deals Pipedrive lists as changed since the last sweep (GET /v1/recents),
		// each won one as the write of its deal ID, once per time it was won.
		sweep: {
			list: 'What changed at Pipedrive',
			each: 'Each deal won at Pipedrive',
			key: '$json.key',
			event: '$json.event',
			tool: 'Pipedrive',
		},
	},
	'template-shopify-enrolment.json': {
		light: { first: 'Each pending write as its event' },
		keyLine: 'the order (paid) or the refund ID.',
		keyOf: "return `${'order_id' in event ? 'refund' : 'order'}:${event.id}`;",
		subject: 'Shopify order or refund',
		reread: 'the order from your shop',
		dropped:
			"Shopify's current state asks for no write (the order not paid, refunded, or a test order)",
		// The sweep: the orders the shop lists as updated since the last sweep; a paid one is the
		// write `order:<id>`, each of its refunds `refund:<id>:<order>` (the keys of a delivery).
		sweep: {
			list: 'What changed at Shopify',
			each: 'Each change at Shopify',
			key: '$json.key',
			event: '$json.event',
			tool: 'Shopify',
		},
	},
	'template-stripe-enrolment.json': {
		keyLine: "Stripe's event ID.",
		keyOf: 'return String(event.id);',
		subject: 'Stripe event',
		reread: 'the event and its objects from Stripe',
		dropped:
			"Stripe's current state asks for no write (refunded, canceled, not paid, or a subscription not running)",
		// The sweep: the events Stripe lists since the last sweep (GET /v1/events), each kept as a
		// pending write of its event ID, which the same run then claims and reads back.
		sweep: {
			list: 'What changed at Stripe',
			each: 'Each event that changed',
			key: 'String($json.id)',
			event: 'String($json.id)',
			tool: 'Stripe',
		},
	},
	// WooCommerce closes every claimed row on its own (its Switch has a branch for an order that
	// is paid no more): no "Drop what no step wrote".
	'template-woocommerce-enrolment.json': {
		light: { first: 'Each pending write as its event' },
		keyLine: 'the order, its status and the time it changed.',
		keyOf:
			'return `${event.id}:${event.status}:${event.date_modified_gmt || event.date_modified}`;',
		subject: 'WooCommerce order',
		reread: 'the order from the store',
		// The sweep: the orders the store lists as modified since the last sweep (GET
		// /wp-json/wc/v3/orders with modified_after), each paid, refunded or cancelled one as the
		// write of its order ID, once per status and change time (a delivery's key).
		sweep: {
			list: 'What changed at WooCommerce',
			each: 'Each order that changed',
			key: '$json.key',
			event: '$json.event',
			tool: 'WooCommerce',
		},
	},
};

const MAX_ATTEMPTS = 96; // one day of tries, every 15 minutes

const SCHEDULE = 'Retry pending writes every 15 minutes';
/** The one node a user of n8n 1.x edits for the table: its field `id`. */
export const TABLE_ID = 'Pending writes table ID on n8n 1.x';
const TABLE = 'Pending writes table';
const SKIP = 'Skip events already handled';
const SKIP_RETRIED = 'Skip events a retry completed';
const REMEMBER = 'Remember the event as handled';
const CLAIM_STOPPED = 'Claim writes of a stopped run';
const CLAIM = 'Claim pending writes';
const CLAIMED = 'Writes this run claimed';
const EACH = 'Each pending write as its event';
const CLOSE = 'Close its pending write';
const KEEP = 'Keep the write as pending';
const DELIVERY = 'A delivery?';
const GAVE_UP = 'What this run must tell a person';
const STOP = 'Stop: tell a person';
const DROP = 'Drop what no step wrote';
/** LIGHT: the stop in the middle (the template's early stop, which also tells what the schedule must). */
const STOP_EARLY = 'Stop with the reason';
const SWEPT = 'When the last sweep ran';
const NOT_RECORDED = 'Changes not recorded yet';
const RECORD = 'Keep each change as pending';
const MOVE = 'Remember this sweep';
const FAILED = 'Remember why the sweep failed';
/**
 * The row that holds the time of the last sweep that read the tool (its `detail`); no claim or
 * check reads its status. While the tool's list fails its status is `sweep failing` and its
 * `event` says which cause was told, in which run (`told in execution <ID>: <cause>: <reason>`).
 */
const SWEEP_ROW = 'sweep';
const FAILING = 'sweep failing';
/** How the row 'sweep' names the run that told its cause (`told in execution <ID>: <cause>: <reason>`). */
const TOLD = 'told in execution ';
/** An expression: the row's `event` text (`expr`) without the run that told it. */
const withoutTold = (expr) => `String(${expr}).replace(/^${TOLD}\\d+: /, '')`;
/** The table's columns (n8n 1.x: the user makes the table with them). */
export const COLUMNS = [
	{ name: 'key', type: 'string' },
	{ name: 'status', type: 'string' },
	{ name: 'attempts', type: 'number' },
	{ name: 'detail', type: 'string' },
	{ name: 'event', type: 'string' },
];
const schemaOf = (names) =>
	COLUMNS.filter(({ name }) => names.includes(name)).map(({ name, type }) => ({
		id: name,
		displayName: name,
		required: false,
		defaultMatch: false,
		display: true,
		type,
		canBeUsedToMatch: true,
	}));

/** The name n8n 2 gives the table of workflow `id` ("Pending writes table" makes it). */
export const tableName = (id) => `Knolyx pending writes ${id}`;
/** Every row operation finds the table through this one expression. */
const table = { __rl: true, mode: 'id', value: `={{ $('${TABLE}').first().json.id }}` };

const DATA_TABLE = { type: 'n8n-nodes-base.dataTable', typeVersion: 1 };
/** n8n 1.123 on SQLite can report a data-table write failed that was made; each is tried again. */
const RETRIED = { retryOnFail: true, maxTries: 3, waitBetweenTries: 1000 };

const thisRun = "={{ 'retrying in execution ' + $execution.id }}";
const condition = (keyName, op, keyValue) => ({ keyName, condition: op, keyValue });
const setColumns = (value) => ({
	mappingMode: 'defineBelow',
	value,
	matchingColumns: [],
	schema: schemaOf(Object.keys(value)),
});
/** The rows matching every condition, read as one list (the node runs once). */
const readRows = (conditions) => ({
	...DATA_TABLE,
	...RETRIED,
	executeOnce: true,
	parameters: {
		resource: 'row',
		operation: 'get',
		dataTableId: table,
		matchType: 'allConditions',
		filters: { conditions },
		returnAll: true,
		options: {},
	},
});
/** The items for which no row matches every condition. */
const withoutRows = (conditions) => ({
	...DATA_TABLE,
	...RETRIED,
	parameters: {
		resource: 'row',
		operation: 'rowNotExists',
		dataTableId: table,
		matchType: 'allConditions',
		filters: { conditions },
		options: {},
	},
});
/**
 * The rows the schedule's run must tell a person of: the writes it gave up on and, with a sweep, the
 * sweep's row when this run met a cause of failure not told before ('gave up' and 'told' name it).
 */
const tellRows = ({ sweep }) => {
	const gaveUp = condition(
		'detail',
		'like',
		"={{ 'gave up in execution ' + $execution.id + ':' }}",
	);
	if (!sweep) return readRows([condition('status', 'eq', 'gave up'), gaveUp]);
	const node = readRows([
		gaveUp,
		condition('event', 'like', `={{ '${TOLD}' + $execution.id + ':' }}`),
	]);
	return { ...node, parameters: { ...node.parameters, matchType: 'anyCondition' } };
};
/** Set `values` in the rows matching every condition, for each item. */
const updateRows = (conditions, values) => ({
	...DATA_TABLE,
	...RETRIED,
	parameters: {
		resource: 'row',
		operation: 'update',
		dataTableId: table,
		matchType: 'allConditions',
		filters: { conditions },
		columns: setColumns(values),
		options: {},
	},
});
/** Set `values` in the row matching every condition, or add it, for each item. */
const upsertRows = (conditions, values) => {
	const node = updateRows(conditions, values);
	return { ...node, parameters: { ...node.parameters, operation: 'upsert' } };
};
const claim = (conditions) => {
	const node = updateRows(conditions, { status: 'retrying', detail: thisRun });
	return { ...node, executeOnce: true, alwaysOutputData: true, onError: 'continueRegularOutput' };
};

// The event a write is for: a delivery's own; a claimed row's (kept when it was recorded).
const EVENT_OF_WRITE = `$('${SKIP}').isExecuted ? $('${SKIP}').first().json.handledEventKey : (($('${CLAIMED}').isExecuted && $('${CLAIMED}').all().find((r) => r.json.key === String($json.pendingKey))) || { json: {} }).json.event`;

// The tries of a failed write: 1 for a delivery, one more than its row had for a retried one.
// A light template (LIGHT) has no "Each pending write as its event": the claimed row says it.
const attemptsOf = ({ light }) =>
	light
		? `Number((($('${CLAIMED}').isExecuted && $('${CLAIMED}').all().find((r) => r.json.key === String($json.pendingKey))) || { json: {} }).json.attempts || 0) + 1`
		: `Number((($('${EACH}').isExecuted && $('${EACH}').all().find((r) => r.json.pendingKey === String($json.pendingKey))) || { json: {} }).json.pendingAttempts || 0) + 1`;

const skipCode = ({
	keyLine,
	keyOf,
}) => `// Events this workflow has completed: "${REMEMBER}" saves their key after Knolyx wrote.
// A resend of one of them stops here. An event whose Knolyx write failed was never saved, so
// its resend (or Retry) runs again. n8n saves this list after production executions only,
// not after "Execute workflow"; it keeps the last 1000 keys.
// The key: ${keyLine}
const handled = $getWorkflowStaticData('global').handledEvents || [];
const keyOf = (event) => {
	${keyOf}
};
return $input
	.all()
	.map((item) => ({ ...item, json: { ...item.json, handledEventKey: keyOf(item.json) } }))
	.filter((item) => !handled.includes(item.json.handledEventKey));
`;

const REMEMBER_CODE = `// Knolyx wrote (or the member was already gone): remember this execution's events as handled,
// so that the tool's resend of them stops at "${SKIP}". A run that handled
// no event (a run of a retry schedule) leaves the saved list alone: such a run must not save the
// workflow's static data (docs/templates.md, "A failed Knolyx write").
const skip = $('${SKIP}');
const keys = skip.isExecuted ? skip.all().map((item) => item.json.handledEventKey) : [];
if (keys.length > 0) {
	const data = $getWorkflowStaticData('global');
	data.handledEvents = [...(data.handledEvents || []).filter((key) => !keys.includes(key)), ...keys].slice(-1000);
}
return $input.all();
`;

/**
 * The network error codes n8n 2's NodeOperationError looks for in a message (n8n-workflow's
 * COMMON_ERRORS, errors/abstract/node.error.js): a message that holds one, in any case, is replaced
 * by n8n's generic text for it, which names no event and no buyer. The stop's message says each in
 * words instead; its description keeps the reasons as Knolyx gave them.
 */
const CODE_WORDS = {
	ECONNREFUSED: 'connection refused',
	ECONNRESET: 'connection reset',
	ECONNABORTED: 'connection aborted',
	ETIMEDOUT: 'timed out',
	ENOTFOUND: 'host not found',
	EAI_AGAIN: 'name lookup failed',
	GETADDRINFO: 'name lookup failed',
	EHOSTUNREACH: 'host unreachable',
	EADDRNOTAVAIL: 'address not available',
	ERRADDRINUSE: 'address in use',
	ENOENT: 'no such file',
	EISDIR: 'is a directory',
	ENOTDIR: 'not a directory',
	EACCES: 'access denied',
	EEXIST: 'already exists',
	EPERM: 'not permitted',
};
const inWords = (text) =>
	`${text}.replace(/\\b(${Object.keys(CODE_WORDS).join('|')})\\b/gi, (code) => (${JSON.stringify(CODE_WORDS).replace(/"/g, "'")})[code.toUpperCase()])`;

/**
 * The stop's error: its message tells each write the run leaves to a person, pending or given up
 * (the event, the buyer and workgroup, and what to do), with network error codes in words; its
 * description holds each write's reason as Knolyx gave it.
 */
const stopError = ({ subject, reread, sweep, light }) => {
	const said = light ? 'String(item.json.detail)' : 'item.json.detail';
	const row = `${sweep ? `row.key === '${SWEEP_ROW}' ? ${sweepFailed(sweep)} : ` : ''}row.status === 'gave up' ? 'Knolyx did not take the write for ${subject} ' + row.key + ' in ${MAX_ATTEMPTS} tries, a day: ' + row.said + '. No more tries: fix the cause, then set the row\\'s status back to pending in the data table ' + ($('${TABLE}').first().json.name || 'of this workflow') + '.' : 'Knolyx did not take the write for ${subject} ' + row.key + ': ' + row.said + '. Kept as pending in the data table (try ' + row.attempts + ' of ${MAX_ATTEMPTS}); this workflow tries it again every 15 minutes, reading ${reread} first. Nothing to do unless it keeps failing.'`;
	const reasons = (items) =>
		`${items}.map((item) => item.json.key + ': ' + (item.json.key === '${SWEEP_ROW}' ? item.json.event : item.json.detail)).join('; ')`;
	if (!light)
		return `={{ JSON.stringify({ message: $input.all().map((item) => ({ ...item.json, said: ${inWords(said)} })).map((row) => ${row}).join(' '), description: 'As Knolyx said it: ' + ${reasons('$input.all()')} }) }}`;
	// A light template's stops also take an item that names its own problem (an ID missing from the
	// mapping, no contact): its message is that problem, as it is.
	const rows = `$input.all().filter((item) => !item.json.problem)`;
	return `={{ JSON.stringify({ message: $input.all().map((item) => item.json.problem ? item.json.problem : ((row) => ${row})({ ...item.json, said: ${inWords(said)} })).join(' '), description: ${rows}.length ? 'As Knolyx said it: ' + ${reasons(rows)} : '' }) }}`;
};

/**
 * What the stop says of a sweep that could not read the tool's list (told once per cause: the row
 * 'sweep' names the run that told it). Network error codes in words, as for a write.
 */
const sweepFailed = ({ list, tool }) =>
	`'The sweep could not read what changed at ${tool} (' + ${inWords(withoutTold('row.event'))} + '). Until it can, a payment or change whose delivery never arrives is not healed, and the pending writes wait (each reads ${tool} first). What to do: check the ${tool} credential of "${list}" (401 or 403: the key was revoked or lacks a permission) and whether ${tool} answers. Told once for this cause: later sweeps that fail the same way stay quiet; you are told again if the cause changes or it fails again after it healed, and the first sweep that works lists everything since the last one that did.'`;

/** The shared nodes of a template (without id and position), by name. */
function sharedNodes(tool) {
	const nodes = {
		[TABLE_ID]: {
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			executeOnce: true,
			notes:
				'n8n 1.x only: the ID of the data table you made (see the note). Leave it empty on n8n 2.',
			notesInFlow: true,
			parameters: {
				mode: 'manual',
				assignments: {
					assignments: [
						{ id: '5a1e0000-0001-4000-8000-000000000001', name: 'id', value: '', type: 'string' },
					],
				},
				options: {},
			},
		},
		// n8n 2.x makes the table the first time a run needs it and finds it by name after that.
		// n8n 1.x has no Table resource: the node fails, and its error output passes the ID above on.
		[TABLE]: {
			...DATA_TABLE,
			executeOnce: true,
			onError: 'continueRegularOutput',
			notes: 'n8n 2: made by this workflow. n8n 1.x: fails and passes on the ID before it.',
			notesInFlow: true,
			parameters: {
				resource: 'table',
				operation: 'create',
				tableName: `=${tableName('{{ $workflow.id }}')}`,
				columns: { column: COLUMNS },
				options: { createIfNotExists: true },
			},
		},
		[SKIP]: { type: 'n8n-nodes-base.code', typeVersion: 2, parameters: { jsCode: skipCode(tool) } },
		// The static data above holds the events a delivery completed; an event whose write the
		// schedule completed is a row of the table (a schedule run must not save static data).
		[SKIP_RETRIED]: withoutRows([
			condition('event', 'eq', '={{ $json.handledEventKey }}'),
			condition('status', 'eq', 'done'),
		]),
		[REMEMBER]: {
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			parameters: { jsCode: REMEMBER_CODE },
		},
		[SCHEDULE]: {
			type: 'n8n-nodes-base.scheduleTrigger',
			typeVersion: 1.2,
			parameters: { rule: { interval: [{ field: 'minutes', minutesInterval: 15 }] } },
		},
		// A claim names the run that made it; the run reads back what names it (n8n 1.x on SQLite
		// can report a write failed that was made).
		[CLAIM_STOPPED]: claim([
			condition('status', 'eq', 'retrying'),
			condition('updatedAt', 'lt', "={{ $now.minus(1, 'hour').toISO() }}"),
		]),
		[CLAIM]: claim([condition('status', 'eq', 'pending')]),
		[CLAIMED]: readRows([
			condition('status', 'eq', 'retrying'),
			condition('detail', 'eq', thisRun),
		]),
		// Knolyx took every write of the event (or the member was already gone). With a sweep, a
		// delivery's write gets its row too: the sweep then finds its event recorded and leaves it.
		// A delivery tried by hand (Execute workflow) is not handled: its resend runs again, as the
		// static data of such a run is not saved either; the sweep leaves it alone all the same.
		[CLOSE]: (tool.sweep ? upsertRows : updateRows)(
			[condition('key', 'eq', '={{ $json.pendingKey }}')],
			{
				status: tool.sweep
					? `={{ $('${SKIP}').isExecuted && $execution.mode === 'test' ? 'tried by hand' : 'done' }}`
					: 'done',
				detail:
					"={{ ($json.removed === undefined && !$json.error ? 'enrolled ' : 'removed ') + $json.email + ' (workgroup ' + $json.workgroupId + ')' }}",
				...(tool.sweep
					? { key: '={{ String($json.pendingKey) }}', event: `={{ ${EVENT_OF_WRITE} }}` }
					: {}),
			},
		),
		// Knolyx did not take the write (down, busy past its retries, refused): kept as pending, tried
		// again by the schedule, which reads the tool's current state first, up to MAX_ATTEMPTS tries.
		[KEEP]: {
			...DATA_TABLE,
			...RETRIED,
			parameters: {
				resource: 'row',
				operation: 'upsert',
				dataTableId: table,
				matchType: 'allConditions',
				filters: { conditions: [condition('key', 'eq', '={{ String($json.pendingKey) }}')] },
				columns: setColumns({
					key: '={{ String($json.pendingKey) }}',
					status: `={{ ${attemptsOf(tool)} >= ${MAX_ATTEMPTS} ? 'gave up' : 'pending' }}`,
					attempts: `={{ ${attemptsOf(tool)} }}`,
					// A write that gave up names its execution: the schedule's last step reads it back.
					detail: `={{ (${attemptsOf(tool)} >= ${MAX_ATTEMPTS} ? 'gave up in execution ' + $execution.id + ': ' : '') + (($json.error || {}).message || 'no reason given') + ' (' + $json.email + ', workgroup ' + $json.workgroupId + ')' }}`,
					// The event the write is for: once the schedule completes it, a resend of it is skipped.
					event: `={{ $('${SKIP}').isExecuted ? $('${SKIP}').item.json.handledEventKey : $('${CLAIMED}').item.json.event }}`,
				}),
				options: {},
			},
		},
		// A delivery's failed write stops its run at once (from the row just saved: the schedule may
		// claim it at any moment); a retry run goes on, and tells only of what gave up, at its end.
		[DELIVERY]: {
			type: 'n8n-nodes-base.if',
			typeVersion: 2.2,
			parameters: {
				conditions: {
					options: { caseSensitive: true, leftValue: '', typeValidation: 'loose', version: 2 },
					conditions: [
						{
							id: '5a1e0000-0002-4000-8000-000000000002',
							leftValue: `={{ $('${SKIP}').isExecuted }}`,
							rightValue: '',
							operator: { type: 'boolean', operation: 'true', singleValue: true },
						},
					],
					combinator: 'and',
				},
				looseTypeValidation: true,
				options: {},
			},
		},
		// The schedule's last step: the writes this run gave up on, and a sweep's failure this run
		// is the first to meet (none: the run ends here).
		[GAVE_UP]: tellRows(tool),
		// A failed execution reaches the workflow's Error workflow (Workflow settings).
		[STOP]: {
			type: 'n8n-nodes-base.stopAndError',
			typeVersion: 1,
			parameters: { errorType: 'errorObject', errorObject: stopError(tool) },
		},
	};
	if (tool.sweep) Object.assign(nodes, sweepNodes(tool.sweep));
	if (tool.dropped)
		nodes[DROP] = {
			...updateRows([condition('status', 'eq', 'retrying'), condition('detail', 'eq', thisRun)], {
				status: 'dropped',
				detail: tool.dropped,
			}),
			// LIGHT: after the claim, which passes on every row it claimed; the drop runs once.
			...(tool.light ? { executeOnce: true } : {}),
			// LIGHT with `tellAfterDrop`: what to tell a person follows the drop, which passes on even
			// when it dropped nothing.
			...(tool.light?.tellAfterDrop ? { alwaysOutputData: true } : {}),
		};
	// LIGHT with `pendingKey`: the write's key read from the step before the write (no Set node
	// after it).
	if (tool.light?.pendingKey)
		nodes[CLOSE] = JSON.parse(
			JSON.stringify(nodes[CLOSE]).replaceAll('$json.pendingKey', `(${tool.light.pendingKey})`),
		);
	// LIGHT: the stop in the middle of the canvas, for what the schedule's run must tell and for a
	// problem the steps name early (the same message as the last stop's).
	if (tool.light) nodes[STOP_EARLY] = { ...nodes[STOP] };
	return nodes;
}

/**
 * The sweep (issue 56): every schedule run reads what changed at the tool since the last sweep,
 * an hour earlier for overlap (the template's own list and split nodes, \`sweep.list\` and
 * \`sweep.each\`), and keeps each change no row records yet as a pending write, which the same
 * run's claim then takes through the same steps as a delivery. The time of the last sweep is a row
 * of the table (static data would be a stale copy in a schedule run), moved after the list was read.
 */
function sweepNodes({ key, event, tool }) {
	const sweepRow = [condition('key', 'eq', SWEEP_ROW)];
	const last = `$('${SWEPT}').first().json`;
	// A failed list's cause: the HTTP status, else the error code, else the reason's first words.
	// The same cause as the row's told one keeps the row's `event` (quiet); another is told by this run.
	const said = `String(typeof $json.error === 'string' ? $json.error : ($json.error && ($json.error.message || $json.error.description)) || JSON.stringify($json.error))`;
	const code = `(e && typeof e === 'object' && (e.httpCode || e.statusCode || (e.response || {}).status || (typeof e.status === 'number' ? e.status : undefined))) || (/status code (\\d{3})/.exec(said) || [])[1] || (e && e.code) || (/\\b(E[A-Z_]{3,})\\b/.exec(said) || [])[1] || said.slice(0, 80)`;
	const toldNow = `((last, said, e) => ((cause) => last.status === '${FAILING}' && ${withoutTold("last.event || ''")}.split(': ')[0] === cause ? last.event : '${TOLD}' + $execution.id + ': ' + cause + ': ' + said)('${tool} ' + (${code})))(${last}, ${said}, $json.error)`;
	return {
		[SWEPT]: { ...readRows(sweepRow), alwaysOutputData: true },
		[NOT_RECORDED]: withoutRows([condition('event', 'eq', `={{ ${event} }}`)]),
		[RECORD]: upsertRows([condition('key', 'eq', `={{ ${key} }}`)], {
			key: `={{ ${key} }}`,
			status: 'pending',
			attempts: 0,
			detail: `changed at ${tool}; not written yet`,
			event: `={{ ${event} }}`,
		}),
		[MOVE]: {
			...upsertRows(sweepRow, {
				key: SWEEP_ROW,
				status: SWEEP_ROW,
				detail: '={{ $now.toISO() }}',
				attempts: 0,
				event: '',
			}),
			executeOnce: true,
		},
		// The list failed (the tool unreachable, the credential refused): the time of the last sweep
		// stays (the next one that works lists everything since); a cause not told yet is marked as
		// told by this run, which the schedule's last step reads back and tells; the same cause again
		// stays quiet. The claims wait: they read the same tool with the same credential.
		[FAILED]: {
			...upsertRows(sweepRow, {
				key: SWEEP_ROW,
				status: FAILING,
				detail: `={{ ${last}.detail || $now.toISO() }}`,
				attempts: `={{ ${last}.status === '${FAILING}' ? Number(${last}.attempts || 0) + 1 : 1 }}`,
				event: `={{ ${toldNow} }}`,
			}),
			executeOnce: true,
		},
	};
}

/** The shared connections: from each shared node, its main outputs (node names). */
function sharedConnections(tool, triggers) {
	// With a sweep, the claims follow a sweep that read the tool (they read the same tool).
	// LIGHT: the schedule starts the table and the sweep only; what runs after every claimed write
	// (the drop, then what to tell a person) follows the claim, or a sweep that failed, so that the
	// canvas reads left to right with no connection across it (issue 56, point 3).
	const light = Boolean(tool.light);
	const schedule = light
		? [TABLE_ID, SWEPT]
		: [TABLE_ID, tool.sweep ? SWEPT : CLAIM_STOPPED, ...(tool.dropped ? [DROP] : []), GAVE_UP];
	const sweep = tool.sweep
		? {
				[SWEPT]: [[tool.sweep.list]],
				[tool.sweep.each]: [[NOT_RECORDED]],
				[NOT_RECORDED]: [[RECORD]],
				[MOVE]: [[CLAIM_STOPPED]],
			}
		: {};
	return {
		...sweep,
		...Object.fromEntries(triggers.map((t) => [t, null])), // handled in build: TABLE_ID first
		[SCHEDULE]: [schedule],
		[TABLE_ID]: [[TABLE]],
		[CLAIM_STOPPED]: [[CLAIM]],
		[CLAIM]: [
			!light
				? [CLAIMED]
				: tool.light.tellAfterDrop
					? [CLAIMED, DROP]
					: [CLAIMED, ...(tool.dropped ? [DROP] : []), GAVE_UP],
		],
		...(tool.light?.tellAfterDrop ? { [DROP]: [[GAVE_UP]] } : {}),
		[CLAIMED]: [[light ? tool.light.first : EACH]],
		[REMEMBER]: [[CLOSE]],
		[KEEP]: [[DELIVERY]],
		[DELIVERY]: [[STOP], []],
		[GAVE_UP]: [[light ? STOP_EARLY : STOP]],
		...(light ? { [FAILED]: [[GAVE_UP]] } : {}),
	};
}

const link = (node) => ({ node, type: 'main', index: 0 });

/** The set-up step every overview note has for the table and for failures (its number kept). */
const noteStep = (n, sweep) =>
	`${n}. **When a run needs you**: in *Workflow settings → Error workflow*, choose a workflow that starts with an *Error Trigger* and sends you a message (none yet: *Error Trigger* → *Send Email*; on n8n 2, publish it: n8n runs only a published one). It gets every run this workflow could not finish: an ID missing from the *(edit me)* mapping, a write Knolyx did not take (kept as pending and tried again every 15 minutes), a write that gave up after ${MAX_ATTEMPTS} tries${sweep ? `, a sweep that cannot read ${sweep.tool} (once per cause)` : ''}. The pending writes are in *Overview → Data tables*, in the table named \`Knolyx pending writes\` and this workflow's ID: the workflow makes it the first time it needs it. **n8n 1.x** (its Data table node makes no tables): create it by hand with the columns \`key\` (string), \`status\` (string), \`attempts\` (number), \`detail\` (string), \`event\` (string), and paste its ID (the end of its address) into *${TABLE_ID}*.`;
/** LIGHT: the same step, shorter (the overview note of at most 2 200 characters, issue 56). */
const noteStepLight = (n, sweep) =>
	`${n}. **When a run needs you**: in *Workflow settings → Error workflow*, pick a published workflow that starts with an *Error Trigger* and sends you a message. It gets each run that could not finish: an ID missing from the *(edit me)* mapping, a write Knolyx did not take (retried every 15 minutes, up to ${MAX_ATTEMPTS} times), a sweep that cannot read ${sweep.tool} (once per cause). **n8n 1.x only**: make a data table with the columns \`key\`, \`status\`, \`detail\`, \`event\` (string), \`attempts\` (number) and paste its ID into *${TABLE_ID}* (n8n 2 makes it).`;
const STEP = /^(\d+)\. \*\*When a run needs you\*\*:.*$/m;

/** A sticky note with the shared step as this script writes it. */
function note(n, tool) {
	const step = tool.light ? noteStepLight : noteStep;
	const content = n.parameters.content.replace(STEP, (_, number) => step(number, tool.sweep));
	return { ...n, parameters: { ...n.parameters, content } };
}

/** IDs of the nodes this script adds to a template (a template's node IDs are its own). */
const NEW_IDS = {
	[TABLE_ID]: '5a1e0000-0a01-4000-8000-000000000a01',
	[TABLE]: '5a1e0000-0a02-4000-8000-000000000a02',
	[GAVE_UP]: '5a1e0000-0a03-4000-8000-000000000a03',
	[SKIP_RETRIED]: '5a1e0000-0a05-4000-8000-000000000a05',
	[STOP]: '5a1e0000-0a04-4000-8000-000000000a04',
	[SWEPT]: '5a1e0000-0a06-4000-8000-000000000a06',
	[NOT_RECORDED]: '5a1e0000-0a07-4000-8000-000000000a07',
	[RECORD]: '5a1e0000-0a08-4000-8000-000000000a08',
	[MOVE]: '5a1e0000-0a09-4000-8000-000000000a09',
	[FAILED]: '5a1e0000-0a0a-4000-8000-000000000a0a',
};

/** A node's settings in the order n8n writes them. */
const ordered = ({ parameters, id, name, type, typeVersion, position, ...rest }) => ({
	parameters,
	id,
	name,
	type,
	typeVersion,
	position,
	...rest,
});

/** The template with its shared part as this script writes it. */
function build(file, wf) {
	const tool = TOOLS[file];
	if (!tool) throw new Error(`${file}: not in TOOLS of scripts/templates.mjs`);
	if (tool.light && !(tool.sweep && (tool.dropped || !tool.light.tellAfterDrop)))
		throw new Error(`${file}: a light template has a sweep (and a drop to tell after) (TOOLS)`);
	const shared = sharedNodes(tool);
	const byName = new Map(wf.nodes.map((n) => [n.name, n]));
	const triggers = wf.nodes
		.filter((n) => /Trigger$/.test(n.type) && n.name !== SCHEDULE)
		.map((n) => n.name);
	// Where a new node goes: the table's two nodes above everything else, at the left; the
	// gave-up read below the schedule's last step.
	// The gave-up read lowest of all: it runs after every other next node of the schedule.
	const heights = wf.nodes.filter((n) => !/stickyNote/.test(n.type)).map((n) => n.position[1]);
	const [top, bottom] = [Math.min(...heights), Math.max(...heights)];
	const scheduleAt = byName.get(SCHEDULE).position;
	const [skipX, skipY] = byName.get(SKIP).position;
	const [keepX, keepY] = byName.get(KEEP).position;
	const placeOf = {
		[TABLE_ID]: [scheduleAt[0], top - 260],
		[TABLE]: [scheduleAt[0] + 220, top - 260],
		[GAVE_UP]: [scheduleAt[0] + 220, bottom + 200],
		[STOP]: [keepX + 660, keepY],
		[SKIP_RETRIED]: [skipX, skipY + 180],
	};
	if (tool.sweep) {
		// The sweep's row, above the claims: the schedule runs it before them.
		const [listX, listY] = byName.get(tool.sweep.list).position;
		const [eachX] = byName.get(tool.sweep.each).position;
		Object.assign(placeOf, {
			[SWEPT]: [listX - 220, listY],
			[NOT_RECORDED]: [eachX + 220, listY],
			[RECORD]: [eachX + 440, listY],
			// Below the list's next node: the list's next nodes run from the highest down, so it moves last.
			[MOVE]: [listX + 220, listY + 120],
			[FAILED]: [listX + 440, listY + 120],
		});
	}
	const nodes = wf.nodes.map((n) => {
		const def = shared[n.name];
		if (!def) {
			if (/stickyNote$/.test(n.type)) return note(n, tool);
			// Every other row operation (the tool's own, e.g. Stripe's subscriptions) uses the same table.
			if (n.type === DATA_TABLE.type && n.parameters.resource !== 'table')
				return { ...n, parameters: { ...n.parameters, dataTableId: table } };
			// The sweep's list: a failure goes on to "Remember why the sweep failed".
			if (tool.sweep && n.name === tool.sweep.list) return { ...n, onError: 'continueErrorOutput' };
			return n;
		}
		return ordered({ id: n.id, name: n.name, position: n.position, ...def });
	});
	for (const [name, def] of Object.entries(shared))
		if (!byName.has(name))
			nodes.push(ordered({ id: NEW_IDS[name], name, position: placeOf[name], ...def }));
	const connections = structuredClone(wf.connections);
	// Skip → the table's check → what followed Skip.
	const afterSkip = [
		...(connections[SKIP_RETRIED]?.main?.[0] ?? []),
		...(connections[SKIP]?.main?.[0] ?? []),
	]
		.map((l) => l.node)
		.filter((n) => n !== SKIP_RETRIED);
	connections[SKIP] = { main: [[link(SKIP_RETRIED)]] };
	connections[SKIP_RETRIED] = { main: [[...new Set(afterSkip)].map(link)] };
	if (tool.sweep) {
		// The list's own next node first (placed higher), then the sweep's time moves.
		// Its error output: why the sweep failed.
		const own = (connections[tool.sweep.list]?.main?.[0] ?? []).filter((l) => l.node !== MOVE);
		connections[tool.sweep.list] = { main: [[...own, link(MOVE)], [link(FAILED)]] };
	}
	for (const [from, outs] of Object.entries(sharedConnections(tool, triggers))) {
		if (outs === null) {
			// A delivery's trigger: the table first (placed highest: n8n runs a node's next nodes from the
			// highest on the canvas down), then its own steps.
			const own = (connections[from]?.main?.[0] ?? []).filter((l) => l.node !== TABLE_ID);
			connections[from] = {
				main: [[link(TABLE_ID), ...own], ...(connections[from]?.main?.slice(1) ?? [])],
			};
			continue;
		}
		connections[from] = { main: outs.map((out) => out.map(link)) };
	}
	return { ...wf, nodes, connections };
}

const FILES = Object.keys(TOOLS);
const read = (file) => JSON.parse(fs.readFileSync(path.join(EXAMPLES, file), 'utf8'));
/** JSON with each object's keys sorted: two workflows compare equal whatever their layout. */
const canonical = (value) =>
	JSON.stringify(value, (_, v) =>
		v && typeof v === 'object' && !Array.isArray(v)
			? Object.fromEntries(
					Object.keys(v)
						.sort()
						.map((k) => [k, v[k]]),
				)
			: v,
	);

/** The templates whose shared part differs from what build() writes. */
function differing() {
	return FILES.filter((file) => {
		const wf = read(file);
		return canonical(wf) !== canonical(build(file, wf));
	});
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const check = process.argv.includes('--check');
	const differ = differing();
	if (!check && differ.length > 0) {
		const written = differ.map((file) => path.join(EXAMPLES, file));
		for (const [i, file] of differ.entries())
			fs.writeFileSync(written[i], `${JSON.stringify(build(file, read(file)), null, '\t')}\n`);
		// The repository's layout of JSON (package.json's format step checks it).
		execFileSync(process.execPath, [PRETTIER, '--write', ...written], { stdio: 'inherit' });
		console.log(`wrote ${differ.join(', ')}`);
	}
	if (check && differ.length > 0) {
		console.error(
			`The shared part differs from scripts/templates.mjs in: ${differ.join(', ')}.\nRun node scripts/templates.mjs to write it.`,
		);
		process.exit(1);
	}
}
