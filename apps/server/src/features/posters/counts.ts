/**
 * The grouping sets the posters list keeps its totals for (`list_counts`, ListSpec.counts), in a
 * module of their own so that what reads them directly (the special days' active posters) need
 * not import the posters' routes.
 */
export const POSTER_COUNTS = [
  ['masterAppId', 'status'],
  ['categoryId', 'status', 'masterAppId'],
  ['specialDayId', 'status', 'masterAppId'],
  ['categoryId', 'specialDayId', 'status', 'masterAppId'],
] as const;
