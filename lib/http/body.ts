// Reads a JSON request body within a size limit, exactly (see json.ts), or throws an ApiError.
import { ApiError } from '../errors';
import { describeJson, jsonBoundBroken, parseJsonExact } from '../shared/json';

export const BODY_LIMIT_BYTES = 64 * 1024;
/** How deep a JSON body may nest arrays and objects; the API's deepest (a batch) nests 2. */
export const JSON_DEPTH_LIMIT = 32;
/**
 * How many values a JSON body may hold, by default: a plant is 4 (the object, id, name, tag), so
 * this leaves ample room for fields a client sends that the API ignores.
 */
export const JSON_VALUES_LIMIT = 1024;

const JSON_MEDIA_TYPE = 'application/json';
const CHARSET_PARAMETER = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;

export type JsonBodyOptions = {
  /** The largest body read, in bytes (default BODY_LIMIT_BYTES). */
  limitBytes?: number;
  /** The media types accepted (default application/json). */
  mediaTypes?: readonly string[];
  /** The most values the body may hold (default JSON_VALUES_LIMIT). */
  maxValues?: number;
};

function assertJsonContentType(request: Request, mediaTypes: readonly string[]): void {
  const contentType = request.headers.get('content-type') ?? '';
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  if (!mediaTypes.includes(mediaType)) {
    const wanted = mediaTypes.join(' or ');
    throw new ApiError(
      'unsupported_media_type',
      contentType ? `Content-Type must be ${wanted}, not ${mediaType.slice(0, 100)}` : `Content-Type must be ${wanted}`,
    );
  }
  const charset = CHARSET_PARAMETER.exec(contentType)?.[1];
  if (charset && !/^utf-?8$/i.test(charset)) {
    throw new ApiError('unsupported_media_type', 'JSON must be encoded as UTF-8 (charset=utf-8)');
  }
}

const cutShort = () => new ApiError('request_timeout', 'The request body did not arrive in full');
const tooLarge = (limit: number) => new ApiError('payload_too_large', `Request body must be at most ${limit} bytes`);

/**
 * Reads the body as UTF-8, stopping as soon as it passes `limit` bytes, so a huge body is never
 * held; a declared size over the limit is refused before reading anything.
 */
export async function readLimitedText(request: Request, limit: number): Promise<string> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > limit) throw tooLarge(limit);
  if (!request.body) return '';

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      // The client went away mid-body, or the server's request timeout (BODY_TIMEOUT_MS, main.mjs)
      // closed the connection: no fault of ours, so no stack in the log, and no 500.
      throw cutShort();
    });
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ApiError('invalid_json', 'Request body is not valid UTF-8');
  }
}

async function readJson(request: Request, expected: 'object' | 'array', options: JsonBodyOptions): Promise<unknown> {
  assertJsonContentType(request, options.mediaTypes ?? [JSON_MEDIA_TYPE]);
  const text = await readLimitedText(request, options.limitBytes ?? BODY_LIMIT_BYTES);
  const wanted = expected === 'object' ? 'a JSON object' : 'a JSON array';
  if (text.trim() === '') throw new ApiError('invalid_json', `Request body is empty: send ${wanted}`);

  const maxValues = options.maxValues ?? JSON_VALUES_LIMIT;
  const broken = jsonBoundBroken(text, JSON_DEPTH_LIMIT, maxValues);
  if (broken === 'depth') {
    throw new ApiError('validation_failed', `Request body nests arrays and objects more than ${JSON_DEPTH_LIMIT} levels deep`);
  }
  if (broken === 'values') throw new ApiError('validation_failed', `Request body holds more than ${maxValues} JSON values`);
  let value: unknown;
  try {
    value = parseJsonExact(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/\s+/g, ' ').slice(0, 200) : '';
    throw new ApiError('invalid_json', `Request body is not valid JSON${detail ? `: ${detail}` : ''}`);
  }
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
  if (expected === 'object' ? !isObject : !Array.isArray(value)) {
    throw new ApiError('validation_failed', `Request body must be ${wanted}, not ${describeJson(value)}`);
  }
  return value;
}

/** The body of a JSON request as a plain object (an array, string, number or null is refused). */
export function readJsonObject(request: Request, options: JsonBodyOptions = {}): Promise<Record<string, unknown>> {
  return readJson(request, 'object', options) as Promise<Record<string, unknown>>;
}

/** The body of a JSON request as an array (an object, string, number or null is refused). */
export function readJsonArray(request: Request, options: JsonBodyOptions = {}): Promise<unknown[]> {
  return readJson(request, 'array', options) as Promise<unknown[]>;
}
