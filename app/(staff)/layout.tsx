import Link from 'next/link';
import type { ReactNode } from 'react';
import { Leaf } from '@/components/brand';
import { MainNav } from '@/components/main-nav';
import { SignOutButton } from '@/components/sign-out-button';
import { currentStaff } from '@/lib/auth/sessions/current-staff';

export default async function StaffLayout({ children }: { children: ReactNode }) {
  // Each page checks the session and role itself (it knows where to come back to); this only shows
  // who it is, and the links their role can open.
  const staff = await currentStaff();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link href="/" className="brand">
          <Leaf /> Plant Store
        </Link>
        <MainNav>
          <ul>
            <li>
              <Link href="/">Add plant</Link>
            </li>
            <li>
              <Link href="/catalogue">Catalogue</Link>
            </li>
            <li>
              <Link href="/import">Import</Link>
            </li>
            <li>
              <Link href="/tokens">API tokens</Link>
            </li>
            {staff?.role === 'admin' && (
              <>
                <li>
                  <Link href="/staff">Staff</Link>
                </li>
                <li>
                  <Link href="/webhooks">Webhooks</Link>
                </li>
                <li>
                  <Link href="/audit">Activity</Link>
                </li>
                <li>
                  <Link href="/backups">Backups</Link>
                </li>
              </>
            )}
            <li>
              <Link href="/docs">API reference</Link>
            </li>
            <li>
              <Link href="/account">Account</Link>
            </li>
          </ul>
        </MainNav>
        {staff && (
          <div className="who">
            <span className="muted">{staff.email}</span>
            <SignOutButton />
          </div>
        )}
      </header>
      <main id="main">{children}</main>
    </>
  );
}
