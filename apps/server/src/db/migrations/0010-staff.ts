/**
 * Staff (issue #10): the job title a staff account shows (`roles`, a free label such as
 * "Editor"), the staff list (list-structures.ts: counts per role and status, a search over name,
 * email and phone number), and uniqueness that counts only accounts that are not DELETED (API.md:
 * a deleted staff member's email, or phone number, can be used again). A back-office account's
 * phone number signs in too, so it is unique among staff and admins as well. Frozen.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { installList } from '../list-structures.ts';

export function staff(d: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('accounts').addColumn('roles', 'varchar(50)').execute();

      await db.schema.dropIndex('accounts_staff_email_unique').execute();
      await db.schema
        .createIndex('accounts_staff_email_unique')
        .on('accounts')
        .expression(sql`lower(email)`)
        .unique()
        .where(sql<boolean>`role <> 'USER' and status <> 'DELETED'`)
        .execute();
      await db.schema
        .createIndex('accounts_staff_phone_unique')
        .on('accounts')
        .column('phone_number')
        .unique()
        .where(sql<boolean>`role <> 'USER' and status <> 'DELETED' and phone_number is not null`)
        .execute();

      await installList(db, d, {
        name: 'staff',
        table: 'accounts',
        counts: [['role', 'status']],
        search: ['name', 'email', 'phone_number'],
      });
      // The staff list's (role, status, created_at, id) index is 0009-users' (the users list
      // needs the same one).
    },
  };
}
