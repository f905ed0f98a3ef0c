import { ActionIcon, Menu } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';

export type RowAction = {
  label: string;
  onClick: () => void;
  danger?: boolean;
  /** False hides the action (the account lacks the right); shown when not given. */
  allowed?: boolean;
};

/** A row's actions behind one labelled menu button, the same in every list. */
export function RowActions(props: { label: string; actions: RowAction[] }) {
  const actions = props.actions.filter((a) => a.allowed !== false);
  if (actions.length === 0) return null;
  return (
    // Focus goes back to the button when the menu closes, so a dialog opened from it returns
    // focus there too.
    <Menu position="bottom-end" withinPortal shadow="md" returnFocus>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${props.label}`}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {actions.map((a) => (
          <Menu.Item key={a.label} color={a.danger ? 'red' : undefined} onClick={a.onClick}>
            {a.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
