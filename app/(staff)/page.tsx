import { AddPlantForm } from '@/components/add-plant-form';
import { issueSessionToken } from '@/lib/auth/tokens/session-token';
import { requireStaff } from '@/lib/auth/sessions/current-staff';
import { recentPlants } from '@/lib/plants/service';

const RECENT_COUNT = 10;

export default async function AddPlantPage() {
  const staff = await requireStaff('/');
  const [sessionToken, rows] = await Promise.all([issueSessionToken(staff), recentPlants(RECENT_COUNT)]);
  const recent = rows.map((row) => ({
    id: row.id.toString(),
    name: row.name,
    tag: row.tag ?? undefined,
    addedAt: row.createdAt.toISOString(),
  }));
  return <AddPlantForm sessionToken={sessionToken} recent={recent} />;
}
