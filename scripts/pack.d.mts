export declare const REPO: string;
export declare const INSTALL_ARGS: string[];
export type Env = Record<string, string | undefined>;
export interface ProgramRun {
  code: number | null;
  stdout: string;
  stderr: string;
}
export declare function npmEnv(env?: Env): Env;
export declare function tempHomeEnv(root: string): Env;
export declare function runProgram(
  cmd: string,
  args: string[],
  opts: { cwd: string; env: Env; timeoutMs?: number },
): Promise<ProgramRun>;
export interface PackedTarball {
  filename: string;
  files: { path: string; size: number }[];
  entryCount: number;
  size: number;
  unpackedSize: number;
  integrity: string;
  shasum: string;
  /** The copied source tree that was packed. */
  src: string;
  /** Absolute path of the tarball. */
  tarball: string;
}
export declare function packSourceTree(dir: string, env?: Env): Promise<PackedTarball>;
