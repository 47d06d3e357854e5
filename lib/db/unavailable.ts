// Whether a failure means the database cannot be reached or used right now (down, restarting,
// refusing connections or out of them, a connection cut, its file unopenable or locked), as opposed
// to a fault in what was asked of it. Those are answered 503 with Retry-After
// (lib/http/error-response.ts), whatever the operation: the client did nothing wrong, and the same
// request may well succeed in a moment.
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
// PostgreSQL's refusals and cuts, as node-postgres reports them or Prisma's adapter passes them on
// (its `postgres` kind keeps the SQLSTATE and severity): SQLSTATE class 08 (connection exception),
// the server ending sessions, crashed or starting up (57P01-57P03), too many connections (53300),
// no such database (3D000). And any error PostgreSQL sends with severity FATAL or PANIC: it ends
// the session, so it is about the connection, never the statement. That is how a database that
// does not accept connections (ALTER DATABASE ... ALLOW_CONNECTIONS false) refuses: 55000, FATAL.
// 55000 (object not in prerequisite state) alone is not a refusal: a statement gets it for
// faults of its own (currval of a sequence not yet used in the session), and those stay a 500.
const POSTGRES_STATES = /^(08...|57P0[123]|53300|3D000)$/;
const SESSION_ENDING = new Set(['FATAL', 'PANIC']);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'EPIPE']);
// node-postgres and its pool say a connection was lost, or never made, in words alone (no code):
// the server or the network closed it mid-statement, a new connection did not complete within the
// pool's connectionTimeoutMillis (a host that has gone silent), none came free within it, or a
// client whose connection failed was asked again.
const POSTGRES_CLIENT_MESSAGES = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
]);
// better-sqlite3: the file cannot be opened or read, is not a database, is locked, or the disk is full.
const SQLITE_CODES = /^SQLITE_(CANTOPEN|IOERR|NOTADB|BUSY|LOCKED|FULL)/;

type Failure = { name?: unknown; code?: unknown; severity?: unknown; message?: unknown; kind?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };

export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending = [error];
  while (pending.length > 0) {
    const failure = pending.pop();
    if (typeof failure !== 'object' || failure === null || seen.has(failure) || seen.size > 10) continue;
    seen.add(failure);
    if (isDatabaseBusyError(failure)) return true;
    const { name, code, severity, message, kind, cause, meta } = failure as Failure;
    if (name === 'PrismaClientInitializationError') return true;
    if (typeof code === 'string' && (PRISMA_CODES.has(code) || POSTGRES_STATES.test(code) || NETWORK_CODES.has(code) || SQLITE_CODES.test(code))) return true;
    if (typeof severity === 'string' && SESSION_ENDING.has(severity)) return true;
    if (code === undefined && typeof message === 'string' && POSTGRES_CLIENT_MESSAGES.has(message)) return true;
    if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true;
    pending.push(cause, meta?.driverAdapterError);
  }
  return false;
}
