/** Format name → view: each command's reporter hands over its views and this picks one for --format. */
import type { OutputFormat } from '../core/types.js';

export interface FormatViews {
  json: () => string;
  table: () => string;
  markdown: () => string;
  /** Annotations for the runner; CONTRACT: `github` is markdown for every command that has none. */
  github?: () => string;
}

/** The view for `format`; only the chosen one is rendered. */
export function renderByFormat(format: OutputFormat, views: FormatViews): string {
  switch (format) {
    case 'json':
      return views.json();
    case 'markdown':
      return views.markdown();
    case 'github':
      return (views.github ?? views.markdown)();
    case 'table':
      return views.table();
  }
}
