import { z } from 'zod';
import { STATUSES, Status } from './enums.ts';
import {
  listQuery,
  listResponse,
  optionsResponse,
  mutationResponse,
  sortParam,
  version,
} from './common.ts';
import {
  int,
  optionalEnum,
  optionalInt,
  optionalText,
  pathInt,
  text,
  timestamp,
} from './fields.ts';
import { atLeastOne, atLeastOneDocumented, onceFieldsValid } from './partial.ts';

export const SPECIAL_DAY_NAME_MAX = 100;
export const SPECIAL_DAY_YEAR_MIN = 2000;
export const SPECIAL_DAY_YEAR_MAX = 2100;

/** The months' English names, January first. */
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** Days in `month` (1..12) of any year: February has 29, since 29 February is a special day too. */
export function daysInMonth(month: number): number {
  return month === 2 ? 29 : new Date(Date.UTC(2001, month, 0)).getUTCDate();
}

/** Why `day` is not a day of `month`, or undefined when it is. */
export function specialDayProblem(month: number, day: number): string | undefined {
  const last = daysInMonth(month);
  if (day >= 1 && day <= last) return undefined;
  return `${MONTH_NAMES[month - 1] ?? `Month ${month}`} has days 1 to ${last}`;
}

export const specialDay = z.object({
  id: z.number().int(),
  version,
  name: z.string(),
  month: z.number().int(),
  day: z.number().int(),
  year: z.number().int().nullable(),
  status: Status,
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type SpecialDay = z.infer<typeof specialDay>;

/** The days a month has, as the API document states them (29 February is allowed). */
const DAYS_IN_MONTH_DOCUMENTED = [
  {
    if: { properties: { month: { enum: [4, 6, 9, 11] } }, required: ['month', 'day'] },
    then: { properties: { day: { maximum: 30 } } },
  },
  {
    if: { properties: { month: { const: 2 } }, required: ['month', 'day'] },
    then: { properties: { day: { maximum: 29 } } },
  },
];

export const specialDayCreateBody = z
  .strictObject({
    name: text(SPECIAL_DAY_NAME_MAX),
    month: int(1, 12),
    day: int(1, 31),
  })
  .superRefine((body, ctx) => {
    const problem = specialDayProblem(body.month, body.day);
    if (problem) ctx.addIssue({ code: 'custom', path: ['day'], message: problem });
  }, onceFieldsValid)
  .meta({ allOf: DAYS_IN_MONTH_DOCUMENTED });
export type SpecialDayCreateBody = z.input<typeof specialDayCreateBody>;

/**
 * Any of the fields, at least one. With both month and day the pair is checked here; with only
 * one, the server checks it against the stored other half.
 */
export const specialDayUpdateBody = z
  .strictObject({
    name: optionalText(SPECIAL_DAY_NAME_MAX),
    month: optionalInt(1, 12),
    day: optionalInt(1, 31),
  })
  .superRefine((body, ctx) => {
    atLeastOne(body, ['name', 'month', 'day'], ctx);
    if (body.month === undefined || body.day === undefined) return;
    const problem = specialDayProblem(body.month, body.day);
    if (problem) ctx.addIssue({ code: 'custom', path: ['day'], message: problem });
  }, onceFieldsValid)
  .meta({
    ...atLeastOneDocumented(['name', 'month', 'day']),
    allOf: DAYS_IN_MONTH_DOCUMENTED,
    description:
      'Give at least one of name, month, day. A month or day given alone is checked against ' +
      'the stored other half (no 31 April, no 30 February).',
  });
export type SpecialDayUpdateBody = z.input<typeof specialDayUpdateBody>;

export const SPECIAL_DAY_SORTS = ['name', 'createdAt'] as const;
export const specialDayListQuery = listQuery.extend({
  status: optionalEnum(STATUSES),
  sort: sortParam(SPECIAL_DAY_SORTS),
});
export type SpecialDayListQuery = z.input<typeof specialDayListQuery>;

/** `PUT special-day/year/{year}`. */
export const specialDayYearParams = z.strictObject({
  year: pathInt(SPECIAL_DAY_YEAR_MIN, SPECIAL_DAY_YEAR_MAX),
});

export const specialDayList = listResponse(specialDay);
export const specialDayMutation = mutationResponse(specialDay);

/** The choices of a special-day picker (`optionsQuery`): the first 100 by name. */
export const specialDayOption = specialDay.pick({
  id: true,
  name: true,
  day: true,
  month: true,
  status: true,
});
export const specialDayOptions = optionsResponse(specialDayOption);

/** A special day with its ACTIVE posters: in all, and per master app (every app, zeros too). */
export const specialDayPosters = specialDay
  .pick({ id: true, name: true, month: true, day: true, status: true })
  .extend({
    activePosters: z.number().int(),
    apps: z.array(
      z.object({ id: z.number().int(), name: z.string(), activePosters: z.number().int() }),
    ),
  });
export type SpecialDayPosters = z.infer<typeof specialDayPosters>;

/** `GET special-day/calendar`: the special days of one month (every year's). */
export const specialDayCalendarQuery = z.strictObject({ month: int(1, 12) });
export type SpecialDayCalendarQuery = z.input<typeof specialDayCalendarQuery>;
export const specialDayCalendar = z.object({
  month: z.number().int(),
  result: z.array(specialDayPosters),
});
export type SpecialDayCalendar = z.infer<typeof specialDayCalendar>;
