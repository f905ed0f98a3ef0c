import { z } from 'zod';
import { listQuery, listResponse, sortParam, version } from './common.ts';
import { emailAddress, text, timestamp } from './fields.ts';

export const CONTACT_NAME_MAX = 100;
export const CONTACT_EMAIL_MAX = 254;
export const CONTACT_QUERY_MAX = 5000;

/** Digits with an optional leading +, 6 to 20 characters in all. */
export const CONTACT_PHONE_NUMBER = /^\+?\d+$/;

export const contactUs = z.object({
  id: z.number().int(),
  version,
  fName: z.string(),
  lName: z.string(),
  email: z.string(),
  phoneNumber: z.string(),
  query: z.string(),
  createdAt: timestamp,
});
export type ContactUs = z.infer<typeof contactUs>;

export const contactUsBody = z.strictObject({
  fName: text(CONTACT_NAME_MAX),
  lName: text(CONTACT_NAME_MAX),
  email: emailAddress(CONTACT_EMAIL_MAX),
  phoneNumber: text(20)
    .min(6, { error: 'Must be at least 6 characters' })
    .regex(CONTACT_PHONE_NUMBER, { error: 'Must be digits, with an optional leading +' }),
  query: text(CONTACT_QUERY_MAX, { multiline: true }),
});
export type ContactUsBody = z.input<typeof contactUsBody>;

export const CONTACT_US_SORTS = ['createdAt', 'fName', 'email'] as const;
export const contactUsListQuery = listQuery.extend({ sort: sortParam(CONTACT_US_SORTS) });
export type ContactUsListQuery = z.input<typeof contactUsListQuery>;

export const contactUsList = listResponse(contactUs);

/** The answer to a submission: the message, and the id of the stored enquiry. */
export const contactUsReceived = z.object({
  message: z.string(),
  result: z.object({ id: z.number().int() }),
});
