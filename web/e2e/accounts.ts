/** The admin account web/e2e/server.ts creates (a throw-away database; not a real secret). */
export const E2E_ADMIN = { email: 'admin@example.org', password: 'admin password 123' }
