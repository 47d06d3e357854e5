// @ts-check
// The benchmark's floor (bench/run.ts): POST /plants and GET /plants doing the same work as the
// project's routes, with nothing else: bare node:http and better-sqlite3, no framework, no ORM.
//
// Per request, as in app/plants/route.ts: a request id, `Authorization: Bearer` checked (shape,
// CRC32 checksum, SHA-256 hash looked up in an ApiToken table, revoked/expired, lastUsedAt touched
// once a minute), then for POST the Content-Type, the body read with a 64 KiB limit and strict
// UTF-8, parsed exactly (lossless-json, integer literals as bigint, so ids above 2^53 survive),
// validated by the rules of lib/schemas/plant.ts, inserted (UNIQUE id; same content again = 200
// replay, other content = 409), answered with the plant (id as a bare number), and one JSON
// access-log line written to stdout. GET validates limit/cursor and reads the newest `limit`.
//
//   node bench/floor-server.mjs --port 4000 --database /tmp/floor.db --token pst_...
//   PORT=4000 DATABASE=/tmp/floor.db TOKEN=pst_... node bench/floor-server.mjs
//
// It creates its tables if missing and registers the token's hash. /api/health answers 200.
//
// Plain JavaScript that node runs as it is, no loader in between, so the floor is what bare node
// does; tsc checks it from the JSDoc types (// @ts-check above).
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { crc32 } from 'node:zlib';
import Database from 'better-sqlite3';
import { parse } from 'lossless-json';

const BODY_LIMIT_BYTES = 64 * 1024;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const NAME_MAX_LENGTH = 200;
const TAG_MAX_LENGTH = 100;
const LIST_LIMIT_DEFAULT = 20;
const LIST_LIMIT_MAX = 100;
const LAST_USED_PRECISION_MS = 60 * 1000;

const JSON_MEDIA_TYPE = /^application\/json\s*(?:;|$)/i;
const CHARSET_PARAMETER = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;
const BEARER = /^bearer +(\S+) *$/i;
const INTEGER_LITERAL = /^-?(?:0|[1-9]\d*)$/;
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;
const CALLER_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;
const TOKEN_PREFIX = 'pst_';
const TOKEN_BODY_LENGTH = 43;
const WELL_FORMED_TOKEN = /^pst_[0-9A-Za-z]{49}$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// The headers next.config.js puts on every response of the app.
const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/** @typedef {{ status: number, body: string, headers: Record<string, string> }} Answer */
/** @typedef {{ seq: bigint, id: bigint, name: string, tag: string | null }} PlantRow */
/** @typedef {{ id: string, expiresAt: number | null, lastUsedAt: number | null, revokedAt: number | null }} TokenRow */

/** @type {Record<string, [code: number, status: number]>} */
const ERRORS = {
  invalid_json: [40001, 400],
  validation_failed: [40002, 400],
  invalid_parameter: [40003, 400],
  missing_token: [40101, 401],
  invalid_token: [40102, 401],
  expired_token: [40103, 401],
  revoked_token: [40104, 401],
  not_found: [40401, 404],
  method_not_allowed: [40501, 405],
  conflict: [40901, 409],
  payload_too_large: [41301, 413],
  unsupported_media_type: [41501, 415],
  internal: [50001, 500],
};

class ApiError extends Error {
  /**
   * @param {string} kind one of ERRORS' keys
   * @param {string} message
   * @param {Record<string, string>} [headers]
   */
  constructor(kind, message, headers = {}) {
    super(message);
    this.kind = kind;
    this.headers = headers;
  }
}

/** @param {string} kind @param {string} message */
const unauthorized = (kind, message) =>
  new ApiError(kind, message, {
    'www-authenticate':
      kind === 'missing_token'
        ? 'Bearer realm="plants"'
        : `Bearer realm="plants", error="invalid_token", error_description="${message}"`,
  });

/**
 * Tables shaped like prisma/migrations (Plant as is; ApiToken with the columns the check reads).
 * @param {string} file
 */
export function openDatabase(file) {
  const db = new Database(file, { timeout: 5000 });
  db.pragma('journal_mode = WAL');
  // synchronous=FULL, on purpose: it is what the project's server runs with by default
  // (SQLITE_SYNCHRONOUS, lib/db/durability.ts), so the floor syncs at every commit as the project does.
  db.pragma('synchronous = FULL');
  db.exec(`
    CREATE TABLE IF NOT EXISTS "Plant" (
      "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
      "id" BIGINT NOT NULL,
      "name" TEXT NOT NULL,
      "tag" TEXT,
      "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
    );
    CREATE UNIQUE INDEX IF NOT EXISTS "Plant_id_key" ON "Plant"("id");
    CREATE TABLE IF NOT EXISTS "ApiToken" (
      "id" TEXT NOT NULL PRIMARY KEY,
      "hash" TEXT NOT NULL,
      "expiresAt" INTEGER,
      "lastUsedAt" INTEGER,
      "revokedAt" INTEGER
    );
    CREATE UNIQUE INDEX IF NOT EXISTS "ApiToken_hash_key" ON "ApiToken"("hash");
  `);
  return db;
}

/** @param {string} token */
const hashToken = (token) => createHash('sha256').update(token).digest('hex');

/**
 * @param {Database.Database} db
 * @param {string} token
 */
export function registerToken(db, token) {
  db.prepare('INSERT OR IGNORE INTO "ApiToken" ("id", "hash") VALUES (?, ?)').run(`tok_${randomUUID()}`, hashToken(token));
}

/** @param {bigint} value @param {number} length */
function base62(value, length) {
  let text = '';
  while (value > 0n) {
    text = BASE62[Number(value % 62n)] + text;
    value /= 62n;
  }
  return text.padStart(length, '0');
}

/** @param {string} token */
function isWellFormedToken(token) {
  if (!WELL_FORMED_TOKEN.test(token)) return false;
  const body = token.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + TOKEN_BODY_LENGTH);
  return token.endsWith(base62(BigInt(crc32(body)), 6));
}

/** @param {string} text */
const parseNumber = (text) => (INTEGER_LITERAL.test(text) ? BigInt(text) : Number(text));

/** @param {PlantRow} row */
function plantJson(row) {
  const head = `{"id":${row.id},"name":${JSON.stringify(row.name)}`;
  return row.tag === null ? `${head}}` : `${head},"tag":${JSON.stringify(row.tag)}}`;
}

/**
 * @param {unknown} value
 * @param {string} field
 * @param {number} max
 * @param {string[]} problems
 * @param {{ optional?: boolean }} [options]
 */
function checkText(value, field, max, problems, { optional = false } = {}) {
  if (value === undefined) {
    if (!optional) problems.push(`${field}: is required`);
    return undefined;
  }
  if (typeof value !== 'string') {
    problems.push(`${field}: must be a string`);
    return undefined;
  }
  const text = value.trim();
  if (text.length < 1) problems.push(`${field}: must not be empty`);
  else if (text.length > max) problems.push(`${field}: must be at most ${max} characters`);
  else if (!NO_CONTROL_CHARACTERS.test(text)) problems.push(`${field}: must not contain control characters`);
  return text;
}

/**
 * The rules of NewPlant (lib/schemas/plant.ts).
 * @param {Record<string, unknown>} body
 * @returns {{ id: bigint, name: string, tag: string | null }}
 */
function validateNewPlant(body) {
  const problems = [];
  const { id } = body;
  if (id === undefined) problems.push('id: is required');
  else if (typeof id !== 'bigint') problems.push('id: must be an integer without fraction or exponent');
  else if (id < INT64_MIN) problems.push(`id: must be at least ${INT64_MIN}`);
  else if (id > INT64_MAX) problems.push(`id: must be at most ${INT64_MAX}`);
  const name = checkText(body.name, 'name', NAME_MAX_LENGTH, problems);
  const tag = checkText(body.tag, 'tag', TAG_MAX_LENGTH, problems, { optional: true });
  if (problems.length) throw new ApiError('validation_failed', problems.join('; '));
  // No problems: id is a bigint in range and name a string (the checks above).
  return { id: /** @type {bigint} */ (id), name: /** @type {string} */ (name), tag: tag ?? null };
}

/**
 * @param {http.IncomingMessage} request
 * @returns {Promise<Buffer>}
 */
function readBody(request) {
  return new Promise((resolve, reject) => {
    const declared = request.headers['content-length'];
    const tooLarge = () => new ApiError('payload_too_large', `Request body must be at most ${BODY_LIMIT_BYTES} bytes`);
    if (declared !== undefined && Number(declared) > BODY_LIMIT_BYTES) return reject(tooLarge());
    /** @type {Buffer[]} */
    const chunks = [];
    let received = 0;
    /** @param {Buffer} chunk */
    const onData = (chunk) => {
      received += chunk.length;
      if (received > BODY_LIMIT_BYTES) {
        request.off('data', onData);
        request.resume();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    request.on('data', onData);
    request.on('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/**
 * @param {http.IncomingMessage} request
 * @returns {Promise<Record<string, unknown>>}
 */
async function readJsonObject(request) {
  const contentType = request.headers['content-type'] ?? '';
  if (!JSON_MEDIA_TYPE.test(contentType.trim())) {
    throw new ApiError('unsupported_media_type', 'Content-Type must be application/json');
  }
  const charset = CHARSET_PARAMETER.exec(contentType)?.[1];
  if (charset && !/^utf-?8$/i.test(charset)) {
    throw new ApiError('unsupported_media_type', 'JSON must be encoded as UTF-8 (charset=utf-8)');
  }
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await readBody(request));
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError('invalid_json', 'Request body is not valid UTF-8');
  }
  if (text.trim() === '') throw new ApiError('invalid_json', 'Request body is empty: send a JSON object');
  let value;
  try {
    value = parse(text, null, parseNumber);
  } catch (error) {
    throw new ApiError('invalid_json', `Request body is not valid JSON: ${String(/** @type {Error} */ (error).message).slice(0, 200)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError('validation_failed', 'Request body must be a JSON object');
  }
  return /** @type {Record<string, unknown>} */ (value);
}

/** @param {Database.Database} db */
export function createFloorServer(db) {
  const findToken = /** @type {Database.Statement<[string], TokenRow>} */ (
    db.prepare('SELECT "id", "expiresAt", "revokedAt", "lastUsedAt" FROM "ApiToken" WHERE "hash" = ?')
  );
  const touchToken = db.prepare('UPDATE "ApiToken" SET "lastUsedAt" = ? WHERE "id" = ?');
  const insertPlant = /** @type {Database.Statement<[bigint, string, string | null], PlantRow>} */ (
    db.prepare('INSERT INTO "Plant" ("id", "name", "tag") VALUES (?, ?, ?) RETURNING "seq", "id", "name", "tag"').safeIntegers(true)
  );
  const findPlant = /** @type {Database.Statement<[bigint], PlantRow>} */ (
    db.prepare('SELECT "seq", "id", "name", "tag" FROM "Plant" WHERE "id" = ?').safeIntegers(true)
  );
  const newest = /** @type {Database.Statement<[number], PlantRow>} */ (
    db.prepare('SELECT "seq", "id", "name", "tag" FROM "Plant" ORDER BY "seq" DESC LIMIT ?').safeIntegers(true)
  );
  const newestBefore = /** @type {Database.Statement<[number, number], PlantRow>} */ (
    db.prepare('SELECT "seq", "id", "name", "tag" FROM "Plant" WHERE "seq" < ? ORDER BY "seq" DESC LIMIT ?').safeIntegers(true)
  );

  /** @param {http.IncomingMessage} request */
  function authenticate(request) {
    const header = request.headers.authorization;
    if (!header?.trim()) throw unauthorized('missing_token', 'Missing bearer token: send Authorization: Bearer <token>');
    const token = BEARER.exec(header)?.[1];
    if (!token) throw unauthorized('invalid_token', 'The Authorization header must be "Bearer <token>"');
    if (!token.startsWith(TOKEN_PREFIX)) throw unauthorized('invalid_token', 'The bearer token is not known');
    if (!isWellFormedToken(token)) throw unauthorized('invalid_token', 'The API token is malformed (checksum mismatch)');
    const record = findToken.get(hashToken(token));
    if (!record) throw unauthorized('invalid_token', 'The API token is not known');
    const now = Date.now();
    if (record.revokedAt !== null) throw unauthorized('revoked_token', 'The API token has been revoked');
    if (record.expiresAt !== null && record.expiresAt <= now) throw unauthorized('expired_token', 'The API token has expired');
    if (record.lastUsedAt === null || now - record.lastUsedAt >= LAST_USED_PRECISION_MS) touchToken.run(now, record.id);
  }

  /**
   * @param {http.IncomingMessage} request
   * @returns {Promise<Answer>}
   */
  async function createPlant(request) {
    authenticate(request);
    const input = validateNewPlant(await readJsonObject(request));
    try {
      return { status: 200, body: plantJson(/** @type {PlantRow} RETURNING's one row */ (insertPlant.get(input.id, input.name, input.tag))), headers: {} };
    } catch (error) {
      if (/** @type {{ code?: string } | undefined} */ (error)?.code !== 'SQLITE_CONSTRAINT_UNIQUE') throw error;
    }
    const existing = findPlant.get(input.id);
    if (existing && existing.name === input.name && existing.tag === input.tag) {
      return { status: 200, body: plantJson(existing), headers: { 'idempotent-replayed': 'true' } };
    }
    throw new ApiError('conflict', `id: a plant with id ${input.id} already exists with a different name or tag; choose another id`);
  }

  /**
   * @param {http.IncomingMessage} request
   * @param {URL} url
   * @returns {Answer}
   */
  function listPage(request, url) {
    authenticate(request);
    const limitText = url.searchParams.get('limit');
    const cursorText = url.searchParams.get('cursor');
    let limit = LIST_LIMIT_DEFAULT;
    if (limitText !== null) {
      limit = /^\d+$/.test(limitText) ? Number(limitText) : NaN;
      if (!(limit >= 1 && limit <= LIST_LIMIT_MAX)) {
        throw new ApiError('invalid_parameter', `limit: must be a whole number from 1 to ${LIST_LIMIT_MAX}`);
      }
    }
    let before;
    if (cursorText !== null) {
      const seq = /^[A-Za-z0-9_-]{1,32}$/.test(cursorText)
        ? /^s(\d{1,15})$/.exec(Buffer.from(cursorText, 'base64url').toString())?.[1]
        : undefined;
      if (seq === undefined) throw new ApiError('invalid_parameter', 'cursor: must be a cursor returned by a previous page');
      before = Number(seq);
    }
    const rows = before === undefined ? newest.all(limit + 1) : newestBefore.all(before, limit + 1);
    const page = rows.slice(0, limit);
    /** @type {Record<string, string>} */
    const headers = {};
    if (rows.length > limit) {
      const cursor = Buffer.from(`s${page[page.length - 1].seq}`).toString('base64url');
      const next = new URLSearchParams(url.searchParams);
      next.set('cursor', cursor);
      headers.link = `<${url.pathname}?${next}>; rel="next"`;
      headers['next-cursor'] = cursor;
    }
    return { status: 200, body: `[${page.map(plantJson).join(',')}]`, headers };
  }

  /**
   * @param {http.IncomingMessage} request
   * @param {URL} url
   * @returns {Promise<Answer>}
   */
  async function route(request, url) {
    if (url.pathname === '/api/health') return { status: 200, body: '{"status":"ok"}', headers: { 'cache-control': 'no-store' } };
    if (url.pathname !== '/plants') throw new ApiError('not_found', `No route ${url.pathname}`);
    if (request.method === 'POST') return createPlant(request);
    if (request.method === 'GET') return listPage(request, url);
    throw new ApiError('method_not_allowed', `${request.method} is not supported here; use GET or POST`, {
      allow: 'GET, HEAD, POST, OPTIONS',
    });
  }

  return http.createServer(async (request, response) => {
    const started = performance.now();
    // One header, so one string: node joins a repeated x-request-id with ", ".
    const given = /** @type {string | undefined} */ (request.headers['x-request-id']);
    const requestId = given && CALLER_REQUEST_ID.test(given) ? given : randomUUID();
    const url = new URL(/** @type {string} */ (request.url), 'http://floor');
    let answer;
    try {
      answer = await route(request, url);
    } catch (error) {
      const kind = error instanceof ApiError ? error.kind : 'internal';
      if (kind === 'internal') process.stderr.write(`${JSON.stringify({ level: 'error', requestId, error: String(/** @type {Error | undefined} */ (error)?.stack ?? error) })}\n`);
      const [code, status] = ERRORS[kind];
      const message = kind === 'internal' ? 'Internal error' : /** @type {ApiError} */ (error).message;
      answer = { status, body: JSON.stringify({ error: code, message }), headers: error instanceof ApiError ? error.headers : {} };
    }
    response.writeHead(answer.status, {
      ...SECURITY_HEADERS,
      ...answer.headers,
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(answer.body),
      'x-request-id': requestId,
    });
    response.end(answer.body);
    const ms = Math.round((performance.now() - started) * 10) / 10;
    process.stdout.write(
      `${JSON.stringify({ time: new Date().toISOString(), level: 'info', msg: 'request', requestId, method: request.method, path: url.pathname, status: answer.status, ms })}\n`,
    );
  });
}

function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      hostname: { type: 'string' },
      database: { type: 'string' },
      token: { type: 'string' },
    },
  });
  const port = Number(values.port ?? process.env.PORT ?? 4000);
  const hostname = values.hostname ?? process.env.HOSTNAME ?? '127.0.0.1';
  const file = (values.database ?? process.env.DATABASE ?? '').replace(/^file:/, '');
  const token = values.token ?? process.env.TOKEN;
  if (!file || !token) {
    process.stderr.write('usage: node bench/floor-server.mjs --port P --database FILE --token pst_... (or PORT, DATABASE, TOKEN)\n');
    process.exit(2);
  }
  const db = openDatabase(file);
  registerToken(db, token);
  const server = createFloorServer(db);
  server.listen(port, hostname, () => process.stderr.write(`floor server listening on http://${hostname}:${port}\n`));
  const stop = () => {
    server.close(() => (db.close(), process.exit(0)));
    server.closeAllConnections();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
