import { useMemo, useState } from 'react';
import {
  ActionIcon,
  Anchor,
  Button,
  Group,
  Menu,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { IconChevronDown, IconDots } from '@tabler/icons-react';
import { Link } from 'react-router';
import {
  PERMISSION_KINDS,
  type MenuPermissionGroup,
  type PermissionEntry,
  type PermissionKind,
} from '@master-admin/contract';
import { usePhone } from '../../lib/phone';
import { UnsavedChangesGuard } from '../../components/LeaveGuard';
import { useBulkPermissions, useSetPermission } from './api';

export const KIND_LABELS: Record<PermissionKind, string> = {
  VIEW: 'View',
  CREATE: 'Create',
  UPDATE: 'Update',
  DELETE: 'Delete',
};

export const menuPermissionsPath = (menuId: number, accountId: number) =>
  `/permissions/${menuId}/${accountId}`;

/**
 * A staff account's rights: one row per menu, one switch per kind. Changes wait in a draft until
 * "Save changes" sends them in one all-or-nothing call; with "Save each change at once" every
 * switch (and every grant-all or revoke-all) is sent as it is made.
 */
export function PermissionGrid(props: { accountId: number; perms: MenuPermissionGroup[] }) {
  const { accountId, perms } = props;
  const [draft, setDraft] = useState<ReadonlyMap<number, boolean>>(new Map());
  const [saveEach, setSaveEach] = useState(false);
  const single = useSetPermission('user-permissions');
  const bulk = useBulkPermissions();
  const phone = usePhone();

  const entries = useMemo(
    () => new Map(perms.flatMap((g) => g.userPermission.map((e) => [e.id, e]))),
    [perms],
  );
  // What the server holds now may already agree with a draft value: such a change is no change.
  const changes = [...draft].filter(([id, status]) => entries.get(id)?.status !== status);
  const value = (e: PermissionEntry) => draft.get(e.id) ?? e.status;
  const pending = single.isPending || bulk.isPending;

  const sendBulk = (items: Array<{ id: number; status: boolean }>) =>
    bulk.mutateAsync({ accountId, items }).then(() => {
      setDraft((prev) => {
        const next = new Map(prev);
        for (const item of items) next.delete(item.id);
        return next;
      });
    });

  /** Sets these rows to `status`: at once, or in the draft. */
  const set = (rows: PermissionEntry[], status: boolean) => {
    const changed = rows.filter((e) => value(e) !== status);
    if (changed.length === 0) return;
    if (saveEach) {
      const [only] = changed;
      if (changed.length === 1 && only) single.mutate({ id: only.id, status });
      else void sendBulk(changed.map((e) => ({ id: e.id, status }))).catch(() => undefined);
      return;
    }
    setDraft((prev) => {
      const next = new Map(prev);
      for (const e of changed) next.set(e.id, status);
      return next;
    });
  };

  const column = (kind: PermissionKind) =>
    perms.flatMap((g) => g.userPermission.filter((e) => e.permission.name === kind));

  const columnMenu = (kind: PermissionKind) => (
    <Menu position="bottom" withinPortal>
      <Menu.Target>
        <Button
          variant="subtle"
          size="compact-xs"
          rightSection={<IconChevronDown size={12} />}
          aria-label={`${KIND_LABELS[kind]}: grant or revoke for every menu`}
          disabled={pending}
        >
          {KIND_LABELS[kind]}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => set(column(kind), true)}>
          Grant {KIND_LABELS[kind]} on every menu
        </Menu.Item>
        <Menu.Item color="red" onClick={() => set(column(kind), false)}>
          Revoke {KIND_LABELS[kind]} on every menu
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );

  const rowMenu = (group: MenuPermissionGroup) => (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={`Actions for ${group.title}`}
          disabled={pending}
        >
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => set(group.userPermission, true)}>
          Grant all on {group.title}
        </Menu.Item>
        <Menu.Item color="red" onClick={() => set(group.userPermission, false)}>
          Revoke all on {group.title}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );

  const menuLink = (group: MenuPermissionGroup) => (
    <div>
      <Anchor component={Link} to={menuPermissionsPath(group.id, accountId)} size="sm">
        {group.title}
      </Anchor>
      <Text size="xs" c="dimmed">
        {group.name}
      </Text>
    </div>
  );

  const toggle = (group: MenuPermissionGroup, kind: PermissionKind, label?: string) => {
    const e = group.userPermission.find((p) => p.permission.name === kind);
    return e ? (
      <Switch
        aria-label={`${group.title}: ${KIND_LABELS[kind]}`}
        label={label}
        checked={value(e)}
        disabled={saveEach && pending}
        onChange={(ev) => set([e], ev.currentTarget.checked)}
      />
    ) : null;
  };

  // On a phone: a card per menu with its four switches, and the per-kind menus above them.
  const cards = (
    <Stack gap="xs">
      <Group gap={4} wrap="wrap">
        <Text size="sm" c="dimmed" mr={4}>
          Every menu:
        </Text>
        {PERMISSION_KINDS.map((kind) => (
          <span key={kind}>{columnMenu(kind)}</span>
        ))}
      </Group>
      {perms.map((group) => (
        <Paper key={group.id} withBorder radius="sm" p="sm">
          <Group justify="space-between" wrap="nowrap" mb={6}>
            {menuLink(group)}
            {rowMenu(group)}
          </Group>
          <SimpleGrid cols={2} spacing="xs" verticalSpacing={8}>
            {PERMISSION_KINDS.map((kind) => (
              <div key={kind}>{toggle(group, kind, KIND_LABELS[kind])}</div>
            ))}
          </SimpleGrid>
        </Paper>
      ))}
    </Stack>
  );

  return (
    <Paper withBorder radius="md" p="md">
      <UnsavedChangesGuard when={changes.length > 0} />
      <Group justify="space-between" mb="sm" wrap="wrap" gap="sm">
        <div>
          <Text fw={600}>Permissions</Text>
          <Text size="sm" c="dimmed">
            What this account may do in each menu. Without View, a menu’s screen says Access Denied.
          </Text>
        </div>
        <Switch
          label="Save each change at once"
          checked={saveEach}
          disabled={changes.length > 0}
          onChange={(e) => setSaveEach(e.currentTarget.checked)}
        />
      </Group>
      {phone ? (
        cards
      ) : (
        <Table.ScrollContainer minWidth={520}>
          <Table verticalSpacing={6} horizontalSpacing="xs" striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Menu</Table.Th>
                {PERMISSION_KINDS.map((kind) => (
                  <Table.Th key={kind} w={72} ta="center">
                    {columnMenu(kind)}
                  </Table.Th>
                ))}
                <Table.Th w={40}>
                  <VisuallyHidden>Row actions</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {perms.map((group) => (
                <Table.Tr key={group.id}>
                  <Table.Td>{menuLink(group)}</Table.Td>
                  {PERMISSION_KINDS.map((kind) => (
                    <Table.Td key={kind}>
                      <Group justify="center">{toggle(group, kind)}</Group>
                    </Table.Td>
                  ))}
                  <Table.Td>{rowMenu(group)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {!saveEach && (
        <Stack
          pos="sticky"
          bottom={0}
          py="sm"
          mt="xs"
          bg="var(--mantine-color-body)"
          style={{ borderTop: '1px solid var(--mantine-color-default-border)', zIndex: 2 }}
        >
          <Group justify="space-between" wrap="wrap" gap="sm">
            <Text
              size="sm"
              c={changes.length === 0 ? 'dimmed' : undefined}
              fw={changes.length === 0 ? undefined : 600}
              aria-live="polite"
            >
              {changes.length === 0
                ? 'No unsaved changes'
                : `${changes.length} unsaved ${changes.length === 1 ? 'change' : 'changes'}`}
            </Text>
            <Group gap="sm">
              <Button
                variant="default"
                disabled={changes.length === 0 || bulk.isPending}
                onClick={() => setDraft(new Map())}
              >
                Discard
              </Button>
              <Button
                disabled={changes.length === 0}
                loading={bulk.isPending}
                onClick={() =>
                  void sendBulk(changes.map(([id, status]) => ({ id, status }))).catch(
                    () => undefined,
                  )
                }
              >
                Save changes
              </Button>
            </Group>
          </Group>
        </Stack>
      )}
    </Paper>
  );
}
