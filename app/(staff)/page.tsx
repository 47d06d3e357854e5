import { AddPlantForm } from '@/components/add-plant-form';
import { Dashboard } from '@/components/dashboard/dashboard';
import { listAuditRecords } from '@/lib/audit/service';
import { issueSessionToken } from '@/lib/auth/tokens/session-token';
import { requireStaff } from '@/lib/auth/sessions/current-staff';
import { recentPlants } from '@/lib/plants/service';
import { plantStats } from '@/lib/plants/stats';
import { STATS_RANGE_DEFAULT, StatsQuery } from '@/lib/schemas/stats';
import { webhookHealth } from '@/lib/webhooks/health';

const RECENT_COUNT = 10;
const ACTIVITY_COUNT = 10;

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

// The signed-in home page: the add form first (one click from anywhere, and the first thing here),
// and beside it the figures of GET /stats, with the range (`days`) in the address.
export default async function HomePage({ searchParams }: { searchParams: SearchParams }) {
  const given = await searchParams;
  const staff = await requireStaff(typeof given.days === 'string' ? `/?days=${encodeURIComponent(given.days)}` : '/');
  const query = StatsQuery.safeParse({ days: typeof given.days === 'string' ? given.days : undefined });
  const days = query.success && query.data.days ? Number(query.data.days) : STATS_RANGE_DEFAULT;
  const admin = staff.role === 'admin';
  const [sessionToken, rows, stats, activity] = await Promise.all([
    issueSessionToken(staff),
    recentPlants(RECENT_COUNT),
    plantStats({ days, webhooks: admin ? () => webhookHealth() : undefined }),
    admin ? listAuditRecords({ limit: ACTIVITY_COUNT }).then((page) => page.records) : undefined,
  ]);
  const recent = rows.map((row) => ({
    id: row.id.toString(),
    name: row.name,
    tag: row.tag ?? undefined,
    addedAt: row.createdAt.toISOString(),
  }));
  return (
    <div className="wide home">
      <div className="home-add">
        <AddPlantForm sessionToken={sessionToken} recent={recent} />
      </div>
      <Dashboard stats={stats} days={days} activity={activity} />
    </div>
  );
}
