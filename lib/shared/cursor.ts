// List cursors are opaque to clients: base64url of where the page ended, in the list's order. The
// first letter names the order, so a cursor is refused with another sort; then the plant's `seq`,
// and what else the order compares (the id, or the folded name). Cursors of the default order,
// newest first, keep their earlier form (`s` and the seq).
import 'server-only';
import { ApiError } from '../errors';

/** The sorts of `GET /plants` (their schema is in lib/schemas/list.ts). */
export type PlantSort = '-created' | 'created' | '-name' | 'name' | '-id' | 'id';

const LETTERS: Record<PlantSort, string> = { '-created': 's', created: 'c', '-name': 'N', name: 'n', '-id': 'I', id: 'i' };

/** Where a page ended: the plant's `seq`, its id, and its folded name. */
export type CursorPosition = { seq: number; id: bigint; folded: string };

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export function encodeCursor(seq: number, sort: PlantSort = '-created', position?: Omit<CursorPosition, 'seq'>): string {
  const letter = LETTERS[sort];
  const rest = sort.endsWith('id') ? `.${position!.id}` : sort.endsWith('name') ? `.${position!.folded}` : '';
  return Buffer.from(`${letter}${seq}${rest}`).toString('base64url');
}

const invalid = () => new ApiError('invalid_parameter', 'cursor: must be a cursor returned by a previous page');

/** The position a cursor names; the fields its order does not compare are left at zero and empty. */
export function decodeCursorPosition(cursor: string, sort: PlantSort = '-created'): CursorPosition {
  const text = Buffer.from(cursor, 'base64url').toString();
  const match = /^([A-Za-z])(\d{1,15})(?:\.([^]*))?$/.exec(text);
  if (!match || match[1] !== LETTERS[sort]) throw invalid();
  const seq = Number(match[2]);
  const rest = match[3];
  if (sort.endsWith('id')) {
    if (rest === undefined || !/^-?\d{1,19}$/.test(rest)) throw invalid();
    const id = BigInt(rest);
    if (id < INT64_MIN || id > INT64_MAX) throw invalid();
    return { seq, id, folded: '' };
  }
  if (sort.endsWith('name')) {
    if (rest === undefined) throw invalid();
    return { seq, id: 0n, folded: rest };
  }
  if (rest !== undefined) throw invalid();
  return { seq, id: 0n, folded: '' };
}

/** The `seq` of a cursor of the default order (newest first). */
export function decodeCursor(cursor: string): number {
  return decodeCursorPosition(cursor).seq;
}
