'use client';
// What a page shows when the server could not render it: most often the database not answering
// (a PostgreSQL that refuses connections, an SQLite file locked for too long), which passes.
// Without it, Next shows its own bare error page. A staff session is not ended by an outage
// (lib/auth/sessions/next-auth.ts), so trying again once the database answers finds the page.
import { BrandedMain } from '@/components/brand';

export default function PageError() {
  return (
    <BrandedMain>
      <section className="card narrow" aria-labelledby="page-error-heading">
        <h1 id="page-error-heading">This page could not be shown</h1>
        <p>The server could not prepare it, most often because the store&apos;s database is not answering for a moment. If you were signed in, you still are.</p>
        <p>
          {/* A new request: the page is rendered on the server again, not only in the browser. */}
          <button type="button" onClick={() => window.location.reload()}>
            Try again
          </button>
        </p>
      </section>
    </BrandedMain>
  );
}
