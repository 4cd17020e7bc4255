// Two small HTTP servers of the queue-mode run, inside the test process:
//
// - `startBalancer`: the "public address" of n8n's webhooks (N8N_WEBHOOK_URL of
//   every n8n process, so the Knolyx webhook and the Flow B URL point here). It
//   forwards each request to one of its upstreams (n8n webhook processors),
//   round-robin, like a load balancer in front of several webhook processors.
// - `startSink`: what the trigger workflow's last node POSTs to, one request per
//   execution: { eventId, executionId }. Counting there is exact and cheap.

import crypto from 'node:crypto';
import http from 'node:http';

import { freePort } from '../../../scripts/n8n-runtime.mjs';

function listen(server, port) {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, '127.0.0.1', () => resolve());
	});
}

function close(server) {
	return new Promise((resolve) => {
		server.closeAllConnections?.();
		server.close(() => resolve());
	});
}

export async function startBalancer({ upstreams = [] } = {}) {
	const port = await freePort();
	// latencies: [method, ms, status] of every forwarded request (answer finished).
	const state = { upstreams: [...upstreams], next: 0, byUpstream: {}, errors: 0, latencies: [] };
	const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
	const server = http.createServer((req, res) => {
		if (!state.upstreams.length) {
			res.writeHead(503).end('no upstream');
			return;
		}
		const started = Date.now();
		res.on('finish', () =>
			state.latencies.push([req.method, Date.now() - started, res.statusCode]),
		);
		const upstream = new URL(state.upstreams[state.next++ % state.upstreams.length]);
		state.byUpstream[upstream.origin] = (state.byUpstream[upstream.origin] ?? 0) + 1;
		const forward = http.request(
			{
				host: upstream.hostname,
				port: upstream.port,
				method: req.method,
				path: req.url,
				headers: {
					...req.headers,
					host: `127.0.0.1:${port}`,
					'x-forwarded-for': req.socket.remoteAddress,
				},
				agent,
			},
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		forward.on('error', (error) => {
			state.errors++;
			if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ message: `balancer: ${error.message}` }));
		});
		req.pipe(forward);
	});
	await listen(server, port);
	return {
		url: `http://127.0.0.1:${port}`,
		port,
		state,
		setUpstreams(list) {
			state.upstreams = [...list];
			state.next = 0;
		},
		close: async () => {
			await close(server);
			agent.destroy();
		},
	};
}

export async function startSink() {
	const port = await freePort();
	const received = [];
	const server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (d) => (body += d));
		req.on('end', () => {
			try {
				received.push({ ...JSON.parse(body || '{}'), at: Date.now() });
			} catch {
				received.push({ invalid: body.slice(0, 200), at: Date.now() });
			}
			res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
		});
	});
	await listen(server, port);
	return { url: `http://127.0.0.1:${port}`, port, received, close: () => close(server) };
}

/**
 * `example` (a workflow with a Knolyx Trigger and a Set node, e.g. examples/course-completed-
 * notification.json) with one more node after the Set: one POST per execution to `${sinkUrl}/event`
 * with { eventId, executionId } and `fields` (more keypairs). `top` sets the workflow's name (and id).
 */
export function reportingToSink(example, { triggerType, sinkUrl, reportId, fields = [], top }) {
	const trigger = example.nodes.find((n) => n.type === triggerType);
	const set = example.nodes.find((n) => n.type === 'n8n-nodes-base.set');
	const report = {
		parameters: {
			method: 'POST',
			url: `${sinkUrl}/event`,
			sendBody: true,
			contentType: 'json',
			specifyBody: 'keypair',
			bodyParameters: {
				parameters: [
					{ name: 'eventId', value: `={{ $('${trigger.name}').item.json.eventId }}` },
					{ name: 'executionId', value: '={{ $execution.id }}' },
					...fields,
				],
			},
			options: {},
		},
		id: reportId,
		name: 'Report to the test sink',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position: [480, 0],
	};
	return {
		...example,
		...top,
		nodes: [{ ...trigger, webhookId: crypto.randomUUID() }, set, report],
		connections: {
			...example.connections,
			[set.name]: { main: [[{ node: report.name, type: 'main', index: 0 }]] },
		},
	};
}
