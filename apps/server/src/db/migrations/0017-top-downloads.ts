/**
 * Kept downloads for the dashboard's top lists (issue #11). Summing the period's
 * `poster_downloads` rows joined to `posters` took hundreds of milliseconds a request at a million
 * posters (80,000 rows in 30 days, each joined for its app and category; all time, 2 million).
 * Three tables, kept by triggers in the same transaction as every write, like `trend_counts`
 * (migration 0014; row triggers on SQLite, statement triggers with transition tables on
 * PostgreSQL):
 *
 * - `top_category_downloads (grain, master_app_id, start, category_id, n)`: downloads per app and
 *   category in each day ('d'), week from Monday ('w'), calendar month ('m') and year ('y'). A
 *   period is read as the fewest whole units covering it (features/dashboard/period.ts
 *   `coverDays`), so 30 days are about a dozen units of at most (apps × categories) rows, and all
 *   time a few years' rows.
 * - `top_poster_downloads (grain, master_app_id, start, poster_id, n)`: the same per poster, by
 *   day, week and month: the period's rows with their app, no join, from the primary key alone
 *   (WITHOUT ROWID on SQLite, INCLUDE (n) on PostgreSQL). Weeks and months hold a poster's
 *   downloads of several days in one row, so a period reads fewer rows than it has download days.
 * - `top_poster_totals (poster_id, master_app_id, n)`: each poster's downloads of all time, with
 *   indexes by (app,) n desc, id: all-time top posters are the first rows of an index, and a
 *   period's are first looked for among the largest totals (features/dashboard/trends.ts).
 *
 * A poster's category or app change moves its downloads; its deletion takes them away in a
 * BEFORE DELETE trigger (the cascade to its download rows no longer sees its app and category,
 * as in 0014). Units emptied by deletes keep a row with n = 0, as trend_counts do; the reads skip
 * them. Frozen.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';

/**
 * Units categories are kept in, and posters: no years of posters, which would hold about as many
 * rows as their months (the bench's posters are downloaded within days of being made) and leave
 * all time to the totals.
 */
const CATEGORY_GRAINS = ['d', 'w', 'm', 'y'] as const;
const POSTER_GRAINS = ['d', 'w', 'm'] as const;
type Grain = (typeof CATEGORY_GRAINS)[number];

/** The first day of the unit of `grain` holding the date `day` (an expression). */
function unitStart(d: Dialect, grain: string, day: string): string {
  const cases: Record<Grain, string> =
    d.kind === 'postgres'
      ? {
          d: day,
          // As timestamps without a time zone: the session's zone plays no part.
          w: `date_trunc('week', ${day}::timestamp)::date`,
          m: `date_trunc('month', ${day}::timestamp)::date`,
          y: `date_trunc('year', ${day}::timestamp)::date`,
        }
      : {
          d: day,
          // The Monday on or before: six days back, then the next Monday on or after.
          w: `date(${day}, '-6 days', 'weekday 1')`,
          m: `(substr(${day}, 1, 7) || '-01')`,
          y: `(substr(${day}, 1, 4) || '-01-01')`,
        };
  return `case ${grain} ${Object.entries(cases)
    .map(([g, e]) => `when '${g}' then ${e}`)
    .join(' ')} end`;
}

/** The grains as a table `g (g)` to cross join with. */
function grainsTable(grains: readonly string[]): string {
  return `(${grains.map((g, i) => `select '${g}'${i === 0 ? ' as g' : ''}`).join(' union all ')}) g`;
}

/**
 * The kept rows as the tables hold them now, per table: the backfill, and what the check
 * (features/dashboard/top-downloads.ts) compares with. Days first, then the longer units summed
 * from the days.
 */
export function topDownloadsFromTables(d: Dialect): {
  categories: string;
  posters: string;
  totals: string;
} {
  const days =
    `select p.master_app_id as master_app_id, p.category_id as category_id, r.poster_id as poster_id, ` +
    `r.day as day, r.n as n from poster_downloads r join posters p on p.id = r.poster_id`;
  const rolled = (key: string, grains: readonly string[]) =>
    `select g.g as grain, x.master_app_id as master_app_id, ${unitStart(d, 'g.g', 'x.day')} as start, ` +
    `x.${key} as ${key}, sum(x.n) as n from (${days}) x cross join ${grainsTable(grains)} ` +
    `group by 1, 2, 3, 4`;
  return {
    categories: rolled('category_id', CATEGORY_GRAINS),
    posters: rolled('poster_id', POSTER_GRAINS),
    totals:
      `select r.poster_id as poster_id, p.master_app_id as master_app_id, sum(r.n) as n ` +
      `from poster_downloads r join posters p on p.id = r.poster_id group by 1, 2`,
  };
}

function sqliteStatements(d: Dialect): string[] {
  const start = (day: string) => unitStart(d, 'g.g', day);
  const upsert = (table: 'category' | 'poster') =>
    `on conflict (grain, master_app_id, start, ${table}_id) do update set n = n + excluded.n;`;
  /** The download row `row` (new or old) added (+) to or taken (-) from the kept rows. */
  const download = (row: 'new' | 'old', sign: '+' | '-' | 'delta') => {
    const n = sign === '+' ? `${row}.n` : sign === '-' ? `-${row}.n` : `new.n - old.n`;
    return (
      `insert into top_category_downloads (grain, master_app_id, start, category_id, n) ` +
      `select g.g, p.master_app_id, ${start(`${row}.day`)}, p.category_id, ${n} ` +
      `from posters p cross join ${grainsTable(CATEGORY_GRAINS)} where p.id = ${row}.poster_id ` +
      upsert('category') +
      ` insert into top_poster_downloads (grain, master_app_id, start, poster_id, n) ` +
      `select g.g, p.master_app_id, ${start(`${row}.day`)}, p.id, ${n} ` +
      `from posters p cross join ${grainsTable(POSTER_GRAINS)} where p.id = ${row}.poster_id ` +
      upsert('poster') +
      ` insert into top_poster_totals (poster_id, master_app_id, n) ` +
      `select p.id, p.master_app_id, ${n} from posters p where p.id = ${row}.poster_id ` +
      `on conflict (poster_id) do update set n = n + excluded.n;`
    );
  };
  /** The poster `row`'s downloads per unit, added to (+) or taken from (-) its category. */
  const posterCategory = (row: 'new' | 'old', sign: '+' | '-') =>
    `insert into top_category_downloads (grain, master_app_id, start, category_id, n) ` +
    `select g.g, ${row}.master_app_id, ${start('r.day')}, ${row}.category_id, ${sign}sum(r.n) ` +
    `from poster_downloads r cross join ${grainsTable(CATEGORY_GRAINS)} where r.poster_id = ${row}.id ` +
    `group by 1, 2, 3, 4 ` +
    upsert('category');
  /** The poster `old`'s own rows under its old app, gone. */
  const posterRowsGone =
    `delete from top_poster_downloads where (grain, master_app_id, start, poster_id) in ` +
    `(select g.g, old.master_app_id, ${start('r.day')}, old.id from poster_downloads r ` +
    `cross join ${grainsTable(POSTER_GRAINS)} where r.poster_id = old.id);`;
  const posterRowsUnder = (row: 'new') =>
    `insert into top_poster_downloads (grain, master_app_id, start, poster_id, n) ` +
    `select g.g, ${row}.master_app_id, ${start('r.day')}, ${row}.id, sum(r.n) ` +
    `from poster_downloads r cross join ${grainsTable(POSTER_GRAINS)} where r.poster_id = ${row}.id ` +
    `group by 1, 2, 3, 4 ` +
    upsert('poster');
  return [
    `create trigger top_downloads_insert after insert on poster_downloads begin ${download('new', '+')} end`,
    `create trigger top_downloads_delete after delete on poster_downloads begin ${download('old', '-')} end`,
    // The content app's upsert changes only n: the difference, in one pass.
    `create trigger top_downloads_add after update of n on poster_downloads ` +
      `when old.poster_id = new.poster_id and old.day = new.day begin ${download('new', 'delta')} end`,
    `create trigger top_downloads_update after update on poster_downloads ` +
      `when old.poster_id <> new.poster_id or old.day <> new.day begin ` +
      `${download('old', '-')} ${download('new', '+')} end`,
    `create trigger top_posters_downloads_gone before delete on posters begin ` +
      posterCategory('old', '-') +
      ` ${posterRowsGone} delete from top_poster_totals where poster_id = old.id; end`,
    `create trigger top_posters_move after update of category_id, master_app_id on posters ` +
      `when old.category_id is not new.category_id or old.master_app_id is not new.master_app_id begin ` +
      posterCategory('old', '-') +
      ` ${posterCategory('new', '+')} end`,
    `create trigger top_posters_move_app after update of master_app_id on posters ` +
      `when old.master_app_id is not new.master_app_id begin ` +
      `${posterRowsGone} ${posterRowsUnder('new')} ` +
      `update top_poster_totals set master_app_id = new.master_app_id where poster_id = new.id; end`,
  ];
}

function postgresStatements(d: Dialect): string[] {
  const start = (day: string) => unitStart(d, 'g.g', day);
  const grains = (list: readonly string[]) =>
    `(values ${list.map((g) => `('${g}')`).join(', ')}) as g (g)`;
  /** Adds the signed deltas the selects give, summed per key, in one upsert in key order. */
  const upsert = (table: string, keys: string[], selects: string[]) =>
    `insert into ${table} (${keys.join(', ')}, n) ` +
    `select ${keys.join(', ')}, sum(d) from (${selects.join(' union all ')}) as x (${keys.join(', ')}, d) ` +
    `group by ${keys.join(', ')} having sum(d) <> 0 ` +
    // One order for every writer, so two transactions never wait on each other's rows in turn.
    `order by ${keys.join(', ')} ` +
    // A poster's total is keyed by the poster alone (its app is carried along).
    `on conflict (${table === 'top_poster_totals' ? 'poster_id' : keys.join(', ')}) ` +
    `do update set n = ${table}.n + excluded.n;`;
  const CAT = ['grain', 'master_app_id', 'start', 'category_id'];
  const POS = ['grain', 'master_app_id', 'start', 'poster_id'];
  const TOT = ['poster_id', 'master_app_id'];
  // Download rows (a transition table) with their poster's app and category, signed.
  const categoryOf = (rows: string, sign: string) =>
    `select g.g, p.master_app_id, ${start('r.day')}, p.category_id, ${sign}sum(r.n) from ${rows} r ` +
    `join posters p on p.id = r.poster_id cross join ${grains(CATEGORY_GRAINS)} group by 1, 2, 3, 4`;
  const posterOf = (rows: string, sign: string) =>
    `select g.g, p.master_app_id, ${start('r.day')}, r.poster_id, ${sign}sum(r.n) from ${rows} r ` +
    `join posters p on p.id = r.poster_id cross join ${grains(POSTER_GRAINS)} group by 1, 2, 3, 4`;
  const totalOf = (rows: string, sign: string) =>
    `select r.poster_id, p.master_app_id, ${sign}sum(r.n) from ${rows} r ` +
    `join posters p on p.id = r.poster_id group by 1, 2`;
  const downloads = (rows: Array<[string, string]>) =>
    upsert(
      'top_category_downloads',
      CAT,
      rows.map(([r, s]) => categoryOf(r, s)),
    ) +
    ' ' +
    upsert(
      'top_poster_downloads',
      POS,
      rows.map(([r, s]) => posterOf(r, s)),
    ) +
    ' ' +
    upsert(
      'top_poster_totals',
      TOT,
      rows.map(([r, s]) => totalOf(r, s)),
    );
  // Posters whose category or app changed: their downloads leave the old (o) and join the new (n).
  const moved = `from new_rows n join old_rows o on o.id = n.id join poster_downloads r on r.poster_id = n.id`;
  const movedCategory = (side: 'o' | 'n', sign: string) =>
    `select g.g, ${side}.master_app_id, ${start('r.day')}, ${side}.category_id, ${sign}sum(r.n) ` +
    `${moved} cross join ${grains(CATEGORY_GRAINS)} ` +
    `where (n.category_id, n.master_app_id) <> (o.category_id, o.master_app_id) group by 1, 2, 3, 4`;
  const appChanged = `n.master_app_id <> o.master_app_id`;
  const appMoved = `where ${appChanged}`;
  const fn = (name: string, body: string, returns = 'null') =>
    `create function ${name}() returns trigger language plpgsql as $$ begin ${body} return ${returns}; end $$`;
  const triggers = (table: string, name: string, ops: string[]) =>
    [
      ['insert', 'referencing new table as new_rows'],
      ['delete', 'referencing old table as old_rows'],
      ['update', 'referencing old table as old_rows new table as new_rows'],
    ]
      .filter(([op]) => ops.includes(op!))
      .map(
        ([op, ref]) =>
          `create trigger ${name}_${op} after ${op} on ${table} ${ref} for each statement execute function ${name}()`,
      );
  return [
    fn(
      'top_downloads_sync',
      `if tg_op = 'INSERT' then ${downloads([['new_rows', '']])} ` +
        `elsif tg_op = 'DELETE' then ${downloads([['old_rows', '-']])} ` +
        `else ${downloads([
          ['new_rows', ''],
          ['old_rows', '-'],
        ])} end if;`,
    ),
    ...triggers('poster_downloads', 'top_downloads_sync', ['insert', 'delete', 'update']),
    fn(
      'top_posters_move',
      upsert('top_category_downloads', CAT, [movedCategory('n', ''), movedCategory('o', '-')]) +
        // A poster's own rows are keyed by its app: those under the old app go, the new are summed.
        ` delete from top_poster_downloads t using (select distinct g.g, o.master_app_id, ` +
        `${start('r.day')} as start, o.id ${moved} cross join ${grains(POSTER_GRAINS)} ${appMoved}) ` +
        `as k (grain, master_app_id, start, poster_id) where t.grain = k.grain ` +
        `and t.master_app_id = k.master_app_id and t.start = k.start and t.poster_id = k.poster_id; ` +
        upsert('top_poster_downloads', POS, [
          `select g.g, n.master_app_id, ${start('r.day')}, n.id, sum(r.n) ${moved} ` +
            `cross join ${grains(POSTER_GRAINS)} ${appMoved} group by 1, 2, 3, 4`,
        ]) +
        ` update top_poster_totals t set master_app_id = n.master_app_id from new_rows n ` +
        `join old_rows o on o.id = n.id where t.poster_id = n.id and ${appChanged};`,
    ),
    ...triggers('posters', 'top_posters_move', ['update']),
    fn(
      'top_posters_downloads_gone',
      upsert('top_category_downloads', CAT, [
        `select g.g, old.master_app_id, ${start('r.day')}, old.category_id, -sum(r.n) ` +
          `from poster_downloads r cross join ${grains(CATEGORY_GRAINS)} ` +
          `where r.poster_id = old.id group by 1, 2, 3, 4`,
      ]) +
        ` delete from top_poster_downloads t using (select distinct g.g, ${start('r.day')} as start ` +
        `from poster_downloads r cross join ${grains(POSTER_GRAINS)} where r.poster_id = old.id) ` +
        `as k (grain, start) where t.grain = k.grain and t.master_app_id = old.master_app_id ` +
        `and t.start = k.start and t.poster_id = old.id; ` +
        `delete from top_poster_totals where poster_id = old.id;`,
      'old',
    ),
    `create trigger top_posters_downloads_gone before delete on posters for each row ` +
      `execute function top_posters_downloads_gone()`,
  ];
}

export function topDownloads(d: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      const pg = d.kind === 'postgres';
      const unit = (key: 'category_id' | 'poster_id') =>
        `create table top_${key === 'category_id' ? 'category' : 'poster'}_downloads (` +
        `grain varchar(1) not null, master_app_id integer not null, start ${d.dateType} not null, ` +
        `${key} integer not null, n bigint not null, ` +
        // The key and n: every read is of the key's index alone.
        `primary key (grain, master_app_id, start, ${key})${pg ? ' include (n)' : ''})` +
        `${pg ? '' : ' without rowid'}`;
      const statements = [
        unit('category_id'),
        unit('poster_id'),
        `create table top_poster_totals (poster_id integer not null primary key, ` +
          `master_app_id integer not null, n bigint not null)`,
        `create index top_poster_totals_app on top_poster_totals (master_app_id, n desc, poster_id)`,
        `create index top_poster_totals_n on top_poster_totals (n desc, poster_id)`,
        ...(pg ? postgresStatements(d) : sqliteStatements(d)),
      ];
      for (const statement of statements) await sql.raw(statement).execute(db);
      const from = topDownloadsFromTables(d);
      // In key order: rows appended to each index rather than scattered through it.
      await sql
        .raw(
          `insert into top_category_downloads (grain, master_app_id, start, category_id, n) ` +
            `select * from (${from.categories}) t order by 1, 2, 3, 4`,
        )
        .execute(db);
      await sql
        .raw(
          `insert into top_poster_downloads (grain, master_app_id, start, poster_id, n) ` +
            `select * from (${from.posters}) t order by 1, 2, 3, 4`,
        )
        .execute(db);
      await sql
        .raw(
          `insert into top_poster_totals (poster_id, master_app_id, n) ` +
            `select * from (${from.totals}) t order by 1`,
        )
        .execute(db);
    },
  };
}
