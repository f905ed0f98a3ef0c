/**
 * Reading the audit log: the whole log (SUPER_ADMIN), and one row's history for anyone who may
 * view that row's area (one route per area, each declaring that area's VIEW right). Nothing
 * here, or anywhere, updates or deletes an entry.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUDIT_COLUMNS,
  AUDIT_AREA_MENUS,
  AUDIT_AREAS,
  DATES_REVERSED,
  DATE_MAX,
  auditListFilters,
  PATHS,
  auditHistoryQuery,
  auditList,
  auditListQuery,
  idParams,
  type AuditEntry,
} from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { answers } from '../../http/schemas.ts';
import { invalidField } from '../../http/errors.ts';
import { registerListExport } from '../../http/list-export.ts';
import { defineList } from '../../db/lists.ts';

export const AUDIT_LIST = defineList({
  name: 'audit_log',
  table: 'auditLog',
  alias: 'l',
  filters: { accountId: 'accountId', area: 'area', rowId: 'rowId' },
  ranges: {
    from: { column: 'createdAt', op: '>=' },
    before: { column: 'createdAt', op: '<' },
  },
  counts: [[], ['accountId'], ['area'], ['area', 'rowId'], ['accountId', 'area']],
  search: [],
  rows: (db, ids) =>
    db
      .selectFrom('auditLog as l')
      .select([
        'l.id',
        'l.accountId',
        // Looked up per entry by key: as a join, PostgreSQL merged the page with the accounts'
        // key index from the first account, reading every entry when the newest were by an
        // account added late (2.4–3.2 s a page at ten million entries; issue #33).
        (eb) =>
          eb
            .selectFrom('accounts as a')
            .select((a) => a.fn.coalesce('a.email', 'a.phoneNumber').as('name'))
            .whereRef('a.id', '=', 'l.accountId')
            .as('accountName'),
        'l.ip',
        'l.device',
        'l.area',
        'l.rowId',
        'l.action',
        'l.changes',
        'l.createdAt',
      ])
      .where('l.id', 'in', ids),
});

type StoredEntry = Omit<AuditEntry, 'changes'> & { changes: string };

const toEntry = (row: StoredEntry): AuditEntry => ({
  ...row,
  changes: JSON.parse(row.changes) as AuditEntry['changes'],
});

/** The list query of an audit request: its UTC days as the bounds of `createdAt`. */
export function auditPageQuery<
  Q extends { fromDate?: string | undefined; toDate?: string | undefined },
>(query: Q) {
  const { fromDate, toDate, ...rest } = query;
  return {
    ...rest,
    from: fromDate === undefined ? undefined : startOf(fromDate),
    before: toDate === undefined ? undefined : dayAfter(toDate),
  };
}

/**
 * The first instant of a UTC day, and of the day after it; after the last day a date may be,
 * none (no timestamp is later: the year 10000 cannot be written).
 */
const startOf = (day: string) => `${day}T00:00:00.000Z`;
function dayAfter(day: string) {
  if (day === DATE_MAX) return undefined;
  const next = new Date(`${day}T00:00:00.000Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString();
}

const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  const { lists } = app.ctx;

  app.get(
    PATHS.auditList,
    {
      config: { access: access.superAdmin, listPage: true },
      schema: {
        tags: ['audit'],
        summary: 'Lists audit entries, newest first (SUPER_ADMIN)',
        description:
          'Every change a signed-in account made through the API: who, when, from which ' +
          'address, which area and row, and the changed fields old → new (secrets named, ' +
          'never shown). fromDate and toDate are UTC days, both included; toDate must not be ' +
          'before fromDate (400 naming toDate).',
        querystring: auditListQuery,
        response: answers(auditList),
      },
    },
    async (request) => {
      const page = await lists.page(AUDIT_LIST, auditPageQuery(request.query));
      return { ...page, result: (page.result as StoredEntry[]).map(toEntry) };
    },
  );

  registerListExport(app, {
    list: AUDIT_LIST,
    path: PATHS.auditList,
    file: 'audit-log',
    access: access.superAdmin,
    tags: ['audit'],
    what: 'audit entries',
    // Without the list's refinement (an export's query has no limit or offset to omit from
    // it): the days' order is checked here instead, with the same 400.
    querystring: auditListFilters,
    response: auditList,
    titles: AUDIT_COLUMNS,
    scope: (_params, request) => {
      const query = request.query as { fromDate?: string; toDate?: string };
      if (query.fromDate && query.toDate && query.fromDate > query.toDate) {
        throw invalidField('toDate', DATES_REVERSED);
      }
      return auditPageQuery(query);
    },
    map: (row) => toEntry(row as StoredEntry),
  });

  for (const area of AUDIT_AREAS) {
    const menu = AUDIT_AREA_MENUS[area];
    app.get(
      PATHS.auditHistory(area, ':id'),
      {
        config: {
          access: menu === undefined ? access.superAdmin : access.menu(menu, 'VIEW'),
          listPage: true,
        },
        schema: {
          tags: ['audit'],
          summary: `One ${area} row's audit entries, newest first`,
          description:
            menu === undefined
              ? 'SUPER_ADMIN only.'
              : `Open to whoever may view the area (VIEW on the ${menu} menu).`,
          params: idParams,
          querystring: auditHistoryQuery,
          response: answers(auditList),
        },
      },
      async (request) => {
        const page = await lists.page(AUDIT_LIST, {
          ...request.query,
          area,
          rowId: request.params.id,
        });
        return { ...page, result: (page.result as StoredEntry[]).map(toEntry) };
      },
    );
  }
};
export default auditRoutes;
