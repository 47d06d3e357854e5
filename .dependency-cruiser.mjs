// The layers of the code and the direction imports may go between them, checked by `npm run lint`
// (`depcruise`). docs/architecture.md, Layers, draws the same graph. Each rule's comment says what it
// keeps apart; a type-only import counts like any other.

// The rules below a route: they throw domain errors (lib/errors.ts) and never answer HTTP themselves.
const DOMAIN = '^lib/(plants|auth|webhooks|audit|backups|mail)/|^lib/(retention|background)\\.ts$';

// The one module that picks an engine: engine() for the process's stores, engineTools(url) for what
// npm start, the migrations and the operator commands do to a database (npm start's bundle keeps the
// tools alone: scripts/build.mjs).
const SELECTOR = '^lib/db/engine\\.ts$';

const config = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'No module reaches itself through its imports: each layer and each folder points one way.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'lib-not-to-app-or-components',
      comment: 'lib/ is below the routes, pages and components: it never imports app/ or components/.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^(app|components)/' },
    },
    {
      name: 'domain-not-to-http',
      comment:
        'The domain (lib/plants, lib/auth, lib/webhooks, lib/audit, lib/backups, lib/mail) and lib/db never import lib/http: they refuse with lib/errors.ts, and lib/http turns that into an answer.',
      severity: 'error',
      from: { path: [DOMAIN, '^lib/db/'] },
      to: { path: '^lib/http/' },
    },
    {
      name: 'db-not-to-domain',
      comment: 'lib/db is below the domain: the engines know rows and statements, never the rules (those are passed in, as the fan-out rule is).',
      severity: 'error',
      from: { path: '^lib/db/' },
      to: { path: DOMAIN },
    },
    {
      name: 'sqlite-only-through-the-selector',
      comment: "SQLite's code is reached only through lib/db/engine.ts (engine() and engineTools()), and from inside its own folder.",
      severity: 'error',
      from: { pathNot: [SELECTOR, '^lib/db/sqlite/'] },
      to: { path: '^lib/db/sqlite/' },
    },
    {
      name: 'postgresql-only-through-the-selector',
      comment: "PostgreSQL's code is reached only through lib/db/engine.ts (engine() and engineTools()), and from inside its own folder.",
      severity: 'error',
      from: { pathNot: [SELECTOR, '^lib/db/postgresql/'] },
      to: { path: '^lib/db/postgresql/' },
    },
    {
      name: 'engine-question-only-in-the-selector',
      comment:
        "Which engine the database is on is asked only where an engine is picked: the URL parser (lib/db/url.ts, which also reads an SQLite file's path out of the URL) is imported by lib/db/engine.ts and by SQLite's own code alone. (eslint refuses the question's other forms: comparing with an engine's name, reading a URL's scheme.) The tests look inside on purpose and are left out.",
      severity: 'error',
      from: { path: '^(lib|app|components|server|scripts|bench)/|^(proxy|instrumentation)\\.ts$', pathNot: [SELECTOR, '^lib/db/sqlite/'] },
      to: { path: '^lib/db/url\\.ts$' },
    },
    {
      name: 'each-engine-its-own-prisma-client',
      comment:
        "Each engine's generated Prisma client is imported by its own folder alone, and by lib/db/prisma.ts, which makes the one Client type of both: PostgreSQL's code never imports SQLite's types, nor SQLite's PostgreSQL's. The benchmark's typical Next.js + Prisma app (bench/typical) is not the project's code: it uses SQLite's client as a typical app uses its own, so that it works on the same tables.",
      severity: 'error',
      from: { pathNot: ['^lib/db/sqlite/', '^lib/db/prisma\\.ts$', '^lib/db/generated/sqlite/', '^bench/typical/'] },
      to: { path: '^lib/db/generated/sqlite/' },
    },
    {
      name: 'each-engine-its-own-prisma-client-postgresql',
      comment: "The same for PostgreSQL's generated client.",
      severity: 'error',
      from: { pathNot: ['^lib/db/postgresql/', '^lib/db/prisma\\.ts$', '^lib/db/generated/postgresql/'] },
      to: { path: '^lib/db/generated/postgresql/' },
    },
    {
      name: 'shared-is-a-leaf',
      comment:
        'lib/shared and lib/errors.ts are for every layer, so they import nothing of lib/ but each other, the settings and process-wide state.',
      severity: 'error',
      from: { path: '^lib/(shared/|errors\\.ts$)' },
      to: { path: '^lib/', pathNot: '^lib/(shared/|settings/|errors\\.ts$|process-wide\\.ts$)' },
    },
    {
      name: 'settings-are-a-leaf',
      comment:
        'lib/settings is read by every layer, and by npm start before anything else loads, so it imports nothing of lib/ but process-wide state, and nothing of server/ or app/.',
      severity: 'error',
      from: { path: '^lib/settings/' },
      to: { path: '^(lib|server|app)/', pathNot: '^lib/(settings/|process-wide\\.ts$)' },
    },
    {
      name: 'lib-to-server-only-its-shared-modules',
      comment:
        'server/ may import lib/; lib/ imports only the one module of server/ it shares: Next internals (the protocol checks).',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^server/', pathNot: '^server/next-internals\\.ts$' },
    },
    {
      name: 'route-handlers-only-from-the-direct-path',
      comment:
        "An app route's handlers (app/**/route.ts) are imported by one module (Next loads them by their file names): the production server's direct path (server/direct-routes.ts), which calls them without Next's router. Nothing else reaches into app/ for them.",
      severity: 'error',
      from: { pathNot: '^server/direct-routes\\.ts$' },
      to: { path: '^app/.*/route\\.tsx?$' },
    },
    {
      name: 'server-not-to-app-or-components',
      comment: 'The production server never imports components/, nor of app/ anything but the direct routes\' handlers (the rule above).',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^(app|components)/', pathNot: '^app/.*/route\\.tsx?$' },
    },
    {
      name: 'components-not-to-app',
      comment:
        'Components are below the pages: they never import app/, not even its server actions, which a page passes in as props (types included: the component declares what it is given).',
      severity: 'error',
      from: { path: '^components/' },
      to: { path: '^app/' },
    },
    {
      name: 'components-not-to-db-or-http',
      comment: "Components run in the browser (or render on the server from what their page gives them): they never import lib/db or lib/http.",
      severity: 'error',
      from: { path: '^components/' },
      to: { path: '^lib/(db|http)/' },
    },
  ],
  options: {
    // The generated Prisma clients are seen as what imports them, not cruised themselves.
    doNotFollow: { path: ['node_modules', '^lib/db/generated/'] },
    exclude: { path: '^\\.next/' },
    // Type-only imports are dependencies too: a type from the wrong layer couples it as much.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'],
    },
  },
};

export default config;
