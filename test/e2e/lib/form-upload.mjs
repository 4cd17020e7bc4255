// A person using an n8n form that ends on a "Form Ending" page, over real HTTP, as the form's own
// page script does it in a browser (n8n's templates form-trigger.handlebars and
// form-trigger-completion.handlebars, both lines):
//
//   1. POST multipart/form-data to the form's URL (a file field is `field-<index>`); with a Form
//      node after the trigger n8n answers at once `{ formWaitingUrl }` (2.x adds `?signature=`);
//   2. GET `<formWaitingUrl path>/n8n-execution-status` until it says `form-waiting` (the execution
//      waits on the ending page), or the execution ended;
//   3. GET the formWaitingUrl: the ending page, with its title, its message and the files it
//      hands to the browser (`responseBinary`: 1.x one file, 2.x a list);
//   4. POST the formWaitingUrl (the page's script does, with the page's `x-auth-token` on 2.x):
//      the execution finishes.
//
// Used by test/e2e/bulk-template.e2e.test.mjs and bench row 11 (bench/rows/bulk-template.ts).

/** Text between the first `<tag ...>` and its `</tag>` in `html`, tags inside it removed. */
function inner(html, tag) {
	const m = new RegExp(`<${tag}[^>]*>([\\s\\S]*?)</${tag}>`).exec(html);
	return m?.[1];
}

/** `<br>` and `<br />` as new lines, other tags dropped, the entities n8n's templates write decoded. */
function pageText(html) {
	return html
		.replace(/<br\s*\/?>/g, '\n')
		.replace(/<[^>]+>/g, '')
		.replace(/&#x27;|&#39;/g, "'")
		.replace(/&quot;/g, '"')
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&#x3D;/g, '=')
		.replace(/&amp;/g, '&')
		.trim();
}

/** The files the ending page hands to the browser: [{ fileName, type, text }]. */
function pageFiles(html) {
	const m = /const (?:binary|binaries) = "([^"]*)"/.exec(html);
	if (!m || m[1] === '') return [];
	const decoded = JSON.parse(decodeURIComponent(m[1]));
	return [].concat(decoded).map((file) => {
		// 2.x: a Node Buffer as JSON; 1.x: the bytes as a binary string (one char a byte).
		const bytes =
			file.data?.type === 'Buffer'
				? Buffer.from(file.data.data)
				: Buffer.from(String(file.data), 'latin1');
		return { fileName: file.fileName, type: file.type, text: bytes.toString('utf8') };
	});
}

/** The status answers at which n8n's form page stops polling (templates/form-trigger.handlebars). */
const FORM_PAGE_ENDS = ['form-waiting', 'success', 'null', 'canceled', 'crashed', 'error'];

const statusUrl = (waitingUrl) => {
	const url = new URL(waitingUrl);
	url.pathname += '/n8n-execution-status';
	return url.toString();
};

/**
 * Upload `file` ({ name, type, content }) in field `fieldIndex` of the form at `formUrl`, with
 * `headers` (e.g. Basic Auth), then follow the execution to its ending page as the browser does.
 * Resolves { status, formWaitingUrl, executionId, uploadMs, endingMs, title, message, files,
 * finishStatus, pollErrors }: `title`/`message` are the ending page's text (undefined when the
 * execution ended without one), `endingMs` the time from the upload until the page was there,
 * `pollErrors` the status polls that failed on the way (each asked again).
 */
export async function uploadToForm(
	formUrl,
	{ file, fieldIndex = 0, headers = {}, timeoutMs = 600_000, pollMs = 250 },
) {
	const body = new FormData();
	body.append(
		`field-${fieldIndex}`,
		new Blob([file.content], { type: file.type ?? 'text/csv' }),
		file.name,
	);
	const started = Date.now();
	const posted = await fetch(formUrl, {
		method: 'POST',
		body,
		headers,
		signal: AbortSignal.timeout(60_000),
	});
	const answer = await posted.text();
	const uploadMs = Date.now() - started;
	let formWaitingUrl;
	try {
		formWaitingUrl = JSON.parse(answer).formWaitingUrl;
	} catch {
		formWaitingUrl = undefined;
	}
	if (!posted.ok || !formWaitingUrl)
		return { status: posted.status, answer: answer.slice(0, 500), uploadMs };
	const executionId = new URL(formWaitingUrl).pathname.split('/').pop();
	let state;
	// A poll the server drops (a reused idle connection it closed meanwhile) is asked again, and so
	// is any answer but an end (n8n's form page polls again after it, as when the status route
	// answers an error while n8n's database ping fails).
	const pollErrors = [];
	for (const deadline = Date.now() + timeoutMs; ; ) {
		try {
			const polled = await fetch(statusUrl(formWaitingUrl));
			const text = (await polled.text()).trim();
			if (polled.ok) state = text;
			else pollErrors.push(`HTTP ${polled.status}: ${text.slice(0, 200)}`);
		} catch (error) {
			pollErrors.push(
				`${error.message}${error.cause ? ` (${error.cause.code ?? error.cause.message})` : ''}`,
			);
			if (pollErrors.length > 20)
				throw new Error(`the status poll failed: ${pollErrors.join('; ')}`);
		}
		if (FORM_PAGE_ENDS.includes(state)) break;
		if (Date.now() > deadline)
			throw new Error(
				`the form's execution ${executionId} is still ${state} after ${timeoutMs} ms`,
			);
		await new Promise((resolve) => setTimeout(resolve, pollMs));
	}
	const endingMs = Date.now() - started;
	const page = await fetch(formWaitingUrl, { signal: AbortSignal.timeout(60_000) });
	const html = await page.text();
	const result = {
		status: posted.status,
		formWaitingUrl,
		executionId,
		executionState: state,
		uploadMs,
		endingMs,
		pollErrors,
		pageStatus: page.status,
		title: state === 'form-waiting' ? pageText(inner(html, 'h1') ?? '') : undefined,
		message: state === 'form-waiting' ? pageText(inner(html, 'p') ?? '') : undefined,
		files: state === 'form-waiting' ? pageFiles(html) : [],
	};
	if (state === 'form-waiting') {
		const token = /const authToken = '([^']*)'/.exec(html)?.[1];
		const done = await fetch(formWaitingUrl, {
			method: 'POST',
			body: '{}',
			headers: token ? { 'x-auth-token': token } : {},
			signal: AbortSignal.timeout(60_000),
		});
		await done.text();
		result.finishStatus = done.status;
	}
	return result;
}

/** Rows of a CSV text (RFC 4180: quoted fields, "" inside quotes, a BOM dropped) as objects by header. */
export function parseCsv(text) {
	const rows = [];
	let row = [];
	let field = '';
	let quoted = false;
	const source = text.replace(/^\uFEFF/, '');
	for (let i = 0; i < source.length; i++) {
		const c = source[i];
		if (quoted) {
			if (c === '"' && source[i + 1] === '"') {
				field += '"';
				i++;
			} else if (c === '"') quoted = false;
			else field += c;
		} else if (c === '"') quoted = true;
		else if (c === ',') {
			row.push(field);
			field = '';
		} else if (c === '\n' || c === '\r') {
			if (c === '\r' && source[i + 1] === '\n') i++;
			row.push(field);
			rows.push(row);
			row = [];
			field = '';
		} else field += c;
	}
	if (field !== '' || row.length) rows.push([...row, field]);
	const [header = [], ...data] = rows;
	return data.map((cells) => Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ''])));
}

/** Text of a CSV file from rows of [cells]; a cell with a comma, quote or line break is quoted. */
export function toCsv(rows) {
	const cell = (v) => {
		const text = v === undefined || v === null ? '' : String(v);
		return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
	};
	return `${rows.map((r) => r.map(cell).join(',')).join('\n')}\n`;
}
