/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * Imported first by the secrets test, before n8n's modules load:
 * - n8n's logger at its most talkative, as a user debugging a failing workflow would run it
 *   (the harness keeps it silent unless N8N_LOG_LEVEL is set);
 * - the console wrapped, because the logger's console transport binds console.log/warn/error
 *   when it is created: while a sink is set, what is written goes to the sink (not printed).
 */
import { inspect } from 'node:util';

process.env.N8N_LOG_LEVEL = 'debug';
process.env.N8N_LOG_OUTPUT = 'console';

type Sink = (text: string) => void;
let sink: Sink | undefined;

const METHODS = ['log', 'info', 'warn', 'error', 'debug'] as const;
const original = Object.fromEntries(METHODS.map((method) => [method, console[method]])) as Record<
	(typeof METHODS)[number],
	(...args: unknown[]) => void
>;
for (const method of METHODS) {
	console[method] = (...args: unknown[]) => {
		if (sink)
			sink(
				args.map((arg) => (typeof arg === 'string' ? arg : inspect(arg, { depth: 12 }))).join(' '),
			);
		else original[method].apply(console, args);
	};
}

/** Sends console output to `next` (undefined: print it again). */
export function setConsoleSink(next: Sink | undefined): void {
	sink = next;
}
