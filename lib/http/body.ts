// Reads a JSON request body within a size limit, exactly (see json.ts), or throws an ApiError.
import { ApiError } from './errors';
import { parseJsonExact } from './json';

export const BODY_LIMIT_BYTES = 64 * 1024;

const JSON_MEDIA_TYPE = /^application\/json\s*(?:;|$)/i;
const CHARSET_PARAMETER = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;

function assertJsonContentType(request: Request): void {
  const contentType = request.headers.get('content-type') ?? '';
  if (!JSON_MEDIA_TYPE.test(contentType.trim())) {
    throw new ApiError(
      'unsupported_media_type',
      contentType
        ? `Content-Type must be application/json, not ${contentType.split(';')[0].trim().slice(0, 100)}`
        : 'Content-Type must be application/json',
    );
  }
  const charset = CHARSET_PARAMETER.exec(contentType)?.[1];
  if (charset && !/^utf-?8$/i.test(charset)) {
    throw new ApiError('unsupported_media_type', 'JSON must be encoded as UTF-8 (charset=utf-8)');
  }
}

const tooLarge = () => new ApiError('payload_too_large', `Request body must be at most ${BODY_LIMIT_BYTES} bytes`);

/** Reads the body as UTF-8, stopping as soon as it passes the limit, so a huge body is never held. */
async function readLimitedText(request: Request): Promise<string> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > BODY_LIMIT_BYTES) throw tooLarge();
  if (!request.body) return '';

  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > BODY_LIMIT_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
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

/** The body of a JSON request as a plain object (an array, string, number or null is refused). */
export async function readJsonObject(request: Request): Promise<Record<string, unknown>> {
  assertJsonContentType(request);
  const text = await readLimitedText(request);
  if (text.trim() === '') throw new ApiError('invalid_json', 'Request body is empty: send a JSON object');

  let value: unknown;
  try {
    value = parseJsonExact(text);
  } catch (error) {
    const detail = error instanceof Error ? error.message.replace(/\s+/g, ' ').slice(0, 200) : '';
    throw new ApiError('invalid_json', `Request body is not valid JSON${detail ? `: ${detail}` : ''}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const found = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value === 'bigint' ? 'number' : typeof value}`;
    throw new ApiError('validation_failed', `Request body must be a JSON object, not ${found}`);
  }
  return value as Record<string, unknown>;
}
