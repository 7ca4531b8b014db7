/** The summary `shale import` prints at the end, and its exit code. */
import { formatBytes, formatCount, formatDuration, perSecond } from './import-format.js';
import { failureLine, type ImportResult, type ImportStatus } from './import-run.js';

/** 0 every statement succeeded, 1 statement errors, 2 usage or connection errors. */
export function importExitCode(status: ImportStatus): number {
  return status === 'ok' ? 0 : status === 'failed' ? 1 : 2;
}

export function formatImportReport(r: ImportResult): string {
  const lines: string[] = [];
  if (r.fatal !== undefined) lines.push(`error: ${r.fatal}`);
  if (r.stopped && r.failures[0] !== undefined) {
    lines.push(`error: ${failureLine(r.failures[0])}`, 'Stopped at the first error (--continue-on-error runs on).');
  }
  const heading = r.status === 'ok' ? 'Imported' : r.stopped || r.fatal !== undefined ? 'Import stopped' : 'Imported with errors';
  lines.push(`${heading}: ${r.file} into ${r.target}`);
  if (r.fatal === undefined || r.statements > 0) {
    lines.push(
      `  statements  ${formatCount(r.statements - r.failed)} succeeded, ${formatCount(r.failed)} failed`,
      `  rows        ${formatCount(r.rowsAffected)} affected`,
      `  data        ${formatBytes(r.bytesDone)} of ${formatBytes(r.totalBytes)} in ${formatDuration(r.elapsedMs)} ` +
        `(${formatBytes(perSecond(r.bytesDone, r.elapsedMs))}/s, ${formatCount(perSecond(r.statements, r.elapsedMs))} statements/s)`,
    );
  }
  if (!r.stopped && r.failed > 0) {
    const counts = [...r.failureCounts].map(([k, n]) => `${k} ×${formatCount(n)}`).join(', ');
    lines.push(`  errors      ${counts}`);
    lines.push(r.failures.length === r.failed ? 'Failed statements:' : `First ${r.failures.length} of ${formatCount(r.failed)} failed statements:`);
    for (const f of r.failures) lines.push(`  ${failureLine(f).replace(/\n/g, '\n  ')}`);
  }
  return lines.join('\n') + '\n';
}
