import { useEffect } from 'react';
import { Button, Group, Modal, Text, getDefaultZIndex } from '@mantine/core';
import { useBlocker } from 'react-router';

/** "Discard changes?": the one question asked before typed work is thrown away. */
export function DiscardDialog(props: {
  opened: boolean;
  onKeep: () => void;
  onDiscard: () => void;
}) {
  return (
    <Modal
      opened={props.opened}
      onClose={props.onKeep}
      title="Discard changes?"
      size="sm"
      centered
      // Above the form it asks about.
      zIndex={getDefaultZIndex('modal') + 10}
    >
      <Text size="sm">What you typed in this form has not been saved and will be lost.</Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={props.onKeep} data-autofocus>
          Keep editing
        </Button>
        <Button color="red" onClick={props.onDiscard}>
          Discard
        </Button>
      </Group>
    </Modal>
  );
}

/**
 * Mounted while a form holds unsaved changes: a move to another screen (a link, the browser's
 * Back) asks first, and so does closing or reloading the tab (the browser's own question).
 * Only one may be mounted at a time (the router keeps one blocker), hence mounted only while
 * needed rather than always with a flag.
 */
export function LeaveGuard(props: { onDiscard: () => void }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      currentLocation.pathname !== nextLocation.pathname ||
      currentLocation.search !== nextLocation.search,
  );
  useEffect(() => {
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, []);
  return (
    <DiscardDialog
      opened={blocker.state === 'blocked'}
      onKeep={() => blocker.reset?.()}
      onDiscard={() => {
        blocker.proceed?.();
        props.onDiscard();
      }}
    />
  );
}
