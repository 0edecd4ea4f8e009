/** A usage or input error: printed without a stack, exit code 2. */
export class CliError extends Error {}

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value) + '\n');
}

/** Prints rows as an aligned text table. */
export function printTable(rows: Record<string, string | null>[], columns: string[]): void {
  if (rows.length === 0) {
    process.stdout.write('(none)\n');
    return;
  }
  const cell = (v: string | null | undefined) => v ?? '-';
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  process.stdout.write(
    [
      line(columns.map((c) => c.toUpperCase())),
      ...rows.map((r) => line(columns.map((c) => cell(r[c])))),
    ].join('\n') + '\n',
  );
}
