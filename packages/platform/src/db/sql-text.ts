/**
 * A value as an SQL literal, quoted as pg would send it as a parameter's text: an untyped
 * literal takes its type from where it stands, as a parameter does. Arrays become array literals
 * (one level), objects JSON, dates ISO times in UTC (pg sends local time with its offset: the
 * same instant for timestamptz; for a `timestamp` or `date` column give a string instead).
 * Buffers, `toPostgres` objects and nested arrays are not written here.
 */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  return quote(asText(value));
}

/**
 * A string as a literal: as pg's escapeLiteral writes it (an E'' string, its quotes and
 * backslashes doubled, when it has a backslash), with the regular expression engine rather than
 * a loop over its characters: the texts here are whole batches of rows.
 */
export function quote(text: string): string {
  const quoted = text.replace(/'/g, "''");
  return text.includes('\\') ? ` E'${quoted.replace(/\\/g, '\\\\')}'` : `'${quoted}'`;
}

/** A log position written into SQL text as a bare number (a whole number, or it throws). */
export function sqlPosition(position: number): string {
  if (!Number.isSafeInteger(position)) throw new Error(`not a position: ${position}`);
  return String(position);
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) throw new Error('bytes are not written as literals');
  if (Array.isArray(value)) return `{${value.map(arrayElement).join(',')}}`;
  return JSON.stringify(value);
}

function arrayElement(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (Array.isArray(value)) throw new Error('nested arrays are not written as literals');
  return `"${asText(value).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * A parameterised statement as one text, its `$1`… replaced by literals, so that several can go
 * to the server in one simple query (one round trip). The statement's own text must hold no `$n`
 * other than its parameters (no dollar-quoted bodies, no `$` in its string literals).
 */
export function inlineParams(text: string, params: readonly unknown[] = []): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const i = Number(n) - 1;
    if (i < 0 || i >= params.length) throw new Error(`no parameter $${n} for: ${text.slice(0, 80)}`);
    return sqlLiteral(params[i]);
  });
}
