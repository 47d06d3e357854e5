import type { Metadata } from 'next';
import { ApiReference } from '@/components/api-reference';
import { requireStaff } from '@/lib/auth/staff';

export const metadata: Metadata = { title: 'API reference · Plant Store' };

export default async function DocsPage() {
  await requireStaff('/docs');
  return (
    <section className="card wide" aria-labelledby="docs-heading">
      <h1 id="docs-heading">API reference</h1>
      <p className="muted">
        Generated from the schemas the API validates with. The document itself is at{' '}
        <a href="/openapi.json">/openapi.json</a>; create a token on the <a href="/tokens">API tokens</a> page and
        use <strong>Authorize</strong> to try the calls.
      </p>
      <ApiReference />
    </section>
  );
}
