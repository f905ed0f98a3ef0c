import { ActionIcon, Menu } from '@mantine/core';
import { IconDots } from '@tabler/icons-react';

export type RowAction = { label: string; onClick: () => void; danger?: boolean };

/** A row's actions behind one labelled menu button, the same in every list. */
export function RowActions(props: { label: string; actions: RowAction[] }) {
  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${props.label}`}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        {props.actions.map((a) => (
          <Menu.Item key={a.label} color={a.danger ? 'red' : undefined} onClick={a.onClick}>
            {a.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
