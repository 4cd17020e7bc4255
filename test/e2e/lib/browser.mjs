// Headless Chromium (Debian's /usr/bin/chromium, installed by scripts/e2e.mjs)
// driven by playwright-core, which ships no browser of its own.

import fs from 'node:fs';
import path from 'node:path';

import { chromium } from 'playwright-core';

import { ARTIFACTS_DIR, RUN_DIR } from './processes.mjs';

/**
 * How long n8n's editor may take to paint a workflow and to take its first double-click: beside
 * the other CI lane, 1.123.81's editor took longer than playwright's 30 s (fresh runs B and D,
 * 2026-11-29: the event picker's node drawn but its double-click not taken; the rule preview's
 * node not drawn). The editor tests of event-picker, page and templates wait this long.
 */
export const EDITOR_LOAD_MS = 90_000;

export const CHROMIUM = process.env.KNOLYX_E2E_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/**
 * A fresh browser with its own --user-data-dir inside the run folder (so the
 * runner's sweep finds it if it is left behind). Returns { context, page, close }.
 */
export async function launchBrowser({ viewport = { width: 1440, height: 900 } } = {}) {
	if (!fs.existsSync(CHROMIUM)) {
		throw new Error(
			`${CHROMIUM} is missing: run the e2e tests with npm run test:e2e (it installs Debian's chromium), or apt-get install -y chromium`,
		);
	}
	const userDataDir = fs.mkdtempSync(path.join(RUN_DIR, 'chromium-'));
	const context = await chromium.launchPersistentContext(userDataDir, {
		executablePath: CHROMIUM,
		headless: true,
		args: CHROMIUM_ARGS,
		viewport,
		timeout: 60_000,
	});
	context.setDefaultTimeout(30_000);
	const page = context.pages()[0] ?? (await context.newPage());
	return {
		context,
		page,
		userDataDir,
		async close() {
			await context.close().catch(() => {});
		},
	};
}

/**
 * Sign in to the editor at `n8nUrl` as `owner` ({ email, password }) and wait to leave the sign-in
 * page. With `then` (a path such as /workflow/<id>), the editor goes there after signing in, in
 * the same page load (n8n's ?redirect=), instead of loading the editor a second time.
 */
export async function signIn(page, n8nUrl, owner, { then } = {}) {
	await page.goto(`${n8nUrl}/signin${then ? `?redirect=${encodeURIComponent(then)}` : ''}`);
	await page.locator('input[name=emailOrLdapLoginId]').fill(owner.email);
	await page.locator('input[name=password]').fill(owner.password);
	await page.locator('[data-test-id=form-submit-button]').click();
	await page.waitForURL((u) => !u.pathname.startsWith('/signin'), { timeout: 30_000 });
}

/** Save a screenshot to test-artifacts/e2e/<name>.png and return its path. */
export async function screenshot(page, name) {
	const file = path.join(ARTIFACTS_DIR, `${name}.png`);
	await page.screenshot({ path: file });
	return file;
}
