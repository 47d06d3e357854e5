import nextCoreWebVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';

const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    ignores: ['.next/**', 'node_modules/**', 'lib/db/generated/**', 'next-env.d.ts', 'test-results/**', 'playwright-report/**'],
  },
  {
    // The settings are read from the environment in one place, lib/settings: everything else reads
    // them from there, typed and checked. Left to process.env: what Next sets itself (NODE_ENV,
    // NEXT_RUNTIME, NEXT_PHASE), Node's own (NODE_OPTIONS) and the development tools' own
    // (TEST_DATABASE_URL, PRISMA_ENGINE_DEBUG); and writing to it, as npm start does for the server
    // it loads.
    files: ['lib/**/*.{ts,tsx}', 'app/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}', 'scripts/**/*.ts', 'server/**/*.{ts,mjs}', 'instrumentation.ts', 'proxy.ts'],
    ignores: ['lib/settings/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "MemberExpression[object.object.name='process'][object.property.name='env']:not([property.name=/^(NODE_ENV|NEXT_RUNTIME|NEXT_PHASE|NODE_OPTIONS|TEST_DATABASE_URL|PRISMA_ENGINE_DEBUG)$/]):not(AssignmentExpression > MemberExpression.left)",
          message: 'Read settings with settings() from lib/settings, which parses and checks each (docs/operations.md#configuration).',
        },
        {
          selector: "MemberExpression[object.name='process'][property.name='env']:not(MemberExpression > MemberExpression.object)",
          message: 'Read settings with settings() from lib/settings, which parses and checks each (docs/operations.md#configuration).',
        },
      ],
    },
  },
];

export default config;
