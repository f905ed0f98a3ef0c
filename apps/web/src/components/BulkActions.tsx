/**
 * The bulk actions a list's selection bar offers (DataTable's `bulkActions`): change the status,
 * delete. Each names how many rows it acts on, the count the person confirms (lib/bulk.ts checks
 * the rows read are as many before anything changes).
 */
import { useState, type ReactNode } from 'react';
import { Button } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { Status } from '@master-admin/contract';
import type { BulkRow, Selection } from '../lib/bulk';
import { formatNumber } from '../lib/format';
import type { Grants } from '../lib/permissions';
import { confirmDelete } from './confirm';
import { StatusDialog } from './StatusDialog';

/** A useBulkMutation, as these actions call it. */
type BulkVars<A> = { selection: Selection<BulkRow>; args: A };
type BulkMutation<A> = {
  mutate: (vars: BulkVars<A>, options: { onSuccess: () => void }) => void;
  mutateAsync: (vars: BulkVars<A>, options: { onSuccess: () => void }) => Promise<unknown>;
};

/** "Change status": the mutation, and the statuses offered when not all (users: not DELETED). */
type StatusOptions = { mutation: BulkMutation<{ status: Status }>; choices?: readonly Status[] };
/** "Delete": the mutation, and what else goes with the rows ("with their images unless …"). */
type RemoveOptions = { mutation: BulkMutation<undefined>; consequence: string };

/** What every action acts on: the selection, cleared once done, named as the dialogs say it. */
type Acting<Row> = {
  selection: Selection<Row>;
  clear: () => void;
  /** The rows as the dialogs name them: "3 posters". */
  what: string;
};

/** "Change status": the status dialog, then the status of every selected row. */
function BulkStatusAction<Row extends { id: number }>(props: Acting<Row> & StatusOptions) {
  const [opened, setOpened] = useState(false);
  const { selection, clear } = props;
  return (
    <>
      <Button size="compact-sm" onClick={() => setOpened(true)}>
        Change status
      </Button>
      <StatusDialog
        opened={opened}
        onClose={() => setOpened(false)}
        subject={props.what}
        current={undefined}
        choices={props.choices}
        onSubmit={(status) =>
          props.mutation.mutateAsync({ selection, args: { status } }, { onSuccess: clear })
        }
      />
    </>
  );
}

/** "Delete": asks, naming how many, then deletes every selected row. */
function BulkDeleteAction<Row extends { id: number }>(props: Acting<Row> & RemoveOptions) {
  const { selection, clear, what } = props;
  return (
    <Button
      size="compact-sm"
      color="red"
      leftSection={<IconTrash size={14} />}
      onClick={() =>
        confirmDelete({
          title: `Delete ${what}?`,
          message: `The ${what} selected will be deleted, ${props.consequence}.`,
          onConfirm: () =>
            props.mutation.mutate({ selection, args: undefined }, { onSuccess: clear }),
        })
      }
    >
      Delete
    </Button>
  );
}

/**
 * A list's bulk actions (DataTable's `bulkActions`): "Change status" when `status` is given and
 * the account may update, "Delete" when `remove` is and it may delete; neither: no selection at
 * all. A list states only what is its own: the rows' noun, its mutations, what a delete takes
 * along.
 */
export function bulkActions<Row extends { id: number }>(options: {
  /** The rows' noun, one of them ("poster"): the dialogs say "3 posters". */
  subject: string;
  /** The account's grants on the list's menu. */
  grants: Grants;
  status?: StatusOptions;
  remove?: RemoveOptions;
}): ((selection: Selection<Row>, clear: () => void) => ReactNode) | undefined {
  const { subject, grants } = options;
  const status = grants.update && options.status;
  const remove = grants.delete && options.remove;
  if (!status && !remove) return undefined;
  return (selection, clear) => {
    const n = selection.count;
    const what = `${formatNumber(n)} ${subject}${n === 1 ? '' : 's'}`;
    const acting: Acting<Row> = { selection, clear, what };
    return (
      <>
        {status && <BulkStatusAction {...acting} {...status} />}
        {remove && <BulkDeleteAction {...acting} {...remove} />}
      </>
    );
  };
}
