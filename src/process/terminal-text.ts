/**
 * Control characters a server or a file sent never reach the terminal raw (clear-screen, window titles,
 * cursor moves, hidden text). Our own colours (SGR) and progress line-clear pass; everything else becomes a
 * visible `\u001b` — which is also a valid JSON escape, so JSON on stdout decodes to the same text.
 * The same goes for the invisible format characters that make text read differently than it is: bidi
 * overrides, embeddings, isolates and marks (`admin\u202egnp.exe` shows as "adminexe.png"), and zero-width
 * characters that make two different tool names look the same.
 */
const CONTROL =
  /\x1b\[[0-9;]*m|\r\x1b\[2K|\r\n|[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

export function escapeControls(text: string): string {
  return text.replace(CONTROL, (m) => {
    if (m.length > 1) return m;
    return `\\u${m.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
