/**
 * What a form shows when its save was refused because the row changed since the form was opened
 * (API.md, "Versions"): who changed it and when, and, field by field where what was typed differs
 * from what someone else stored, both values with "Keep mine" / "Take theirs". The form's own
 * submit button then saves the merged result (FormDialog). Also the notice offering a kept draft
 * back (lib/drafts.ts).
 */
import { useEffect, useRef } from 'react';
import { Alert, Button, Group, Paper, Radio, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconHistory } from '@tabler/icons-react';
import type { Conflict } from '../lib/api';
import { formatAgo, formatDateTime } from '../lib/format';

/** One field that differs: what was typed, what is stored now, and the choice made. */
export type ConflictField = {
  name: string;
  label: string;
  mine: unknown;
  theirs: unknown;
  choice: 'mine' | 'theirs';
};

/** Who changed the row and when, as a sentence's start: "Changed by Asha 2 minutes ago". */
function changedByText(conflict: Conflict, verb: string): string {
  const who = conflict.changedBy ? ` by ${conflict.changedBy.name}` : ' by someone else';
  const when = conflict.changedAt ? ` ${formatAgo(conflict.changedAt)}` : '';
  return `${verb}${who}${when}`;
}

const EXCERPT = 160;

/** A value as a person reads it: rich text as its plain text, cut short; empty as "(empty)". */
export function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.map(valueText).join(', ');
  if (typeof value !== 'string' && typeof value !== 'number') return JSON.stringify(value) ?? '';
  let text = String(value);
  if (/<[a-z][^>]*>/i.test(text)) {
    // Blocks (paragraphs, list items, headings, line breaks) end in a space, as they read.
    const spaced = text.replace(/<\/(p|li|h[1-6]|div|blockquote|pre)>|<br\s*\/?>/gi, '$& ');
    text = new DOMParser().parseFromString(spaced, 'text/html').body.textContent;
  }
  text = text.replace(/\s+/g, ' ').trim();
  if (text === '') return '(empty)';
  return text.length > EXCERPT ? `${text.slice(0, EXCERPT - 1)}…` : text;
}

export function ConflictPanel(props: {
  conflict: Conflict;
  fields: ConflictField[];
  onChoose: (name: string, choice: 'mine' | 'theirs') => void;
  /** The row was deleted meanwhile: nothing can be saved; this closes the form. */
  onClose: () => void;
}) {
  const { conflict, fields } = props;
  const heading = useRef<HTMLHeadingElement>(null);
  // Shown where the person's eyes are not (they pressed Save at the bottom): brought into view
  // and focused, so a screen reader reads it first.
  useEffect(() => {
    heading.current?.scrollIntoView({ block: 'nearest' });
    heading.current?.focus();
  }, [conflict]);

  if (!conflict.current) {
    return (
      <Alert
        color="red"
        variant="light"
        icon={<IconAlertTriangle size={18} />}
        role="alert"
        title={
          <span ref={heading} tabIndex={-1}>
            {changedByText(conflict, 'Deleted')}
          </span>
        }
      >
        <Text size="sm">
          This row was deleted while you were editing; your changes cannot be saved.
        </Text>
        <Button mt="sm" size="compact-sm" variant="default" onClick={props.onClose}>
          Close
        </Button>
      </Alert>
    );
  }
  return (
    <Paper
      withBorder
      p="sm"
      role="region"
      aria-labelledby="conflict-heading"
      bg="var(--mantine-color-yellow-light)"
    >
      <Stack gap="xs">
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <IconAlertTriangle size={18} style={{ flex: 'none', marginTop: 2 }} aria-hidden />
          <Title order={3} size="h5" id="conflict-heading" ref={heading} tabIndex={-1}>
            {changedByText(conflict, 'Changed')} while you were editing
          </Title>
        </Group>
        <Text size="sm">
          {fields.length === 0
            ? 'None of the fields here differ from what is stored now. Save again to keep your changes.'
            : `Nothing was saved. Choose, for each field that differs, which value to keep; your other changes are kept. Then press “Save merged”.`}
        </Text>
        {fields.map((f) => (
          <Radio.Group
            key={f.name}
            label={f.label}
            value={f.choice}
            onChange={(v) => props.onChoose(f.name, v === 'theirs' ? 'theirs' : 'mine')}
          >
            <Stack gap={6} mt={4}>
              <Radio
                value="mine"
                label="Keep mine"
                description={valueText(f.mine)}
                styles={{ description: { overflowWrap: 'anywhere' } }}
              />
              <Radio
                value="theirs"
                label={`Take theirs${conflict.changedBy ? ` (${conflict.changedBy.name})` : ''}`}
                description={valueText(f.theirs)}
                styles={{ description: { overflowWrap: 'anywhere' } }}
              />
            </Stack>
          </Radio.Group>
        ))}
      </Stack>
    </Paper>
  );
}

/** "You have unsaved changes from …": a kept draft of this form, offered back. */
export function DraftNotice(props: {
  savedAt: string;
  /** The row changed since the draft was taken. */
  moved: boolean;
  /** The form has a file field, which drafts do not keep. */
  files: boolean;
  restored: boolean;
  onRestore: () => void;
  onDiscard: () => void;
}) {
  const moved = props.moved && (
    <Text size="sm" mt={4}>
      This row was changed since your draft; saving will show what differs.
    </Text>
  );
  if (props.restored) {
    return (
      <Alert color="blue" variant="light" icon={<IconHistory size={18} />} role="status">
        <Text size="sm">Your draft from {formatDateTime(props.savedAt)} is restored.</Text>
        {moved}
        {props.files && (
          <Text size="sm" mt={4}>
            Files are not kept in drafts: choose them again.
          </Text>
        )}
      </Alert>
    );
  }
  return (
    <Alert
      color="blue"
      variant="light"
      icon={<IconHistory size={18} />}
      role="region"
      aria-label="Unsaved draft"
    >
      <Text size="sm">
        You have unsaved changes from {formatDateTime(props.savedAt)}.
        {props.files && ' Files are not kept in drafts.'}
      </Text>
      {moved}
      <Group gap="xs" mt="xs">
        <Button size="compact-sm" onClick={props.onRestore}>
          Restore
        </Button>
        <Button size="compact-sm" variant="default" onClick={props.onDiscard}>
          Discard draft
        </Button>
      </Group>
    </Alert>
  );
}
