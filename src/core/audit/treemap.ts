/** A squarified treemap of the audit: tokens by source (client config), server and tool. */
import type { AuditResult } from './index.js';

export interface TreeNode {
  name: string;
  value: number;
  children?: TreeNode[];
}

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface TreemapCell extends Rect {
  /** Names from the top group down to this node, e.g. [source, server, tool]. */
  path: string[];
  value: number;
  /** 0 for the top groups; leaves are the deepest level. */
  depth: number;
  leaf: boolean;
  /** Height of the label strip kept at the top of a group (0: no room for one, and for leaves). */
  header: number;
}

export interface TreemapOptions {
  /** Space kept at the top of every group for its label. */
  header: number;
  /** Space between a group's border and its children. */
  padding: number;
}

const byValue = (a: TreeNode, b: TreeNode): number =>
  b.value - a.value || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The tree the HTML report draws: source → server → tool, full tokens; failed and empty servers are left out. */
export function auditTree(result: AuditResult, sourceOf: (server: string) => string): TreeNode {
  const groups = new Map<string, TreeNode[]>();
  for (const s of result.servers) {
    const tools = s.tools.filter((t) => t.tokens.full > 0).map((t) => ({ name: t.name, value: t.tokens.full }));
    if (tools.length === 0) continue;
    const node: TreeNode = { name: s.name, value: tools.reduce((n, t) => n + t.value, 0), children: tools };
    const source = sourceOf(s.name);
    groups.set(source, [...(groups.get(source) ?? []), node]);
  }
  const children = [...groups].map(([name, servers]) => ({
    name,
    value: servers.reduce((n, s) => n + s.value, 0),
    children: servers,
  }));
  return { name: '', value: children.reduce((n, c) => n + c.value, 0), children };
}

/** Worst aspect ratio of a row of areas laid along a side of length `side`. */
function worst(areas: number[], side: number): number {
  const sum = areas.reduce((n, a) => n + a, 0);
  let max = 0;
  for (const a of areas) max = Math.max(max, (side * side * a) / (sum * sum), (sum * sum) / (side * side * a));
  return max;
}

/** Places one finished row along the shorter side of `r`; returns the space left. */
function placeRow(nodes: TreeNode[], areas: number[], r: Rect, out: [TreeNode, Rect][]): Rect {
  const sum = areas.reduce((n, a) => n + a, 0);
  if (r.w >= r.h) {
    const width = r.h === 0 ? 0 : sum / r.h;
    let y = r.y;
    nodes.forEach((n, i) => {
      const h = width === 0 ? 0 : areas[i]! / width;
      out.push([n, { x: r.x, y, w: width, h }]);
      y += h;
    });
    return { x: r.x + width, y: r.y, w: Math.max(0, r.w - width), h: r.h };
  }
  const height = r.w === 0 ? 0 : sum / r.w;
  let x = r.x;
  nodes.forEach((n, i) => {
    const w = height === 0 ? 0 : areas[i]! / height;
    out.push([n, { x, y: r.y, w, h: height }]);
    x += w;
  });
  return { x: r.x, y: r.y + height, w: r.w, h: Math.max(0, r.h - height) };
}

/** Squarified layout (Bruls, Huizing, van Wijk 2000) of `nodes` in `rect`, largest first. */
export function squarify(nodes: readonly TreeNode[], rect: Rect): [TreeNode, Rect][] {
  const items = nodes.filter((n) => n.value > 0).sort(byValue);
  const total = items.reduce((n, i) => n + i.value, 0);
  const out: [TreeNode, Rect][] = [];
  if (total === 0 || rect.w <= 0 || rect.h <= 0) return out;
  const scale = (rect.w * rect.h) / total;
  let r = rect;
  let row: TreeNode[] = [];
  let areas: number[] = [];
  for (const item of items) {
    const area = item.value * scale;
    const side = Math.min(r.w, r.h);
    if (row.length === 0 || worst([...areas, area], side) <= worst(areas, side)) {
      row.push(item);
      areas.push(area);
      continue;
    }
    r = placeRow(row, areas, r, out);
    row = [item];
    areas = [area];
  }
  if (row.length > 0) placeRow(row, areas, r, out);
  return out;
}

/** Every group and leaf of `root` laid out in `rect`; groups keep a header strip and padding for their children. */
export function layoutTreemap(root: TreeNode, rect: Rect, opts: TreemapOptions): TreemapCell[] {
  const cells: TreemapCell[] = [];
  const visit = (nodes: readonly TreeNode[], area: Rect, path: string[], depth: number): void => {
    for (const [node, r] of squarify(nodes, area)) {
      const leaf = !node.children || node.children.length === 0;
      // A group too small for its label and border gives all of its area to its children: every leaf keeps a cell.
      const header = !leaf && r.h > 3 * opts.header && r.w > 6 * opts.header ? opts.header : 0;
      const pad = r.w > 6 * opts.padding && r.h > 6 * opts.padding ? opts.padding : 0;
      cells.push({ ...r, path: [...path, node.name], value: node.value, depth, leaf, header });
      if (leaf) continue;
      const inner: Rect = { x: r.x + pad, y: r.y + (header || pad), w: r.w - 2 * pad, h: r.h - (header || pad) - pad };
      visit(node.children!, inner, [...path, node.name], depth + 1);
    }
  };
  visit(root.children ?? [], rect, [], 0);
  return cells;
}
