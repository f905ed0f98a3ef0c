/**
 * Settings: one row per master app holding its logo, its title and the domains its user site,
 * admin site and mobile app answer on. The domain fields keep the spec's snake_case names
 * (`user_domain`, `admin_domain`, `mobile_domain`) in bodies and rows.
 */
import { z } from 'zod';
import { atLeastOneDocumented } from './partial.ts';
import {
  listQuery,
  listResponse,
  masterAppRef,
  mutationResponse,
  sortParam,
  version,
} from './common.ts';
import { optionalId, optionalText, text, timestamp } from './fields.ts';

export const settings = z.object({
  id: z.number().int(),
  version,
  title: z.string(),
  user_domain: z.string().nullable(),
  admin_domain: z.string().nullable(),
  mobile_domain: z.string().nullable(),
  logo: z.string(),
  updatedAt: timestamp,
  masterApp: masterAppRef,
});
export type Settings = z.infer<typeof settings>;

/** The text fields a settings row takes, besides its logo. */
export const SETTINGS_DOMAIN_FIELDS = ['user_domain', 'admin_domain', 'mobile_domain'] as const;
export const MAX_DOMAIN_LENGTH = 255;

/** A host name: dot-separated labels of letters, digits and inner hyphens. */
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const HOST = `${LABEL}(?:\\.${LABEL})*`;
const PORT = '(?::\\d{1,5})?';
const HOST_AND_PORT = `${HOST}${PORT}`;
/** An http(s) URL: host, optional port, optional path, query or fragment; no credentials. */
const HTTP_URL = `[Hh][Tt][Tt][Pp][Ss]?://${HOST}${PORT}(?:[/?#]\\S*)?`;
/** No flags, so the API document states it as it is. */
const DOMAIN = new RegExp(`^(?:${HOST_AND_PORT}|${HTTP_URL})$`);

/**
 * A domain is either a host name, optionally with a port (`app.example.com`, `localhost:3000`),
 * or an http(s) URL (`https://app.example.com/base`); nothing else (no other scheme, no spaces,
 * no user:password@).
 */
export function isDomain(value: string): boolean {
  return DOMAIN.test(value);
}

const DOMAIN_MESSAGE = 'Must be a host name (app.example.com) or an http(s) URL';

/** An optional domain; an empty string counts as absent. */
const optionalDomain = optionalText(MAX_DOMAIN_LENGTH, {
  pattern: { regex: DOMAIN, message: DOMAIN_MESSAGE },
});

/** Create: the logo comes as the multipart image file `logo`. */
export const settingsCreateBody = z.strictObject({
  title: text(200),
  user_domain: optionalDomain,
  admin_domain: optionalDomain,
  mobile_domain: optionalDomain,
});
export type SettingsCreateBody = z.input<typeof settingsCreateBody>;

/**
 * Update: any of the text fields, and/or a new multipart image file `logo` (at least one of
 * them). An empty string counts as absent (the field keeps its value); a JSON `null` clears a
 * domain.
 */
export const settingsUpdateBody = z
  .strictObject({
    title: optionalText(200),
    user_domain: optionalDomain.nullable(),
    admin_domain: optionalDomain.nullable(),
    mobile_domain: optionalDomain.nullable(),
  })
  // With a new `logo` file, no field is needed (the upload adds that choice to the document).
  .meta(atLeastOneDocumented(['title', ...SETTINGS_DOMAIN_FIELDS]))
  .optional();
export type SettingsUpdateBody = z.input<typeof settingsUpdateBody>;

export const SETTINGS_SORTS = ['title', 'updatedAt'] as const;
export const settingsListQuery = listQuery.extend({
  masterAppId: optionalId,
  sort: sortParam(SETTINGS_SORTS),
});
export type SettingsListQuery = z.input<typeof settingsListQuery>;

export const settingsList = listResponse(settings);
export const settingsMutation = mutationResponse(settings);
