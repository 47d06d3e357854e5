// A fresh install has no staff account, so nobody can sign in: say how to make one, once, when
// the server starts.
import 'server-only';
import { log } from '../../log';
import { operatorCommand } from '../../shared/operator-commands';
import { countUsers } from './directory';

export async function hintWhenNoStaff(): Promise<void> {
  try {
    if ((await countUsers()) === 0) {
      log.warn(`no staff account yet: create the first admin with  ${operatorCommand('user', 'create --email you@example.com')}`);
    }
  } catch (error) {
    log.warn('could not count staff accounts', { error: error instanceof Error ? error.message : String(error) });
  }
}
