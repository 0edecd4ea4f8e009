/** The current time as the ISO-8601 string every timestamp column stores. */
export function nowIso(): string {
  return new Date().toISOString();
}

/** A timestamp column as the API shows it: PostgreSQL returns Date, SQLite the stored text. */
export function toIso(value: string | Date): string;
export function toIso(value: string | Date | null): string | null;
export function toIso(value: string | Date | null): string | null {
  if (value === null) return null;
  return value instanceof Date ? value.toISOString() : value;
}
