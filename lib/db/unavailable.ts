// Whether a failure means the database cannot be reached or used right now (down, restarting,
// out of connections, its file unopenable or locked), as opposed to a fault in what was asked of
// it. Those are answered 503 with Retry-After (lib/http/respond.ts): the client did nothing wrong,
// and the same request may well succeed in a moment.
import 'server-only';
import { isDatabaseBusyError } from './busy';

// Prisma's codes for a database it cannot reach, log in to or find, a connection that closed, a
// pool or transaction start that timed out, too many connections.
const PRISMA_CODES = new Set(['P1000', 'P1001', 'P1002', 'P1003', 'P1008', 'P1010', 'P1011', 'P1017', 'P2024', 'P2028', 'P2037']);
// The same, as a driver adapter names them (Prisma 7 keeps the adapter's error as a cause).
const ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'DatabaseDoesNotExist',
  'DatabaseAccessDenied',
  'ConnectionClosed',
  'TlsConnectionError',
  'AuthenticationFailed',
  'TooManyConnections',
  'SocketTimeout',
]);
// node-postgres: SQLSTATE class 08 (connection exception), the server shutting down or starting
// up (57P01-57P03), too many connections (53300), no such database (3D000).
const POSTGRES_STATES = /^(08...|57P0[123]|53300|3D000)$/;
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'EPIPE']);
// better-sqlite3: the file cannot be opened or read, is not a database, is locked, or the disk is full.
const SQLITE_CODES = /^SQLITE_(CANTOPEN|IOERR|NOTADB|BUSY|LOCKED|FULL)/;

type Failure = { name?: unknown; code?: unknown; kind?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };

export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending = [error];
  while (pending.length > 0) {
    const failure = pending.pop();
    if (typeof failure !== 'object' || failure === null || seen.has(failure) || seen.size > 10) continue;
    seen.add(failure);
    if (isDatabaseBusyError(failure)) return true;
    const { name, code, kind, cause, meta } = failure as Failure;
    if (name === 'PrismaClientInitializationError') return true;
    if (typeof code === 'string' && (PRISMA_CODES.has(code) || POSTGRES_STATES.test(code) || NETWORK_CODES.has(code) || SQLITE_CODES.test(code))) return true;
    if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true;
    pending.push(cause, meta?.driverAdapterError);
  }
  return false;
}
