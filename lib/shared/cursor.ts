// List cursors are opaque to clients: base64url of the storage position where the page ended.
import 'server-only';
import { ApiError } from '../errors';

export function encodeCursor(seq: number): string {
  return Buffer.from(`s${seq}`).toString('base64url');
}

export function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString();
  const seq = /^s(\d{1,15})$/.exec(text)?.[1];
  if (seq === undefined) throw new ApiError('invalid_parameter', 'cursor: must be a cursor returned by a previous page');
  return Number(seq);
}
