export declare function serverFolds(
  servers: string[],
  cases: { expected: string[] }[],
  k: number,
): { fold: Map<string, number>; caseFold: (c: { expected: string[] }) => number | undefined };
