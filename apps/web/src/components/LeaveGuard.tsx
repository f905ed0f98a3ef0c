import { useEffect, useState, type KeyboardEvent } from 'react';
import { Button, Group, Modal, Text, getDefaultZIndex } from '@mantine/core';
import { useBlocker, type Blocker } from 'react-router';
import { useTopLayer } from '../lib/layers';

const SIGN_IN = '/auth/sign-in';

/** "Discard changes?": the one question asked before typed work is thrown away. */
export function DiscardDialog(props: {
  opened: boolean;
  onKeep: () => void;
  onDiscard: () => void;
}) {
  // A layer: whatever is below ignores Esc while it asks.
  useTopLayer(props.opened);
  // Esc means "keep editing". Not Mantine's closeOnEscape: its window listener would also hear
  // the very Esc that opened this question and close it at once.
  const keyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    props.onKeep();
  };
  return (
    <Modal
      opened={props.opened}
      onClose={props.onKeep}
      closeOnEscape={false}
      title="Discard changes?"
      size="sm"
      centered
      // Above the form it asks about.
      zIndex={getDefaultZIndex('modal') + 10}
    >
      <div onKeyDown={keyDown}>
        <Text size="sm">The changes you made here have not been saved and will be lost.</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={props.onKeep} data-autofocus>
            Keep editing
          </Button>
          <Button color="red" onClick={props.onDiscard}>
            Discard
          </Button>
        </Group>
      </div>
    </Modal>
  );
}

/**
 * Mounted while a form holds unsaved changes: a move to another screen (a link, the browser's
 * Back) is held and `onBlocked` asked what to do; closing or reloading the tab gets the browser's
 * own question. Only one may be mounted at a time (the router keeps one blocker), hence mounted
 * only while needed rather than always with a flag.
 */
export function LeaveGuard(props: { onBlocked: (blocker: Blocker) => void }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      // Not to sign-in (a sign-out, an ended session): the session is gone, nothing could be saved.
      nextLocation.pathname !== SIGN_IN &&
      (currentLocation.pathname !== nextLocation.pathname ||
        currentLocation.search !== nextLocation.search),
  );
  const { onBlocked } = props;
  useEffect(() => {
    if (blocker.state === 'blocked') onBlocked(blocker);
  }, [blocker, onBlocked]);
  useEffect(() => {
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, []);
  return null;
}

/**
 * For a form on a screen rather than in a dialog: while `when` (it holds unsaved changes), a move
 * to another screen asks "Discard changes?" first, and closing the tab gets the browser's question.
 */
export function UnsavedChangesGuard(props: { when: boolean }) {
  const [held, setHeld] = useState<Blocker | null>(null);
  const answer = (go: boolean) => {
    if (go) held?.proceed?.();
    else held?.reset?.();
    setHeld(null);
  };
  if (!props.when) return null;
  return (
    <>
      <LeaveGuard onBlocked={setHeld} />
      <DiscardDialog
        opened={held !== null}
        onKeep={() => answer(false)}
        onDiscard={() => answer(true)}
      />
    </>
  );
}
