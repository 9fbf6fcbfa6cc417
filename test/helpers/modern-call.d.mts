// Types for modern-call.mjs, so TypeScript tests can import it (the bench imports the .mjs directly).
export const ALL_CAPABILITIES: Record<string, unknown>;
export function postModernCall(
  url: string,
  params: Record<string, unknown>,
  opts?: {
    id?: number;
    client?: string;
    capabilities?: Record<string, unknown>;
    signal?: AbortSignal;
    fetch?: typeof fetch;
    headers?: Record<string, string>;
    method?: 'tools/call' | 'prompts/get' | 'resources/read';
  },
): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }>;
