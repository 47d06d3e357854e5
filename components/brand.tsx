import type { ReactNode } from 'react';

// The leaf mark drawn inline: an emoji would depend on the machine's fonts.
export function Leaf() {
  return (
    <svg className="leaf" viewBox="0 0 32 32" width="22" height="22" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="7" fill="#2f6b3f" />
      <path
        d="M16 26c0-7 1-12 8-16-1 7-4 11-8 12m0 4c0-5-1-9-7-12 1 5 3 8 7 9"
        fill="none"
        stroke="#fff"
        strokeWidth="2.2"
        strokeLinecap="round"
      />
    </svg>
  );
}

/** A page outside the staff layout (sign-in, set-password, not found): the brand above its cards. */
export function BrandedMain({ children }: { children: ReactNode }) {
  return (
    <main id="main" className="login">
      <p className="brand brand-large">
        <Leaf /> Plant Store
      </p>
      {children}
    </main>
  );
}
