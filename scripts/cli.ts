// Shared plumbing of the operator commands: clear errors on stderr and a non-zero exit.

export class UsageError extends Error {}

/** Runs a command's main function; failures print one line to stderr and set the exit code. */
export function runCli(usage: string, main: () => Promise<void>): void {
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

export function formatDate(date: Date | null): string {
  return date ? date.toISOString().replace('T', ' ').slice(0, 16) : '-';
}
