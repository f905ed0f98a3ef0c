import { lazy, Suspense, useRef, useState } from 'react';
import { ActionIcon, Menu } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';
import type { AuditArea } from '@master-admin/contract';
import { LazyMenu } from './LazyMenu';

// The history drawer loads when a row's history is first opened.
const HistoryDrawer = lazy(() => import('../features/audit/HistoryDrawer'));

export type RowAction = {
  label: string;
  onClick: () => void;
  danger?: boolean;
  /** False hides the action (the account lacks the right); shown when not given. */
  allowed?: boolean;
};

/**
 * A row's actions behind one labelled menu button, the same in every list. With `history` (the
 * row's audit area and id), the menu ends with "History": the row's recorded changes, which the
 * server shows to whoever may view the area.
 */
export function RowActions(props: {
  label: string;
  actions: RowAction[];
  history?: { area: AuditArea; id: number };
}) {
  const target = useRef<HTMLButtonElement>(null);
  const [showHistory, setShowHistory] = useState(false);
  const actions = props.actions.filter((a) => a.allowed !== false);
  const { history } = props;
  if (history) actions.push({ label: 'History', onClick: () => setShowHistory(true) });
  if (actions.length === 0) return null;
  return (
    <>
      {/* Focus goes back to the button when the menu closes (and when a dialog it opened closes);
          the menu mounts on the first click (a plain button per row until then). */}
      <LazyMenu
        position="bottom-end"
        buttonRef={target}
        target={(lazy) => (
          <ActionIcon
            ref={target}
            variant="subtle"
            color="gray"
            aria-label={`Actions for ${props.label}`}
            {...lazy}
          >
            <IconDots size={18} />
          </ActionIcon>
        )}
      >
        {actions.map((a) => (
          <Menu.Item
            key={a.label}
            color={a.danger ? 'red' : undefined}
            onClick={() => {
              // The dialog an action opens remembers what had focus, to give it back on close:
              // that must be this button, not the menu item about to disappear.
              target.current?.focus();
              a.onClick();
            }}
          >
            {a.label}
          </Menu.Item>
        ))}
      </LazyMenu>
      {history && showHistory && (
        <Suspense fallback={null}>
          <HistoryDrawer
            target={{ ...history, label: props.label }}
            onClose={() => setShowHistory(false)}
          />
        </Suspense>
      )}
    </>
  );
}
