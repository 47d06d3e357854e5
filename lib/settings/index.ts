// The service's settings, read from the environment once per process: every module reads them
// here, typed (settings().PORT is a number), never process.env itself. Each is parsed by its zod
// schema (schema.ts); a value that cannot be read is refused with a message that names the
// variable, what it takes and what it got. npm start checks them all before it starts anything
// (checkSettings: every problem at once, then exit 1). Where nothing starts the server (Vercel, or
// the server run alone), they are read at first use, and a setting that was refused throws with
// that message wherever it is read: that request answers 500 and the log says why, while what
// reads only good settings still serves.
import 'server-only';
import { processWide } from '../process-wide';
import { SETTINGS, settleTogether, type SettingName, type Settings } from './schema';

export {
  AUTH_SECRET_MIN_BYTES,
  DEFAULT_BACKUP_INTERVAL,
  DEFAULT_BACKUP_KEEP,
  DEFAULT_DATABASE_URL,
  HOW_TO_MAKE_AUTH_SECRET,
  NOT_A_DATABASE_URL,
  type Settings,
  type SqliteSynchronous,
} from './schema';

/** Settings that cannot be read: one line for each, naming the variable, what it takes and what it got. */
export class SettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'SettingsError';
  }
}

export type ReadSettings = {
  /** Every setting; reading one that was refused throws its SettingsError. */
  settings: Settings;
  /** Every refusal, in the order of the settings. */
  problems: string[];
};

/** The settings `env` gives, each read by its schema. */
export function readSettings(env: Record<string, string | undefined>): ReadSettings {
  const names = Object.keys(SETTINGS) as SettingName[];
  const values: Partial<Record<SettingName, unknown>> = {};
  const problems: Partial<Record<SettingName, string>> = {};
  for (const name of names) {
    const result = SETTINGS[name].schema.safeParse(env[name]);
    if (result.success) values[name] = result.data;
    else problems[name] = result.error.issues.map((issue) => `${name} ${issue.message}`).join('; ');
  }
  Object.assign(problems, settleTogether(values));
  const settings = {} as Settings;
  for (const name of names) {
    const problem = problems[name];
    Object.defineProperty(
      settings,
      name,
      problem === undefined
        ? { value: values[name], enumerable: true }
        : {
            get: () => {
              throw new SettingsError([problem]);
            },
            enumerable: true,
          },
    );
  }
  return { settings: Object.freeze(settings), problems: names.flatMap((name) => problems[name] ?? []) };
}

// Once per process, not per route bundle (lib/process-wide.ts): npm start, the server and Next's
// bundles in one process read the same.
const read = processWide<{ current?: ReadSettings }>('settings', () => ({}));

/** This process's settings, read from its environment on first use. */
export function settings(): Settings {
  return (read.current ??= readSettings(process.env)).settings;
}

/** Reads the settings again, and throws one SettingsError listing every problem, if there are any. */
export function checkSettings(): Settings {
  const { problems } = (read.current = readSettings(process.env));
  if (problems.length > 0) throw new SettingsError(problems);
  return read.current.settings;
}

/**
 * The next settings() reads the environment again: for npm start, which sets DATABASE_URL (made
 * absolute) and AUTH_SECRET for the server it then loads into its own process, and for tests that
 * change the environment (test/support/settings.ts).
 */
export function rereadSettings(): void {
  read.current = undefined;
}
