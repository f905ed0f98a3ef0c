import { z } from 'zod';
import { AUDIT_AREA_MENUS, type AuditArea } from './audit.ts';
import { id } from './fields.ts';

/**
 * The areas the event stream and presence name (API.md "Events"): the menu names of the audit
 * areas, and `staff` (SUPER_ADMIN only, like its audit history). The audit area `auth` (sign-ins)
 * yields no events.
 */
export const EVENT_AREAS = [
  ...new Set(Object.values(AUDIT_AREA_MENUS).filter((menu) => menu !== undefined)),
  'staff',
] as unknown as [EventArea, ...EventArea[]];
export type EventArea =
  NonNullable<(typeof AUDIT_AREA_MENUS)[keyof typeof AUDIT_AREA_MENUS]> | 'staff';

/**
 * The event area an audit area's changes are announced in; undefined: none. Sign-ins (`auth`)
 * are not changes of a row; a user's numbered images are rows of their own whose ids would read
 * as users' ids in the `users` area (no list of users shows them: the user's page reads them).
 */
export function eventAreaOf(area: AuditArea): EventArea | undefined {
  if (area === 'auth' || area === 'userImages') return undefined;
  return AUDIT_AREA_MENUS[area] ?? 'staff';
}

export const EVENT_ACTIONS = ['created', 'changed', 'deleted'] as const;
export type EventAction = (typeof EVENT_ACTIONS)[number];

/** Who made a change or edits a row: the account's name, or its email when it has none. */
export const eventAccount = z.object({ id: z.number().int(), name: z.string() });
export type EventAccount = z.infer<typeof eventAccount>;

/** `event: change`: row `id` of `area` is now at `version` (null while rows carry none). */
export const changeEventData = z.object({
  area: z.enum(EVENT_AREAS),
  action: z.enum(EVENT_ACTIONS),
  id: z.number().int(),
  version: z.number().int().nullable(),
  by: eventAccount,
});
export type ChangeEventData = z.infer<typeof changeEventData>;

/** `event: presence`: who is editing row `id` of `area` now (empty: nobody any more). */
export const presenceEventData = z.object({
  area: z.enum(EVENT_AREAS),
  id: z.number().int(),
  editors: z.array(eventAccount),
});
export type PresenceEventData = z.infer<typeof presenceEventData>;

/** `PUT presence` and `DELETE presence`: "I am editing this row" and "no longer". */
export const presenceBody = z.strictObject({ area: z.enum(EVENT_AREAS), id });
export type PresenceBody = z.input<typeof presenceBody>;

export const presenceAnswer = z.object({ editors: z.array(eventAccount) });
export type PresenceAnswer = z.infer<typeof presenceAnswer>;

/** How long a `PUT presence` holds, unless renewed (seconds; the server's default). */
export const PRESENCE_TTL_SECONDS = 30;
