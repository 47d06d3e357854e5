// Plant names as long as a name may be, each of other text: the most work a plant's search entries
// are (each distinct run of three characters is an entry), so a batch of them is the longest a
// batch's transaction takes.
import { NAME_MAX_LENGTH } from '../../lib/schemas/limits';

/** `start`, then letters that follow from it, up to NAME_MAX_LENGTH characters. */
export function longName(start: string): string {
  let name = start;
  let state = [...start].reduce((hash, character) => (hash * 31 + character.charCodeAt(0)) >>> 0, 7);
  while (name.length < NAME_MAX_LENGTH) {
    state = (state * 1103515245 + 12345) >>> 0;
    name += 'abcdefghijklmnopqrstuvwxyz '[state % 27];
  }
  return name;
}
