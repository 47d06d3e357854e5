// Shared plumbing of the operator commands: clear errors on stderr and a non-zero exit, tables,
// text from the database made safe to print, and passwords read without putting them where other
// users of the machine can see them.
import { setFlagsFromString } from 'node:v8';
import { sendInfoLogsToStderr } from '../lib/log';

export class UsageError extends Error {}

/** Runs a command's main function; failures print one line to stderr and set the exit code. */
export function runCli(usage: string, main: () => Promise<void>): void {
  // A command lives for a fraction of a second, and Prisma's query compiler and migration engine
  // are WebAssembly, which V8 compiles once quickly (Liftoff) and again, optimized, in the
  // background: that second compilation was about half of a command's CPU and never paid for
  // itself (docs/performance.md#start-up). Set before the first query, which is when Prisma
  // compiles its module.
  setFlagsFromString('--liftoff-only');
  // stdout is the command's own output (a new token is its last line); log lines go beside errors.
  sendInfoLogsToStderr();
  main().then(
    () => process.exit(process.exitCode ?? 0),
    (error: unknown) => {
      if (error instanceof UsageError) {
        process.stderr.write(`error: ${error.message}\n\n${usage}\n`);
        process.exit(2);
      }
      process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}

/** Runs the command the first argument names (`npm run x -- COMMAND ARGS...`) with the rest. */
export function runCommands(usage: string, commands: Record<string, (args: string[]) => Promise<void>>): void {
  runCli(usage, async () => {
    const [command, ...args] = process.argv.slice(2);
    if (command === undefined) throw new UsageError('a command is required');
    if (!Object.hasOwn(commands, command)) throw new UsageError(`unknown command "${command}"`);
    await commands[command](args);
  });
}

export function formatDate(date: Date | null): string {
  return date ? date.toISOString().replace('T', ' ').slice(0, 16) : '-';
}

// Control characters (an ANSI escape sequence can rewrite what a terminal shows), line separators
// and bidirectional overrides (which reorder what follows them).
const UNPRINTABLE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/** Text from the database, made safe to print to a terminal: unprintable characters as \u escapes. */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (character) => `\\u${character.codePointAt(0)!.toString(16).padStart(4, '0')}`);
}

/** Prints rows under a header, each column as wide as its widest cell, every cell printable(). */
export function printTable(header: string[], rows: string[][]): void {
  const cells = rows.map((row) => row.map(printable));
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((row) => row[column].length)));
  for (const row of [header, ...cells]) {
    process.stdout.write(`${row.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd()}\n`);
  }
}

// Far above any password the rules accept, and a bound on what stdin may make us hold.
const MAX_PASSWORD_INPUT_BYTES = 8 * 1024;

/** All of stdin, without its one trailing newline (as `printf '%s\n' "$PASSWORD" |` sends it). */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_PASSWORD_INPUT_BYTES) throw new UsageError(`--password-stdin reads at most ${MAX_PASSWORD_INPUT_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/** Reads a line from the terminal without echoing it. */
function promptHidden(question: string): Promise<string> {
  const input = process.stdin;
  // Echo off before the question appears, so nothing typed after it can be echoed.
  input.setRawMode(true);
  input.setEncoding('utf8');
  input.resume();
  process.stderr.write(question);
  return new Promise((resolve, reject) => {
    let typed: string[] = [];
    const finish = (outcome: () => void) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write('\n');
      outcome();
    };
    const onData = (chunk: string) => {
      for (const character of chunk) {
        if (character === '\r' || character === '\n') return finish(() => resolve(typed.join('')));
        if (character === '\u0003' || character === '\u0004') return finish(() => reject(new Error('cancelled')));
        if (character === '\u007f' || character === '\b') typed = typed.slice(0, -1);
        else if (character >= ' ') typed.push(character);
      }
    };
    input.on('data', onData);
  });
}

/**
 * The password for a command: typed at a hidden prompt (twice), read from stdin with
 * `--password-stdin`, or, with a warning, taken from `--password`, where `ps`, /proc and shell
 * history show it to other users of the machine.
 */
export async function passwordFrom(values: { password?: string; 'password-stdin'?: boolean }): Promise<string> {
  if (values.password !== undefined && values['password-stdin']) throw new UsageError('give --password or --password-stdin, not both');
  if (values['password-stdin']) return readStdin();
  if (values.password !== undefined) {
    process.stderr.write(
      'warning: --password puts the password where other users of this machine can see it (ps, /proc, shell history); ' +
        'leave it out to be asked for it, or use --password-stdin\n',
    );
    return values.password;
  }
  if (!process.stdin.isTTY) throw new UsageError('no terminal to ask for the password on: pipe it in with --password-stdin');
  const password = await promptHidden('Password: ');
  if ((await promptHidden('Password again: ')) !== password) throw new Error('the two passwords differ; nothing was changed');
  return password;
}
