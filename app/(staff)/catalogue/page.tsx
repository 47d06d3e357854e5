import type { Metadata } from 'next';
import { CatalogueSearch } from '@/components/catalogue/catalogue-search';
import { CatalogueView } from '@/components/catalogue/catalogue-view';
import type { CatalogueRow } from '@/components/catalogue/versioned-row';
import { Alert } from '@/components/notices';
import { issueSessionToken } from '@/lib/auth/tokens/session-token';
import { requireStaff } from '@/lib/auth/sessions/current-staff';
import { ApiError } from '@/lib/errors';
import { describeIssues } from '@/lib/shared/validation';
import { plantEtag } from '@/lib/plants/etag';
import { browsePlants, toPlant, type BrowsePage } from '@/lib/plants/service';
import { ListPlantsQuery } from '@/lib/schemas/list';

export const metadata: Metadata = { title: 'Catalogue · Plant Store' };

const PAGE_SIZE = 20;

// The address holds the filter, the sort and the page, as the API's query does (`newer` walks back).
const CatalogueQuery = ListPlantsQuery.pick({ q: true, tag: true, sort: true, cursor: true }).extend({ newer: ListPlantsQuery.shape.cursor });

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function CataloguePage({ searchParams }: { searchParams: SearchParams }) {
  const given = Object.fromEntries(Object.entries(await searchParams).map(([key, value]) => [key, Array.isArray(value) ? value[0] : value]));
  const address = new URLSearchParams(Object.entries(given).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  const staff = await requireStaff(`/catalogue${address.size ? `?${address}` : ''}`);
  const parsed = CatalogueQuery.safeParse(given);
  const filter = parsed.success ? { q: parsed.data.q, tag: parsed.data.tag } : {};

  let page: BrowsePage | null = null;
  let problem = parsed.success ? null : describeIssues(parsed.error.issues);
  if (parsed.success) {
    try {
      page = await browsePlants({ ...parsed.data, limit: PAGE_SIZE });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      problem = error.message;
    }
  }
  const rows: CatalogueRow[] = (page?.rows ?? []).map((row) => ({
    id: row.id.toString(),
    name: row.name,
    tag: row.tag ?? undefined,
    addedAt: row.createdAt.toISOString(),
    etag: plantEtag(toPlant(row)),
  }));
  return (
    <div className="wide">
      <section className="card" aria-labelledby="catalogue-heading">
        <h1 id="catalogue-heading">Catalogue</h1>
        {/* Keyed by the filter: its inputs start from the address again when the address changes. */}
        <CatalogueSearch key={`${filter.q ?? ''}\n${filter.tag ?? ''}`} q={filter.q ?? ''} tag={filter.tag ?? ''} sort={parsed.success ? parsed.data.sort : undefined} />
        <Alert>
          {problem && (
            <>
              This address does not name a page of the catalogue ({problem}). <a href="/catalogue">Show the newest plants</a>.
            </>
          )}
        </Alert>
      </section>
      <CatalogueView
        key={address.toString()}
        sessionToken={await issueSessionToken(staff)}
        rows={rows}
        filter={filter}
        sort={parsed.success ? (parsed.data.sort ?? '-created') : '-created'}
        total={page?.total ?? 0}
        before={page?.before ?? 0}
        olderCursor={page?.olderCursor ?? null}
        newerCursor={page?.newerCursor ?? null}
        showHistory={staff.role === 'admin'}
      />
    </div>
  );
}
