// Knolyx sandbox page: polls GET /sandbox/overview and draws it; the forms post to the control
// endpoints. No framework, no external code; every text goes in with textContent.
'use strict';

(() => {
	const POLL_MS = 2000;
	const $ = (selector) => document.querySelector(selector);

	// ------------------------------------------------------------ DOM helpers

	/** h('td', {class: 'num', dataset: {label: 'Id'}}, 'text', childNode, [more]) */
	function h(tag, attrs, ...children) {
		const el = document.createElement(tag);
		for (const [k, v] of Object.entries(attrs || {})) {
			if (v === undefined || v === null || v === false) continue;
			if (k === 'class') el.className = v;
			else if (k === 'dataset') Object.assign(el.dataset, v);
			else el.setAttribute(k, v === true ? '' : String(v));
		}
		append(el, children);
		return el;
	}
	function append(el, children) {
		for (const c of children) {
			if (c === undefined || c === null || c === false) continue;
			if (Array.isArray(c)) append(el, c);
			else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
		}
	}
	const plural = (n, one, many = `${one}s`) =>
		`${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
	const num = (n) => n.toLocaleString('en-US');

	/** ISO → "2026-11-23 21:40:12" (UTC, like the platform's dates). */
	const fmt = (iso) => (iso ? String(iso).slice(0, 19).replace('T', ' ') : '');
	const time = (iso) => (iso ? String(iso).slice(11, 19) : '');

	function badgeFor(status, error) {
		if (status === null || status === undefined)
			return h(
				'span',
				{ class: 'badge bad', title: error || '' },
				error ? shortError(error) : 'no answer',
			);
		const kind =
			status >= 200 && status < 300
				? 'ok'
				: status === 429 || (status >= 400 && status < 500)
					? 'warn'
					: 'bad';
		return h('span', { class: `badge ${kind}` }, String(status));
	}
	const shortError = (error) => String(error).split(':')[0] || 'error';

	/** One workgroup, course, community, event or webhook: its name, #id and a meta line, then `body`. */
	function block(dataset, name, id, meta, ...body) {
		return h(
			'div',
			{ class: 'block', dataset },
			h(
				'div',
				{ class: 'block-head' },
				h('h3', {}, name, ' ', h('span', { class: 'id' }, `#${id}`)),
				h('span', { class: 'meta' }, meta),
			),
			...body,
		);
	}

	/** A list of people (members, attendees), one `item` each, or `none` when there is nobody. */
	const people = (items, none, item) =>
		items.length ? h('ul', { class: 'people' }, items.map(item)) : h('p', { class: 'empty' }, none);
	/** A person's name with the e-mail under it. */
	const who = (name, email) => h('span', { class: 'who' }, name, h('small', {}, email));

	/** compact: on a narrow window each row flows as one short paragraph instead of labelled lines. */
	function table(columns, rows, { compact = false } = {}) {
		return h(
			'div',
			{ class: 'table-wrap' },
			h(
				'table',
				{ class: compact ? 'compact' : 'stacked' },
				h(
					'thead',
					{},
					h(
						'tr',
						{},
						columns.map((c) =>
							h('th', { class: c.num ? 'num' : undefined, scope: 'col' }, c.label),
						),
					),
				),
				h('tbody', {}, rows),
			),
		);
	}
	/** A row: cells carry their column name for the narrow layout. */
	function row(columns, cells, attrs) {
		const isBlank = (cell) =>
			cell === null ||
			cell === undefined ||
			cell === '' ||
			(Array.isArray(cell) && cell.length === 0);
		const classOf = (c, cell) =>
			[c.num && 'num', c.nowrap && 'nowrap', c.line && 'line', isBlank(cell) && 'blank']
				.filter(Boolean)
				.join(' ') || undefined;
		// The inner div keeps a cell's parts together when the narrow layout puts the column name beside it.
		return h(
			'tr',
			attrs,
			cells.map((cell, i) =>
				h(
					'td',
					{ class: classOf(columns[i], cell), dataset: { label: columns[i].label } },
					h('div', {}, cell),
				),
			),
		);
	}
	const chips = (refs, empty = '') =>
		refs.length
			? refs.map((r) =>
					h('span', { class: 'chip', title: `id ${r.id}` }, r.name ?? `#${r.id} (unknown)`),
				)
			: h('span', { class: 'note' }, empty);
	const empty = (text) => h('p', { class: 'empty' }, text);
	const more = (shown, total, what) =>
		total > shown
			? h('p', { class: 'note' }, `Showing ${num(shown)} of ${num(total)} ${what}.`)
			: null;

	// ------------------------------------------------------------ "new since last look"

	let seen = null; // Set of row keys drawn before; null until the first draw
	let drawing = new Set(); // row keys of the section being drawn
	/** True when `key` was not on the page at the previous draw (the row then flashes once). */
	function fresh(key) {
		drawing.add(key);
		return seen !== null && !seen.has(key);
	}
	const freshClass = (key, base = '') => (fresh(key) ? `${base} fresh`.trim() : base || undefined);

	// ------------------------------------------------------------ sections

	function renderUsers(d) {
		if (!d.users.length)
			return empty(
				'No users yet. Provision one with the Knolyx node (User → Provision or Enrol), or run Flow A or Flow B.',
			);
		const cols = [
			{ label: 'Id', num: true },
			{ label: 'Name' },
			{ label: 'E-mail', line: true },
			{ label: 'Gender' },
			{ label: 'Workgroups' },
			{ label: 'Created (UTC)', nowrap: true },
		];
		return [
			table(
				cols,
				d.users.map((u) =>
					row(
						cols,
						[
							h('span', { class: 'id' }, `#${u.id}`),
							h('strong', {}, `${u.firstName} ${u.lastName}`),
							u.email,
							u.gender,
							chips(u.workgroups, '—'),
							fmt(u.createdAt),
						],
						{
							class: freshClass(
								`u${u.id}:${u.firstName}:${u.lastName}:${u.gender}:${u.workgroups.length}`,
							),
							dataset: { userId: u.id, email: u.email },
						},
					),
				),
				{ compact: true },
			),
			more(d.users.length, d.counts.users, 'users (newest first)'),
		];
	}

	function renderWorkgroups(d) {
		if (!d.workgroups.length)
			return empty('No workgroups. Workgroups are created in Knolyx itself (here: the seed).');
		return [
			h(
				'div',
				{ class: 'grid' },
				d.workgroups.map((wg) =>
					block(
						{ workgroupId: wg.id },
						wg.name,
						wg.id,
						plural(wg.memberCount, 'member'),
						people(wg.members, 'No members', (m) =>
							h(
								'li',
								{
									class: freshClass(`m${wg.id}:${m.userId}:${m.removalDate}`),
									dataset: { email: m.email },
								},
								who(m.name ?? `user #${m.userId}`, m.email),
								m.removalDate === null
									? h('span', { class: 'badge plain' }, 'no removal date')
									: h(
											'span',
											{
												class: `badge ${m.active ? 'info' : 'bad'}`,
												title: 'removal date (UTC)',
											},
											`${m.active ? 'until' : 'removed'} ${m.removalDate}`,
										),
							),
						),
						more(wg.members.length, wg.memberCount, 'members'),
					),
				),
			),
			more(d.workgroups.length, d.counts.workgroups, 'workgroups'),
		];
	}

	function renderCourses(d) {
		if (!d.courses.length) return empty('No courses.');
		const cols = [
			{ label: 'Rule' },
			{ label: 'Type' },
			{ label: 'Period (UTC)', nowrap: true },
			{ label: 'Workgroups' },
			{ label: 'Also' },
		];
		return [
			h(
				'div',
				{ class: 'stack' },
				d.courses.map((c) =>
					block(
						{ courseId: c.id },
						c.title,
						c.id,
						plural(c.ruleCount, 'access rule'),
						c.rules.length
							? table(
									cols,
									c.rules.map((r) =>
										row(
											cols,
											[
												[
													r.name ?? '(no name)',
													h('span', { class: 'sub' }, `#${r.id} · action ${r.action}`),
												],
												r.type
													? h(
															'span',
															{ class: `badge ${r.type === 'PUBLIC' ? 'ok' : 'plain'}` },
															r.type,
														)
													: '—',
												r.startDateTime || r.endDateTime
													? [
															fmt(r.startDateTime) || '…',
															h('span', { class: 'sub' }, `to ${fmt(r.endDateTime) || '…'}`),
														]
													: '—',
												chips(r.workgroups, 'none'),
												Object.entries(r.otherAssociations).map(([k, n]) =>
													h('span', { class: 'chip' }, `${k.toLowerCase()}: ${n}`),
												),
											],
											{
												class: freshClass(`r${r.id}:${JSON.stringify(r)}`),
												dataset: { ruleId: r.id },
											},
										),
									),
								)
							: h('p', { class: 'empty' }, 'No access rules'),
					),
				),
			),
			more(d.courses.length, d.counts.courses, 'courses'),
		];
	}

	function renderCommunities(d) {
		if (!d.communities.length) return empty('No communities.');
		return h(
			'div',
			{ class: 'stack' },
			d.communities.map((c) =>
				block(
					{ communityId: c.id },
					c.name,
					c.id,
					plural(c.events.length, 'event'),
					h(
						'p',
						{ class: 'kv' },
						h('span', {}, 'Open to members of: ', chips(c.workgroups, 'no workgroup')),
					),
					c.events.length
						? c.events.map((e) =>
								block(
									{ eventId: e.id },
									e.title,
									e.id,
									`${e.startDateTime} → ${e.endDateTime} UTC`,
									people(e.attendees, 'No attendees yet', (a) =>
										h(
											'li',
											{ class: freshClass(`a${e.id}:${a.id}`) },
											who(a.name ?? `user #${a.id}`, a.email ?? ''),
											h('span', { class: 'note' }, `registered ${fmt(a.at)}`),
										),
									),
									more(e.attendees.length, e.attendeeCount, 'attendees'),
								),
							)
						: h('p', { class: 'empty' }, 'No events'),
				),
			),
		);
	}

	const deliveryCols = [
		{ label: 'Time', nowrap: true },
		{ label: 'Event' },
		{ label: 'About', line: true },
		{ label: 'Message id' },
		{ label: 'Answer' },
		{ label: 'Attempts', num: true },
		{ label: 'Resends', num: true },
	];
	function deliveryTable(list) {
		return table(
			deliveryCols,
			list.map((m) =>
				row(
					deliveryCols,
					[
						time(m.lastAt),
						h('span', { class: 'badge plain' }, m.type),
						m.about ?? '—',
						h('code', { title: m.messageId }, m.messageId.slice(0, 8) + '…'),
						badgeFor(m.status, m.error),
						[
							String(m.attempts),
							h('span', { class: 'narrow-only' }, m.attempts === 1 ? ' attempt' : ' attempts'),
						],
						[
							String(m.resends),
							h('span', { class: 'narrow-only' }, m.resends === 1 ? ' resend' : ' resends'),
						],
					],
					{
						class: freshClass(`d${m.messageId}:${m.attempts}:${m.status}`),
						dataset: { messageId: m.messageId, type: m.type, status: m.status ?? 'none' },
					},
				),
			),
			{ compact: true },
		);
	}

	function renderWebhooks(d) {
		const out = [];
		if (!d.webhooks.length) {
			out.push(
				empty(
					'No webhook registered. Publish a workflow that starts with a Knolyx Trigger: it registers its webhook here.',
				),
			);
		}
		for (const w of d.webhooks) {
			out.push(
				block(
					{ webhookId: w.id },
					w.name,
					w.id,
					`created ${fmt(w.createdAt)} UTC`,
					h(
						'p',
						{ class: 'kv' },
						h('span', { class: 'url' }, w.url),
						h('span', {}, 'token ', h('b', {}, w.securityToken)),
					),
					w.deliveries.length
						? deliveryTable(w.deliveries)
						: h('p', { class: 'empty' }, 'No deliveries yet'),
				),
			);
		}
		if (d.removedWebhookDeliveries.length) {
			out.push(
				h(
					'div',
					{ class: 'block' },
					h('div', { class: 'block-head' }, h('h3', {}, 'Deliveries to webhooks deleted since')),
					deliveryTable(d.removedWebhookDeliveries),
				),
			);
		}
		return h('div', { class: 'stack' }, out);
	}

	function renderRequests(d) {
		if (!d.requests.length) return empty('No API request yet. Run a workflow with a Knolyx node.');
		const cols = [
			{ label: 'Time', nowrap: true },
			{ label: 'Request', line: true },
			{ label: 'Status' },
			{ label: 'API key' },
			{ label: 'ms', num: true },
		];
		return table(
			cols,
			d.requests.map((r) =>
				row(
					cols,
					[
						time(r.at),
						[h('b', {}, r.method), ' ', h('span', { class: 'url' }, r.path)],
						[
							badgeFor(r.status, r.status === null ? 'dropped' : null),
							r.burst
								? [
										' ',
										h(
											'span',
											{
												class: 'badge plain',
												title: 'counted by a fault burst (Make the API misbehave)',
											},
											'injected',
										),
									]
								: null,
						],
						r.key ? h('code', {}, r.key) : h('span', { class: 'note' }, 'none'),
						[String(r.ms), h('span', { class: 'narrow-only' }, ' ms')],
					],
					{ class: freshClass(`q${r.at}:${r.method}:${r.path}:${r.status}`) },
				),
			),
			{ compact: true },
		);
	}

	const SECTIONS = {
		users: { render: renderUsers, pick: (d) => [d.users, d.counts.users] },
		workgroups: { render: renderWorkgroups, pick: (d) => [d.workgroups, d.counts.workgroups] },
		courses: { render: renderCourses, pick: (d) => [d.courses, d.counts.courses] },
		communities: { render: renderCommunities, pick: (d) => d.communities },
		webhooks: { render: renderWebhooks, pick: (d) => [d.webhooks, d.removedWebhookDeliveries] },
		requests: { render: renderRequests, pick: (d) => d.requests },
	};
	const NOTES = {
		users: (d) => plural(d.counts.users, 'user'),
		workgroups: (d) =>
			`${plural(d.counts.workgroups, 'workgroup')}, ${plural(d.counts.memberships, 'membership')}`,
		courses: (d) => `${plural(d.counts.courses, 'course')}, ${plural(d.counts.rules, 'rule')}`,
		communities: (d) =>
			`${plural(d.counts.communities, 'community', 'communities')}, ${plural(d.counts.events, 'event')}`,
		webhooks: (d) => plural(d.counts.webhooks, 'webhook'),
		requests: (d) => `newest first; ${plural(d.counts.requests, 'request')} since start-up`,
	};
	const COUNTS = {
		users: 'users',
		workgroups: 'workgroups',
		courses: 'courses',
		communities: 'communities',
		webhooks: 'webhooks',
		requests: 'requests',
	};

	const drawn = {}; // section → JSON of what is on screen
	const drawnKeys = {}; // section → row keys on screen

	/** Redraws the sections whose data changed; the others stay as they are (no flicker, no lost scroll). */
	function draw(d) {
		const onScreen = new Set();
		for (const [name, section] of Object.entries(SECTIONS)) {
			const text = JSON.stringify(section.pick(d));
			if (drawn[name] !== text) {
				drawing = new Set();
				const target = document.querySelector(`[data-render="${name}"]`);
				target.replaceChildren(...[section.render(d)].flat(Infinity).filter(Boolean));
				drawnKeys[name] = drawing;
				drawn[name] = text;
			}
			for (const key of drawnKeys[name]) onScreen.add(key);
		}
		seen = onScreen;
		for (const [name, note] of Object.entries(NOTES))
			document.querySelector(`[data-note="${name}"]`).textContent = note(d);
		for (const [name, key] of Object.entries(COUNTS))
			document.querySelector(`[data-count="${name}"]`).textContent = num(d.counts[key]);
		drawForms(d);
	}

	// ------------------------------------------------------------ forms

	/** Keep the options in step with the data without losing what the user picked. */
	function setOptions(select, options, placeholder) {
		const text = JSON.stringify(options);
		if (select.dataset.options === text) return;
		const current = select.value;
		select.replaceChildren(
			...(options.length ? options : [{ value: '', label: placeholder }]).map((o) =>
				h('option', { value: o.value }, o.label),
			),
		);
		if (options.some((o) => o.value === current)) select.value = current;
		select.dataset.options = text;
	}

	function drawForms(d) {
		setOptions(
			$('#event-user'),
			d.users.map((u) => ({
				value: String(u.id),
				label: `${u.firstName} ${u.lastName} <${u.email}>`,
			})),
			'No users yet',
		);
		setOptions(
			$('#event-course'),
			d.courses.map((c) => ({ value: String(c.id), label: `${c.title} (#${c.id})` })),
			'No courses',
		);
		renderVariants(d.variants ?? []);
		const f = d.faults;
		const status = $('#fault-status');
		const others = describeOtherFaults(f.current, f.burst);
		if (f.burst) {
			const s = f.burst.faults.errorStatuses?.join('/') ?? 'faulty';
			status.className = 'result fault-on';
			status.textContent = `On: the next ${plural(f.burst.remaining, 'API request')} (of ${num(f.burst.requests)}) are answered ${s}.${others}`;
		} else {
			status.className = others ? 'result warn' : 'result';
			status.textContent = others ? `No burst running.${others}` : 'Off: the API answers normally.';
		}
	}

	/** The variants played: none means the sandbox's default answers. */
	function renderVariants(variants) {
		const list = $('#variants-list');
		list.replaceChildren(
			...variants.map((v) => {
				const li = document.createElement('li');
				const name = document.createElement('code');
				name.textContent = v.name;
				li.append(name, `: ${v.description}`);
				return li;
			}),
		);
		$('#variants-status').textContent = variants.length
			? ''
			: 'None: the sandbox gives its default answers.';
	}

	/** Fault settings that are on besides a burst (set with POST /sandbox/faults or --latency). */
	function describeOtherFaults(c, burst) {
		if (burst) return '';
		const parts = [];
		if (c.latencyMs) parts.push(`latency ${c.latencyMs} ms`);
		if (c.rateLimitPerSecond) parts.push(`rate limit ${c.rateLimitPerSecond}/s`);
		if (c.errorRate)
			parts.push(`${Math.round(c.errorRate * 100)}% errors (${c.errorStatuses.join('/')})`);
		if (c.malformedRate) parts.push(`${Math.round(c.malformedRate * 100)}% malformed answers`);
		if (c.resetRate) parts.push(`${Math.round(c.resetRate * 100)}% dropped connections`);
		if (c.resetAfterApplyRate)
			parts.push(`${Math.round(c.resetAfterApplyRate * 100)}% dropped after applying`);
		if (c.slowRate && c.slowMs)
			parts.push(`${Math.round(c.slowRate * 100)}% slow (+${c.slowMs} ms)`);
		if (c.webhookCreateReturnsNoId) parts.push('webhook creation answers {}');
		if (c.deliveryContentType !== 'application/json')
			parts.push(`deliveries sent as ${c.deliveryContentType ?? 'no Content-Type'}`);
		return parts.length ? ` Also set: ${parts.join(', ')}.` : '';
	}

	async function post(url, body, method = 'POST') {
		const res = await fetch(url, {
			method,
			headers: body === undefined ? {} : { 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const data = await res.json().catch(() => ({}));
		if (!res.ok)
			throw new Error(data.message ? `${res.status}: ${data.message}` : `HTTP ${res.status}`);
		return data;
	}

	function say(el, kind, text) {
		el.className = `result ${kind}`;
		el.textContent = text;
	}

	async function busy(button, fn) {
		button.disabled = true;
		try {
			await fn();
		} finally {
			button.disabled = false;
			refreshSoon();
		}
	}

	const EVENT_NAMES = {
		'course-started': 'Course started',
		'course-completed': 'Course completed',
		'course-payment': 'Payment received',
	};

	$('#event-form').addEventListener('submit', (e) => {
		e.preventDefault();
		const button = e.submitter;
		const kind = button?.value;
		const out = $('#event-result');
		const userId = Number($('#event-user').value);
		const courseId = Number($('#event-course').value);
		if (!kind || !userId || !courseId) return say(out, 'bad', 'Pick a student and a course first.');
		busy(button, async () => {
			try {
				const r = await post(`/sandbox/activity/${kind}`, { userId, courseId });
				const user = $('#event-user').selectedOptions[0]?.textContent ?? '';
				if (!r.emitted)
					say(
						out,
						'warn',
						`${EVENT_NAMES[kind]}: nothing sent. The platform sends a completion once per student and course.`,
					);
				else if (!r.messages.length)
					say(
						out,
						'warn',
						`${r.type} for ${user}: no webhook registered, so nobody was told. Publish a workflow with a Knolyx Trigger.`,
					);
				else
					say(
						out,
						'ok',
						`${r.type} for ${user} sent to ${plural(r.messages.length, 'webhook')}. Its answer shows under Webhooks.`,
					);
			} catch (err) {
				say(out, 'bad', `Not sent: ${err.message}`);
			}
		});
	});

	$('#ping-button').addEventListener('click', (e) => {
		const out = $('#ping-result');
		busy(e.currentTarget, async () => {
			try {
				const r = await post('/sandbox/ping', {});
				say(
					out,
					r.messages.length ? 'ok' : 'warn',
					r.messages.length
						? `PING sent to ${plural(r.messages.length, 'webhook')}.`
						: 'No webhook registered: nothing to ping.',
				);
			} catch (err) {
				say(out, 'bad', `Not sent: ${err.message}`);
			}
		});
	});

	$('#fault-form').addEventListener('submit', (e) => {
		e.preventDefault();
		const requests = Number($('#fault-requests').value);
		const status = Number($('#fault-kind').value);
		busy(e.submitter ?? e.currentTarget, async () => {
			try {
				await post('/sandbox/fault-burst', {
					requests,
					faults: { errorRate: 1, errorStatuses: [status] },
				});
			} catch (err) {
				say($('#fault-status'), 'bad', `Not started: ${err.message}`);
			}
		});
	});

	$('#fault-stop').addEventListener('click', (e) => {
		busy(e.currentTarget, async () => {
			try {
				await post('/sandbox/fault-burst', undefined, 'DELETE');
			} catch (err) {
				say($('#fault-status'), 'bad', `Could not stop: ${err.message}`);
			}
		});
	});

	// ------------------------------------------------------------ polling

	let paused = false;
	let timer = null;
	let inFlight = false;

	function setLive(kind, text) {
		$('#live-dot').className = `dot ${kind}`;
		$('#live-text').textContent = text;
	}

	async function refresh() {
		clearTimeout(timer);
		if (inFlight) return;
		inFlight = true;
		try {
			const res = await fetch('/sandbox/overview', { cache: 'no-store' });
			if (!res.ok) throw new Error(`HTTP ${res.status}`);
			const d = await res.json();
			draw(d);
			if (!paused) setLive('on', `Live · updated ${time(d.generatedAt)} UTC`);
		} catch {
			setLive('off', 'Sandbox not answering; retrying…');
		} finally {
			inFlight = false;
			if (!paused) timer = setTimeout(refresh, POLL_MS);
		}
	}

	/** After an action: now, and once more when the deliveries have had time to arrive. */
	function refreshSoon() {
		refresh();
		setTimeout(refresh, 600);
	}

	$('#live-toggle').addEventListener('click', (e) => {
		paused = !paused;
		e.currentTarget.textContent = paused ? 'Resume' : 'Pause';
		e.currentTarget.setAttribute('aria-pressed', String(paused));
		if (paused) {
			clearTimeout(timer);
			setLive('paused', 'Paused');
		} else refresh();
	});
	document.addEventListener('visibilitychange', () => {
		if (!document.hidden && !paused) refresh();
	});

	refresh();
})();
