// Structured logs: one JSON object per line, on stdout (requests) or stderr (faults).
// Never pass tokens, passwords or request bodies here.

import 'server-only';
import { processWide } from './process-wide';
import { traceFields } from './tracing/spans';

type Fields = Record<string, string | number | boolean | null | undefined | readonly string[]>;

const destination = processWide('log-destination', () => ({ info: process.stdout as NodeJS.WritableStream }));

/** For operator commands, whose stdout is their own output. */
export function sendInfoLogsToStderr(): void {
  destination.info = process.stderr;
}

// With tracing on, a line written inside a span names it (trace_id, span_id), so a log search and
// a trace lead to each other.
function line(level: 'info' | 'warn' | 'error', message: string, fields: Fields): string {
  return `${JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...fields, ...traceFields() })}\n`;
}

export const log = {
  info(message: string, fields: Fields = {}) {
    destination.info.write(line('info', message, fields));
  },
  warn(message: string, fields: Fields = {}) {
    process.stderr.write(line('warn', message, fields));
  },
  error(message: string, fields: Fields = {}) {
    process.stderr.write(line('error', message, fields));
  },
};
