import type { IDataObject } from 'n8n-workflow';

import type { KnolyxClient, KnolyxResponse } from '../client';
import type { Endpoint } from '../catalogue';
import { ENDPOINTS } from '../catalogue';
import { notConfirmed, writeAnswerOf } from '../confirm';
import { asNodeError } from '../errors';
import { isRecord } from '../../helpers/objects';
import type { Gender } from '../../helpers/validation';

/** Users of the platform. */

export interface UserInput {
	email: string;
	firstName: string;
	lastName: string;
	/** Undefined: not sent, so an existing user keeps theirs and a new one gets the platform's default. */
	gender?: Gender;
	/**
	 * Undefined: not sent (the platform's default: a new user gets the welcome e-mail); false
	 * sends `disableWelcomeEmail: true`, true sends `disableWelcomeEmail: false`.
	 */
	sendWelcomeEmail?: boolean;
}

export interface ProvisionResult {
	created: boolean;
	user: IDataObject;
}

/**
 * Provisioning is POST in the platform's published guides and PUT in its drafts and in code that
 * calls the production API. A 405 on POST is answered by sending PUT once (provisioning is
 * idempotent, and a 405 applied nothing); the method that worked is kept for the rest of the run
 * (per client: one run of a node). Until the first provisioning of a run has found it, the
 * others wait, so that a run of many items sends at most one POST that a PUT-only server refuses.
 */
interface ProvisionMethod {
	known?: Endpoint;
	finding?: Promise<void>;
}

const methods = new WeakMap<KnolyxClient, ProvisionMethod>();

const POSTED = ENDPOINTS.userProvision;
const PUT: Endpoint = { ...POSTED, method: 'PUT' };

function methodNotAllowed(error: unknown): boolean {
	return String((error as { httpCode?: unknown }).httpCode) === '405';
}

async function sendProvision(
	client: KnolyxClient,
	body: IDataObject,
	itemIndex?: number,
): Promise<KnolyxResponse> {
	let method = methods.get(client);
	if (!method) {
		method = {};
		methods.set(client, method);
	}
	while (!method.known && method.finding) await method.finding;
	if (method.known) return await client.call(method.known, { body, itemIndex });
	let found = () => {};
	method.finding = new Promise<void>((resolve) => {
		found = resolve;
	});
	try {
		try {
			const response = await client.call(POSTED, { body, itemIndex });
			method.known = POSTED;
			return response;
		} catch (error) {
			if (!methodNotAllowed(error)) throw asNodeError(client.node, error, itemIndex);
			const response = await client.call(PUT, { body, itemIndex });
			method.known = PUT;
			return response;
		}
	} finally {
		method.finding = undefined;
		found();
	}
}

/**
 * `userProvision`: 201 when the user was created (on-boarding e-mail sent), 200 when it existed.
 * Confirmed by a 2xx with nothing in it or a JSON object (the guides show no answer body); an
 * answer that says something else (a text, `null`, `false`) cannot be checked (the API has no
 * read of a user) and fails as not confirmed.
 */
export async function provisionUser(
	client: KnolyxClient,
	user: UserInput,
	itemIndex?: number,
): Promise<ProvisionResult> {
	const { statusCode, body } = await sendProvision(
		client,
		{
			firstName: user.firstName,
			lastName: user.lastName,
			email: user.email,
			...(user.gender !== undefined && { gender: user.gender }),
			...(user.sendWelcomeEmail !== undefined && { disableWelcomeEmail: !user.sendWelcomeEmail }),
		},
		itemIndex,
	);
	const answer = writeAnswerOf(body);
	if (answer.kind === 'said')
		throw notConfirmed(client.node, {
			what: `Provisioning of ${user.email}`,
			answer,
			status: statusCode,
			checked: 'the API has no read of a user that would show it',
			itemIndex,
		});
	return {
		created: statusCode === 201,
		user: { email: user.email, ...(isRecord(body) ? body : {}) },
	};
}
