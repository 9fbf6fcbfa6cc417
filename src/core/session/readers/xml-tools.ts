/** The XML tool-call protocol of Cline-style clients: `<use_mcp_tool>` blocks inside assistant text. */

export interface XmlToolCall {
  server?: string;
  tool?: string;
  /** Parsed `arguments` JSON; undefined when absent or invalid. */
  args?: unknown;
  /** Set when `arguments` was present but not valid JSON. */
  argsError?: string;
  /** True when the closing tag is missing (the message was cut off mid-call). */
  partial: boolean;
  /** 0-based character offset of the block in the text. */
  offset: number;
}

export interface ParsedAssistantText {
  /** The text with every tool block removed. */
  text: string;
  calls: XmlToolCall[];
}

const OPEN = '<use_mcp_tool>';
const CLOSE = '</use_mcp_tool>';

function param(body: string, name: string): string | undefined {
  const open = `<${name}>`;
  const start = body.indexOf(open);
  if (start === -1) return undefined;
  const from = start + open.length;
  const end = body.indexOf(`</${name}>`, from);
  // A partial block may stop inside a parameter: keep what was streamed so far.
  return (end === -1 ? body.slice(from) : body.slice(from, end)).trim();
}

/** Splits assistant text into prose and `<use_mcp_tool>` calls, complete or cut off. */
export function parseAssistantText(text: string): ParsedAssistantText {
  const calls: XmlToolCall[] = [];
  const prose: string[] = [];
  let pos = 0;
  while (pos < text.length) {
    const start = text.indexOf(OPEN, pos);
    if (start === -1) {
      prose.push(text.slice(pos));
      break;
    }
    prose.push(text.slice(pos, start));
    const bodyStart = start + OPEN.length;
    const end = text.indexOf(CLOSE, bodyStart);
    const body = end === -1 ? text.slice(bodyStart) : text.slice(bodyStart, end);
    const call: XmlToolCall = { partial: end === -1, offset: start };
    const server = param(body, 'server_name');
    const tool = param(body, 'tool_name');
    if (server) call.server = server;
    if (tool) call.tool = tool;
    const rawArgs = param(body, 'arguments');
    if (rawArgs !== undefined && rawArgs !== '') {
      try {
        call.args = JSON.parse(rawArgs);
      } catch (e) {
        call.argsError = e instanceof Error ? e.message : String(e);
      }
    }
    calls.push(call);
    pos = end === -1 ? text.length : end + CLOSE.length;
  }
  return { text: prose.join('').trim(), calls };
}
