import { useId, useState, type ReactNode } from 'react';
import { NumberInput, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import { useFormContext, useWatch } from 'react-hook-form';
import { z } from 'zod';
import {
  DEF_NUM_MAX,
  DEF_NUM_MIN,
  SIDES,
  dateBody,
  defNumsBody,
  positionBody,
  posterCreateBody,
  type Poster,
  type Side,
} from '@master-admin/contract';
import { DateFormField } from '../../components/DateFormField';
import { FormDialog } from '../../components/FormDialog';
import { FormController, ImageFormField, MasterAppFormField } from '../../components/FormFields';
import type { RowAction } from '../../components/RowActions';
import { StatusDialog } from '../../components/StatusDialog';
import { confirmDelete } from '../../components/confirm';
import { useGrants } from '../../lib/permissions';
import { CategorySelect } from '../categories/CategorySelect';
import { SpecialDaySelect } from '../special-days/SpecialDaySelect';
import { PosterPreviewDialog } from '../users/PosterPreview';
import {
  useChangePosterDate,
  useChangePosterDefNums,
  useChangePosterImage,
  useChangePosterPosition,
  useChangePosterStatus,
  useChangePosterThumb,
  useCreatePoster,
  useDeletePoster,
} from './api';
import { defined } from '../../lib/defined';
import {
  ScheduleFields,
  checkLocalWindow,
  scheduleFormShape,
  useTimeZoneOf,
  windowToSend,
} from '../../components/Schedule';

const imageFile = z.instanceof(File, { error: 'Choose an image' });

/** What a person reads for each side; the codes stay on the wire. */
export const SIDE_LABELS: Record<Side, string> = { LEFT: 'Left', RIGHT: 'Right' };

/** A poster as dialogs and messages name it. */
export const posterName = (p: Pick<Poster, 'id'>) => `poster #${p.id}`;

/**
 * The settings of a new poster: the contract's body, plus whom it is for, the category (the call's
 * path) and the app when it is for one. Shared by "New poster" and "Many posters" (BatchUpload),
 * which add their files, so a setting added here reaches both.
 */
export const posterSettingsForm = posterCreateBody.extend({
  target: z.enum(['all', 'one']),
  masterAppId: z.string(),
  categoryId: z.string().min(1, { error: 'Choose a category' }),
  // Wall-clock times in the app's zone, sent as instants.
  ...scheduleFormShape,
});
export type PosterSettings = z.output<typeof posterSettingsForm>;

/** Marks a missing app when the poster is for one. */
export function checkTarget(
  v: { target: 'all' | 'one'; masterAppId: string },
  ctx: z.RefinementCtx,
): void {
  if (v.target === 'one' && !v.masterAppId) {
    ctx.addIssue({ code: 'custom', path: ['masterAppId'], message: 'Choose a master app' });
  }
}

/** The create call's values for `settings` (the files aside); the schedule is read in `zone`. */
export function createValues(v: PosterSettings, zone: string) {
  return {
    ...windowToSend(v, zone),
    categoryId: Number(v.categoryId),
    masterAppId: v.target === 'one' ? Number(v.masterAppId) : undefined,
    specialDayId: v.specialDayId,
    date: v.date,
    position: v.position,
    topDefNum: v.topDefNum,
    selfDefNum: v.selfDefNum,
    bottomDefNum: v.bottomDefNum,
  };
}

/** The settings' starting values; `initial` holds the choices given (a list's filters, a gap). */
export function settingsDefaults(initial: {
  masterAppId: string;
  categoryId: string;
  specialDayId: string;
  date?: string;
}) {
  const { date = '', ...choices } = initial;
  const target: 'all' | 'one' = choices.masterAppId ? 'one' : 'all';
  return {
    target,
    ...choices,
    date,
    position: 'LEFT' as const,
    topDefNum: 1,
    selfDefNum: 1,
    bottomDefNum: 1,
    liveFrom: '',
    liveUntil: '',
  };
}

// Also when other fields are wrong, so every missing choice is marked at once.
const createForm = posterSettingsForm
  .extend({ file: imageFile, thumbFile: imageFile.optional() })
  .superRefine(checkLocalWindow)
  .superRefine(checkTarget, { when: () => true });

const imageForm = z.object({ file: imageFile });
const thumbForm = z.object({ thumbFile: imageFile });

/**
 * The three default numbers: which of the user's numbered images the poster (or video) shows.
 * Shared with the videos' dialogs.
 */
export function DefNumFields(props: { subject?: 'poster' | 'video' }) {
  const { control } = useFormContext<{
    topDefNum?: unknown;
    selfDefNum?: unknown;
    bottomDefNum?: unknown;
  }>();
  const fields = [
    ['topDefNum', 'Top number'],
    ['selfDefNum', 'Self number'],
    ['bottomDefNum', 'Bottom number'],
  ] as const;
  const labelId = useId();
  return (
    <Stack gap={4} role="group" aria-labelledby={labelId}>
      <Text size="sm" fw={500} id={labelId}>
        Default numbers
      </Text>
      <Text size="xs" c="dimmed">
        Which of the user’s numbered images the {props.subject ?? 'poster'} shows: the top strip,
        the self photo and the bottom strip ({DEF_NUM_MIN}–{DEF_NUM_MAX}).
      </Text>
      <SimpleGrid cols={3} spacing="sm">
        {fields.map(([name, label]) => (
          <FormController
            key={name}
            control={control}
            name={name}
            label={label}
            render={({ field, fieldState }) => (
              <NumberInput
                label={label}
                required
                min={DEF_NUM_MIN}
                max={DEF_NUM_MAX}
                allowDecimal={false}
                allowNegative={false}
                value={typeof field.value === 'number' ? field.value : ''}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={fieldState.error?.message}
              />
            )}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/** The side of the poster (or video) on which the user's self photo is placed. */
export function PositionField(props: { subject?: 'poster' | 'video' }) {
  const { control } = useFormContext<{ position?: Side }>();
  return (
    <FormController
      control={control}
      name="position"
      label="Position"
      render={({ field, fieldState, label }) => (
        <Radio.Group
          label={label}
          description={`The side of the ${props.subject ?? 'poster'} on which the user’s own photo is placed.`}
          required
          value={field.value ?? null}
          onChange={(v) => field.onChange(v)}
          error={fieldState.error?.message}
        >
          <SimpleGrid cols={2} mt={6} maw={280}>
            {SIDES.map((s) => (
              <Radio key={s} value={s} label={SIDE_LABELS[s]} onBlur={field.onBlur} />
            ))}
          </SimpleGrid>
        </Radio.Group>
      )}
    />
  );
}

/** For every app (one poster per app) or for one, and then which. */
function TargetFields() {
  const { control } = useFormContext<{ target: 'all' | 'one' }>();
  const target = useWatch({ control, name: 'target' });
  return (
    <>
      <FormController
        control={control}
        name="target"
        label="For"
        render={({ field, label }) => (
          <Radio.Group
            label={label}
            description={
              target === 'one'
                ? 'Only the chosen master app gets this poster.'
                : 'Every master app gets this poster (one row per app, sharing the image).'
            }
            value={field.value}
            onChange={(v) => field.onChange(v)}
          >
            <SimpleGrid cols={2} mt={6} maw={280}>
              <Radio value="all" label="All apps" />
              <Radio value="one" label="One app" />
            </SimpleGrid>
          </Radio.Group>
        )}
      />
      {target === 'one' && <MasterAppFormField />}
    </>
  );
}

/** The category (required) and special day (optional) of a new poster. */
function CategoryFields() {
  const { control } = useFormContext<{ categoryId: string; specialDayId: string }>();
  return (
    <>
      <FormController
        control={control}
        name="categoryId"
        label="Category"
        render={({ field, fieldState, label }) => (
          <CategorySelect
            label={label}
            required
            clearable={false}
            placeholder="Choose a category"
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={fieldState.error?.message}
          />
        )}
      />
      <FormController
        control={control}
        name="specialDayId"
        label="Special day"
        render={({ field, fieldState, label }) => (
          <SpecialDaySelect
            label={label}
            description="Optional: the day this poster celebrates."
            placeholder="None"
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={fieldState.error?.message}
          />
        )}
      />
    </>
  );
}

/** The schedule of a new poster, in the zone of the app it is for (or all apps'). */
function PosterScheduleFields() {
  const { control } = useFormContext<{ target: 'all' | 'one'; masterAppId: string }>();
  const [target, masterAppId] = useWatch({ control, name: ['target', 'masterAppId'] });
  const zoneOf = useTimeZoneOf();
  return (
    <ScheduleFields zone={zoneOf(target === 'one' ? masterAppId : undefined)} subject="poster" />
  );
}

/**
 * The fields of a new poster's settings, with `children` (its files) after the category: the one
 * set of fields "New poster" and "Many posters" show.
 */
export function PosterSettingsFields(props: { children?: ReactNode }) {
  return (
    <>
      <TargetFields />
      <CategoryFields />
      {props.children}
      <DateFormField name="date" label="Date" />
      <PosterScheduleFields />
      <PositionField />
      <DefNumFields />
    </>
  );
}

/**
 * "New poster": for every app or one, its category, images, date, schedule, side and default
 * numbers.
 */
export function CreatePosterDialog(props: {
  opened: boolean;
  onClose: () => void;
  /** Choices the list is filtered by, to start from. */
  initial: { masterAppId: string; categoryId: string; specialDayId: string };
}) {
  const create = useCreatePoster();
  const zoneOf = useTimeZoneOf();
  const [progress, setProgress] = useState<number>();
  const close = () => {
    setProgress(undefined);
    props.onClose();
  };
  return (
    <FormDialog
      opened={props.opened}
      onClose={close}
      title="New poster"
      long
      draft={{ form: 'poster' }}
      schema={createForm}
      defaultValues={{ ...settingsDefaults(props.initial), target: 'all' }}
      submitLabel="Create"
      onSubmit={(v) =>
        create.mutateAsync({
          ...createValues(v, zoneOf(v.target === 'one' ? v.masterAppId : undefined)),
          file: v.file,
          thumbFile: v.thumbFile,
          onProgress: setProgress,
        })
      }
    >
      {() => (
        <PosterSettingsFields>
          <ImageFormField name="file" label="Poster image" required progress={progress} />
          <ImageFormField name="thumbFile" label="Thumbnail" progress={progress} />
        </PosterSettingsFields>
      )}
    </FormDialog>
  );
}

export type PosterDialog = {
  kind: 'defNums' | 'date' | 'position' | 'image' | 'thumb' | 'status' | 'preview' | 'schedule';
  poster: Poster;
} | null;

/** The dialogs a poster's row opens: default numbers, date, side, image, thumbnail, status. */
export function PosterDialogs(props: { dialog: PosterDialog; onClose: () => void }) {
  const changeDefNums = useChangePosterDefNums();
  const changeDate = useChangePosterDate();
  const changePosition = useChangePosterPosition();
  const changeImage = useChangePosterImage();
  const changeThumb = useChangePosterThumb();
  const changeStatus = useChangePosterStatus();
  const [progress, setProgress] = useState<number>();
  const { dialog } = props;
  // The last poster opened, kept while its dialog closes: the closing dialog keeps its title and
  // its user picker does not ask for the users of app 0 (a stray 400).
  const [shown, setShown] = useState(dialog?.poster);
  if (dialog && dialog.poster !== shown) setShown(dialog.poster);
  const poster = dialog?.poster ?? shown;
  const name = poster ? posterName(poster) : '';
  const close = () => {
    setProgress(undefined);
    props.onClose();
  };

  return (
    <>
      <FormDialog
        opened={dialog?.kind === 'defNums'}
        onClose={close}
        presence={poster ? { area: 'poster', id: poster.id, label: name } : undefined}
        title={`Default numbers of ${name}`}
        schema={defNumsBody}
        defaultValues={{
          topDefNum: poster?.topDefNum ?? 1,
          selfDefNum: poster?.selfDefNum ?? 1,
          bottomDefNum: poster?.bottomDefNum ?? 1,
        }}
        submitLabel="Save"
        version={poster?.version}
        onSubmit={(v, { ifMatch }) =>
          changeDefNums.mutateAsync({ id: defined(poster).id, ifMatch, ...v })
        }
      >
        {() => <DefNumFields />}
      </FormDialog>

      <FormDialog
        opened={dialog?.kind === 'date'}
        onClose={close}
        presence={poster ? { area: 'poster', id: poster.id, label: name } : undefined}
        title={`Date of ${name}`}
        schema={dateBody}
        defaultValues={{ date: poster?.date ?? '' }}
        submitLabel="Save"
        version={poster?.version}
        onSubmit={(v, { ifMatch }) =>
          changeDate.mutateAsync({ id: defined(poster).id, ifMatch, date: v.date })
        }
      >
        {() => <DateFormField name="date" label="Date" description="Clear it for no date." />}
      </FormDialog>

      <FormDialog
        opened={dialog?.kind === 'position'}
        onClose={close}
        presence={poster ? { area: 'poster', id: poster.id, label: name } : undefined}
        title={`Position of ${name}`}
        schema={positionBody}
        defaultValues={{ position: poster?.position ?? 'LEFT' }}
        submitLabel="Save"
        version={poster?.version}
        onSubmit={(v, { ifMatch }) =>
          changePosition.mutateAsync({ id: defined(poster).id, ifMatch, position: v.position })
        }
      >
        {() => <PositionField />}
      </FormDialog>

      <FormDialog
        opened={dialog?.kind === 'image'}
        onClose={close}
        presence={poster ? { area: 'poster', id: poster.id, label: name } : undefined}
        title={`Replace the image of ${name}`}
        schema={imageForm}
        defaultValues={{}}
        submitLabel="Upload"
        version={poster?.version}
        onSubmit={(v, { ifMatch }) =>
          changeImage.mutateAsync({
            id: defined(poster).id,
            ifMatch,
            file: v.file,
            onProgress: setProgress,
          })
        }
      >
        {() => (
          <>
            <Text size="sm" c="dimmed">
              Only this row changes: the same poster in other apps keeps its image.
            </Text>
            <ImageFormField
              name="file"
              label="Poster image"
              required
              current={poster?.poster}
              progress={progress}
            />
          </>
        )}
      </FormDialog>

      <FormDialog
        opened={dialog?.kind === 'thumb'}
        onClose={close}
        presence={poster ? { area: 'poster', id: poster.id, label: name } : undefined}
        title={`Thumbnail of ${name}`}
        schema={thumbForm}
        defaultValues={{}}
        submitLabel="Upload"
        version={poster?.version}
        onSubmit={(v, { ifMatch }) =>
          changeThumb.mutateAsync({
            id: defined(poster).id,
            ifMatch,
            file: v.thumbFile,
            onProgress: setProgress,
          })
        }
      >
        {() => (
          <ImageFormField
            name="thumbFile"
            label="Thumbnail"
            required
            current={poster?.videoThumb}
            progress={progress}
          />
        )}
      </FormDialog>

      <StatusDialog
        opened={dialog?.kind === 'status'}
        onClose={close}
        subject={name}
        current={poster?.status}
        version={poster?.version}
        onSubmit={(status, ifMatch) =>
          changeStatus.mutateAsync({ id: defined(poster).id, status, ifMatch })
        }
      />

      <PosterPreviewDialog
        opened={dialog?.kind === 'preview'}
        onClose={close}
        masterAppId={poster?.masterAppId ?? 0}
        posterId={poster?.id ?? 0}
        title={`Preview ${name} as a user gets it`}
      />
    </>
  );
}

/** A poster's row actions, each shown only with the right to do it. */
export function usePosterActions(open: (dialog: PosterDialog) => void) {
  const remove = useDeletePoster();
  const grants = useGrants('poster');
  // Choosing the user lists the app's users.
  const mayListUsers = useGrants('users').view;
  return (poster: Poster): RowAction[] => [
    {
      label: 'Preview as user…',
      allowed: mayListUsers,
      onClick: () => open({ kind: 'preview', poster }),
    },
    {
      label: 'Change default numbers',
      allowed: grants.update,
      onClick: () => open({ kind: 'defNums', poster }),
    },
    { label: 'Change date', allowed: grants.update, onClick: () => open({ kind: 'date', poster }) },
    {
      label: 'Change schedule',
      allowed: grants.update,
      onClick: () => open({ kind: 'schedule', poster }),
    },
    {
      label: 'Change position',
      allowed: grants.update,
      onClick: () => open({ kind: 'position', poster }),
    },
    {
      label: 'Replace image',
      allowed: grants.update,
      onClick: () => open({ kind: 'image', poster }),
    },
    {
      label: poster.videoThumb ? 'Change thumbnail' : 'Add thumbnail',
      allowed: grants.update,
      onClick: () => open({ kind: 'thumb', poster }),
    },
    {
      label: 'Change status',
      allowed: grants.update,
      onClick: () => open({ kind: 'status', poster }),
    },
    {
      label: 'Delete',
      danger: true,
      allowed: grants.delete,
      onClick: () =>
        confirmDelete({
          title: 'Delete this poster?',
          message: `Poster #${poster.id} of ${poster.masterApp.name} (${poster.category.name}) will be deleted. The same poster in other apps stays.`,
          onConfirm: () => remove.mutate({ id: poster.id, ifMatch: poster.version }),
        }),
    },
  ];
}
