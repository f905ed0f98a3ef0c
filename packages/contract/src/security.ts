/**
 * Second factors, passkeys, sessions and the owner's security setting (API.md, "Second factors,
 * passkeys, sessions, device tokens").
 */
import { z } from 'zod';
import { PASSWORD_MAX, loginResponse } from './auth.ts';
import { bool, pathId, plainText, text, timestamp } from './fields.ts';

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

/** Recovery codes, shown once: the authenticator app's confirmation, or a renewal. */
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

/** How long a proof of presence counts by default (REAUTH_WINDOW_SECONDS). */
export const REAUTH_WINDOW_SECONDS = 300;

/** The fields of each kind of proof `POST auth/reauth` takes. */
const PROOF_KINDS = [['password'], ['method', 'code'], ['response']] as const;
const PROOF_FIELDS = PROOF_KINDS.flat();

/** `reauthBody`'s rule as the API document states it: exactly one kind of proof, whole. */
const ONE_PROOF_DOCUMENTED = PROOF_KINDS.map((fields) => ({
  required: [...fields],
  not: {
    anyOf: PROOF_FIELDS.filter((f) => !(fields as readonly string[]).includes(f)).map((f) => ({
      required: [f],
    })),
  },
}));

/**
 * `POST auth/reauth`: one proof, of one kind: the password, a code (authenticator app or
 * recovery) with its method, or a passkey's answer to `auth/reauth/passkey/options`.
 */
export const reauthBody = z
  .strictObject({
    password: plainText(PASSWORD_MAX).min(1, { error: 'Required' }).optional(),
    method: z.enum(['totp', 'recovery'], { error: 'Must be totp or recovery' }).optional(),
    code: code.optional(),
    response: webauthnResponse.optional(),
  })
  .superRefine((body, ctx) => {
    const given = PROOF_KINDS.filter((fields) => fields.some((f) => body[f] !== undefined));
    if (given.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['password'],
        message: 'Give the password, a code with its method, or a passkey’s response',
      });
      return;
    }
    if (given.length > 1) {
      ctx.addIssue({ code: 'custom', path: [given[1]![0]], message: 'One proof at a time' });
      return;
    }
    for (const field of given[0]!) {
      if (body[field] === undefined)
        ctx.addIssue({ code: 'custom', path: [field], message: 'Required' });
    }
  })
  .meta({ anyOf: ONE_PROOF_DOCUMENTED });
export type ReauthBody = z.infer<typeof reauthBody>;

/** A proof accepted: changes that need one are open to this session until `until`. */
export const reauthAnswer = z.object({ message: z.string(), until: timestamp });
export type ReauthAnswer = z.infer<typeof reauthAnswer>;

/** The owner's reset of a staff member's second factors: what was removed. */
export const factorsResetAnswer = z.object({
  message: z.string(),
  result: z.object({
    id: z.number().int(),
    totp: z.boolean().meta({ description: 'An authenticator app was removed' }),
    passkeys: z.number().int().meta({ description: 'How many passkeys were removed' }),
  }),
});
export type FactorsResetAnswer = z.infer<typeof factorsResetAnswer>;

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
