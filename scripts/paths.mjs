// Where the build puts what npm start runs. Everything that runs in production sits in
// .next/standalone, so that folder (with prisma/ beside where it runs) is the whole deployment.
export const STANDALONE_DIR = '.next/standalone';
export const STANDALONE_SERVER = `${STANDALONE_DIR}/server.js`;
// npm start's steps in one process: migrations, then the server (scripts/start.ts, bundled).
export const START_BUNDLE = `${STANDALONE_DIR}/start.mjs`;
// The operator commands (scripts/<name>.ts, bundled): node .next/standalone/cli/<name>.mjs.
export const CLI_DIR = `${STANDALONE_DIR}/cli`;
