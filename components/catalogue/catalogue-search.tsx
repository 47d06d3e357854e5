'use client';
// The catalogue's filter. It is a plain GET form, so it works before the page's script has loaded;
// with it, the address gets only the filters in use and the page changes without a full load.
// Either way the address carries the filter, so it can be shared and the back button works.
import { useRouter } from 'next/navigation';
import type { FormEvent } from 'react';
import { NAME_MAX_LENGTH, TAG_MAX_LENGTH } from '@/lib/schemas/limits';

/** `sort` stays as it is when the filter changes (a new filter starts at its first page). */
export function CatalogueSearch({ q, tag, sort }: { q: string; tag: string; sort?: string }) {
  const router = useRouter();

  function search(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const query = new URLSearchParams();
    for (const name of ['q', 'tag', 'sort']) {
      const value = String(form.get(name) ?? '').trim();
      if (value) query.set(name, value);
    }
    router.push(query.size ? `/catalogue?${query}` : '/catalogue');
  }

  return (
    <form role="search" aria-label="Plants" action="/catalogue" method="get" className="search-form" onSubmit={search}>
      <div className="field">
        <label htmlFor="search-q">Search</label>
        <input id="search-q" name="q" type="search" defaultValue={q} maxLength={NAME_MAX_LENGTH} placeholder="Part of a name" />
      </div>
      <div className="field">
        <label htmlFor="search-tag">Tag</label>
        <input id="search-tag" name="tag" defaultValue={tag} maxLength={TAG_MAX_LENGTH} autoComplete="off" spellCheck={false} />
      </div>
      {sort && <input type="hidden" name="sort" value={sort} />}
      <div className="actions">
        <button type="submit">Search</button>
      </div>
      {(q || tag) && (
        <p className="search-clear">
          <a href="/catalogue" onClick={(event) => (event.preventDefault(), router.push('/catalogue'))}>
            Clear the filter
          </a>
        </p>
      )}
    </form>
  );
}
