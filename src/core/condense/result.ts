/** What `condense` returns: the condensed definitions per server with before/after tokens. */
import type { CondenseLevel, Encoding, ToolSnapshot } from '../types.js';

export interface CondenseOutput {
  level: CondenseLevel;
  encoding: Encoding;
  render: string;
  before: { tokens: number };
  after: { tokens: number };
  servers: { name: string; tokens: { before: number; after: number }; tools: ToolSnapshot[] }[];
}
