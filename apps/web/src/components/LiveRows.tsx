/**
 * What a live list shows of others' doings (lib/live-list.ts): the "N new rows: Show" bar, a
 * row's "Deleted by Asha" mark and its "Asha is editing" badge. DataTable places them.
 */
import { Avatar, Badge, Button, CloseButton, Group, Text } from '@mantine/core';
import { useState } from 'react';
import type { EventAccount } from '@master-admin/contract';
import { editorsIn } from '../lib/events';
import { AREA_NOUNS, type LiveRows } from '../lib/live-list';
import { formatNumber } from '../lib/format';
import classes from './LiveRows.module.css';

/** "Asha", "Asha and Ravi", "Asha and 2 others". */
export function namesText(names: readonly string[]): string {
  const [first, second] = names;
  if (first === undefined) return '';
  if (second === undefined) return first;
  if (names.length === 2) return `${first} and ${second}`;
  return `${first} and ${names.length - 1} others`;
}

/** "Asha is editing", "Asha and Ravi are editing". */
export function editingText(editors: readonly EventAccount[]): string {
  return `${namesText(editors.map((e) => e.name))} ${editors.length === 1 ? 'is' : 'are'} editing`;
}

/** What a row of a live list is now: deleted by someone, and who edits it. */
export function rowLive(live: LiveRows | undefined, key: string | number) {
  if (!live || typeof key !== 'number') return undefined;
  const deletedBy = live.deleted.get(key);
  const editors = editorsIn(live.presence, live.area, key);
  if (deletedBy === undefined && editors.length === 0) return undefined;
  return { deletedBy, editors };
}

/** The badges under a row's first column (a card's title on a phone). */
export function RowLiveBadges(props: { state: ReturnType<typeof rowLive> }) {
  const { state } = props;
  if (!state) return null;
  return (
    <Group gap={6} mt={4} wrap="wrap" className={classes.badges}>
      {state.deletedBy !== undefined && (
        <Badge size="sm" variant="light" color="red" radius="sm" tt="none">
          Deleted by {state.deletedBy}
        </Badge>
      )}
      {state.deletedBy === undefined && state.editors.length > 0 && (
        <Badge
          size="sm"
          variant="light"
          color="orange"
          radius="sm"
          tt="none"
          leftSection={
            <Avatar.Group spacing={6}>
              {state.editors.slice(0, 3).map((e) => (
                <Avatar key={e.id} size={16} name={e.name} color="initials" aria-hidden />
              ))}
            </Avatar.Group>
          }
        >
          {editingText(state.editors)}
        </Badge>
      )}
    </Group>
  );
}

/**
 * "3 new posters: Show", over the top of the list where it is seen without moving the rows (it
 * follows the view down a long list). A polite live region: a screen reader hears it once.
 */
export function NewRowsBar(props: { live: LiveRows | undefined }) {
  const { live } = props;
  const count = live?.created.count ?? 0;
  // Dismissed at this count: shown again when more come.
  const [dismissed, setDismissed] = useState(0);
  if (!live) return null;
  const [one, many] = AREA_NOUNS[live.area];
  const noun = count === 1 ? one : many;
  const shown = count > 0 && count !== dismissed;
  return (
    <div className={classes.anchor} role="status" aria-live="polite">
      {shown && (
        <div className={classes.bar} data-testid="new-rows">
          <Text size="sm" fw={600} c="inherit">
            {formatNumber(count)} new {noun}
            {live.created.by.length > 0 && (
              <Text span size="sm" fw={400} c="inherit" className={classes.by}>
                {' '}
                by {namesText(live.created.by)}
              </Text>
            )}
          </Text>
          <Button
            size="compact-sm"
            variant="white"
            onClick={() => {
              setDismissed(0);
              live.showNew();
            }}
            aria-label={`Show the new ${noun}`}
          >
            Show
          </Button>
          <CloseButton
            size="sm"
            variant="transparent"
            c="inherit"
            aria-label="Dismiss"
            onClick={() => setDismissed(count)}
          />
        </div>
      )}
    </div>
  );
}
