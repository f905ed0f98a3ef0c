import { z } from 'zod';
import { PermissionKind, Role, Status } from './enums.ts';
import { plainText, text, timestamp } from './fields.ts';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** Login takes an email or a phone number in `email`. */
export const loginBody = z.strictObject({
  email: text(254),
  password: plainText(PASSWORD_MAX).min(1, { error: 'Required' }),
});
export type LoginBody = z.infer<typeof loginBody>;

export const loginResponse = z.object({ token: z.string().min(1), loginId: z.string().optional() });
export type LoginResponse = z.infer<typeof loginResponse>;

/**
 * What the API document says of every new password's field: the strength rule
 * (password-strength.ts) cannot be said as a JSON schema.
 */
export const NEW_PASSWORD_DESCRIPTION =
  `A new password: ${PASSWORD_MIN} to ${PASSWORD_MAX} characters that are not too easy to guess ` +
  '(zxcvbn score 3 or more, which no password under 9 characters reaches; not a common ' +
  "password, nor built from the account's email, name or phone). A weak one is refused with " +
  '400 naming this field, with the reason.';

const newPassword = plainText(PASSWORD_MAX)
  .min(PASSWORD_MIN, {
    error: `Must be at least ${PASSWORD_MIN} characters`,
  })
  .meta({ description: NEW_PASSWORD_DESCRIPTION });

export const passResetBody = z.strictObject({
  oldPassword: plainText(PASSWORD_MAX).min(1, { error: 'Required' }),
  newPassword,
});
export type PassResetBody = z.infer<typeof passResetBody>;

export const passResetResponse = z.object({
  message: z.string(),
  result: z.object({ id: z.number().int(), email: z.string().nullable() }),
});

export const profile = z.object({
  id: z.number().int(),
  phoneNumber: z.string().nullable(),
  email: z.string().nullable(),
  status: Status,
  createdAt: timestamp,
});
export type Profile = z.infer<typeof profile>;

/**
 * What the caller may do (`GET account/me/permissions`): per menu name, the kinds it holds. A
 * SUPER_ADMIN holds every kind of every menu; the web app hides what the server would refuse.
 */
export const myPermissions = z.object({
  role: Role,
  grants: z.record(z.string(), z.array(PermissionKind)),
});
export type MyPermissions = z.infer<typeof myPermissions>;
