/** Level names by pino's numeric levels. */
const LEVEL_NAMES: Readonly<Record<number, string>> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** Fields every line has, shown in fixed places instead of as `key=value`. */
const PLACED = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'context']);

/**
 * Renders one pino JSON line for a person at a terminal: `HH:MM:SS.mmm LEVEL [context] message
 * key=value…`. Strings with spaces or quotes are JSON-quoted, so a hostile value cannot fake
 * a second line. Text that is not a JSON object is returned unchanged.
 */
export function formatLogLine(line: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (record === null || typeof record !== 'object') return line;
  const time = typeof record['time'] === 'number' ? new Date(record['time']).toISOString().slice(11, 23) : '--:--:--.---';
  const level = (LEVEL_NAMES[Number(record['level'])] ?? String(record['level'])).padEnd(5);
  const context = typeof record['context'] === 'string' ? ` [${record['context']}]` : '';
  const fields = Object.entries(record)
    .filter(([key, value]) => !PLACED.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${formatValue(value)}`);
  const message = typeof record['msg'] === 'string' ? record['msg'] : '';
  return `${time} ${level}${context} ${[message, ...fields].filter((part) => part !== '').join(' ')}\n`;
}

function formatValue(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' || value === undefined || value === null) return String(value);
  // Objects and the rest (symbols, functions) as JSON; what JSON cannot show prints empty.
  return JSON.stringify(value) ?? '';
}

/** A pino destination that writes {@link formatLogLine}'s rendering to `out` (a terminal). */
export class TtyLogStream {
  constructor(private readonly out: { write(text: string): unknown }) {}

  write(line: string): void {
    this.out.write(formatLogLine(line));
  }
}
