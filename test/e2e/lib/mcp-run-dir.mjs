// Imported FIRST by mcp.e2e.test.mjs, before the other lib files read KNOLYX_E2E_RUN_DIR:
// the MCP test starts its own sandbox and n8n, so it gets its own folder inside the run
// folder (its own n8n user folder and sandbox.log, whose "listening on" line
// startSandboxProcess reads). Inside the run folder, scripts/e2e.mjs still finds and
// kills whatever it leaves. Jest gives each test file its own copy of process.env.
import fs from 'node:fs';
import path from 'node:path';

const parent = process.env.KNOLYX_E2E_RUN_DIR;
if (parent) process.env.KNOLYX_E2E_RUN_DIR = fs.mkdtempSync(path.join(path.resolve(parent), 'mcp-'));
