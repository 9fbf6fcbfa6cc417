/**
 * The mcp-smart.config.json text init writes. A new file holds init's keys only; an existing one (overwritten with
 * --force, or "yes" on a terminal) is edited in place: init sets its own keys (budget, thresholds, baseline, the
 * ad-hoc servers) and keeps everything else as the user wrote it, comments and layout included. Its servers were
 * dropped, and the next check found none.
 */
import { editConfigText, type SwitchEdit } from '../../core/adopt/switch-edit.js';
import { parseConfigText } from '../../core/config/parse.js';
import { validateSmartConfig } from '../../core/config/validate.js';
import { isPlainObject } from '../../core/config/key-path.js';
import { DEFAULT_WEIGHTS } from '../../core/discover/weights.js';
import { SmartError } from '../../process/errors.js';
import { READ_AS, readFileBytes, stripBom } from '../../process/read-file.js';

/** What init sets in the config. */
export interface InitConfigKeys {
  budget: { max: number; share: number };
  thresholds: { maxGrowth: string };
  baseline: string;
  /** The ad-hoc servers' entries, by name. */
  servers: Record<string, Record<string, unknown>>;
}

/**
 * The config's text: init's keys set over the existing file's (`shown` names it in errors). A file that does not
 * parse, or would not validate with init's keys in it, is refused (exit 2 naming it), and left as it is.
 */
export function initConfigText(file: string, shown: string, keys: InitConfigKeys): string {
  const text = readFileBytes(file, '/', READ_AS.config)?.toString('utf8');
  if (text === undefined) {
    const fresh: Record<string, unknown> = {
      budget: keys.budget,
      thresholds: keys.thresholds,
      baseline: keys.baseline,
    };
    if (Object.keys(keys.servers).length > 0) fresh.servers = keys.servers;
    return JSON.stringify(fresh, null, 2) + '\n';
  }
  const doc = stripBom(text).trim() === '' ? {} : parseConfigText(shown, text);
  if (!isPlainObject(doc))
    throw new SmartError('CONFIG_INVALID', { file: shown, key: '(top level)', reason: 'expected an object.' });
  const edits: SwitchEdit[] = [];
  const setAll = (section: string, values: Record<string, unknown>): void => {
    if (!isPlainObject(doc[section])) edits.push({ kind: 'set', path: [section], value: values });
    else for (const [k, v] of Object.entries(values)) edits.push({ kind: 'set', path: [section, k], value: v });
  };
  setAll('budget', keys.budget);
  setAll('thresholds', keys.thresholds);
  edits.push({ kind: 'set', path: ['baseline'], value: keys.baseline });
  // Under the key the file already uses for its servers.
  const serversKey = Object.hasOwn(doc, 'mcpServers') && !Object.hasOwn(doc, 'servers') ? 'mcpServers' : 'servers';
  if (Object.keys(keys.servers).length > 0) setAll(serversKey, keys.servers);
  const edited = editConfigText(text, doc, edits);
  const after = parseConfigText(shown, edited);
  const { issues } = validateSmartConfig(isPlainObject(after) ? after : {}, DEFAULT_WEIGHTS);
  const [first] = issues;
  if (first)
    throw new SmartError('CONFIG_INVALID', {
      file: shown,
      key: first.key,
      reason: `${first.reason} init keeps the keys it does not set; correct this one and run init again.`,
    });
  return edited;
}
