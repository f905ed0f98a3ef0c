/**
 * Row versions (API.md, "Versions: no silent overwrite"): every UPDATE of a versioned table moves
 * the rows' `version` in the same statement (`version = version + 1` is added to its SET list), so
 * no route can forget it, a bulk or status call moves each row it touches, and `returning` reads
 * the new version. Changes that touch only rows of another table (a user's details, a staff
 * member's grants) move their row's version through the audit log's one way in (audit/record.ts).
 */
import {
  AliasNode,
  BinaryOperationNode,
  ColumnNode,
  ColumnUpdateNode,
  IdentifierNode,
  OperatorNode,
  ReferenceNode,
  TableNode,
  UpdateQueryNode,
  ValueNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import type { Database } from './schema.ts';

/** The tables whose rows carry a version (migration 0021), by their Kysely (camelCase) name. */
export const VERSIONED_TABLES = new Set<keyof Database>([
  'accounts',
  'masterApps',
  'menus',
  'categories',
  'specialDays',
  'posters',
  'videos',
  'banners',
  'blogs',
  'pages',
  'faqs',
  'settings',
  'notifications',
  'contactUs',
  'userImages',
]);

/** The name an UPDATE's table goes by in the statement (its alias, if any), when versioned. */
function versionedName(table: OperationNode | undefined): string | undefined {
  let node = table;
  let alias: string | undefined;
  if (node && AliasNode.is(node)) {
    if (IdentifierNode.is(node.alias)) alias = node.alias.name;
    node = node.node;
  }
  if (!node || !TableNode.is(node)) return undefined;
  const name = node.table.identifier.name;
  return VERSIONED_TABLES.has(name as keyof Database) ? (alias ?? name) : undefined;
}

export class VersionBumpPlugin implements KyselyPlugin {
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (!UpdateQueryNode.is(node) || !node.updates) return node;
    const name = versionedName(node.table);
    if (!name) return node;
    const setsVersion = node.updates.some((u) => {
      const column = ReferenceNode.is(u.column) ? u.column.column : u.column;
      return ColumnNode.is(column) && column.column.name === 'version';
    });
    if (setsVersion) return node;
    const current = ReferenceNode.create(ColumnNode.create('version'), TableNode.create(name));
    const bump = ColumnUpdateNode.create(
      ColumnNode.create('version'),
      BinaryOperationNode.create(current, OperatorNode.create('+'), ValueNode.createImmediate(1)),
    );
    // cloneWithUpdates appends to the SET list.
    return UpdateQueryNode.cloneWithUpdates(node, [bump]);
  }

  transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(result);
  }
}
