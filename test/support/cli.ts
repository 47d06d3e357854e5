// The operator commands (npm run token, user, db:migrate) as package.json runs them: TypeScript
// through tsx, with the react-server condition, under which lib/'s `server-only` modules load.
export const TSX_WITH_SERVER_CONDITION = ['node_modules/tsx/dist/cli.mjs', '--conditions=react-server'];

/** Arguments for `node` that run scripts/<script>.ts as its npm script does. */
export function operatorScript(script: string, ...args: string[]): string[] {
  return [...TSX_WITH_SERVER_CONDITION, `scripts/${script}.ts`, ...args];
}
