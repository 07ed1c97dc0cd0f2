import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

const api = ['server/**/*.api.test.ts'];
/**
 * The API and daemon tests share one module graph per worker (isolate: false): each file imported
 * the whole server again otherwise, 10-15 s of its 20-30 s on CI's two cores, for an app every file
 * builds afresh anyway (test/harness.ts createTestApp: its own database, clock and services).
 */
const shared = { isolate: false } as const;
const withPostgres = Boolean(process.env.TEST_DATABASE_URL);

/**
 * Unit tests once; API integration tests on PGlite, and again on a real PostgreSQL when
 * TEST_DATABASE_URL is set (CI sets it). Each test file opens its own clean database.
 */
export default defineConfig({
  test: {
    // Vitest's default (one worker fewer than the cores) is one worker on CI's two cores: the tests
    // wait on argon2, PGlite and their own daemons much of the time, so two run in 60 % of the time
    // one takes (measured: api-pglite, unit and faults 1,040 s for 1,809 s of tests).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 120_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['**/*.unit.test.ts'], exclude: ['**/node_modules/**'] } },
      // Real server processes on their own PostgreSQL and Redis, once (they pick their own database).
      { extends: true, test: { name: 'faults', include: ['server/test/faults/*.fault.test.ts'], testTimeout: 120_000 } },
      // Debian's PowerDNS, Postfix and Dovecot reading a PostgreSQL test database (.ci/run installs them).
      // A test here waits on the daemons themselves (Pure-FTPd refusing logins, Pebble validating
      // through PowerDNS): on a slow 2-core machine (Vitest 1,048 s in all) four refused FTP
      // logins took 28.4 s and then 30.1 s, a DNS-01 order 29.5 s. The waits inside keep their own limits.
      ...(withPostgres
        ? [
            {
              extends: true,
              test: {
                name: 'daemons',
                include: ['server/test/daemons/*.daemon.test.ts'],
                env: { BERTH_TEST_DB: 'postgres' },
                testTimeout: 90_000,
                ...shared,
              },
            },
          ]
        : []),
      { extends: true, test: { name: 'api-pglite', include: api, env: { BERTH_TEST_DB: 'pglite' }, ...shared } },
      ...(withPostgres
        ? [{ extends: true, test: { name: 'api-postgres', include: api, env: { BERTH_TEST_DB: 'postgres' }, ...shared } }]
        : []),
    ],
  },
});
