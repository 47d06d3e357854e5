import type { Metadata } from 'next';
import { ImportPlants } from '@/components/import/import-plants';
import { issueSessionToken } from '@/lib/auth/tokens/session-token';
import { requireStaff } from '@/lib/auth/sessions/current-staff';

export const metadata: Metadata = { title: 'Import · Plant Store' };

export default async function ImportPage() {
  const staff = await requireStaff('/import');
  return <ImportPlants sessionToken={await issueSessionToken(staff)} />;
}
