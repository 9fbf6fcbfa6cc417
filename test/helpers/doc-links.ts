// Reads the project's Markdown as GitHub renders it, for the documentation tests: which headings a page has (as
// the anchors GitHub makes of them) and which relative links it holds, outside code blocks and inline code.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { REPO } from './paths.js';

/** README.md, CONTRIBUTING.md and every page of docs/, as paths relative to the repo. */
export function docPages(): string[] {
  const docs = readdirSync(join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', 'CONTRIBUTING.md', ...docs];
}

/** The lines of a Markdown text outside fenced code blocks (``` or ~~~), each with its 1-based number. */
export function proseLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((l, i) => {
    const m = /^\s*(`{3,}|~{3,})/.exec(l);
    if (m) {
      if (fence === undefined) fence = m[1]![0]!;
      else if (m[1]![0] === fence) fence = undefined;
      return;
    }
    if (fence === undefined) out.push({ line: i + 1, text: l });
  });
  return out;
}

/** GitHub's anchor for a heading's text (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a page's headings make; a repeated heading gets -1, -2 … as on GitHub. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { text: l } of proseLines(text)) {
    const m = /^#{1,6} (.+?)\s*#*\s*$/.exec(l);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base);
    seen.set(base, (n ?? -1) + 1);
    out.add(n === undefined ? base : `${base}-${n + 1}`);
  }
  return out;
}

export interface DocLink {
  page: string;
  line: number;
  target: string;
}

/** The links and images of a page whose target is not a URL (`[text](target)`), outside code. */
export function relativeLinks(page: string, text: string): DocLink[] {
  const out: DocLink[] = [];
  for (const { line, text: l } of proseLines(text)) {
    const prose = l.replace(/`[^`]*`/g, '``');
    for (const m of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      out.push({ page, line, target });
    }
  }
  return out;
}

/** What is wrong with one link: its file is missing, or the heading its anchor names is. `undefined` when fine. */
export function brokenLink(
  link: DocLink,
  read: (path: string) => string | undefined = readRepoFile,
): string | undefined {
  const [path, anchor] = link.target.split('#', 2) as [string, string | undefined];
  const file = path === '' ? link.page : normalize(join(dirname(link.page), decodeURI(path)));
  if (relative('.', file).startsWith('..')) return `${link.target} leaves the repository`;
  const text = read(file);
  if (text === undefined) return `${file} does not exist`;
  if (anchor === undefined || anchor === '') return undefined;
  if (!file.endsWith('.md')) return `${link.target}: an anchor into a file that is not Markdown`;
  return anchors(text).has(anchor) ? undefined : `${file} has no heading #${anchor}`;
}

function readRepoFile(path: string): string | undefined {
  const abs = join(REPO, path);
  if (!existsSync(abs)) return undefined;
  try {
    return readFileSync(abs, 'utf8');
  } catch {
    return ''; // a folder: exists, holds no headings
  }
}
