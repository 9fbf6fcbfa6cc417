/**
 * How deep a client's message may nest. A tool's arguments nested deeper than MAX_ARGUMENT_DEPTH are refused by the
 * call (an error result naming the limit); a whole message nested deeper than MAX_MESSAGE_DEPTH is refused where it
 * is read, before the SDK parses it: its schema walk and its serializer overflowed the stack (an internal error, or
 * an HTTP 500) at a few thousand levels.
 */

/** Arguments nested deeper than this are refused: validating and forwarding them overflowed the stack. */
export const MAX_ARGUMENT_DEPTH = 256;
/** A message nested deeper than this is refused where it is read. */
export const MAX_MESSAGE_DEPTH = 1000;

/** True when `value` has objects or arrays nested deeper than `max` (walked without recursion). */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * True when the message read from `text` nests deeper than MAX_MESSAGE_DEPTH. A text shorter than two brackets per
 * level cannot, so the usual message is not walked at all.
 */
export function messageTooDeep(text: string, message: unknown): boolean {
  return text.length >= 2 * MAX_MESSAGE_DEPTH && nestedDeeperThan(message, MAX_MESSAGE_DEPTH);
}

/** The refusal's text. */
export const TOO_DEEP = `the message is nested deeper than ${MAX_MESSAGE_DEPTH} levels; it was not read`;
