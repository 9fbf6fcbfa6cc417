// Shared request builder for the config tests: a fake HOME per platform, no real environment.
import type { DefinitionRequest } from '../../src/core/config/index.js';
import { fixture } from './paths.js';

export const CONFIGS = (...parts: string[]): string => fixture('configs', ...parts);

export function request(over: Partial<DefinitionRequest> = {}): DefinitionRequest {
  return {
    configFiles: [],
    adhoc: [],
    demo: false,
    cwd: CONFIGS('project-empty'),
    env: {},
    platform: 'linux',
    home: CONFIGS('home-empty'),
    nodePath: '/usr/bin/node',
    // Machine-wide files (Gemini's system settings) are looked for here, never under the real /etc.
    systemRoot: CONFIGS('system-empty'),
    ...over,
  };
}
