/**
 * Many posters at once (API.md "Planning festivals"): up to BATCH_MAX image files (picked, dropped
 * or a folder) with one set of settings, the same fields as "New poster". Each file is its own
 * create call (so its own Idempotency-Key), BATCH_CONCURRENCY at a time; each has a row with its
 * progress, result and Retry, and one refused never stops the others.
 */
import { useRef, useState } from 'react';
import { Alert, Button, Group, Input, List, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { IconFolder, IconPhotoPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useFormContext, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { BATCH_CONCURRENCY, BATCH_MAX, MESSAGES } from '@master-admin/contract';
import { FormDialog } from '../../components/FormDialog';
import { FormController } from '../../components/FormFields';
import { IMAGE_TYPES, MAX_IMAGE_BYTES } from '../../components/ImageField';
import { errorText } from '../../lib/api';
import { createPoster, posterKeys } from './api';
import { checkLocalWindow, useTimeZoneOf } from '../../components/Schedule';
import {
  PosterSettingsFields,
  checkTarget,
  createValues,
  posterSettingsForm,
  settingsDefaults,
  type PosterSettings,
} from './PosterDialogs';

let nextKey = 0;

const batchForm = posterSettingsForm
  .extend({
    files: z
      .array(z.instanceof(File))
      .min(1, { error: MESSAGES.batchNoFiles })
      .max(BATCH_MAX, { error: MESSAGES.batchTooMany }),
  })
  .superRefine(checkLocalWindow)
  .superRefine(checkTarget, { when: () => true });

export type BatchRow = {
  key: number;
  file: File;
  state: 'waiting' | 'sending' | 'created' | 'refused';
  /** 0..100 while sending. */
  progress: number;
  /** Why it was refused: the server's message, or the check made before sending. */
  reason?: string;
};

/** What the browser can tell before sending: the type it reads from the file, and the size. */
function localRefusal(file: File): string | undefined {
  if (!IMAGE_TYPES.includes(file.type)) return MESSAGES.batchNotImage;
  if (file.size > MAX_IMAGE_BYTES) return MESSAGES.batchTooLarge;
  return undefined;
}

/**
 * Runs a batch: BATCH_CONCURRENCY calls in flight, the next file starting as one ends. A retried
 * row goes back in line. When nothing is left, the posters' lists and the plan refresh once.
 */
export function useBatchUpload() {
  const client = useQueryClient();
  const zoneOf = useTimeZoneOf();
  const [rows, setRows] = useState<BatchRow[]>([]);
  const state = useRef<{
    rows: BatchRow[];
    settings?: PosterSettings;
    /** The zone the settings' schedule is read in (the app's, or all apps'). */
    zone?: string;
    active: number;
  }>({
    rows: [],
    active: 0,
  });

  const update = (key: number, change: Partial<BatchRow>) => {
    state.current.rows = state.current.rows.map((r) => (r.key === key ? { ...r, ...change } : r));
    setRows(state.current.rows);
  };

  const pump = () => {
    const s = state.current;
    const { settings } = s;
    if (!settings) return;
    while (s.active < BATCH_CONCURRENCY) {
      const next = s.rows.find((r) => r.state === 'waiting');
      if (!next) break;
      const refusal = localRefusal(next.file);
      if (refusal) {
        update(next.key, { state: 'refused', reason: refusal, progress: 0 });
        continue;
      }
      s.active += 1;
      update(next.key, { state: 'sending', progress: 0 });
      createPoster({
        ...createValues(settings, s.zone ?? zoneOf(undefined)),
        file: next.file,
        onProgress: (percent) => update(next.key, { progress: percent }),
      })
        .then(() => update(next.key, { state: 'created', progress: 100, reason: undefined }))
        .catch((err: unknown) => update(next.key, { state: 'refused', reason: errorText(err) }))
        .finally(() => {
          s.active -= 1;
          pump();
        });
    }
    if (s.active === 0 && !s.rows.some((r) => r.state === 'waiting')) {
      void client.invalidateQueries({ queryKey: posterKeys.all });
      void client.invalidateQueries({ queryKey: ['planning'] });
    }
  };

  return {
    rows,
    start: (files: File[], settings: PosterSettings) => {
      state.current = {
        settings,
        zone: zoneOf(settings.target === 'one' ? settings.masterAppId : undefined),
        active: 0,
        // Keys never reused: a call of an earlier batch still on its way updates no row of this one.
        rows: files.map((file) => ({ key: nextKey++, file, state: 'waiting', progress: 0 })),
      };
      setRows(state.current.rows);
      pump();
    },
    retry: (key: number) => {
      update(key, { state: 'waiting', progress: 0, reason: undefined });
      pump();
    },
    clear: () => {
      state.current = { rows: [], active: 0 };
      setRows([]);
    },
  };
}

/** The files of a batch: dropped or picked (several at once), or every file of a folder. */
function FilesField() {
  const { control, setValue, trigger } = useFormContext<{ files: File[] }>();
  const files = useWatch({ control, name: 'files' });
  const folder = useRef<HTMLInputElement>(null);
  const add = (more: File[]) => {
    setValue('files', [...files, ...more], { shouldDirty: true });
    // Past BATCH_MAX the message shows at once, before anything is sent.
    void trigger('files');
  };
  return (
    <FormController
      control={control}
      name="files"
      label="Poster images"
      render={({ fieldState, label }) => (
        <Input.Wrapper
          label={label}
          required
          description={`Up to ${BATCH_MAX} images (JPEG, PNG, WebP or GIF, at most 10 MB each). Each becomes a poster with the settings below.`}
          error={fieldState.error?.message}
        >
          <Dropzone
            mt={4}
            onDrop={add}
            multiple
            aria-label="Poster images: drop images here or click to choose several"
            p="md"
          >
            <Group justify="center" gap="sm" mih={60} style={{ pointerEvents: 'none' }}>
              <IconPhotoPlus size={32} stroke={1.5} />
              <Text size="sm">
                {files.length > 0
                  ? `${files.length} file${files.length === 1 ? '' : 's'} chosen: drop or choose more`
                  : 'Drop images here or click to choose several'}
              </Text>
            </Group>
          </Dropzone>
          <Group mt="xs" gap="xs">
            <Button
              variant="default"
              size="xs"
              leftSection={<IconFolder size={16} />}
              onClick={() => folder.current?.click()}
            >
              Choose a folder
            </Button>
            {files.length > 0 && (
              <Button
                variant="subtle"
                size="xs"
                onClick={() => {
                  setValue('files', [], { shouldDirty: true });
                  void trigger('files');
                }}
              >
                Clear the {files.length} files
              </Button>
            )}
          </Group>
          <input
            ref={folder}
            type="file"
            hidden
            multiple
            aria-label="Folder of poster images"
            // Not in React's types; Chromium, Firefox and Safari take it.
            {...{ webkitdirectory: '' }}
            onChange={(e) => {
              add([...(e.currentTarget.files ?? [])]);
              e.currentTarget.value = '';
            }}
          />
        </Input.Wrapper>
      )}
    />
  );
}

/** "Many posters": the files and one set of settings; sending starts `onStart`'s batch. */
export function BatchPosterDialog(props: {
  opened: boolean;
  onClose: () => void;
  initial: { masterAppId: string; categoryId: string; specialDayId: string; date?: string };
  onStart: (files: File[], settings: PosterSettings) => void;
}) {
  return (
    <FormDialog
      opened={props.opened}
      onClose={props.onClose}
      title="Many posters"
      long
      schema={batchForm}
      defaultValues={{ ...settingsDefaults(props.initial), files: [] }}
      submitLabel="Upload"
      onSubmit={async ({ files, ...settings }) => props.onStart(files, settings)}
    >
      {() => (
        <PosterSettingsFields>
          <FilesField />
        </PosterSettingsFields>
      )}
    </FormDialog>
  );
}

/** How a batch ended, once nothing is waiting or sending: the count created and the refused. */
export function BatchSummary(props: { rows: BatchRow[] }) {
  const created = props.rows.filter((r) => r.state === 'created').length;
  const refused = props.rows.filter((r) => r.state === 'refused');
  return (
    <Alert
      color={refused.length ? 'orange' : 'green'}
      title={`${created} of ${props.rows.length} poster${props.rows.length === 1 ? '' : 's'} created`}
      role="status"
    >
      {refused.length === 0 ? (
        <Text size="sm">Every file was uploaded.</Text>
      ) : (
        <>
          <Text size="sm" mb={4}>
            {refused.length} refused:
          </Text>
          <List size="sm" spacing={2}>
            {refused.map((r) => (
              <List.Item key={r.key}>
                <Text span size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                  {r.file.name}
                </Text>
                : {r.reason}
              </List.Item>
            ))}
          </List>
        </>
      )}
    </Alert>
  );
}
