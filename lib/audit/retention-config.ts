// AUDIT_RETENTION_DAYS, read apart from the pruning so npm start can check it without loading the
// database client.

/** AUDIT_RETENTION_DAYS as a number of days, or null (unset: keep every record). */
export function auditRetentionDays(): number | null {
  const configured = process.env.AUDIT_RETENTION_DAYS?.trim();
  if (!configured) return null;
  const days = Number(configured);
  if (!/^\d+$/.test(configured) || days < 1) {
    throw new Error(`AUDIT_RETENTION_DAYS must be a whole number of days (1 or more), or unset to keep every record; got "${configured}"`);
  }
  return days;
}
