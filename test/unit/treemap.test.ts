import { describe, expect, it } from 'vitest';
import { layoutTreemap, squarify, type Rect, type TreeNode } from '../../src/core/audit/treemap.js';

const area = (r: Rect): number => r.w * r.h;
const inside = (r: Rect, o: Rect): boolean =>
  r.x >= o.x - 1e-9 && r.y >= o.y - 1e-9 && r.x + r.w <= o.x + o.w + 1e-9 && r.y + r.h <= o.y + o.h + 1e-9;
const overlap = (a: Rect, b: Rect): number =>
  Math.max(0, Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x)) *
  Math.max(0, Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y));

describe('treemap', () => {
  it('squarify gives each node an area in proportion to its value, inside the rectangle, without overlaps', () => {
    const nodes: TreeNode[] = [6, 6, 4, 3, 2, 2, 1].map((value, i) => ({ name: `t${i}`, value }));
    const rect = { x: 0, y: 0, w: 600, h: 400 };
    const placed = squarify(nodes, rect);
    expect(placed.map(([n]) => n.name)).toEqual(['t0', 't1', 't2', 't3', 't4', 't5', 't6']);
    for (const [n, r] of placed) {
      expect(area(r)).toBeCloseTo((n.value / 24) * 240_000, 6);
      expect(inside(r, rect)).toBe(true);
    }
    for (let i = 0; i < placed.length; i++)
      for (let j = i + 1; j < placed.length; j++) expect(overlap(placed[i]![1], placed[j]![1])).toBeCloseTo(0, 6);
    // The classic example of the paper: the first row holds the two sixes, stacked in a column.
    expect(placed[0]![1]).toEqual({ x: 0, y: 0, w: 300, h: 200 });
    expect(placed[1]![1]).toEqual({ x: 0, y: 200, w: 300, h: 200 });
  });

  it('leaves out zero values and breaks ties by name', () => {
    const placed = squarify(
      [
        { name: 'b', value: 1 },
        { name: 'a', value: 1 },
        { name: 'z', value: 0 },
      ],
      { x: 0, y: 0, w: 10, h: 10 },
    );
    expect(placed.map(([n]) => n.name)).toEqual(['a', 'b']);
  });

  it('gives every leaf a cell, also inside groups too small for a label', () => {
    const servers: TreeNode[] = [
      { name: 'big', value: 1000, children: [{ name: 'x', value: 1000 }] },
      ...[1, 2, 3].map((i) => ({
        name: `tiny${i}`,
        value: 2,
        children: [1, 1].map((v, j) => ({ name: `t${j}`, value: v })),
      })),
    ];
    const root: TreeNode = { name: '', value: 1006, children: [{ name: 'src', value: 1006, children: servers }] };
    const cells = layoutTreemap(root, { x: 0, y: 0, w: 300, h: 200 }, { header: 16, padding: 3 });
    const leaves = cells.filter((c) => c.leaf);
    expect(leaves.map((c) => c.path.join('/')).sort()).toEqual([
      'src/big/x',
      'src/tiny1/t0',
      'src/tiny1/t1',
      'src/tiny2/t0',
      'src/tiny2/t1',
      'src/tiny3/t0',
      'src/tiny3/t1',
    ]);
    for (const l of leaves) expect(area(l)).toBeGreaterThan(0);
    const top = cells.find((c) => c.depth === 0)!;
    expect(top.header).toBe(16);
    expect(cells.filter((c) => c.path[1]?.startsWith('tiny') && c.depth === 1).map((c) => c.header)).toEqual([0, 0, 0]);
  });
});
