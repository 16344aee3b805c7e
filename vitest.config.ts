import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'api/**/*.test.ts', 'db/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['tests/support/fail-on-console-error.ts'],
        },
      },
      // The firm's clock must not lean on the process's zone. Its tests (every date format), the
      // booking unit tests and the mail's times and .ics run again
      // with the zone set far from California
      // (npm run test:unit runs every unit* project).
      ...[
        ['unit-tz-tokyo', 'Asia/Tokyo'],
        ['unit-tz-kiritimati', 'Pacific/Kiritimati'],
      ].map(([name, zone]) => ({
        test: {
          name,
          include: ['src/shared/firm-time.test.ts', 'src/shared/booking/**/*.test.ts', 'src/components/booking/**/*.test.ts', 'api/mail/**/*.test.ts'],
          environment: 'node' as const,
          env: { TZ: zone },
          setupFiles: ['tests/support/fail-on-console-error.ts'],
        },
      })),
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.integration.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          setupFiles: ['tests/support/fail-on-console-error.ts'],
        },
      },
    ],
  },
});
