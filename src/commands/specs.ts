/** Every command, in the order `mcp-smart --help` lists them; program.ts builds the program from this list. */
import { adoptSpec } from './adopt.spec.js';
import { auditSpec } from './audit.spec.js';
import { budgetSpec } from './budget.spec.js';
import { checkSpec } from './check.spec.js';
import { condenseSpec } from './condense.spec.js';
import { discoverSpec } from './discover.spec.js';
import { dumpSpec } from './dump.spec.js';
import { initSpec } from './init.spec.js';
import { loginSpec } from './login.spec.js';
import { logoutSpec } from './logout.spec.js';
import { replaySpec } from './replay.spec.js';
import { serveSpec } from './serve.spec.js';
import { serversSpec } from './servers.spec.js';
import type { CommandSpec } from './spec.js';
import { storeSpec } from './store.spec.js';
import { trustSpec } from './trust.spec.js';

export const COMMAND_SPECS: readonly CommandSpec[] = [
  serversSpec,
  dumpSpec,
  auditSpec,
  condenseSpec,
  discoverSpec,
  budgetSpec,
  checkSpec,
  replaySpec,
  serveSpec,
  adoptSpec,
  initSpec,
  loginSpec,
  logoutSpec,
  trustSpec,
  storeSpec,
];
