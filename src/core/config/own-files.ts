/** A config file being read, and the error that names its first problem. Pure. */
import { SmartError } from '../../process/errors.js';
import type { ClientId, ConfigLayer } from '../types.js';

export interface SourceFile {
  file: string;
  scope: 'project' | 'user' | 'explicit';
  client?: ClientId;
  layer?: ConfigLayer;
  smart?: boolean;
}

/** CONFIG_INVALID naming a file's first problem and how many more it has; `note` is said after it. */
export function firstIssue(file: string, issues: { key: string; reason: string }[], note = ''): SmartError {
  const [first] = issues;
  const more =
    issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''} in this file)` : '';
  return new SmartError('CONFIG_INVALID', {
    file,
    key: first?.key ?? '',
    reason: `${first?.reason ?? ''}${more}${note}`,
  });
}
