/**
 * Deleted posters' downloads leave the dashboard's kept rows (0014's `trend_counts`, 0017's top
 * tables) once per statement, in key order (issue #21), on PostgreSQL. 0014 and 0017 took them
 * away in BEFORE DELETE row triggers, a poster at a time: a bulk delete locked the kept rows of
 * its first poster, then of its second, and two deletes of different posters sharing a day or a
 * category each came to hold a row the other wanted next (measured: 4 deadlocks in 63 concurrent
 * deletes of two posters each, none sharing a poster).
 *
 * Now one AFTER DELETE row trigger that sees every row the statement deleted (`old_rows`) does it
 * for all of them, in one ordered upsert per table, like every other kept-row trigger. It must
 * run before the foreign key's cascade takes the download rows away (then the posters' app and
 * category could no longer be read, as 0014 says): triggers of an event fire by name, the
 * cascade's are named `RI_ConstraintTrigger_…`, so this one's name begins with a capital that
 * sorts before them. The first deleted poster with downloads does the work and deletes the
 * statement's download rows itself (their own trigger then counts nothing: the posters are
 * gone); for the other posters there is nothing left, and the cascade finds nothing.
 *
 * SQLite's writers take turns: its row triggers stay. Frozen.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';

/** Adds the signed deltas `select` gives for `keys`, summed per key, in key order. */
function upsert(table: string, keys: string[], select: string): string {
  return (
    `insert into ${table} (${keys.join(', ')}, n) ` +
    `select ${keys.join(', ')}, sum(d) from (${select}) as x (${keys.join(', ')}, d) ` +
    `group by ${keys.join(', ')} having sum(d) <> 0 order by ${keys.join(', ')} ` +
    `on conflict (${keys.join(', ')}) do update set n = ${table}.n + excluded.n;`
  );
}

/** The first day of unit `g.g` (0017's grains) holding the download day `r.day`. */
const START =
  `case g.g when 'd' then r.day when 'w' then date_trunc('week', r.day::timestamp)::date ` +
  `when 'm' then date_trunc('month', r.day::timestamp)::date ` +
  `when 'y' then date_trunc('year', r.day::timestamp)::date end`;

const grains = (list: string[]) => `(values ${list.map((g) => `('${g}')`).join(', ')}) as g (g)`;

/** The deleted posters' download rows, with the poster (`o`: its app and category). */
const GONE = `from old_rows o join poster_downloads r on r.poster_id = o.id`;

const FUNCTION =
  `create function posters_downloads_gone() returns trigger language plpgsql as $$ begin ` +
  `if not exists (select 1 from poster_downloads where poster_id = old.id) then return null; end if; ` +
  upsert(
    'trend_counts',
    ['metric', 'master_app_id', 'day'],
    `select 'downloads', o.master_app_id, r.day, -sum(r.n) ${GONE} group by 2, 3`,
  ) +
  ' ' +
  upsert(
    'top_category_downloads',
    ['grain', 'master_app_id', 'start', 'category_id'],
    `select g.g, o.master_app_id, ${START}, o.category_id, -sum(r.n) ${GONE} ` +
      `cross join ${grains(['d', 'w', 'm', 'y'])} group by 1, 2, 3, 4`,
  ) +
  // Rows of these posters alone, which no other transaction can reach while they are locked.
  ` delete from top_poster_downloads t using (select distinct g.g, o.master_app_id, ${START}, o.id ` +
  `${GONE} cross join ${grains(['d', 'w', 'm'])}) as k (grain, master_app_id, start, poster_id) ` +
  `where t.grain = k.grain and t.master_app_id = k.master_app_id and t.start = k.start ` +
  `and t.poster_id = k.poster_id; ` +
  `delete from top_poster_totals where poster_id in (select id from old_rows); ` +
  `delete from poster_downloads where poster_id in (select id from old_rows); ` +
  `return null; end $$`;

export function downloadsGoneInOrder(d: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      if (d.kind !== 'postgres') return;
      for (const name of ['trend_posters_downloads_gone', 'top_posters_downloads_gone']) {
        await sql.raw(`drop trigger ${name} on posters`).execute(db);
        await sql.raw(`drop function ${name}()`).execute(db);
      }
      await sql.raw(FUNCTION).execute(db);
      await sql
        .raw(
          `create trigger "Posters_downloads_gone" after delete on posters ` +
            `referencing old table as old_rows for each row execute function posters_downloads_gone()`,
        )
        .execute(db);
    },
  };
}
