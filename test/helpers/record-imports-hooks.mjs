// The module hooks record-imports.mjs registers: each resolved module URL goes to $MCP_SMART_RECORD_IMPORTS.
import { appendFileSync } from 'node:fs';

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const file = process.env.MCP_SMART_RECORD_IMPORTS;
  if (file) appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
