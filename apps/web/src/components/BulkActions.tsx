/**
 * The bulk actions a list's selection bar offers (DataTable's `bulkActions`): change the status,
 * delete. Each names how many rows it acts on, the count the person confirms (lib/bulk.ts checks
 * the rows read are as many before anything changes).
 */
import { useState, type ReactNode } from 'react';
import { Button } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { Status } from '@master-admin/contract';
import type { Selection } from '../lib/bulk';
import { confirmDelete } from './confirm';
import { StatusDialog } from './StatusDialog';

/** A useBulkMutation, as these actions call it. */
type BulkVars<A> = { selection: Selection<{ id: number }>; args: A };
type BulkMutation<A> = {
  mutate: (vars: BulkVars<A>, options: { onSuccess: () => void }) => void;
  mutateAsync: (vars: BulkVars<A>, options: { onSuccess: () => void }) => Promise<unknown>;
};

/** "Change status": the status dialog, then the status of every selected row. */
function BulkStatusAction<Row extends { id: number }>(props: {
  selection: Selection<Row>;
  clear: () => void;
  /** The rows as the dialog names them: "3 posters". */
  subject: (count: number) => string;
  mutation: BulkMutation<{ status: Status }>;
  /** The statuses offered, when not all (users: not DELETED). */
  choices?: readonly Status[];
}) {
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
        subject={props.subject(selection.count)}
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
function BulkDeleteAction<Row extends { id: number }>(props: {
  selection: Selection<Row>;
  clear: () => void;
  subject: (count: number) => string;
  /** What else goes with them: "with their images unless other posters share them". */
  consequence: string;
  mutation: BulkMutation<undefined>;
}) {
  const { selection, clear } = props;
  const what = props.subject(selection.count);
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
 * A list's bulk actions (DataTable's `bulkActions`): "Change status" when `status` is given,
 * "Delete" when `remove` is (each given only when the account may); none: no selection at all.
 */
export function bulkActions<Row extends { id: number }>(options: {
  subject: (count: number) => string;
  status?: { mutation: BulkMutation<{ status: Status }>; choices?: readonly Status[] } | false;
  remove?: { mutation: BulkMutation<undefined>; consequence: string } | false;
}): ((selection: Selection<Row>, clear: () => void) => ReactNode) | undefined {
  const { subject, status, remove } = options;
  if (!status && !remove) return undefined;
  return (selection, clear) => (
    <>
      {status && (
        <BulkStatusAction
          selection={selection}
          clear={clear}
          subject={subject}
          mutation={status.mutation}
          choices={status.choices}
        />
      )}
      {remove && (
        <BulkDeleteAction
          selection={selection}
          clear={clear}
          subject={subject}
          consequence={remove.consequence}
          mutation={remove.mutation}
        />
      )}
    </>
  );
}
