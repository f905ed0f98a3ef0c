/**
 * Notifications sent to a master app's users: to every user of the app, or to one (`accountId`).
 * The spec's `acccountId` is spelled `accountId` (API.md, Conventions).
 */
import { z } from 'zod';
import {
  listQuery,
  listResponse,
  masterAppRef,
  mutationResponse,
  sortParam,
  version,
} from './common.ts';
import { id, optionalId, text, timestamp } from './fields.ts';

export const notification = z.object({
  id: z.number().int(),
  version,
  masterAppId: z.number().int(),
  accountId: z.number().int().nullable(),
  title: z.string(),
  desc: z.string(),
  type: z.string(),
  read: z.boolean(),
  /** How many users read it in the app (one at most for a notification to one user). */
  readCount: z.number().int(),
  logo: z.string().nullable(),
  createdAt: timestamp,
  masterApp: masterAppRef,
});
export type Notification = z.infer<typeof notification>;

/**
 * Create: an optional multipart image file `logo`. `accountId`, when given, names a USER account
 * of that master app that is not DELETED.
 */
export const notificationCreateBody = z.strictObject({
  title: text(200),
  desc: text(2000, { multiline: true }),
  type: text(50),
  masterAppId: id,
  accountId: optionalId,
});
export type NotificationCreateBody = z.input<typeof notificationCreateBody>;

export const NOTIFICATION_SORTS = ['createdAt', 'title'] as const;
export const notificationListQuery = listQuery.extend({
  masterAppId: optionalId,
  sort: sortParam(NOTIFICATION_SORTS),
});
export type NotificationListQuery = z.input<typeof notificationListQuery>;

export const notificationList = listResponse(notification);
export const notificationMutation = mutationResponse(notification);
