// The staff account the e2e server is seeded with, and where that server listens.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3917);
export const STAFF_EMAIL = 'gardener@example.com';
export const STAFF_PASSWORD = 'correct horse battery staple';
