// Where a company's HTTPS proxy stands: an HTTP proxy on 127.0.0.1 that terminates CONNECT for
// the public registry's host name with a leaf certificate of its own test CA (made with openssl
// at run time in the run folder) and answers those requests from the local registry (verdaccio).
// Every other host is refused, so nothing of a test run reaches the real registry through it.
//
// n8n's installer (Settings → Community Nodes, N8N_COMMUNITY_PACKAGES) calls the `npm` CLI with
// `--registry=<n8n's default registry>`; with npm's own `https-proxy` and `cafile` settings
// pointing here it installs our package, published only in the local registry, unchanged.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';

/**
 * A test CA and a leaf certificate for `host`, made with openssl in `dir`.
 * Returns { caFile, certFile, keyFile }.
 */
export function makeCertificates({ dir, host }) {
	fs.mkdirSync(dir, { recursive: true });
	const f = (name) => path.join(dir, name);
	const openssl = (args) =>
		execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
	openssl([
		'req',
		'-x509',
		'-newkey',
		'rsa:2048',
		'-nodes',
		'-keyout',
		f('ca.key'),
		'-out',
		f('ca.pem'),
		'-days',
		'2',
		'-subj',
		'/CN=n8n-nodes-knolyx install-test CA',
		'-addext',
		'basicConstraints=critical,CA:TRUE',
		'-addext',
		'keyUsage=critical,keyCertSign,cRLSign',
	]);
	openssl([
		'req',
		'-newkey',
		'rsa:2048',
		'-nodes',
		'-keyout',
		f('leaf.key'),
		'-out',
		f('leaf.csr'),
		'-subj',
		`/CN=${host}`,
	]);
	fs.writeFileSync(
		f('leaf.ext'),
		`subjectAltName=DNS:${host}\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n`,
	);
	openssl([
		'x509',
		'-req',
		'-in',
		f('leaf.csr'),
		'-CA',
		f('ca.pem'),
		'-CAkey',
		f('ca.key'),
		'-CAcreateserial',
		'-out',
		f('leaf.pem'),
		'-days',
		'2',
		'-extfile',
		f('leaf.ext'),
	]);
	return { caFile: f('ca.pem'), certFile: f('leaf.pem'), keyFile: f('leaf.key') };
}

/**
 * Start the proxy on a free 127.0.0.1 port. `registryUrl` is the public registry's URL as n8n
 * has it (its host is intercepted); `upstream` is verdaccio's URL. Every request it sees is kept
 * in `requests` ({ method, host, path, status }) so a test can prove the installer went through it.
 * Returns { url, port, requests, caFile, close() }.
 */
export async function startRegistryProxy({ dir, registryUrl, upstream }) {
	const publicUrl = new URL(registryUrl);
	const host = publicUrl.hostname;
	const port = Number(publicUrl.port || 443);
	const { caFile, certFile, keyFile } = makeCertificates({ dir, host });
	const up = new URL(upstream);
	const requests = [];

	/** Serve one request for the public registry from verdaccio; verdaccio sees the public host, so its tarball URLs name it too. */
	const forward = (req, res, { proto }) => {
		const entry = { method: req.method, host, path: req.url, status: 0 };
		requests.push(entry);
		const upstreamReq = http.request(
			{
				hostname: up.hostname,
				port: up.port,
				method: req.method,
				path: req.url,
				headers: {
					...req.headers,
					host: publicUrl.host,
					'x-forwarded-proto': proto,
					'x-forwarded-host': publicUrl.host,
				},
			},
			(upstreamRes) => {
				entry.status = upstreamRes.statusCode;
				res.writeHead(upstreamRes.statusCode, upstreamRes.headers);
				upstreamRes.pipe(res);
			},
		);
		upstreamReq.on('error', (e) => {
			entry.status = 502;
			entry.error = e.message;
			if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
			res.end(`local registry unreachable: ${e.message}`);
		});
		req.pipe(upstreamReq);
	};

	// The TLS side: only reached through CONNECT (never listens itself).
	const tlsServer = https.createServer(
		{ cert: fs.readFileSync(certFile), key: fs.readFileSync(keyFile) },
		(req, res) => forward(req, res, { proto: 'https' }),
	);
	tlsServer.on('tlsClientError', (e) =>
		requests.push({ method: 'TLS', host, path: '', status: 0, error: e.message }),
	);

	const server = http.createServer((req, res) => {
		// An absolute-form request ("GET https://host/path"), as some HTTP clients send to a proxy.
		let target;
		try {
			target = new URL(req.url);
		} catch {
			target = null;
		}
		if (target && target.hostname === host) {
			req.url = target.pathname + target.search;
			return forward(req, res, { proto: target.protocol.replace(':', '') });
		}
		requests.push({ method: req.method, host: target?.host ?? '?', path: req.url, status: 403 });
		res
			.writeHead(403, { 'content-type': 'text/plain' })
			.end('this test proxy serves only the public registry\n');
	});
	const { port: proxyPort, close } = await listenAsConnectProxy(server, {
		tlsServer,
		accepts: (h, p) => h === host && p === port,
		onRefused: (target) =>
			requests.push({ method: 'CONNECT', host: target, path: '', status: 403 }),
	});
	return {
		url: `http://127.0.0.1:${proxyPort}`,
		port: proxyPort,
		host,
		requests,
		caFile,
		close,
	};
}

/**
 * Make `server` (an http.Server) an HTTP proxy on a free 127.0.0.1 port whose CONNECT to a
 * host:port that `accepts(host, port)` is handed to `tlsServer` (which terminates TLS with its
 * own certificate); any other CONNECT is refused with 403 and reported to `onRefused(target)`.
 * Returns { port, close() } (close also ends open tunnels).
 */
export async function listenAsConnectProxy(server, { tlsServer, accepts, onRefused }) {
	server.on('connect', (req, socket, head) => {
		const [h, p] = req.url.split(':');
		if (!accepts(h, Number(p || 443))) {
			onRefused(req.url);
			socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
			return;
		}
		socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
		if (head?.length) socket.unshift(head);
		tlsServer.emit('connection', socket);
	});
	const sockets = new Set();
	server.on('connection', (s) => {
		sockets.add(s);
		s.on('close', () => sockets.delete(s));
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	return {
		port: server.address().port,
		close: () =>
			new Promise((resolve) => {
				for (const s of sockets) s.destroy();
				server.close(() => resolve());
			}),
	};
}

/** Is `port` free on 127.0.0.1? (for tests that check nothing was left listening) */
export function portIsFree(port) {
	return new Promise((resolve) => {
		const s = net.createServer();
		s.once('error', () => resolve(false));
		s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
	});
}
