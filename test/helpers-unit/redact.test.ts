/** helpers/redact.ts: the one redactor every answer, error and item built from one passes through. */
import { NodeApiError, type JsonObject } from 'n8n-workflow';

import { REDACTED, redactDeep, redactorOf } from '../../nodes/Knolyx/helpers/redact';
import { node } from './node';

/* eslint-disable @n8n/community-nodes/no-hardcoded-secrets -- a made-up key */
const KEY = 'kx_live_Q7f3c2b9e1d4/a6f80c5e2+Tz=';
/* eslint-enable @n8n/community-nodes/no-hardcoded-secrets */
const redactor = redactorOf([KEY, '', undefined]);
const SPELLINGS = [KEY, encodeURIComponent(KEY), 'kx_live_Q7f3c2b9e1d4\\/a6f80c5e2+Tz='];

describe('the redactor', () => {
	it('takes the key out of text in each spelling an answer may echo it in', () => {
		expect(redactor.text(`a ${KEY} b ${encodeURIComponent(KEY)} c`)).toBe(
			`a ${REDACTED} b ${REDACTED} c`,
		);
		expect(redactor.text(`"${JSON.stringify(KEY).slice(1, -1)}"`)).toBe(`"${REDACTED}"`);
		expect(redactor.text('nothing here')).toBe('nothing here');
	});

	it('takes it out of values and field names at any depth, and copies only what changed', () => {
		const untouched = { list: [1, { a: 'b' }] };
		const value = {
			message: `key ${KEY}`,
			[KEY]: 'as a field name',
			nested: [{ deeper: { [`x-${KEY}`]: [KEY] } }],
			untouched,
			count: 3,
		};
		const clean = redactor.value(value);
		expect(clean).toEqual({
			message: `key ${REDACTED}`,
			[REDACTED]: 'as a field name',
			nested: [{ deeper: { [`x-${REDACTED}`]: [REDACTED] } }],
			untouched,
			count: 3,
		});
		expect(clean.untouched).toBe(untouched);
		expect(value[KEY]).toBe('as a field name');
		expect(redactor.value(untouched)).toBe(untouched);
	});

	it('keeps a field named __proto__ a field, and leaves objects that are not plain data alone', () => {
		const parsed = JSON.parse(`{"__proto__": {"k": "${KEY}"}}`) as Record<string, unknown>;
		const clean = redactor.value(parsed);
		expect(Object.getOwnPropertyNames(clean)).toEqual(['__proto__']);
		expect(JSON.stringify(clean)).toBe(`{"__proto__":{"k":"${REDACTED}"}}`);
		expect(({} as { k?: unknown }).k).toBeUndefined();
		const date = new Date(0);
		expect(redactor.value({ date }).date).toBe(date);
	});

	it('cleans an error in place: message, description, stack, the answer kept, its cause', () => {
		const cause = Object.assign(new Error(`inner ${KEY}`), {
			config: { headers: { 'X-Api-Key': KEY } },
		});
		const error = new NodeApiError(node, { [KEY]: 'x', message: `bad ${KEY}` } as JsonObject, {
			message: `Knolyx: bad ${KEY} [401]`,
			description: `see ${encodeURIComponent(KEY)}`,
			httpCode: '401',
		});
		(error as unknown as { cause: unknown }).cause = cause;
		// A cycle does not stop it.
		(cause as unknown as { back: unknown }).back = error;
		expect(redactor.error(error)).toBe(error);
		const everything = [
			error.message,
			error.description,
			error.stack,
			JSON.stringify(error.errorResponse),
			cause.message,
			cause.stack,
			JSON.stringify(cause.config),
			JSON.stringify(error.messages),
		].join('\n');
		for (const spelling of SPELLINGS) expect(everything).not.toContain(spelling);
		expect(error.message).toBe(`Knolyx: bad ${REDACTED} [401]`);
		expect(error.errorResponse).toEqual({ [REDACTED]: 'x', message: `bad ${REDACTED}` });
	});

	it('cleans what was decoded again only when the text could hide the key in escapes', () => {
		const escaped = [...KEY]
			.map((character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)
			.join('');
		const text = `{"${escaped}":"${escaped}"}`;
		const answer = redactor.answer({ headers: {}, body: text });
		expect(answer.body).toBe(text);
		expect(redactor.decoded(answer, JSON.parse(answer.body))).toEqual({ [REDACTED]: REDACTED });
		const plain = { a: 'b' };
		expect(redactor.decoded({ body: '{"a":"b \\"c\\""}' }, plain)).toBe(plain);
		// A file (bytes, not text): its name and type are looked at.
		expect(redactor.decoded({ body: Buffer.from('x') }, { fileName: KEY })).toEqual({
			fileName: REDACTED,
		});
	});

	it('without a secret it changes nothing', () => {
		const none = redactorOf([]);
		expect(none.active).toBe(false);
		const value = { a: KEY };
		expect(none.value(value)).toBe(value);
		expect(none.text(KEY)).toBe(KEY);
	});

	it('redactDeep (the webhook secret in the trigger) takes field names too', () => {
		expect(redactDeep({ [KEY]: KEY }, [KEY])).toEqual({ [REDACTED]: REDACTED });
	});
});
