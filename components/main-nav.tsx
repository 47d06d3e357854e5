'use client';
// The staff pages' main navigation. On a wide screen its links show in the bar; on a phone they
// fold behind a Menu button, a disclosure (aria-expanded) that closes again on Escape and when
// the page changes. The links themselves are the layout's (app/(staff)/layout.tsx).
import { usePathname } from 'next/navigation';
import { useEffect, useState, type ReactNode } from 'react';
import { ScriptButton } from './script-button';

export function MainNav({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const [shownFor, setShownFor] = useState<string | null>(null);
  const pathname = usePathname();
  // A new page closes the menu (set during render, as React advises for state that follows a prop).
  if (shownFor !== pathname) {
    setShownFor(pathname);
    if (open) setOpen(false);
  }
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
  return (
    <nav aria-label="Main" className="main-nav" data-open={open}>
      <ScriptButton className="menu-button secondary" aria-expanded={open} aria-controls="main-nav-links" onClick={() => setOpen((shown) => !shown)}>
        Menu
      </ScriptButton>
      <div id="main-nav-links" className="main-nav-links">
        {children}
      </div>
    </nav>
  );
}
