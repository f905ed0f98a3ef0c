/**
 * Second factors, passkeys, sessions and the owner's security setting (API.md, "Second factors,
 * passkeys, sessions, device tokens").
 */
import { z } from 'zod';
import { loginResponse } from './auth.ts';
import { bool, pathId, text, timestamp } from './fields.ts';

export const SECOND_FACTOR_METHODS = ['totp', 'passkey', 'recovery'] as const;
export const SecondFactorMethod = z.enum(SECOND_FACTOR_METHODS);
export type SecondFactorMethod = z.infer<typeof SecondFactorMethod>;

/** How long a sign-in's second step (and a WebAuthn ceremony) may take. */
export const CHALLENGE_MINUTES = 5;
export const RECOVERY_CODE_COUNT = 10;
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const PASSKEY_NAME_MAX = 100;

/** A sign-in whose account has a second factor: no token yet, a challenge for the second step. */
export const loginChallenge = z.object({
  challenge: z.string().min(1),
  methods: z.array(SecondFactorMethod).min(1),
});
export type LoginChallenge = z.infer<typeof loginChallenge>;

/** What `POST auth/admin/login` answers: a token, or (a second factor enrolled) a challenge. */
export const loginAnswer = z.union([loginResponse, loginChallenge]);
export type LoginAnswer = z.infer<typeof loginAnswer>;

/** A one-time code as typed: spaces and dashes are ignored by the server. */
const code = text(64);

export const loginVerifyBody = z.strictObject({
  challenge: text(128),
  method: z.enum(['totp', 'recovery'], { error: 'Must be totp or recovery' }),
  code,
});
export type LoginVerifyBody = z.infer<typeof loginVerifyBody>;

export const totpSetup = z.object({ secret: z.string(), otpauthUrl: z.string() });
export type TotpSetup = z.infer<typeof totpSetup>;

export const codeBody = z.strictObject({ code });
export type CodeBody = z.infer<typeof codeBody>;

export const totpConfirmed = z.object({
  message: z.string(),
  recoveryCodes: z.array(z.string()).length(RECOVERY_CODE_COUNT),
});
export type TotpConfirmed = z.infer<typeof totpConfirmed>;

/**
 * A WebAuthn credential as the browser answers it (`@simplewebauthn/browser`'s JSON). Its inner
 * keys are the WebAuthn specification's, checked by the verification, so they are not listed here.
 */
const webauthnResponse = z
  .looseObject({
    id: z.string().min(1).max(1400),
    rawId: z.string().min(1).max(1400),
    type: z.literal('public-key'),
    response: z.looseObject({ clientDataJSON: z.string().min(1).max(10_000) }),
  })
  .meta({ description: 'A WebAuthn credential (PublicKeyCredential) as JSON' });

export const passkeyName = text(PASSKEY_NAME_MAX);

export const passkeyRegisterBody = z.strictObject({
  name: passkeyName,
  response: webauthnResponse,
});
export type PasskeyRegisterBody = z.infer<typeof passkeyRegisterBody>;

export const passkeyRenameBody = z.strictObject({ name: passkeyName });

export const passkeyLoginOptionsBody = z.strictObject({ email: text(254).optional() });
export const passkeyLoginBody = z.strictObject({ response: webauthnResponse });

/** WebAuthn options for the browser (creation or request options, JSON). */
export const webauthnOptions = z
  .looseObject({ challenge: z.string() })
  .meta({ description: 'PublicKeyCredentialCreationOptionsJSON / RequestOptionsJSON' });

export const passkey = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: timestamp,
  lastUsedAt: timestamp.nullable(),
});
export type Passkey = z.infer<typeof passkey>;
export const passkeyList = z.object({ result: z.array(passkey) });
export const passkeyCreated = z.object({
  message: z.string(),
  result: passkey.omit({ lastUsedAt: true }),
});
/** A rename's answer: the passkey as the list shows it. */
export const passkeyRenamed = z.object({ message: z.string(), result: passkey });

/** A signed-in session as its owner (or the owner of the console) sees it. */
export const sessionRow = z.object({
  id: z.number().int(),
  device: z.string().meta({ description: 'The browser and system, as its user agent names them' }),
  ip: z.string().nullable(),
  createdAt: timestamp,
  lastSeenAt: timestamp.nullable(),
  current: z.boolean(),
  method: z.string().nullable().meta({ description: 'password, totp, recovery or passkey' }),
});
export type SessionRow = z.infer<typeof sessionRow>;
export const sessionList = z.object({ result: z.array(sessionRow) });

export const sessionParams = z.strictObject({ id: pathId });
export const staffSessionParams = z.strictObject({ accountId: pathId, id: pathId });

/** The caller's own second factors, for the profile's security section. */
export const myFactors = z.object({
  totp: z.boolean(),
  passkeys: z.number().int(),
  recoveryCodesLeft: z.number().int(),
  /** The owner requires a second factor and this account has none: only enrolment is open. */
  enrolmentRequired: z.boolean(),
});
export type MyFactors = z.infer<typeof myFactors>;

export const securitySettings = z.object({ requireSecondFactor: z.boolean() });
export type SecuritySettings = z.infer<typeof securitySettings>;
export const securitySettingsBody = z.strictObject({ requireSecondFactor: bool });
export type SecuritySettingsBody = z.input<typeof securitySettingsBody>;
/** What `PUT account/security` answers. */
export const securitySettingsChanged = z.object({
  message: z.string(),
  result: securitySettings,
});
