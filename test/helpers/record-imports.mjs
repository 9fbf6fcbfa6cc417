// `node --import <this file>`: every module the process loads is appended (its URL, one a line) to the file named by
// MCP_SMART_RECORD_IMPORTS — the telemetry tests' proof that serve never loads the OpenTelemetry SDK when it is off.
import { register } from 'node:module';

register('./record-imports-hooks.mjs', import.meta.url);
