import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';

// The settings are read from the environment in one place, lib/settings: everything else reads
// them from there, typed and checked. Left to process.env: what Next sets itself (NODE_ENV,
// NEXT_RUNTIME, NEXT_PHASE), Node's own (NODE_OPTIONS) and the development tools' own (TEST_DATABASE_URL,
// PRISMA_ENGINE_DEBUG); and writing to it, as npm start does for the server it loads.
const SETTINGS_FROM_THE_ENVIRONMENT = [
  {
    selector:
      "MemberExpression[object.object.name='process'][object.property.name='env']:not([property.name=/^(NODE_ENV|NEXT_RUNTIME|NEXT_PHASE|NODE_OPTIONS|TEST_DATABASE_URL|PRISMA_ENGINE_DEBUG)$/]):not(AssignmentExpression > MemberExpression.left)",
    message: 'Read settings with settings() from lib/settings, which parses and checks each (docs/operations.md#configuration).',
  },
  {
    selector: "MemberExpression[object.name='process'][property.name='env']:not(MemberExpression > MemberExpression.object)",
    message: 'Read settings with settings() from lib/settings, which parses and checks each (docs/operations.md#configuration).',
  },
];

// Which engine the database is on is asked in two modules only: the URL parser (lib/db/url.ts)
// and the selector that answers with an engine's code, lib/db/engine.ts (engine() and
// engineTools(url)). Everywhere else, what differs per engine is a method of the engine's stores or
// tools (lib/db/stores.ts); dependency-cruiser keeps the URL parser and the engines' folders to the
// selector. Refused here: calling the parser, comparing with an engine's name, and reading a
// database URL's scheme, as a URL or as text. (lib/settings checks DATABASE_URL's form as it checks every setting's,
// below lib/db, and is left out.)
const ENGINE_QUESTION_MESSAGE =
  "Only lib/db/engine.ts and lib/db/url.ts ask which engine the database is on: make what differs a method of the engine's stores or tools (lib/db/stores.ts) (docs/architecture.md#one-way-to-reach-each-engine).";
const ENGINE_QUESTION = [
  { selector: "CallExpression[callee.name='databaseEngine']", message: ENGINE_QUESTION_MESSAGE },
  { selector: 'BinaryExpression[operator=/^[!=]==?$/] > Literal[value=/^(sqlite|postgresql)$/]', message: ENGINE_QUESTION_MESSAGE },
  { selector: 'SwitchCase > Literal.test[value=/^(sqlite|postgresql)$/]', message: ENGINE_QUESTION_MESSAGE },
  { selector: 'Literal[value=/^(file|postgres|postgresql):(\\/\\/)?$/]', message: ENGINE_QUESTION_MESSAGE },
  { selector: 'Literal[regex.pattern=/file:|postgres/]', message: ENGINE_QUESTION_MESSAGE },
  // A URL's beginning, looked at as text: url.startsWith('postgres'), url.includes('sqlite').
  { selector: "CallExpression[callee.property.name=/^(startsWith|endsWith|includes|indexOf|match|test)$/] > Literal[value=/^(file|sqlite|postgres)/]", message: ENGINE_QUESTION_MESSAGE },
];

const FILES = ['lib/**/*.{ts,tsx}', 'app/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}', 'scripts/**/*.ts', 'server/**/*.{ts,mjs}', 'instrumentation.ts', 'proxy.ts'];
const ENGINE_SELECTORS = ['lib/db/url.ts', 'lib/db/engine.ts'];

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    ignores: ['.next/**', 'node_modules/**', 'lib/db/generated/**', 'next-env.d.ts', 'test-results/**', 'playwright-report/**', '.tmp/**'],
  },
  {
    // The settings are read from the environment in one place, lib/settings; and which engine the
    // database is on is asked in one place, lib/db (see ENGINE_QUESTION).
    files: FILES,
    ignores: ['lib/settings/**', ...ENGINE_SELECTORS],
    rules: { 'no-restricted-syntax': ['error', ...SETTINGS_FROM_THE_ENVIRONMENT, ...ENGINE_QUESTION] },
  },
  {
    files: ENGINE_SELECTORS,
    rules: { 'no-restricted-syntax': ['error', ...SETTINGS_FROM_THE_ENVIRONMENT] },
  },
];

export default config;
