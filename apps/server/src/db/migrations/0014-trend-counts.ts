/**
 * Kept daily counts for the dashboard's trends (issue #11): `trend_counts` holds, per metric,
 * master app and UTC day, how many posters were created, how many end users were created that are
 * not DELETED, and how many downloads were recorded. Counting them from the rows was a scan of the
 * period's posters, users and download days: at a million posters the all-time monthly trend took
 * seconds a request. Kept by triggers in the same transaction as every write, like `list_counts`
 * (row triggers on SQLite; statement triggers with transition tables on PostgreSQL).
 *
 * A poster's downloads leave the counts before the poster goes (a BEFORE DELETE row trigger): its
 * download rows are then deleted by the cascade, when the poster (and so its app) can no longer be
 * read, and their own trigger counts nothing. Frozen.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';

const LIVE_USER = (row: string) => `${row}.role = 'USER' and ${row}.status <> 'DELETED'`;

function sqliteStatements(): string[] {
  const day = (row: string) => `substr(${row}.created_at, 1, 10)`;
  const add = (metric: string, app: string, dayOf: string, n: string, where = '') =>
    `insert into trend_counts (metric, master_app_id, day, n) select '${metric}', ${app}, ${dayOf}, ${n} ` +
    `where ${where || 'true'} on conflict (metric, master_app_id, day) do update set n = n + excluded.n;`;
  const sub = (metric: string, app: string, dayOf: string, n: string, where = '') =>
    `update trend_counts set n = n - ${n} where metric = '${metric}' and master_app_id = ${app} ` +
    `and day = ${dayOf}${where ? ` and ${where}` : ''};`;
  const appOf = (posterId: string) =>
    `(select p.master_app_id from posters p where p.id = ${posterId})`;
  // A poster's downloads per day, added to (sign +) or taken from (sign -) the app `app`.
  const moveDownloads = (row: string, app: string, sign: '+' | '-') =>
    sign === '+'
      ? `insert into trend_counts (metric, master_app_id, day, n) select 'downloads', ${app}, d.day, sum(d.n) ` +
        `from poster_downloads d where d.poster_id = ${row}.id group by d.day ` +
        `on conflict (metric, master_app_id, day) do update set n = n + excluded.n;`
      : `update trend_counts set n = n - coalesce((select sum(d.n) from poster_downloads d ` +
        `where d.poster_id = ${row}.id and d.day = trend_counts.day), 0) ` +
        `where metric = 'downloads' and master_app_id = ${app} ` +
        `and day in (select d.day from poster_downloads d where d.poster_id = ${row}.id);`;
  return [
    `create trigger trend_posters_insert after insert on posters begin ` +
      add('posters', 'new.master_app_id', day('new'), '1') +
      ` end`,
    `create trigger trend_posters_delete after delete on posters begin ` +
      sub('posters', 'old.master_app_id', day('old'), '1') +
      ` end`,
    `create trigger trend_posters_downloads_gone before delete on posters begin ` +
      moveDownloads('old', 'old.master_app_id', '-') +
      ` end`,
    `create trigger trend_posters_move after update of master_app_id, created_at on posters ` +
      `when old.master_app_id is not new.master_app_id or old.created_at is not new.created_at begin ` +
      sub('posters', 'old.master_app_id', day('old'), '1') +
      add('posters', 'new.master_app_id', day('new'), '1') +
      moveDownloads('old', 'old.master_app_id', '-') +
      moveDownloads('new', 'new.master_app_id', '+') +
      ` end`,
    `create trigger trend_users_insert after insert on accounts when ${LIVE_USER('new')} begin ` +
      add('users', 'coalesce(new.master_app_id, 0)', day('new'), '1') +
      ` end`,
    `create trigger trend_users_delete after delete on accounts when ${LIVE_USER('old')} begin ` +
      sub('users', 'coalesce(old.master_app_id, 0)', day('old'), '1') +
      ` end`,
    `create trigger trend_users_update after update of role, status, master_app_id, created_at on accounts ` +
      `when old.role is not new.role or old.status is not new.status ` +
      `or old.master_app_id is not new.master_app_id or old.created_at is not new.created_at begin ` +
      sub('users', 'coalesce(old.master_app_id, 0)', day('old'), '1', LIVE_USER('old')) +
      add('users', 'coalesce(new.master_app_id, 0)', day('new'), '1', LIVE_USER('new')) +
      ` end`,
    `create trigger trend_downloads_insert after insert on poster_downloads begin ` +
      add(
        'downloads',
        appOf('new.poster_id'),
        'new.day',
        'new.n',
        `${appOf('new.poster_id')} is not null`,
      ) +
      ` end`,
    `create trigger trend_downloads_delete after delete on poster_downloads begin ` +
      sub('downloads', appOf('old.poster_id'), 'old.day', 'old.n') +
      ` end`,
    `create trigger trend_downloads_update after update on poster_downloads begin ` +
      sub('downloads', appOf('old.poster_id'), 'old.day', 'old.n') +
      add(
        'downloads',
        appOf('new.poster_id'),
        'new.day',
        'new.n',
        `${appOf('new.poster_id')} is not null`,
      ) +
      ` end`,
  ];
}

function postgresStatements(): string[] {
  const day = (row: string) => `(${row}.created_at at time zone 'UTC')::date`;
  /** Adds the signed deltas the selects give (metric, app, day, delta), in one upsert. */
  const upsert = (selects: string[]) =>
    `insert into trend_counts (metric, master_app_id, day, n) ` +
    `select metric, app, day, sum(d) from (${selects.join(' union all ')}) as x (metric, app, day, d) ` +
    `group by metric, app, day having sum(d) <> 0 ` +
    // One order for every writer, so two transactions never wait on each other's rows in turn.
    `order by metric, app, day ` +
    `on conflict (metric, master_app_id, day) do update set n = trend_counts.n + excluded.n;`;
  const posters = (rows: string, sign: string) =>
    `select 'posters', r.master_app_id, ${day('r')}, ${sign}count(*) from ${rows} r group by 2, 3`;
  const users = (rows: string, sign: string) =>
    `select 'users', coalesce(r.master_app_id, 0), ${day('r')}, ${sign}count(*) from ${rows} r ` +
    `where ${LIVE_USER('r')} group by 2, 3`;
  const downloads = (rows: string, sign: string) =>
    `select 'downloads', p.master_app_id, r.day, ${sign}sum(r.n) from ${rows} r ` +
    `join posters p on p.id = r.poster_id group by 2, 3`;
  // Downloads of posters whose app changed, moved from the old app to the new one.
  const movedDownloads = (sign: string, side: 'o' | 'n') =>
    `select 'downloads', ${side}.master_app_id, d.day, ${sign}sum(d.n) from new_rows n ` +
    `join old_rows o on o.id = n.id join poster_downloads d on d.poster_id = n.id ` +
    `where n.master_app_id <> o.master_app_id group by 2, 3`;
  const fn = (name: string, insert: string, del: string, update: string) =>
    `create function ${name}() returns trigger language plpgsql as $$ begin ` +
    `if tg_op = 'INSERT' then ${insert} elsif tg_op = 'DELETE' then ${del} else ${update} end if; ` +
    `return null; end $$`;
  const triggers = (table: string, name: string) =>
    [
      ['insert', 'referencing new table as new_rows'],
      ['delete', 'referencing old table as old_rows'],
      ['update', 'referencing old table as old_rows new table as new_rows'],
    ].map(
      ([op, ref]) =>
        `create trigger ${name}_${op} after ${op} on ${table} ${ref} for each statement execute function ${name}()`,
    );
  return [
    fn(
      'trend_posters_sync',
      upsert([posters('new_rows', '')]),
      upsert([posters('old_rows', '-')]),
      upsert([
        posters('new_rows', ''),
        posters('old_rows', '-'),
        movedDownloads('', 'n'),
        movedDownloads('-', 'o'),
      ]),
    ),
    ...triggers('posters', 'trend_posters_sync'),
    `create function trend_posters_downloads_gone() returns trigger language plpgsql as $$ begin ` +
      upsert([
        `select 'downloads', old.master_app_id, d.day, -sum(d.n) from poster_downloads d ` +
          `where d.poster_id = old.id group by 2, 3`,
      ]) +
      ` return old; end $$`,
    `create trigger trend_posters_downloads_gone before delete on posters for each row ` +
      `execute function trend_posters_downloads_gone()`,
    fn(
      'trend_users_sync',
      upsert([users('new_rows', '')]),
      upsert([users('old_rows', '-')]),
      upsert([users('new_rows', ''), users('old_rows', '-')]),
    ),
    ...triggers('accounts', 'trend_users_sync'),
    fn(
      'trend_downloads_sync',
      upsert([downloads('new_rows', '')]),
      upsert([downloads('old_rows', '-')]),
      upsert([downloads('new_rows', ''), downloads('old_rows', '-')]),
    ),
    ...triggers('poster_downloads', 'trend_downloads_sync'),
  ];
}

/** The counts as the tables hold them now (the backfill, and what a check compares with). */
export function trendCountsFromTables(d: Dialect): string {
  const day =
    d.kind === 'postgres'
      ? (row: string) => `(${row}.created_at at time zone 'UTC')::date`
      : (row: string) => `substr(${row}.created_at, 1, 10)`;
  return (
    `select 'posters' as metric, r.master_app_id as master_app_id, ${day('r')} as day, count(*) as n ` +
    `from posters r group by 2, 3 union all ` +
    `select 'users', coalesce(r.master_app_id, 0), ${day('r')}, count(*) from accounts r ` +
    `where ${LIVE_USER('r')} group by 2, 3 union all ` +
    `select 'downloads', p.master_app_id, r.day, sum(r.n) from poster_downloads r ` +
    `join posters p on p.id = r.poster_id group by 2, 3`
  );
}

export function trendCounts(d: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('trend_counts')
        .addColumn('metric', 'varchar(20)', (c) => c.notNull())
        .addColumn('master_app_id', 'integer', (c) => c.notNull())
        .addColumn('day', d.dateType, (c) => c.notNull())
        .addColumn('n', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('trend_counts_pk', ['metric', 'master_app_id', 'day'])
        .execute();
      const statements = d.kind === 'postgres' ? postgresStatements() : sqliteStatements();
      for (const statement of statements) await sql.raw(statement).execute(db);
      await sql
        .raw(`insert into trend_counts (metric, master_app_id, day, n) ${trendCountsFromTables(d)}`)
        .execute(db);
    },
  };
}
