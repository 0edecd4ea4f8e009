// Form submissions as CSV (RFC 4180): one column per field name seen. A cell that a spreadsheet
// would run as a formula (starting with = + - @, or a tab/carriage return) is prefixed with a
// quote, since visitors of the sites type these values.
import type { Submission } from '../modules/forms/schema.ts';

export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function submissionsCsv(submissions: Submission[]): string {
  const fields = [...new Set(submissions.flatMap((s) => Object.keys(s.fields)))];
  const header = ['received_at', 'form', 'page', ...fields];
  const rows = submissions.map((s) => [
    s.created_at,
    s.form,
    s.page ?? '',
    ...fields.map((f) => s.fields[f] ?? ''),
  ]);
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
