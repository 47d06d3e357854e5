import type { Metadata } from 'next';
import Link from 'next/link';
import { connection } from 'next/server';
import { BrandedMain } from '@/components/brand';

export const metadata: Metadata = { title: 'Not found · Plant Store' };

export default async function NotFound() {
  // Rendered per request like every other page: a prerendered page's scripts would lack the fresh
  // nonce its Content-Security-Policy names (proxy.ts), and would not run.
  await connection();
  return (
    <BrandedMain>
      <section className="card narrow" aria-labelledby="not-found-heading">
        <h1 id="not-found-heading">Page not found</h1>
        <p>There is nothing at this address.</p>
        <p>
          <Link href="/">Go to the plants</Link>
        </p>
      </section>
    </BrandedMain>
  );
}
