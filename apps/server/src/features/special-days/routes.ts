/** Special days: dates (month and day) posters are made for, listed in calendar order. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  SPECIAL_DAY_COLUMNS,
  MESSAGES,
  OPTIONS_LIMIT,
  optionsQuery,
  specialDayOptions,
  PATHS,
  bulkResponse,
  deleteResponse,
  idParams,
  specialDayCreateBody,
  specialDayList,
  specialDayListQuery,
  specialDayMutation,
  specialDayProblem,
  specialDayUpdateBody,
  specialDayYearParams,
  statusBody,
  SPECIAL_DAY_SORTS,
} from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { registerListExport } from '../../http/list-export.ts';
import { registerVersioned } from '../../http/versions.ts';
import { audited, auditedCreate, recordChangedRows, snapshots } from '../audit/record.ts';
import { answers } from '../../http/schemas.ts';
import { invalidField, notFound } from '../../http/errors.ts';
import { now } from '../../db/dialect.ts';
import { inTransaction, lockRows } from '../../db/transaction.ts';
import { defineList } from '../../db/lists.ts';
import { trashUnlessPostersUse } from '../trash/service.ts';
import calendarRoutes from './calendar.ts';

const COLUMNS = [
  'id',
  'version',
  'name',
  'month',
  'day',
  'year',
  'status',
  'createdAt',
  'updatedAt',
] as const;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/**
 * The calendar year a special day on `month`/`day` falls in, counting from `year`: `year` itself,
 * except for 29 February in a year without it, which falls in the next leap year.
 */
function yearOf(month: number, day: number, year: number): number {
  if (month !== 2 || day !== 29) return year;
  let y = year;
  while (!isLeapYear(y)) y += 1;
  return y;
}

const YEAR_DESCRIPTION =
  'Sets `year` on every special day (whatever its status) to the calendar year its month and ' +
  'day fall in, counting from the given year: the given year itself, except 29 February when ' +
  'the given year has none, which gets the next leap year (2025 → 2028, 2100 → 2104), so ' +
  'year, month and day always make a real date. Answers the bulk shape ' +
  '`{ message, result: { ids, count } }` with the ids in list order (month, day, id).';

export const SPECIAL_DAYS_LIST = defineList({
  name: 'special_days',
  table: 'specialDays',
  alias: 'specialDays',
  filters: { status: 'status' },
  counts: [['status']],
  search: ['name'],
  // The calendar's order (API.md).
  order: [
    ['month', 'asc'],
    ['day', 'asc'],
    ['id', 'asc'],
  ],
  sorts: SPECIAL_DAY_SORTS,
  caseless: ['name'],
  rows: (db, ids) => db.selectFrom('specialDays').select(COLUMNS).where('id', 'in', ids),
});

const specialDayRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, lists, dialect } = app.ctx;
  registerVersioned(app, 'specialDays', {
    thing: 'Special day',
    things: 'special days',
    read: (id) =>
      db.selectFrom('specialDays').select(COLUMNS).where('id', '=', id).executeTakeFirst(),
  });
  await app.register(calendarRoutes);

  app.post(
    PATHS.specialDayCreate,
    {
      config: { access: access.menu('specialDay', 'CREATE') },
      schema: {
        tags: ['special days'],
        summary: 'Creates a special day, ACTIVE and without a year',
        description: 'The day must exist in the month; 29 February is accepted.',
        body: specialDayCreateBody,
        response: answers(specialDayMutation),
      },
    },
    async (request) => {
      const at = now();
      const row = await auditedCreate(
        db,
        request,
        { area: 'specialDays', table: 'specialDays', action: 'CREATE' },
        (trx) =>
          trx
            .insertInto('specialDays')
            .values({ ...request.body, year: null, status: 'ACTIVE', createdAt: at, updatedAt: at })
            .returning(COLUMNS)
            .executeTakeFirstOrThrow(),
      );
      return { message: MESSAGES.specialDayCreated, result: row };
    },
  );

  app.get(
    PATHS.specialDayOptions,
    {
      config: { access: access.signedIn, listPage: true },
      schema: {
        tags: ['special days'],
        summary: 'The first 100 special days by name matching `keyword`: a picker’s choices',
        description:
          'Open to every signed-in account, since other areas (posters) point at special days; ' +
          'the list itself needs its menu. `total` counts every match.',
        querystring: optionsQuery,
        response: answers(specialDayOptions),
      },
    },
    async (request) => {
      const page = await lists.page(SPECIAL_DAYS_LIST, {
        limit: OPTIONS_LIMIT,
        offset: 0,
        keyword: request.query.keyword,
        sort: 'name',
      });
      return {
        result: page.result.map((r) => ({
          id: r.id,
          name: r.name,
          day: r.day,
          month: r.month,
          status: r.status,
        })),
        total: page.total,
      };
    },
  );

  app.get(
    PATHS.specialDayList,
    {
      config: { access: access.menu('specialDay', 'VIEW'), listPage: true },
      schema: {
        tags: ['special days'],
        summary:
          'Lists special days in calendar order (month, day, then id); keyword searches the name',
        querystring: specialDayListQuery,
        response: answers(specialDayList),
      },
    },
    async (request) => {
      return lists.page(SPECIAL_DAYS_LIST, request.query);
    },
  );

  registerListExport(app, {
    list: SPECIAL_DAYS_LIST,
    path: PATHS.specialDayList,
    file: 'special-days',
    access: access.menu('specialDay', 'VIEW'),
    tags: ['special days'],
    what: 'special days',
    querystring: specialDayListQuery,
    response: specialDayList,
    titles: SPECIAL_DAY_COLUMNS,
  });

  app.patch(
    PATHS.specialDay(':id'),
    {
      config: { access: access.menu('specialDay', 'UPDATE') },
      schema: {
        tags: ['special days'],
        summary: 'Changes a special day’s name, month or day (at least one)',
        description:
          'The resulting month and day must make a day of the year: given alone, a month or a ' +
          'day is checked against the stored other half, and a 400 names the field given. A ' +
          'year already set is kept, unless the day becomes 29 February in a year without it: ' +
          'then it moves to the next leap year, as `special-day/year/{year}` would set it.',
        params: idParams,
        body: specialDayUpdateBody,
        response: answers(specialDayMutation),
      },
    },
    async (request) => {
      const { id } = request.params;
      const { name, month, day } = request.body;
      const target = {
        area: 'specialDays',
        table: 'specialDays',
        action: 'UPDATE',
        ids: [id],
      } as const;
      const row = await audited(db, request, target, async (trx) => {
        const stored = await trx
          .selectFrom('specialDays')
          .select(['month', 'day', 'year'])
          .where('id', '=', id)
          .$if(dialect.kind === 'postgres', (qb) => qb.forUpdate())
          .executeTakeFirst();
        if (!stored) throw notFound(MESSAGES.specialDayNotFound);
        const newMonth = month ?? stored.month;
        const newDay = day ?? stored.day;
        const problem = specialDayProblem(newMonth, newDay);
        if (problem) {
          throw day !== undefined
            ? invalidField('day', problem)
            : invalidField('month', `${problem}: the special day is on day ${newDay}`);
        }
        return trx
          .updateTable('specialDays')
          .set({
            ...(name !== undefined ? { name } : {}),
            month: newMonth,
            day: newDay,
            year: stored.year === null ? null : yearOf(newMonth, newDay, stored.year),
            updatedAt: now(),
          })
          .where('id', '=', id)
          .returning(COLUMNS)
          .executeTakeFirstOrThrow();
      });
      return { message: MESSAGES.specialDayUpdated, result: row };
    },
  );

  app.put(
    PATHS.specialDayStatus(':id'),
    {
      config: { access: access.menu('specialDay', 'UPDATE') },
      schema: {
        tags: ['special days'],
        summary: 'Changes a special day’s status',
        params: idParams,
        body: statusBody,
        response: answers(specialDayMutation),
      },
    },
    async (request) => {
      const row = await audited(
        db,
        request,
        { area: 'specialDays', table: 'specialDays', action: 'STATUS', ids: [request.params.id] },
        (trx) =>
          trx
            .updateTable('specialDays')
            .set({ status: request.body.status, updatedAt: now() })
            .where('id', '=', request.params.id)
            .returning(COLUMNS)
            .executeTakeFirst(),
      );
      if (!row) throw notFound(MESSAGES.specialDayNotFound);
      return { message: MESSAGES.statusUpdated, result: row };
    },
  );

  app.delete(
    PATHS.specialDayRemove(':id'),
    {
      config: { access: access.menu('specialDay', 'DELETE') },
      schema: {
        tags: ['special days'],
        summary: 'Moves a special day that no poster uses to the trash',
        description: `While any poster is made for the special day, answers 409 "${MESSAGES.specialDayInUse}" and deletes nothing.`,
        params: idParams,
        response: answers(deleteResponse),
      },
    },
    async (request) => {
      const { id } = request.params;
      const row = await trashUnlessPostersUse(
        db,
        request,
        'specialDays',
        id,
        'specialDayId',
        MESSAGES.specialDayInUse,
      );
      if (!row) throw notFound(MESSAGES.specialDayNotFound);
      return { message: MESSAGES.specialDayDeleted, result: { id: row.id } };
    },
  );

  app.put(
    PATHS.specialDayYear(':year'),
    {
      config: { access: access.menu('specialDay', 'UPDATE') },
      schema: {
        tags: ['special days'],
        summary: 'Sets the year of every special day (year 2000..2100)',
        description: YEAR_DESCRIPTION,
        params: specialDayYearParams,
        response: answers(bulkResponse),
      },
    },
    async (request) => {
      const { year } = request.params;
      const rows = await inTransaction(db, request.log, async (trx) => {
        const all = await lockRows(trx, 'specialDays', 'all');
        const before = await snapshots(trx, 'specialDays', all);
        const at = now();
        const others = await trx
          .updateTable('specialDays')
          .set({ year, updatedAt: at })
          .where((eb) => eb.or([eb('month', '<>', 2), eb('day', '<>', 29)]))
          .returning(['id', 'month', 'day'])
          .execute();
        const leap = await trx
          .updateTable('specialDays')
          .set({ year: yearOf(2, 29, year), updatedAt: at })
          .where('month', '=', 2)
          .where('day', '=', 29)
          .returning(['id', 'month', 'day'])
          .execute();
        const target = { area: 'specialDays', table: 'specialDays', action: 'UPDATE' } as const;
        await recordChangedRows(trx, request, target, before);
        return [...others, ...leap];
      });
      rows.sort((a, b) => a.month - b.month || a.day - b.day || a.id - b.id);
      const ids = rows.map((r) => r.id);
      return { message: MESSAGES.yearsUpdated, result: { ids, count: ids.length } };
    },
  );
};
export default specialDayRoutes;
