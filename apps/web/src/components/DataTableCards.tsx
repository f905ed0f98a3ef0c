import type { ReactNode } from 'react';
import { Checkbox } from '@mantine/core';
import type { Column } from './DataTable';
import classes from './DataTableCards.module.css';
import { SkeletonBlock } from './SkeletonBlock';
import { RowLiveBadges, type rowLive } from './LiveRows';

/** A loading cell: one line of text's height. */
export const LINE_SKELETON = <SkeletonBlock w="70%" />;
/** A loading row's actions menu button (an ActionIcon's size). */
export const ACTIONS_SKELETON = <SkeletonBlock w={28} h={28} ml="auto" />;
/** A loading row's checkbox (a Checkbox's size). */
export const CHECKBOX_SKELETON = <SkeletonBlock w={20} h={20} />;

type CardSelection = { checked: boolean; toggle: () => void; label: string };

/**
 * On a phone, a list's rows as cards: each row's title and actions on top, then every other
 * column as its heading and value. While the first rows load, `loading` cards of the same shape
 * (the columns' skeletons for values) hold their place.
 */
export function DataTableCards<Row>(props: {
  label: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string | number;
  loading: number;
  actions: ((row: Row) => ReactNode) | undefined;
  /** The row's checkbox, when rows can be selected. */
  selection: ((row: Row) => CardSelection) | undefined;
  /** What others do to the row (deleted it, edit it), in a live list. */
  live?: (row: Row) => ReturnType<typeof rowLive>;
}) {
  const { columns } = props;
  const title = columns.find((c) => c.card === 'title');
  const rest = columns.filter((c) => c.card === undefined);
  const skeletons = Array.from({ length: props.loading }, (_, slot) => (
    <Card
      key={`loading-${slot}`}
      loading
      check={props.selection && CHECKBOX_SKELETON}
      title={title && (title.skeleton ?? LINE_SKELETON)}
      actions={props.actions && ACTIONS_SKELETON}
      fields={rest.map((c) => ({
        key: c.key,
        label: c.header,
        value: c.skeleton ?? LINE_SKELETON,
      }))}
    />
  ));
  return (
    <div
      className={classes.cards}
      role="list"
      aria-label={props.label}
      aria-busy={props.loading > 0}
    >
      {skeletons}
      {props.rows.map((row) => {
        const selection = props.selection?.(row);
        const state = props.live?.(row);
        return (
          <Card
            key={props.rowKey(row)}
            selected={selection?.checked}
            deleted={state?.deletedBy !== undefined}
            badges={state && <RowLiveBadges state={state} />}
            check={
              selection && (
                <Checkbox
                  aria-label={selection.label}
                  checked={selection.checked}
                  onChange={selection.toggle}
                />
              )
            }
            title={title?.render(row)}
            actions={props.actions?.(row)}
            fields={rest.map((c) => ({ key: c.key, label: c.header, value: c.render(row) }))}
          />
        );
      })}
    </div>
  );
}

/** One card's layout, the same for a row and for its loading place. */
function Card(props: {
  loading?: boolean;
  selected?: boolean | undefined;
  deleted?: boolean;
  badges?: ReactNode;
  check: ReactNode;
  title: ReactNode;
  actions: ReactNode;
  fields: { key: string; label: string; value: ReactNode }[];
}) {
  return (
    <div
      className={classes.card}
      role={props.loading ? undefined : 'listitem'}
      aria-hidden={props.loading || undefined}
      data-testid={props.loading ? 'loading-row' : undefined}
      data-selected={props.selected || undefined}
      data-deleted={props.deleted || undefined}
    >
      <div className={classes.head}>
        <div className={classes.titleGroup}>
          {props.check}
          {props.title !== undefined && <div className={classes.title}>{props.title}</div>}
        </div>
        {props.actions}
      </div>
      {props.badges}
      <dl className={classes.fields}>
        {props.fields.map((f) => (
          <div key={f.key} className={classes.field}>
            <dt>{f.label}</dt>
            <dd>{f.value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
