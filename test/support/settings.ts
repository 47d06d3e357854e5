// Tests that change this process's environment change it here. The settings (lib/settings) are read
// once per process, as the server reads them; each change here has them read again.
import { rereadSettings } from '../../lib/settings';

type Env = Record<string, string | undefined>;

function write(values: Env): void {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rereadSettings();
}

/** What puts the variables `names` back as they are now (for afterEach), and has the settings read again. */
export function envAsItIs(...names: string[]): () => void {
  const saved: Env = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  return () => write(saved);
}

/** Sets each variable (undefined unsets it) and has the settings read again; returns what puts them back. */
export function setEnv(values: Env): () => void {
  const restore = envAsItIs(...Object.keys(values));
  write(values);
  return restore;
}
