/**
 * What the global setup and the tests share: the database kind, the first admin's credentials and
 * the names of the environment variables through which the setup tells the tests where the server
 * and its database are.
 */
export type DbKind = 'sqlite' | 'postgres';

export const DB_KIND: DbKind = process.env.E2E_DB === 'postgres' ? 'postgres' : 'sqlite';

/**
 * Where the server keeps media: `E2E_MEDIA=s3` runs it with MEDIA_STORE=s3 against a local S3
 * server (s3rver) that the global setup starts; CI runs the default, local disk.
 */
export const MEDIA_KIND: 'local' | 's3' = process.env.E2E_MEDIA === 's3' ? 's3' : 'local';

/** The PostgreSQL server on which each run creates (and afterwards drops) its own database. */
export const PG_ADMIN_URL =
  process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

/** The SUPER_ADMIN the server creates on its first start (ADMIN_EMAIL / ADMIN_PASSWORD). */
export const ADMIN = { email: 'admin@e2e.test', password: 'e2e-admin-password-1' } as const;

/**
 * Where the server sends the apps API's one-time sign-in codes (OTP_SENDER=webhook): a gateway
 * stand-in that app-api.spec.ts runs on this fixed port (the server's own port is a free one, and
 * s3rver's too) and that checks each call's signature with `secret`.
 */
export const OTP_WEBHOOK = {
  port: 47_613,
  path: '/otp',
  secret: 'e2e-otp-webhook-secret-0123',
} as const;

/** Set by the global setup, read by the tests (workers inherit the runner's environment). */
export const ENV = {
  baseUrl: 'E2E_BASE_URL',
  sqliteFile: 'E2E_SQLITE_FILE',
  databaseUrl: 'E2E_DATABASE_URL',
  /** With MEDIA_KIND s3: the URL prefix stored media are loaded from (`<endpoint>/<bucket>`). */
  mediaBase: 'E2E_MEDIA_BASE',
} as const;
