import { useState } from 'react';
import { Badge, Button, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconDeviceDesktop, IconDeviceMobile } from '@tabler/icons-react';
import type { SessionRow } from '@master-admin/contract';
import { formatAgo, formatDateTime } from '../lib/format';

/** How a session was signed in to (its `method`), as a person reads it. */
export const SIGN_IN_METHODS: Record<string, string> = {
  password: 'Password',
  totp: 'Password and authenticator app',
  recovery: 'Password and recovery code',
  passkey: 'Passkey',
  // An end user's sign-in to the content app (apps API).
  otp: 'Code sent to the phone',
};

// A browser's user agent names its system; a content app names its platform (android, ios).
const PHONE_DEVICE = /\b(iPhone|iPad|Android|iOS|Mobile)\b/i;

/**
 * How many sessions show before "Show all" (and this device's, when it is older): about forty
 * sign-ins made the phone's Account page 6,150 px tall (issue #35).
 */
export const SESSIONS_SHOWN = 5;

/**
 * An account's signed-in sessions, one line each: the device, its address, when it signed in and
 * was last seen, how it signed in, and "This device" on the session of this browser. A list
 * rather than a table: a handful of rows whose text wraps on a phone instead of scrolling. The
 * newest SESSIONS_SHOWN (in the server's order, newest first) and this device's show, the rest on
 * "Show all".
 */
export function SessionList(props: {
  label: string;
  sessions: SessionRow[];
  /** Ends a session (its "End" button); without it the list only shows them. */
  onEnd?: (session: SessionRow) => void;
  /** The session being ended. */
  ending?: number | undefined;
}) {
  const [all, setAll] = useState(false);
  const many = props.sessions.length > SESSIONS_SHOWN + 1;
  const sessions =
    all || !many
      ? props.sessions
      : props.sessions.filter((s, i) => i < SESSIONS_SHOWN || s.current);
  return (
    <>
      <Stack
        component="ul"
        aria-label={props.label}
        gap={0}
        p={0}
        m={0}
        style={{ listStyle: 'none' }}
      >
        {sessions.map((s, i) => {
          const Icon = PHONE_DEVICE.test(s.device) ? IconDeviceMobile : IconDeviceDesktop;
          return (
            <Group
              component="li"
              key={s.id}
              justify="space-between"
              align="flex-start"
              wrap="nowrap"
              gap="sm"
              py="sm"
              style={
                i > 0 ? { borderTop: '1px solid var(--mantine-color-default-border)' } : undefined
              }
            >
              <Group gap="sm" wrap="nowrap" align="flex-start" style={{ minWidth: 0 }}>
                <ThemeIcon variant="light" color="gray" size="lg" radius="md" aria-hidden>
                  <Icon size={20} />
                </ThemeIcon>
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Group gap={6} wrap="wrap">
                    <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {s.device || 'Unknown device'}
                    </Text>
                    {s.current && (
                      <Badge size="sm" variant="dot" color="teal" tt="none">
                        This device
                      </Badge>
                    )}
                  </Group>
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {[
                      s.ip ?? 'Address unknown',
                      s.method ? (SIGN_IN_METHODS[s.method] ?? s.method) : undefined,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </Text>
                  <Text size="xs" c="dimmed">
                    Signed in {formatDateTime(s.createdAt)}
                    {s.lastSeenAt ? ` · last seen ${formatAgo(s.lastSeenAt)}` : ''}
                  </Text>
                </Stack>
              </Group>
              {props.onEnd && (
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => props.onEnd?.(s)}
                  loading={props.ending === s.id}
                  aria-label={
                    s.current ? 'End this device’s session' : `End the session on ${s.device}`
                  }
                  style={{ flexShrink: 0 }}
                >
                  End
                </Button>
              )}
            </Group>
          );
        })}
      </Stack>
      {many && (
        <Button variant="subtle" size="xs" mt="xs" onClick={() => setAll((v) => !v)}>
          {all ? 'Show fewer' : `Show all ${props.sessions.length} sessions`}
        </Button>
      )}
    </>
  );
}
