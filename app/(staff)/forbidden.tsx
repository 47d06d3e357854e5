import Link from 'next/link';

// What forbidden() renders (with status 403): a page this person's role does not open.
export default function Forbidden() {
  return (
    <section className="card" aria-labelledby="forbidden-heading">
      <h1 id="forbidden-heading">Admins only</h1>
      <p>This page is for admins. If you need it, ask an admin to change your role.</p>
      <p>
        <Link href="/">Back to adding plants</Link>
      </p>
    </section>
  );
}
