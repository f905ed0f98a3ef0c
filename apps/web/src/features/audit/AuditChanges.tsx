import { useState } from 'react';
import { Badge, Button, Code, Collapse, Stack, Table, Text } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import type { AuditChange, AuditEntry } from '@master-admin/contract';
import { usePhone } from '../../lib/phone';
import { ACTION_COLORS, ACTION_LABELS } from './labels';

/** The "dot" variant, as StatusBadge: the text keeps the page's colour, so it reads at AA. */
export function ActionBadge(props: { action: AuditEntry['action'] }) {
  return (
    <Badge variant="dot" tt="none" color={ACTION_COLORS[props.action]}>
      {ACTION_LABELS[props.action]}
    </Badge>
  );
}

/** A stored value as text: absent is an em dash, lists and objects as compact JSON. */
function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

function ChangeRow({ change }: { change: AuditChange }) {
  return (
    <Table.Tr>
      <Table.Td>
        <Code>{change.field}</Code>
      </Table.Td>
      {change.redacted ? (
        <Table.Td colSpan={2}>
          <Text size="sm" c="dimmed" fs="italic">
            changed (never shown)
          </Text>
        </Table.Td>
      ) : (
        <>
          <Table.Td style={{ wordBreak: 'break-word' }}>
            <Text size="sm" c="dimmed">
              {shown(change.old)}
            </Text>
          </Table.Td>
          <Table.Td style={{ wordBreak: 'break-word' }}>
            <Text size="sm">{shown(change.new)}</Text>
          </Table.Td>
        </>
      )}
    </Table.Tr>
  );
}

/** On a phone: each field with its old and new value on lines of their own. */
function ChangesList(props: { changes: AuditChange[] }) {
  return (
    <Stack gap="xs">
      {props.changes.map((c) => (
        <div key={c.field}>
          <Code>{c.field}</Code>
          {c.redacted ? (
            <Text size="sm" c="dimmed" fs="italic">
              changed (never shown)
            </Text>
          ) : (
            <>
              <Text size="sm" c="dimmed" style={{ wordBreak: 'break-word' }}>
                Old: {shown(c.old)}
              </Text>
              <Text size="sm" style={{ wordBreak: 'break-word' }}>
                New: {shown(c.new)}
              </Text>
            </>
          )}
        </div>
      ))}
    </Stack>
  );
}

/** The changed fields, old → new: a table, or a list on a phone. */
export function ChangesTable(props: { changes: AuditChange[] }) {
  const phone = usePhone();
  if (props.changes.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No field changed.
      </Text>
    );
  }
  if (phone) return <ChangesList changes={props.changes} />;
  return (
    <Table withTableBorder fz="sm" layout="fixed" verticalSpacing={4}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th w="30%">Field</Table.Th>
          <Table.Th>Old</Table.Th>
          <Table.Th>New</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {props.changes.map((c) => (
          <ChangeRow key={c.field} change={c} />
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** An entry's changes behind a toggle that says how many there are. */
export function ExpandableChanges(props: { entry: AuditEntry }) {
  const [open, setOpen] = useState(false);
  const n = props.entry.changes.length;
  if (n === 0) {
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  }
  return (
    <Stack gap={4}>
      <Button
        variant="subtle"
        size="compact-sm"
        px={4}
        w="fit-content"
        aria-expanded={open}
        leftSection={open ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
        onClick={() => setOpen((o) => !o)}
      >
        {n === 1 ? '1 field' : `${n} fields`}
      </Button>
      <Collapse expanded={open}>
        <ChangesTable changes={props.entry.changes} />
      </Collapse>
    </Stack>
  );
}
