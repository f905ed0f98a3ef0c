import { useState } from 'react';
import {
  ActionIcon,
  Alert,
  Button,
  CopyButton,
  Group,
  Modal,
  Skeleton,
  Stack,
  Text,
  Textarea,
  Tooltip,
} from '@mantine/core';
import { IconCheck, IconCopy, IconKey, IconRefresh } from '@tabler/icons-react';
import { APP_KEY_GRACE_HOURS, type MasterApp } from '@master-admin/contract';
import { confirmAction } from '../../components/confirm';
import { errorText } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { useAppKey, useRotateAppKey } from './api';

// A key has no spaces: on a phone it breaks anywhere rather than hiding its end in the field.
const KEY_STYLES = {
  input: { fontFamily: 'var(--mantine-font-family-monospace)', wordBreak: 'break-all' },
} as const;

/** A key in a read-only monospace field (focused, it is selected whole) with a copy button. */
function KeyField(props: { label: string; value: string; description: string }) {
  return (
    <Textarea
      label={props.label}
      description={props.description}
      value={props.value}
      readOnly
      autosize
      minRows={1}
      spellCheck={false}
      styles={KEY_STYLES}
      onFocus={(e) => e.currentTarget.select()}
      rightSection={
        <CopyButton value={props.value}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? 'Copied' : 'Copy'} withArrow position="left">
              <ActionIcon
                variant="subtle"
                color={copied ? 'teal' : 'gray'}
                onClick={copy}
                aria-label={copied ? 'Copied' : `Copy the ${props.label.toLowerCase()}`}
              >
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      }
    />
  );
}

/**
 * The key an app's phones send (SUPER_ADMIN): the current one to copy into the app's build, the
 * one it replaced while that still works, and "Rotate key…". `app` undefined closes the dialog.
 */
export function AppKeyDialog(props: { app: MasterApp | undefined; onClose: () => void }) {
  // The app shown stays while the dialog closes, so its title does not go blank mid-transition.
  const [app, setApp] = useState(props.app);
  const [rotated, setRotated] = useState(false);
  // While the rotation question is open above this dialog, this one leaves Tab and Esc to it.
  const [asking, setAsking] = useState(false);
  if (props.app && props.app !== app) {
    setApp(props.app);
    if (props.app.id !== app?.id) setRotated(false);
  }
  const opened = props.app !== undefined;
  const answer = useAppKey(opened ? app?.id : undefined);
  const rotate = useRotateAppKey();
  const keys = answer.data?.result;

  const close = () => {
    setRotated(false);
    props.onClose();
  };

  const askRotate = (shown: MasterApp) => {
    setAsking(true);
    const stopsNow = keys?.previous
      ? ` The previous key, which works until ${formatDateTime(keys.previous.until)}, stops at once.`
      : '';
    confirmAction({
      title: `Rotate the key of ${shown.name}?`,
      message:
        `A new key is issued now. Installed apps keep working with the current key for ` +
        `${APP_KEY_GRACE_HOURS} hours only: they must get the new key (an app update) within that ` +
        `time, or they stop loading content.${stopsNow}`,
      confirmLabel: 'Rotate key',
      danger: true,
      overDialog: true,
      onConfirm: () => rotate.mutate(shown.id, { onSuccess: () => setRotated(true) }),
      onClose: () => setAsking(false),
    });
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={app ? `App key of ${app.name}` : 'App key'}
      centered
      trapFocus={!asking}
      closeOnEscape={!asking}
    >
      <Stack>
        <Text size="sm" c="dimmed">
          The {app?.name ?? 'content'} app sends this key with every call (the X-App-Key header) so
          the server knows which app is calling. It ships inside the app, so it is not a secret;
          rotate it when it ends up in the wrong app.
        </Text>
        {answer.isPending && <Skeleton h={60} />}
        {answer.isError && <Text c="red">{errorText(answer.error)}</Text>}
        {keys && (
          <>
            {rotated && keys.previous && (
              <Alert color="blue" icon={<IconKey size={18} />} title="New key issued" role="status">
                Put it in an app update now: installed apps still sending the previous key stop
                working on {formatDateTime(keys.previous.until)}.
              </Alert>
            )}
            <KeyField
              label="Current key"
              value={keys.key}
              description={`Issued ${formatDateTime(keys.createdAt)}`}
            />
            {keys.previous && (
              <KeyField
                label="Previous key"
                value={keys.previous.key}
                description={`Still works until ${formatDateTime(keys.previous.until)}, for apps not yet updated`}
              />
            )}
          </>
        )}
        <Group justify="space-between" mt="xs">
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} />}
            disabled={!keys}
            loading={rotate.isPending}
            onClick={() => app && askRotate(app)}
          >
            Rotate key…
          </Button>
          <Button onClick={close}>Close</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
