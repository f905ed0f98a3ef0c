/**
 * Configuration comes from environment variables, validated once at start. A bad value stops the
 * server with a message naming each bad variable.
 */
import path from 'node:path';
import { z } from 'zod';
import {
  EMAIL_ADDRESS,
  FALLBACK_TIME_ZONE,
  REAUTH_WINDOW_SECONDS,
  TRASH_DAYS_DEFAULT,
  canonicalTimeZone,
} from '@master-admin/contract';

const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().min(1);
const flag = z.enum(['true', 'false', '1', '0', '']).transform((v) => v === 'true' || v === '1');

const env = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: port.default(3000),
  // Loopback: a laptop's `npm start` is not open to its network until HOST says so (0.0.0.0).
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^(postgres(ql)?:\/\/|sqlite:)/, 'must start with postgres://, postgresql:// or sqlite:')
    .optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SESSION_TTL_HOURS: positiveInt.max(24 * 90).default(12),
  ADMIN_EMAIL: z.string().regex(EMAIL_ADDRESS, 'must be an email address').optional(),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').max(128).optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  TRUST_PROXY: z.string().default('false'),
  BODY_LIMIT_BYTES: positiveInt.default(1024 * 1024),
  REQUEST_TIMEOUT_MS: positiveInt.default(120_000),
  REQUEST_DEADLINE_MS: positiveInt.min(100).max(600_000).default(30_000),
  LOCK_TIMEOUT_MS: positiveInt.min(10).max(600_000).default(2_000),
  LOGIN_MAX_FAILURES: positiveInt.default(10),
  LOGIN_WINDOW_MINUTES: positiveInt.default(15),
  LOGIN_DEVICE_MAX_FAILURES: positiveInt.default(5),
  REAUTH_WINDOW_SECONDS: positiveInt.max(3600).default(REAUTH_WINDOW_SECONDS),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  SERVE_WEB: flag.default(true),
  WEB_DIST: z.string().optional(),
  MEDIA_STORE: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: flag.default(false),
  S3_PUBLIC_URL: z.url().optional(),
  MAX_IMAGE_BYTES: positiveInt.default(10 * 1024 * 1024),
  MAX_IMAGE_PIXELS: positiveInt.default(50_000_000),
  MAX_VIDEO_BYTES: positiveInt.default(500 * 1024 * 1024),
  CONTACT_RATE_PER_HOUR: positiveInt.default(5),
  MEDIA_ORPHAN_MINUTES: positiveInt.max(10_080).default(60),
  MEDIA_SWEEP_MINUTES: positiveInt.max(10_080).default(60),
  TRASH_DAYS: positiveInt.max(3650).default(TRASH_DAYS_DEFAULT),
  EXPORT_CHUNK_ROWS: positiveInt.max(10_000).default(1000),
  DRAIN_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
  SHUTDOWN_TIMEOUT_SECONDS: positiveInt.max(3600).default(30),
  EVENTS_HEARTBEAT_SECONDS: positiveInt.max(25).default(20),
  PRESENCE_TTL_SECONDS: positiveInt.max(3600).default(30),
  // WebAuthn (passkeys): unset, the host and origin `npm start` prints (banner.ts).
  WEBAUTHN_RP_ID: z
    .string()
    .trim()
    .toLowerCase()
    .regex(
      /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/,
      'must be a host name, without scheme or port (example.com, localhost)',
    )
    .optional(),
  WEBAUTHN_ORIGIN: z
    .string()
    .refine(
      (value) => value.split(',').every((o) => isOrigin(o.trim())),
      'must be one origin or a comma-separated list (https://admin.example.com), without a path',
    )
    .optional(),
  WEBAUTHN_RP_NAME: z.string().min(1).max(100).default('Master Admin'),
  DEFAULT_TIME_ZONE: z
    .string()
    .default(FALLBACK_TIME_ZONE)
    .refine((v) => canonicalTimeZone(v) !== undefined, {
      error: 'must be an IANA time zone name, such as UTC or Asia/Kolkata',
    }),
  OTP_SENDER: z.enum(['log', 'webhook']).default('log'),
  OTP_WEBHOOK_URL: z.url().optional(),
  OTP_WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  METRICS_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces (it is sent in a header)')
    .optional(),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  jwtSecret: string | undefined;
  sessionTtlHours: number;
  admin: { email: string | undefined; password: string | undefined };
  redisUrl: string | undefined;
  trustProxy: boolean | string;
  bodyLimitBytes: number;
  requestTimeoutMs: number;
  /**
   * How long a request may take once its body has arrived (http/deadline.ts): its statements are
   * cancelled and its transaction rolled back past it, and it answers 503.
   */
  requestDeadlineMs: number;
  /** How long a statement may wait for a lock another transaction holds (PostgreSQL). */
  lockTimeoutMs: number;
  /**
   * Sign-in throttling (auth/throttle.ts): attempts per address and failures per account in a
   * window; failures per known device (a valid device token).
   */
  login: { maxFailures: number; windowMinutes: number; deviceMaxFailures: number };
  /**
   * How long a proof of presence counts (a sign-in, or `auth/reauth`) for the changes that need a
   * recent one (http/access.ts `requireRecentProof`).
   */
  reauthWindowSeconds: number;
  logLevel: string;
  /** Readable lines or JSON; unset, readable in a terminal and JSON otherwise (log-format.ts). */
  logFormat: 'json' | 'pretty' | undefined;
  web: { serve: boolean; dist: string };
  media: MediaConfig;
  uploads: { maxImageBytes: number; maxImagePixels: number; maxVideoBytes: number };
  /** Stored files no row names are removed once this old, checked every `intervalMinutes`. */
  mediaSweep: { olderThanMinutes: number; intervalMinutes: number };
  /** Days a trashed row is kept before the sweep purges it (features/trash). */
  trashDays: number;
  contactRatePerHour: number;
  /** Rows a CSV export reads per statement (Lists.walk). */
  exportChunkRows: number;
  /** The IANA zone of a master app that has none of its own (API.md, "Planning festivals"). */
  defaultTimeZone: string;
  /** SIGTERM: seconds of serving while readiness answers 503, then seconds to finish requests. */
  shutdown: { drainSeconds: number; timeoutSeconds: number };
  /** The bearer token `/metrics` asks for; unset, there is no `/metrics`. */
  metricsToken: string | undefined;
  /**
   * The event stream (API.md "Events"): a comment line after `heartbeatSeconds` of silence;
   * a `PUT presence` holds for `presenceTtlSeconds`.
   */
  events: { heartbeatSeconds: number; presenceTtlSeconds: number };
  /**
   * Passkeys (WebAuthn): the relying party's id (a host name: passkeys made for it work on it and
   * its subdomains), its name as authenticators show it, and the origins the browser may sign in
   * from (the page's origin, as the browser reports it).
   */
  webauthn: { rpId: string; rpName: string; origins: string[] };
  /**
   * Where the apps API's one-time sign-in codes go (features/app-api/otp.ts): the server log
   * (development, tests), or a POST to an SMS gateway's webhook, signed with `secret`.
   */
  otp: { sender: 'log' } | { sender: 'webhook'; url: string; secret: string };
};

export type MediaConfig =
  | { store: 'local'; dir: string }
  | {
      store: 's3';
      endpoint: string | undefined;
      region: string;
      bucket: string;
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
      forcePathStyle: boolean;
      /** Where browsers load the objects from; by default the bucket's own URL. */
      publicUrl: string;
    };

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** `https://host[:port]` or `http://host[:port]`, nothing after it. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) && url.origin === value.replace(/\/$/, '');
  } catch {
    return false;
  }
}

/**
 * Unset, the address `npm start` prints: http://localhost:<PORT> (banner.ts; a browser takes no IP
 * address as a relying party's id). With only WEBAUTHN_RP_ID, the site at that name over HTTPS.
 */
function webauthnConfig(e: z.infer<typeof env>): Config['webauthn'] {
  const rpId = e.WEBAUTHN_RP_ID ?? 'localhost';
  const origins = e.WEBAUTHN_ORIGIN
    ? e.WEBAUTHN_ORIGIN.split(',').map((o) => o.trim().replace(/\/$/, ''))
    : [e.WEBAUTHN_RP_ID ? `https://${rpId}` : `http://localhost:${e.PORT}`];
  // A browser refuses a ceremony whose page is not on the relying party's host or below it: a
  // mismatch would only show as every passkey failing.
  const foreign = origins.filter((o) => {
    const host = new URL(o).hostname;
    return host !== rpId && !host.endsWith(`.${rpId}`);
  });
  if (foreign.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n  WEBAUTHN_ORIGIN: ${foreign.join(', ')} is not on WEBAUTHN_RP_ID (${rpId}) or a subdomain of it`,
    );
  }
  return { rpId, rpName: e.WEBAUTHN_RP_NAME, origins };
}

/** `true` trusts every proxy; otherwise a comma-separated list of proxy addresses or CIDR ranges. */
function parseTrustProxy(value: string): boolean | string {
  if (value === 'true') return true;
  if (value === 'false' || value === '') return false;
  return value;
}

/** The web app's build, next to the server in the repository. */
const DEFAULT_WEB_DIST = path.resolve(import.meta.dirname, '../../web/dist');

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = env.safeParse(
    Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== '')),
  );
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  let media: MediaConfig = { store: 'local', dir: path.join(dataDir, 'media') };
  if (e.MEDIA_STORE === 's3') {
    if (!e.S3_BUCKET)
      throw new ConfigError('Invalid configuration:\n  S3_BUCKET: required when MEDIA_STORE=s3');
    const bucketUrl = e.S3_ENDPOINT
      ? e.S3_FORCE_PATH_STYLE
        ? `${e.S3_ENDPOINT.replace(/\/$/, '')}/${e.S3_BUCKET}`
        : e.S3_ENDPOINT.replace('://', `://${e.S3_BUCKET}.`).replace(/\/$/, '')
      : `https://${e.S3_BUCKET}.s3.${e.S3_REGION}.amazonaws.com`;
    media = {
      store: 's3',
      endpoint: e.S3_ENDPOINT,
      region: e.S3_REGION,
      bucket: e.S3_BUCKET,
      accessKeyId: e.S3_ACCESS_KEY_ID,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY,
      forcePathStyle: e.S3_FORCE_PATH_STYLE,
      publicUrl: (e.S3_PUBLIC_URL ?? bucketUrl).replace(/\/$/, ''),
    };
  }
  const webauthn = webauthnConfig(e);
  let otp: Config['otp'] = { sender: 'log' };
  if (e.OTP_SENDER === 'webhook') {
    const missing = [
      e.OTP_WEBHOOK_URL ? undefined : '  OTP_WEBHOOK_URL: required when OTP_SENDER=webhook',
      e.OTP_WEBHOOK_SECRET ? undefined : '  OTP_WEBHOOK_SECRET: required when OTP_SENDER=webhook',
    ].filter((line) => line !== undefined);
    if (missing.length > 0) throw new ConfigError(`Invalid configuration:\n${missing.join('\n')}`);
    otp = { sender: 'webhook', url: e.OTP_WEBHOOK_URL!, secret: e.OTP_WEBHOOK_SECRET! };
  }
  const url = e.DATABASE_URL;
  const database: Config['database'] =
    url === undefined
      ? { kind: 'sqlite', file: path.join(dataDir, 'master-admin.sqlite') }
      : url.startsWith('sqlite:')
        ? { kind: 'sqlite', file: path.resolve(dataDir, url.slice('sqlite:'.length)) }
        : { kind: 'postgres', url };
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database,
    jwtSecret: e.JWT_SECRET,
    sessionTtlHours: e.SESSION_TTL_HOURS,
    admin: { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD },
    redisUrl: e.REDIS_URL,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    requestDeadlineMs: e.REQUEST_DEADLINE_MS,
    lockTimeoutMs: Math.min(e.LOCK_TIMEOUT_MS, e.REQUEST_DEADLINE_MS),
    login: {
      maxFailures: e.LOGIN_MAX_FAILURES,
      windowMinutes: e.LOGIN_WINDOW_MINUTES,
      deviceMaxFailures: e.LOGIN_DEVICE_MAX_FAILURES,
    },
    reauthWindowSeconds: e.REAUTH_WINDOW_SECONDS,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    web: { serve: e.SERVE_WEB, dist: e.WEB_DIST ? path.resolve(e.WEB_DIST) : DEFAULT_WEB_DIST },
    media,
    uploads: {
      maxImageBytes: e.MAX_IMAGE_BYTES,
      maxImagePixels: e.MAX_IMAGE_PIXELS,
      maxVideoBytes: e.MAX_VIDEO_BYTES,
    },
    contactRatePerHour: e.CONTACT_RATE_PER_HOUR,
    mediaSweep: {
      olderThanMinutes: e.MEDIA_ORPHAN_MINUTES,
      intervalMinutes: e.MEDIA_SWEEP_MINUTES,
    },
    trashDays: e.TRASH_DAYS,
    exportChunkRows: e.EXPORT_CHUNK_ROWS,
    defaultTimeZone: e.DEFAULT_TIME_ZONE,
    shutdown: { drainSeconds: e.DRAIN_SECONDS, timeoutSeconds: e.SHUTDOWN_TIMEOUT_SECONDS },
    metricsToken: e.METRICS_TOKEN,
    events: {
      heartbeatSeconds: e.EVENTS_HEARTBEAT_SECONDS,
      presenceTtlSeconds: e.PRESENCE_TTL_SECONDS,
    },
    webauthn,
    otp,
  };
}
