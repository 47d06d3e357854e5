// The choices of the second-factor rule, and their words on /staff. Browser-safe.
export const REQUIREMENTS = ['off', 'admins', 'everyone'] as const;
export type SecondFactorRequirement = (typeof REQUIREMENTS)[number];

export const REQUIREMENT_LABELS: Record<SecondFactorRequirement, string> = {
  off: 'Nobody (each person chooses)',
  admins: 'Admins',
  everyone: 'Everyone',
};
