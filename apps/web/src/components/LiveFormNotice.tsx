/**
 * What an edit dialog says of its row while it is open (issue 23 part 3): it tells the others
 * "I am editing this row" (PUT presence, renewed, taken back on close), shows who else edits it
 * ("Asha is editing"), and says when someone else changed or deleted it meanwhile ("Changed by
 * Asha a moment ago: Review", Review showing the row's recorded changes). Never a lock: the save
 * still goes, and a stale one is refused with the conflict shown.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { Alert, Avatar, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { AUDIT_AREA_MENUS, type AuditArea, type EventArea } from '@master-admin/contract';
import { events, useChangeEvents, useHoldPresence, usePresence } from '../lib/events';
import { editingText } from './LiveRows';

const HistoryDrawer = lazy(() => import('../features/audit/HistoryDrawer'));

/** The row an edit dialog is open for: its area (menu name), id, and what it is called. */
export type PresenceTarget = { area: EventArea; id: number; label?: string | undefined };

/** The audit area whose history shows a row of `area` (its own rows, not their images). */
function auditAreaOf(area: EventArea): AuditArea | undefined {
  if (area === 'staff') return 'staff';
  const found = Object.entries(AUDIT_AREA_MENUS).find(([, menu]) => menu === area);
  return found?.[0] as AuditArea | undefined;
}

/** "a moment ago", "3 minutes ago", "at 14:05". */
export function agoText(at: number, now: number): string {
  const minutes = Math.floor((now - at) / 60_000);
  if (minutes < 1) return 'a moment ago';
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
  return `at ${new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`;
}

export function LiveFormNotice(props: { target: PresenceTarget }) {
  const { area, id } = props.target;
  useHoldPresence({ area, id });
  const editors = usePresence(area, id);
  const [change, setChange] = useState<{ by: string; at: number; deleted: boolean }>();
  const [now, setNow] = useState(() => Date.now());
  const [reviewing, setReviewing] = useState(false);
  useChangeEvents(area, (event) => {
    if (event.id !== id || event.by.id === events.me || event.action === 'created') return;
    const at = Date.now();
    setNow(at);
    setChange({ by: event.by.name, at, deleted: event.action === 'deleted' });
  });
  // "a moment ago" grows older while the dialog stays open.
  const since = change?.at;
  useEffect(() => {
    if (since === undefined) return;
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, [since]);
  const auditArea = auditAreaOf(area);

  return (
    <div role="status" aria-live="polite" data-testid="live-form-notice">
      {editors.length > 0 && (
        <Group gap={8} wrap="nowrap" mb="sm">
          <Avatar.Group spacing={8}>
            {editors.slice(0, 3).map((e) => (
              <Avatar key={e.id} size={24} name={e.name} color="initials" aria-hidden />
            ))}
          </Avatar.Group>
          <Text size="sm" c="orange.8" fw={500}>
            {editingText(editors)}
          </Text>
        </Group>
      )}
      {change && (
        <Alert
          variant="light"
          color={change.deleted ? 'red' : 'yellow'}
          p="xs"
          mb="sm"
          icon={<IconAlertTriangle size={18} />}
        >
          <Group gap="xs" justify="space-between" wrap="wrap">
            <Text size="sm">
              {change.deleted ? 'Deleted' : 'Changed'} by {change.by} {agoText(change.at, now)}
            </Text>
            {!change.deleted && auditArea && (
              <Button size="compact-sm" variant="light" onClick={() => setReviewing(true)}>
                Review
              </Button>
            )}
          </Group>
        </Alert>
      )}
      {reviewing && auditArea && (
        <Suspense fallback={null}>
          <HistoryDrawer
            target={{ area: auditArea, id, label: props.target.label ?? `#${id}` }}
            onClose={() => setReviewing(false)}
          />
        </Suspense>
      )}
    </div>
  );
}
