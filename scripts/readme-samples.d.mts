export declare const SAMPLES: Record<string, unknown>;
export declare function collectSamples(names?: string[]): Promise<Record<string, string>>;
export declare function readmeSamples(text: string): Record<string, string>;
export declare function applySamples(text: string, samples: Record<string, string>): string;
/** README.md, then docs/*.md by name, relative to the repo. */
export declare function docFiles(): string[];
/** Relative path → text of each of docFiles(). */
export declare function readDocs(): Record<string, string>;
/** Every marked sample of the documentation files: name → the file it stands in and its text. */
export declare function docSamples(docs?: Record<string, string>): Record<string, { file: string; text: string }>;
/** The documentation files with the samples applied; a sample marked in no file is an error. */
export declare function applyToDocs(
  docs: Record<string, string>,
  samples: Record<string, string>,
): Record<string, string>;
