import { z } from 'zod';
import { Status } from './enums.ts';
import { timestamp } from './fields.ts';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/** Login takes an email or a phone number in `email`. */
export const loginBody = z.strictObject({
  email: z
    .string({ error: 'Required' })
    .trim()
    .min(1, { error: 'Required' })
    .max(254, { error: 'Must be at most 254 characters' }),
  password: z
    .string({ error: 'Required' })
    .min(1, { error: 'Required' })
    .max(PASSWORD_MAX, { error: `Must be at most ${PASSWORD_MAX} characters` }),
});
export type LoginBody = z.infer<typeof loginBody>;

export const loginResponse = z.object({ token: z.string().min(1), loginId: z.string().optional() });
export type LoginResponse = z.infer<typeof loginResponse>;

const newPassword = z
  .string({ error: 'Required' })
  .min(PASSWORD_MIN, { error: `Must be at least ${PASSWORD_MIN} characters` })
  .max(PASSWORD_MAX, { error: `Must be at most ${PASSWORD_MAX} characters` });

export const passResetBody = z.strictObject({
  oldPassword: z
    .string({ error: 'Required' })
    .min(1, { error: 'Required' })
    .max(PASSWORD_MAX, { error: `Must be at most ${PASSWORD_MAX} characters` }),
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
