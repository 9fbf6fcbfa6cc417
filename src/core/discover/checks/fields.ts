/**
 * How the checks read each catalogue field of a tool (check.ts CatalogueField). The catalogue start cache keeps a
 * tool cut to what ranking reads; test/unit/discover-checks.test.ts holds it to keep every field a check `reads`.
 */
import type { DiscoverIndex } from '../build.js';
import { topParams } from '../param-names.js';
import type { CatalogueField } from './check.js';
import { CHECKS } from './index.js';

type ToolRef = DiscoverIndex['tools'][number];

export const CATALOGUE_FIELDS: Readonly<Record<CatalogueField, (ref: ToolRef) => unknown>> = {
  name: (r) => r.tool.name,
  description: (r) => r.tool.description,
  annotations: (r) => r.tool.annotations,
  parameters: (r) => topParams(r.tool),
  server: (r) => r.server,
};

/** The fields some check reads, in CATALOGUE_FIELDS order. */
export function fieldsRead(): CatalogueField[] {
  const read = new Set(CHECKS.flatMap((c) => c.reads));
  return (Object.keys(CATALOGUE_FIELDS) as CatalogueField[]).filter((f) => read.has(f));
}
