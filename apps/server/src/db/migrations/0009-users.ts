/**
 * End users (issue #9): a user's details beside the account (designation, the name the admin
 * gave, profile and banner images), their numbered top/self/bottom images (one number per kind
 * per user, held by a unique index so two racing uploads cannot both win), wallet rows, and lists
 * (list-structures.ts) over users, their images, their wallet and every account's login history.
 * A phone number is unique per app only among users that are not DELETED (API.md). Frozen.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { ACTIVITIES, SIDES, WALLET_KINDS } from '@master-admin/contract';
import type { Dialect } from '../dialect.ts';
import { installList } from '../list-structures.ts';

const list = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

export function users(d: Dialect): Migration {
  const ts = d.timestampType;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('user_details')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('account_id', 'integer', (c) =>
          c.notNull().unique().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('designation', 'varchar(100)')
        .addColumn('admin_assign_name', 'varchar(100)')
        // Media keys.
        .addColumn('profile', 'varchar(300)')
        .addColumn('top', 'varchar(300)')
        .addColumn('bottom', 'varchar(300)')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
      for (const column of ['profile', 'top', 'bottom']) {
        await db.schema
          .createIndex(`user_details_${column}`)
          .on('user_details')
          .column(column)
          .execute();
      }

      // A number may be used again once its user is DELETED (API.md, Conventions).
      await db.schema.dropIndex('accounts_user_phone_unique').execute();
      await db.schema
        .createIndex('accounts_user_phone_unique')
        .on('accounts')
        .columns(['master_app_id', 'phone_number'])
        .unique()
        .where(sql<boolean>`role = 'USER' and status <> 'DELETED'`)
        .execute();
      // The users list: newest first within role, app and status (ties by id).
      await db.schema.dropIndex('accounts_app_role_created').execute();
      for (const [name, columns] of [
        ['accounts_app_role_created', ['master_app_id', 'role', 'created_at', 'id']],
        ['accounts_role_status_created', ['role', 'status', 'created_at', 'id']],
        [
          'accounts_app_role_status_created',
          ['master_app_id', 'role', 'status', 'created_at', 'id'],
        ],
      ] as const) {
        await db.schema
          .createIndex(name)
          .on('accounts')
          .columns([...columns])
          .execute();
      }
      // The users the list shows, by id alone: a keyword's matches are counted by probing it
      // (index only), where PostgreSQL would otherwise scan every account to join them.
      await db.schema
        .createIndex('accounts_users_listed')
        .on('accounts')
        .column('id')
        .where(sql<boolean>`role = 'USER' and status <> 'DELETED'`)
        .execute();
      await installList(db, d, {
        name: 'users',
        table: 'accounts',
        counts: [['role', 'status', 'master_app_id']],
        search: ['name', 'email', 'phone_number'],
      });

      await db.schema
        .createTable('user_images')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('account_id', 'integer', (c) =>
          c.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('kind', 'varchar(6)', (c) =>
          c.notNull().check(sql`kind in ('top', 'self', 'bottom')`),
        )
        .addColumn('def_num', 'integer', (c) => c.notNull().check(sql`def_num between 1 and 999`))
        // Self images only: the side of the poster the photo suits.
        .addColumn('position', 'varchar(5)', (c) => c.check(sql`position in (${list(SIDES)})`))
        // Media key.
        .addColumn('image', 'varchar(300)', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addCheckConstraint(
          'user_images_position_self',
          sql`(kind = 'self') = (position is not null)`,
        )
        .execute();
      // One number per kind per user; also the list's order (by number).
      await db.schema
        .createIndex('user_images_number_unique')
        .on('user_images')
        .columns(['account_id', 'kind', 'def_num'])
        .unique()
        .execute();
      await db.schema
        .createIndex('user_images_position')
        .on('user_images')
        .columns(['account_id', 'kind', 'position', 'def_num', 'id'])
        .execute();
      await db.schema.createIndex('user_images_image').on('user_images').column('image').execute();
      await installList(db, d, {
        name: 'user_images',
        table: 'user_images',
        counts: [['account_id', 'kind', 'position']],
        search: [],
      });

      await db.schema
        .createTable('wallets')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('account_id', 'integer', (c) =>
          c.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('reward', 'integer', (c) => c.notNull())
        .addColumn('deposit_for', 'varchar(20)', (c) =>
          c.notNull().check(sql`deposit_for in (${list(ACTIVITIES)})`),
        )
        .addColumn('status', 'varchar(10)', (c) =>
          c.notNull().check(sql`status in (${list(WALLET_KINDS)})`),
        )
        .addColumn('feed', 'varchar(500)')
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('wallets_account_created')
        .on('wallets')
        .columns(['account_id', 'created_at', 'id'])
        .execute();
      await installList(db, d, {
        name: 'wallets',
        table: 'wallets',
        counts: [['account_id']],
        search: ['feed'],
      });

      // Login history rows already exist (sign-in writes them): the list counts them now.
      await installList(db, d, {
        name: 'login_history',
        table: 'login_history',
        counts: [['account_id']],
        search: ['ip'],
      });
    },
  };
}
