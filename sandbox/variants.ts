/**
 * Variants: the other answers a real Knolyx tenant may give where the platform's guides leave
 * the answer open (knolyx-facts.md, "What the guides leave open"). The sandbox answers each gap
 * with one guess by default; a variant switches one gap to another plausible answer, so the
 * nodes can be tested under it. Set with `KNOLYX_SANDBOX_VARIANTS=a,b`, `--variants a,b`,
 * `startSandbox({ variants })` or `POST /sandbox/variants`; shown on the sandbox page.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { badRequest } from './errors';
import { parsePage, slice, type Page } from './validation';

/**
 * Issue 55: Attend and Add Member answered 200 with a text or a JSON scalar that says the write was
 * not done, and it was not (nothing applied). Text bodies go as text/plain, the others as JSON.
 */
const WRITE_REFUSALS = {
	writesRefusedQuota: 'ERROR: quota exceeded',
	writesRefusedForbidden: 'Forbidden',
	writesRefusedNotFound: 'Request failed: user not found',
	writesRefusedNull: null,
	writesRefusedFalse: false,
} as const;

/**
 * Issue 55: webhook creation applied (the webhook exists, with an id of its own) and answered 201
 * with a word (a JSON string) or an id that is not the webhook's.
 */
const WEBHOOK_CREATE_WORDS = {
	webhookCreateCompleted: 'Completed',
	webhookCreatePending: 'Pending',
	webhookCreateNone: 'None',
	webhookCreateDash: '-',
	webhookCreateIdZero: { id: 0 },
	webhookCreateIdSpaced: { id: ' 41 ' },
} as const;

type RefusalName = keyof typeof WRITE_REFUSALS;
type CreateWordName = keyof typeof WEBHOOK_CREATE_WORDS;

function refusalDescriptions(): Record<RefusalName, string> {
	return Object.fromEntries(
		Object.entries(WRITE_REFUSALS).map(([name, body]) => [
			name,
			`Attend and Add Member answer 200 with ${typeof body === 'string' ? `text/plain "${body}"` : `the JSON ${JSON.stringify(body)}`} and apply nothing.`,
		]),
	) as Record<RefusalName, string>;
}

function createWordDescriptions(): Record<CreateWordName, string> {
	return Object.fromEntries(
		Object.entries(WEBHOOK_CREATE_WORDS).map(([name, body]) => [
			name,
			`Webhook creation answers 201 application/json ${JSON.stringify(body)} (the webhook is created, with an id of its own).`,
		]),
	) as Record<CreateWordName, string>;
}

/** Attend (POST) and Add Member (PUT): the writes the refusal variants answer. */
const REFUSED_WRITES: Array<[string, RegExp]> = [
	['POST', /^\/community\/[^/]+\/event\/[^/]+\/attend\/[^/]+\/?$/],
	['PUT', /^\/workgroup\/[^/]+\/member\/[^/]+\/?$/],
];

const WEBHOOK_ONE = /^\/webhook\/(?!ping\/?$)[^/]+\/?$/;

export const VARIANTS = {
	unpagedLists:
		'The workgroup, course, event and attendee lists ignore pagination.page and pagination.size: every request answers the whole list.',
	pageObjects:
		'Paged lists answer a page object { content: [...] } without "last", and a page past the end repeats the last page.',
	largePages:
		'The lists whose paging the guides show (courses, events, attendees) page with a size of their own, 150, larger than any size asked (the page number is honoured).',
	smallPages:
		'The lists whose paging the guides show (courses, events, attendees) clamp the page size to 30, below the size asked.',
	pageTotals:
		"Paged lists answer page objects { content, number, size, totalElements, totalPages, first, last } (Spring's shape).",
	wrappingPages:
		'In the lists whose paging the guides show (courses, events, attendees), a page past the end wraps around to the start.',
	shuffledLists:
		'The workgroup, course, event and attendee lists ignore pagination.page and pagination.size and answer the whole list in a new order on each read (an unordered query).',
	ownPagesIgnoringNumber:
		"The lists whose paging the guides show (courses, events, attendees) ignore the page number and answer their first 20 entries in page objects saying last: false and the whole list's totalElements.",
	pagedWebhooks:
		'The webhook list pages like the other lists (pagination.page, pagination.size; 20 a page when no size is asked).',
	textWrites:
		'Writes whose answer a read or a second send can check (attend, cancel attendance, member removal, rule save, webhook delete) answer 2xx with text/plain "OK".',
	textWritesUnchecked:
		'Writes no read can check (provisioning, member add, ping, ping all) answer 2xx with text/plain "OK" (201: "Created"); the write is applied.',
	emptyWrites: 'The writes of textWrites and textWritesUnchecked answer 2xx with an empty body.',
	webhookCreateNoId:
		'Webhook creation answers 201 { name, url, createdAt } without the id (the webhook is created).',
	webhookCreateText: 'Webhook creation answers 201 text/plain "Created" (the webhook is created).',
	webhookCreateJsonText:
		'Webhook creation answers 201 application/json with the JSON string "Created" (the webhook is created).',
	webhookCreateNullId:
		'Webhook creation answers 201 { id: null, name, url, createdAt } (the webhook is created).',
	webhookCreate502:
		'Webhook creation is applied, then answered by a 502 gateway page (every time).',
	webhooksWithoutUrl: 'Webhook list and get answers carry no "url".',
	webhooksWithoutName: 'Webhook list and get answers carry no "name".',
	provisionNoIdOn200:
		'Provisioning an existing user answers 200 { firstName, lastName, email } without the id.',
	putProvisioning:
		'Provisioning is mapped on PUT only: POST /user/provision answers 405 (Allow: PUT).',
	underscoreEnums:
		'Gender is spelled NON_BINARY in answers; both NON_BINARY and NON-BINARY are accepted.',
	attend409Text:
		'Attending an event twice answers 409 with a text/plain body ("User is already registered for this event").',
	...refusalDescriptions(),
	...createWordDescriptions(),
	webhookDeleteRefused:
		'Webhook deletion answers 200 text/plain "ERROR: webhook not deleted" and deletes nothing.',
	shortenedPages:
		'In the lists whose paging the guides show (courses, events, attendees), page 1 is 5 entries short of the size asked and the pages after it follow on from where it ended (335 entries at 100 a page: 100, 95, 100, 40).',
} as const;

export type VariantName = keyof typeof VARIANTS;
export const VARIANT_NAMES = Object.keys(VARIANTS) as VariantName[];

/** The environment variable startSandbox reads when no `variants` option is given. */
export const VARIANTS_ENV = 'KNOLYX_SANDBOX_VARIANTS';

/** A list of variant names (array or comma-separated text), checked: a 400 naming the unknown one. */
export function parseVariants(input: unknown, field = 'variants'): VariantName[] {
	const list =
		typeof input === 'string'
			? input
					.split(',')
					.map((name) => name.trim())
					.filter((name) => name !== '')
			: input;
	if (!Array.isArray(list) || list.some((name) => typeof name !== 'string'))
		throw badRequest(`${field} must be a list of variant names`);
	for (const name of list as string[]) {
		if (!Object.prototype.hasOwnProperty.call(VARIANTS, name))
			throw badRequest(`${field}: ${name} is not a variant; use ${VARIANT_NAMES.join(', ')}`);
	}
	return [...new Set(list as VariantName[])];
}

/**
 * The writes whose answer body the guides leave open (method, path below /v1), and member add
 * (whose answer the contract names): those a read or a second send can check (textWrites) and
 * those none can (textWritesUnchecked). emptyWrites plays both.
 */
const CHECKED_WRITES: Array<[string, RegExp]> = [
	['POST', /^\/community\/[^/]+\/event\/[^/]+\/attend\/[^/]+\/?$/],
	['DELETE', /^\/community\/[^/]+\/event\/[^/]+\/attend\/[^/]+\/?$/],
	['DELETE', /^\/workgroup\/[^/]+\/member\/[^/]+\/?$/],
	['POST', /^\/business-rule\/course\/[^/]+\/?$/],
	['DELETE', /^\/webhook\/[^/]+\/?$/],
];
const UNCHECKED_WRITES: Array<[string, RegExp]> = [
	['PUT', /^\/workgroup\/[^/]+\/member\/[^/]+\/?$/],
	['POST', /^\/webhook\/ping\/?$/],
	['POST', /^\/webhook\/[^/]+\/ping\/?$/],
	['POST', /^\/user\/provision\/?$/],
	['PUT', /^\/user\/provision\/?$/],
];
const isOneOf = (writes: Array<[string, RegExp]>, method: string, path: string) =>
	writes.some(([m, pattern]) => m === method && pattern.test(path));
/** The page size of largePages and the clamp of smallPages. */
const LARGE_PAGE_SIZE = 150;
const SMALL_PAGE_SIZE = 30;
/** ownPagesIgnoringNumber: the page size of a platform that ignores the page number. */
const OWN_PAGE_SIZE = 20;
/** shortenedPages: the entries page 1 lacks (the pages after it start that much earlier). */
const SHORTENED_BY = 5;
/** The variants that change how lists page. */
const PAGING_VARIANTS: VariantName[] = [
	'unpagedLists',
	'pageObjects',
	'largePages',
	'smallPages',
	'pageTotals',
	'wrappingPages',
	'shortenedPages',
];

const ATTEND = /^\/community\/[^/]+\/event\/[^/]+\/attend\/[^/]+\/?$/;

const GATEWAY_502 =
	'<html><head><title>502</title></head><body><h1>502 Bad Gateway</h1><p>The upstream answered too late.</p></body></html>';

/** A copy of an answer without one field. */
function without<T extends object, K extends string>(view: T, field: K): Omit<T, K> {
	return Object.fromEntries(Object.entries(view).filter(([key]) => key !== field)) as Omit<T, K>;
}

/** The entries in an order of their own, another for each `seed` (shuffledLists). */
export function shuffled<T>(entries: T[], seed: number): T[] {
	return entries
		.map((entry, i) => ({ entry, rank: (i * 7919 + seed * 104729) % 1009 }))
		.sort((a, b) => a.rank - b.rank)
		.map(({ entry }) => entry);
}

export class Variants {
	private active = new Set<VariantName>();
	/** List reads answered so far (shuffledLists orders each one differently). */
	private reads = 0;

	constructor(initial: VariantName[] = []) {
		this.set(initial);
	}

	has(name: VariantName): boolean {
		return this.active.has(name);
	}

	get list(): VariantName[] {
		return VARIANT_NAMES.filter((name) => this.active.has(name));
	}

	set(names: VariantName[]): void {
		this.active = new Set(parseVariants(names));
	}

	/** What GET /sandbox/variants and the page show. */
	describe(): {
		active: VariantName[];
		available: Array<{ name: VariantName; description: string }>;
	} {
		return {
			active: this.list,
			available: VARIANT_NAMES.map((name) => ({ name, description: VARIANTS[name] })),
		};
	}

	/**
	 * The page a list request is served: as asked, the whole list, or at the list's own size
	 * (`shown`: a list whose paging the guides show; largePages and smallPages play only those).
	 */
	pageOf(query: Record<string, unknown>, shown = true): Page {
		const page = parsePage(query);
		if (this.has('unpagedLists') || this.has('shuffledLists'))
			return { page: 0, size: Number.MAX_SAFE_INTEGER };
		if (shown && this.has('ownPagesIgnoringNumber')) return { page: 0, size: OWN_PAGE_SIZE };
		if (shown && this.has('largePages')) return { page: page.page, size: LARGE_PAGE_SIZE };
		if (shown && this.has('smallPages'))
			return { page: page.page, size: Math.min(page.size, SMALL_PAGE_SIZE) };
		return page;
	}

	/** The entries of a page: a slice of the list, or (wrappingPages) past the end from its start again. */
	private entriesOf<T>(items: T[], page: Page, shown: boolean): T[] {
		if (shown && this.has('shortenedPages') && page.page >= 1) {
			// Page 1 ends SHORTENED_BY early; the pages after it follow on from there.
			const start = page.page * page.size - (page.page > 1 ? SHORTENED_BY : 0);
			return items.slice(start, (page.page + 1) * page.size - SHORTENED_BY);
		}
		if (!shown || !this.has('wrappingPages') || items.length === 0 || page.size >= items.length)
			return slice(items, page);
		const start = (page.page * page.size) % items.length;
		return Array.from({ length: page.size }, (_, i) => items[(start + i) % items.length]);
	}

	/**
	 * Answers one page of a list (its entries shown by `view`) as the active variants shape it;
	 * `shown`: whether the guides show the list's paging (not for the workgroup and webhook lists).
	 */
	sendPage<T, V = T>(
		res: Response,
		items: T[],
		query: Record<string, unknown>,
		view: (item: T) => V = (item) => item as unknown as V,
		shown = true,
	): void {
		const page = this.pageOf(query, shown);
		let entries = this.entriesOf(items, page, shown);
		if (this.has('shuffledLists')) entries = shuffled(entries, ++this.reads);
		if (shown && this.has('ownPagesIgnoringNumber')) {
			res.json({ content: entries.map(view), last: false, totalElements: items.length });
			return;
		}
		if (this.has('pageTotals')) {
			const totalPages = Math.ceil(items.length / page.size);
			res.json({
				content: entries.map(view),
				number: page.page,
				size: page.size,
				totalElements: items.length,
				totalPages,
				first: page.page === 0,
				last: page.page >= totalPages - 1,
			});
			return;
		}
		if (this.has('pageObjects')) {
			// Past the end, the last page again (a server that clamps the page number).
			if (entries.length === 0 && items.length > 0) {
				const lastPage = Math.floor((items.length - 1) / page.size);
				entries = slice(items, { page: lastPage, size: page.size });
			}
			res.json({ content: entries.map(view) });
			return;
		}
		res.json(entries.map(view));
	}

	/** Whether lists must be built whole (a route that pages cheaply on its own steps aside). */
	get pagingAltered(): boolean {
		return PAGING_VARIANTS.some((name) => this.has(name));
	}

	/** The gender as answers spell it. */
	genderOut(gender: string): string {
		return this.has('underscoreEnums') && gender === 'NON-BINARY' ? 'NON_BINARY' : gender;
	}

	/** A gender as sent, in the stored spelling (NON_BINARY read as NON-BINARY under underscoreEnums). */
	genderIn(gender: unknown): unknown {
		return this.has('underscoreEnums') && gender === 'NON_BINARY' ? 'NON-BINARY' : gender;
	}

	/**
	 * Rewrites answers of the writes whose answer the guides leave open (textWrites,
	 * textWritesUnchecked, emptyWrites) and the 409 of attend (attend409Text); answers in place of
	 * the route for the refusal variants (writesRefused*, webhookDeleteRefused). Runs on
	 * /public/api before the routes.
	 */
	middleware(): RequestHandler {
		return (req: Request, res: Response, next: NextFunction): void => {
			const path = req.path.replace(/^\/v1/, '');
			const refusal = this.refusal(req.method, path);
			if (refusal !== undefined) {
				const [body] = refusal;
				if (typeof body === 'string') res.status(200).type('text/plain').send(body);
				else res.status(200).type('application/json').send(JSON.stringify(body));
				return;
			}
			const checked = isOneOf(CHECKED_WRITES, req.method, path);
			const unchecked = isOneOf(UNCHECKED_WRITES, req.method, path);
			const text =
				(checked && this.has('textWrites')) || (unchecked && this.has('textWritesUnchecked'));
			const empty = (checked || unchecked) && this.has('emptyWrites');
			const conflictText = this.has('attend409Text') && req.method === 'POST' && ATTEND.test(path);
			if (!text && !empty && !conflictText) {
				next();
				return;
			}
			const send = res.send.bind(res);
			res.send = function variantAnswer(this: Response, body?: unknown): Response {
				const status = this.statusCode;
				if (status >= 200 && status < 300) {
					if (empty) {
						this.removeHeader('Content-Type');
						this.end();
						return this;
					}
					if (text) {
						this.type('text/plain');
						return send(status === 201 ? 'Created' : 'OK');
					}
				}
				if (status === 409 && conflictText) {
					this.type('text/plain');
					return send('User is already registered for this event');
				}
				return send(body);
			};
			next();
		};
	}

	/**
	 * The answer of a refusal variant to this request (in a one-element tuple: it may be null or
	 * false), or undefined when none plays it: Attend and Add Member under writesRefused*,
	 * webhook deletion under webhookDeleteRefused.
	 */
	private refusal(method: string, path: string): [string | null | boolean] | undefined {
		if (method === 'DELETE' && WEBHOOK_ONE.test(path) && this.has('webhookDeleteRefused'))
			return ['ERROR: webhook not deleted'];
		if (!REFUSED_WRITES.some(([m, pattern]) => m === method && pattern.test(path)))
			return undefined;
		const name = (Object.keys(WRITE_REFUSALS) as RefusalName[]).find((n) => this.has(n));
		return name === undefined ? undefined : [WRITE_REFUSALS[name]];
	}

	/** webhookCreate502: the creation was applied; a gateway answers in its place. */
	sendWebhookCreated(res: Response, view: Record<string, unknown>): void {
		const word = (Object.keys(WEBHOOK_CREATE_WORDS) as CreateWordName[]).find((n) => this.has(n));
		if (word !== undefined) {
			res.status(201).type('application/json').send(JSON.stringify(WEBHOOK_CREATE_WORDS[word]));
			return;
		}
		if (this.has('webhookCreate502')) {
			res.status(502).type('text/html').send(GATEWAY_502);
			return;
		}
		if (this.has('webhookCreateText')) {
			res.status(201).type('text/plain').send('Created');
			return;
		}
		if (this.has('webhookCreateNoId')) {
			res.status(201).json(without(view, 'id'));
			return;
		}
		if (this.has('webhookCreateJsonText')) {
			res.status(201).json('Created');
			return;
		}
		if (this.has('webhookCreateNullId')) {
			res.status(201).json({ ...view, id: null });
			return;
		}
		res.status(201).json(view);
	}

	/** A webhook as list and get answers show it. */
	webhookView<T extends { url?: string; name?: string }>(view: T): Partial<T> {
		let shown: Partial<T> = view;
		if (this.has('webhooksWithoutUrl')) shown = without(shown, 'url') as Partial<T>;
		if (this.has('webhooksWithoutName')) shown = without(shown, 'name') as Partial<T>;
		return shown;
	}
}
