export declare const SAMPLES: Record<string, unknown>;
export declare function collectSamples(names?: string[]): Promise<Record<string, string>>;
export declare function readmeSamples(readme: string): Record<string, string>;
export declare function applySamples(readme: string, samples: Record<string, string>): string;
