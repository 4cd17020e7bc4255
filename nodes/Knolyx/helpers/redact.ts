/**
 * Keeping secrets (the API key, webhook secrets) out of everything built from what the platform
 * answers: the one redactor. It replaces a secret wherever it stands: in text, in the values and
 * the field names of a JSON value at any depth, and in every part of an error (message,
 * description, the answer kept with it, its cause), in each spelling an answer may echo it in
 * (as is, percent-encoded, escaped as in a JSON string).
 */

/** What stands where a secret was. */
export const REDACTED = '[redacted]';

/** How deep an error's parts are searched (its cause, the answer kept with it, …). */
const MAX_ERROR_DEPTH = 40;

export interface Redactor {
	/** Whether there is any secret to take out. */
	readonly active: boolean;
	/** The text with every secret replaced. */
	text(text: string): string;
	/**
	 * A copy of a JSON-like value with every secret replaced in its strings and its field names
	 * (plain objects and lists are copied; the value itself when nothing changed).
	 */
	value<T>(value: T): T;
	/** The error with every secret replaced in all of its parts, in place (it is returned). */
	error<E>(error: E): E;
	/**
	 * An answer as read, before anything acts on it: its headers cleaned, and its body when it
	 * is text (a file's bytes are left as they are).
	 */
	answer<A extends { headers: Record<string, unknown>; body: unknown }>(answer: A): A;
	/**
	 * What was decoded from an answer `answer` cleaned (JSON, a file): cleaned again when the text
	 * could spell a secret with escapes that only decoding shows (`\\u…`, `\\/`), or was no text.
	 */
	decoded<T>(answer: { body: unknown }, decoded: T): T;
}

/** The spellings of a secret an answer may carry, longest first. */
function spellings(secret: string): string[] {
	const forms = new Set([secret, JSON.stringify(secret).slice(1, -1)]);
	try {
		forms.add(encodeURIComponent(secret));
	} catch {
		// Not well-formed text: no percent-encoded spelling.
	}
	return [...forms].sort((a, b) => b.length - a.length);
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
	const prototype = Object.getPrototypeOf(value) as unknown;
	return prototype === Object.prototype || prototype === null;
};

/** Sets a field of a copy (defineProperty: a field named __proto__ stays a field). */
function field(target: Record<string, unknown>, name: string, entry: unknown): void {
	Object.defineProperty(target, name, {
		value: entry,
		enumerable: true,
		writable: true,
		configurable: true,
	});
}

/** The redactor of these secrets (empty ones are ignored). */
export function redactorOf(secrets: ReadonlyArray<string | undefined>): Redactor {
	const forms = [...new Set(secrets.filter((secret): secret is string => !!secret))].flatMap(
		spellings,
	);

	const text = (input: string): string => {
		let result = input;
		for (const form of forms) if (result.includes(form)) result = result.split(form).join(REDACTED);
		return result;
	};

	const value = <T>(input: T): T => {
		if (typeof input === 'string') return text(input) as T;
		if (Array.isArray(input)) {
			// Copied from the first entry that changes on; the list itself when none does.
			let copy: unknown[] | undefined;
			for (let index = 0; index < input.length; index++) {
				const entry: unknown = input[index];
				const clean = value(entry);
				if (!copy && clean !== entry) copy = input.slice(0, index);
				copy?.push(clean);
			}
			return (copy ?? input) as T;
		}
		if (isPlainObject(input)) {
			const keys = Object.keys(input);
			let copy: Record<string, unknown> | undefined;
			for (let index = 0; index < keys.length; index++) {
				const key = keys[index];
				const entry = input[key];
				const cleanKey = text(key);
				const clean = value(entry);
				if (!copy && (cleanKey !== key || clean !== entry)) {
					copy = Object.create(Object.getPrototypeOf(input) as object | null) as Record<
						string,
						unknown
					>;
					for (const earlier of keys.slice(0, index)) field(copy, earlier, input[earlier]);
				}
				if (copy) field(copy, cleanKey, clean);
			}
			return (copy ?? input) as T;
		}
		return input;
	};

	/** Every part of an object (an error, its cause, its context) cleaned in place. */
	const scrub = (target: object, seen: Set<object>, depth: number): void => {
		if (seen.has(target) || depth > MAX_ERROR_DEPTH) return;
		seen.add(target);
		const names = new Set<string>(Object.getOwnPropertyNames(target));
		// The stack repeats the message, and may be an accessor that was never read.
		if (target instanceof Error) names.add('stack').add('message');
		for (const name of names) {
			// The node's own definition (its parameters) is not built from answers.
			if (name === 'node' || name === 'workflow') continue;
			const descriptor = Object.getOwnPropertyDescriptor(target, name);
			let current: unknown;
			try {
				current = (target as Record<string, unknown>)[name];
			} catch {
				continue;
			}
			let clean: unknown = current;
			if (typeof current === 'string') clean = text(current);
			else if (current instanceof Error) scrub(current, seen, depth + 1);
			else if (Array.isArray(current) || isPlainObject(current)) {
				clean = value(current);
				if (clean === current) scrub(current, seen, depth + 1);
			} else if (current && typeof current === 'object') scrub(current, seen, depth + 1);
			if (clean !== current && (!descriptor || descriptor.writable || descriptor.set)) {
				try {
					(target as Record<string, unknown>)[name] = clean;
				} catch {
					// A property that cannot be set keeps its value.
				}
			}
			const cleanName = text(name);
			if (cleanName !== name && descriptor?.configurable) {
				delete (target as Record<string, unknown>)[name];
				(target as Record<string, unknown>)[cleanName] = clean;
			}
		}
	};

	return {
		active: forms.length > 0,
		text: (input) => (forms.length === 0 ? input : text(input)),
		value: (input) => (forms.length === 0 ? input : value(input)),
		answer: (input) =>
			forms.length === 0
				? input
				: {
						...input,
						headers: value(input.headers),
						body: typeof input.body === 'string' ? text(input.body) : input.body,
					},
		decoded: (answer, decoded) =>
			forms.length === 0 ||
			(typeof answer.body === 'string' &&
				!answer.body.includes('\\u') &&
				!answer.body.includes('\\/'))
				? decoded
				: value(decoded),
		error: (input) => {
			if (forms.length > 0 && input && typeof input === 'object') scrub(input, new Set(), 0);
			return input;
		},
	};
}

/** Replaces every occurrence of the secrets in a text (for messages built from platform answers). */
export function redact(text: string, secrets: readonly string[]): string {
	return redactorOf(secrets).text(text);
}

/** Copy of a JSON-like value with every occurrence of the secrets redacted, in values and field names. */
export function redactDeep<T>(value: T, secrets: readonly string[]): T {
	return redactorOf(secrets).value(value);
}
