'use client';
// A row's actions on a narrow screen, where the row is a card: one "Actions" button that discloses
// them (aria-expanded), with Copy ID beside Edit, Delete and History, since a long id is cut short
// there. On a wide screen CSS hides it and the row's own buttons show.
import Link from 'next/link';
import { useEffect, useId, useRef, useState } from 'react';
import type { CatalogueRow } from './versioned-row';
import { ScriptButton } from '../script-button';

export function RowMenu({
  row,
  historyHref,
  onEdit,
  onDelete,
  onCopied,
}: {
  row: CatalogueRow;
  historyHref?: string;
  onEdit: () => void;
  onDelete: () => void;
  onCopied: (text: string) => void;
}) {
  const [expanded, setExpanded] = useState(false);
  const menu = useId();
  const wrapper = useRef<HTMLDivElement>(null);

  // Escape, or a click elsewhere, closes it.
  useEffect(() => {
    if (!expanded) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setExpanded(false);
        wrapper.current?.querySelector('button')?.focus();
      }
    };
    const onClick = (event: MouseEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setExpanded(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('click', onClick);
    };
  }, [expanded]);

  // The Actions button takes focus first: a dialog the action opens gives focus back to it.
  function choose(action: () => void) {
    wrapper.current?.querySelector('button')?.focus();
    setExpanded(false);
    action();
  }

  async function copy() {
    setExpanded(false);
    try {
      await navigator.clipboard.writeText(row.id);
      onCopied(`Copied the ID of “${row.name}”.`);
    } catch {
      onCopied(`The ID of “${row.name}” is ${row.id}.`);
    }
  }

  return (
    <div className="row-menu" ref={wrapper}>
      <ScriptButton className="secondary" aria-expanded={expanded} aria-controls={menu} onClick={() => setExpanded((open) => !open)}>
        Actions<span className="visually-hidden"> for {row.name}</span>
      </ScriptButton>
      <ul id={menu} className="row-menu-list" hidden={!expanded}>
        <li>
          <button type="button" className="secondary" onClick={() => choose(onEdit)}>
            Edit<span className="visually-hidden"> {row.name}</span>
          </button>
        </li>
        <li>
          <button type="button" className="secondary" onClick={() => choose(onDelete)}>
            Delete<span className="visually-hidden"> {row.name}</span>
          </button>
        </li>
        <li>
          <button type="button" className="secondary" onClick={copy}>
            Copy ID<span className="visually-hidden"> of {row.name}</span>
          </button>
        </li>
        {historyHref && (
          <li>
            <Link href={historyHref}>
              History<span className="visually-hidden"> of {row.name}</span>
            </Link>
          </li>
        )}
      </ul>
    </div>
  );
}
