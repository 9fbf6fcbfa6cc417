/**
 * GitHub Actions workflow commands: annotations (`::error` / `::warning`) that the runner shows on the run and
 * the PR. The step summary is the markdown view, which the command appends to $GITHUB_STEP_SUMMARY.
 */

export interface Annotation {
  level: 'error' | 'warning';
  title: string;
  message: string;
  /** The file the annotation points at. */
  file?: string;
}

const escapeData = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProp = (s: string): string => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** One workflow command line, its properties and message escaped as the runner expects. */
export function renderAnnotation(a: Annotation): string {
  const file = a.file !== undefined ? `file=${escapeProp(a.file)},` : '';
  return `::${a.level} ${file}title=${escapeProp(a.title)}::${escapeData(a.message)}`;
}
