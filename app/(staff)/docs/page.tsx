import type { Metadata } from 'next';
import { ApiExplorer } from '@/components/api-explorer';
import { OpenApiReference } from '@/components/openapi-reference';
import { requireStaff } from '@/lib/auth/sessions/current-staff';
import { configuredPublicOrigin } from '@/lib/http/origin';
import { buildOpenApiDocument } from '@/lib/openapi/document';

export const metadata: Metadata = { title: 'API reference · Plant Store' };

let document: ReturnType<typeof buildOpenApiDocument> | undefined;

export default async function DocsPage() {
  await requireStaff('/docs');
  // The document /openapi.json publishes, as HTML; Swagger UI only when asked for.
  document ??= buildOpenApiDocument(configuredPublicOrigin() ?? '/');
  return (
    <section className="card wide api-docs" aria-labelledby="docs-heading">
      <h1 id="docs-heading">API reference</h1>
      <p className="muted">
        Generated from the schemas the API validates with. The document itself is at{' '}
        <a href="/openapi.json">/openapi.json</a>. To try the calls, create a token on the <a href="/tokens">API tokens</a>{' '}
        page, open the interactive explorer and use <strong>Authorize</strong>.
      </p>
      <section aria-labelledby="explorer-heading">
        <h2 id="explorer-heading">Interactive explorer</h2>
        <ApiExplorer />
      </section>
      <OpenApiReference document={document} />
    </section>
  );
}
