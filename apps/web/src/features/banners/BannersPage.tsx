import { useState } from 'react';
import { Anchor, Badge, Button, Select, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useFormContext, useWatch } from 'react-hook-form';
import { z } from 'zod';
import {
  LINK_TYPES,
  bannerCreateFields,
  bannerLinkBody,
  linkRule,
  type Banner,
} from '@master-admin/contract';
import {
  LIVE_OPTIONS,
  RowScheduleDialog,
  ScheduleFields,
  checkLocalWindow,
  scheduleBelowStatus,
  scheduleFormShape,
  useAppTimeZone,
  useTimeZoneOf,
  windowToSend,
} from '../../components/Schedule';
import { DataTable, type Column } from '../../components/DataTable';
import { FilterSelect } from '../../components/FilterSelect';
import {
  FormController,
  ImageFormField,
  MasterAppFormField,
  TextFormField,
} from '../../components/FormFields';
import { FormDialog } from '../../components/FormDialog';
import { MasterAppSelect } from '../../components/MasterAppSelect';
import { PageHeader } from '../../components/PageHeader';
import { RowActions } from '../../components/RowActions';
import { ListToolbar } from '../../components/ListToolbar';
import { STATUS_OPTIONS, statusColumn } from '../../components/StatusBadge';
import { StatusDialog } from '../../components/StatusDialog';
import { Thumbnail, ThumbnailSkeleton } from '../../components/Thumbnail';
import { confirmDelete } from '../../components/confirm';
import { formatDateTime } from '../../lib/format';
import { useGrants } from '../../lib/permissions';
import {
  useBannerList,
  useChangeBannerImage,
  useChangeBannerSchedule,
  useChangeBannerLink,
  useChangeBannerStatus,
  useCreateBanner,
  useDeleteBanner,
} from './api';
import { defined } from '../../lib/defined';

const imageFile = z.instanceof(File, { error: 'Choose an image' });

const createForm = bannerCreateFields
  .extend({
    masterAppId: z.string().min(1, { error: 'Choose a master app' }),
    file: imageFile,
    // Wall-clock times in the app's zone, sent as instants.
    ...scheduleFormShape,
  })
  .superRefine(linkRule)
  .superRefine(checkLocalWindow);

/** The schedule of a new banner, in its app's zone. */
function BannerScheduleFields() {
  const { control } = useFormContext<{ masterAppId: string }>();
  const masterAppId = useWatch({ control, name: 'masterAppId' });
  return <ScheduleFields zone={useAppTimeZone(masterAppId)} subject="banner" />;
}
const imageForm = z.object({ file: imageFile });

type Dialog =
  { kind: 'create' } | { kind: 'link' | 'image' | 'status' | 'schedule'; banner: Banner } | null;

/** A banner's shape, width over height (3:1). */
const BANNER_RATIO = 3;

export default function BannersPage() {
  const list = useBannerList();
  const create = useCreateBanner();
  const changeLink = useChangeBannerLink();
  const changeStatus = useChangeBannerStatus();
  const changeImage = useChangeBannerImage();
  const remove = useDeleteBanner();
  const changeSchedule = useChangeBannerSchedule();
  const zoneOf = useTimeZoneOf();
  const grants = useGrants('banner');
  const [dialog, setDialog] = useState<Dialog>(null);
  const [progress, setProgress] = useState<number>();
  const close = () => {
    setDialog(null);
    setProgress(undefined);
  };
  const { filters, setFilter } = list.params;
  const selected = dialog && dialog.kind !== 'create' ? dialog.banner : undefined;

  const columns: Column<Banner>[] = [
    { key: 'id', header: 'Banner', width: 80, card: 'title', render: (b) => `#${b.id}` },
    {
      key: 'image',
      header: 'Image',
      width: 180,
      render: (b) => <Thumbnail src={b.image} alt={`Banner #${b.id}`} ratio={BANNER_RATIO} />,
      skeleton: <ThumbnailSkeleton ratio={BANNER_RATIO} />,
    },
    { key: 'app', header: 'Master app', render: (b) => b.masterApp.name },
    {
      key: 'link',
      header: 'Link',
      sort: 'linkType',
      render: (b) => (
        <Stack gap={4}>
          <Badge variant="outline" size="sm" w="fit-content">
            {b.linkType}
          </Badge>
          {b.link ? (
            b.linkType === 'EXTERNAL' ? (
              <Anchor href={b.link} target="_blank" rel="noopener noreferrer" size="sm">
                {b.link}
              </Anchor>
            ) : (
              <Text size="sm">{b.link}</Text>
            )
          ) : (
            <Text size="sm" c="dimmed">
              No link
            </Text>
          )}
        </Stack>
      ),
    },
    statusColumn<Banner>({
      subject: (b) => `banner #${b.id}`,
      sortable: true,
      below: scheduleBelowStatus,
      onChange: grants.update
        ? (b, status) => changeStatus.mutate({ id: b.id, status, ifMatch: b.version })
        : undefined,
    }),
    {
      key: 'createdAt',
      header: 'Created',
      sort: 'createdAt',
      render: (b) => formatDateTime(b.createdAt),
    },
  ];

  const newBanner = grants.create ? (
    <Button leftSection={<IconPlus size={18} />} onClick={() => setDialog({ kind: 'create' })}>
      New banner
    </Button>
  ) : undefined;

  return (
    <>
      <PageHeader
        title="Banners"
        description="The banners each app shows, with where a tap leads."
        actions={newBanner}
      />
      <ListToolbar
        search={{ label: 'Search banners', placeholder: 'Search by link', params: list.params }}
      >
        <FilterSelect
          label="Status"
          data={STATUS_OPTIONS}
          value={filters.status}
          onChange={(v) => setFilter('status', v)}
        />
        <FilterSelect
          label="Schedule"
          data={LIVE_OPTIONS}
          value={filters.live}
          onChange={(v) => setFilter('live', v)}
        />
        <FilterSelect
          label="Link type"
          data={LINK_TYPES}
          value={filters.linkType}
          onChange={(v) => setFilter('linkType', v)}
        />
        <MasterAppSelect
          w={200}
          value={filters.masterAppId}
          onChange={(v) => setFilter('masterAppId', v)}
        />
      </ListToolbar>
      <DataTable
        label="Banners"
        columns={columns}
        rows={list.rows}
        total={list.total}
        rowKey={(b) => b.id}
        params={list.params}
        query={list.query}
        rowName={(b) => `banner #${b.id}`}
        empty={{
          title: 'No banners yet',
          description:
            'Banners are the wide images at the top of each app; a tap can open a web page or a screen of the app.',
          action: grants.create
            ? { label: 'Add the first banner', onClick: () => setDialog({ kind: 'create' }) }
            : undefined,
        }}
        actions={(b) => (
          <RowActions
            history={{ area: 'banners', id: b.id }}
            label={`Banner #${b.id}`}
            actions={[
              {
                label: 'Edit link',
                allowed: grants.update,
                onClick: () => setDialog({ kind: 'link', banner: b }),
              },
              {
                label: 'Change image',
                allowed: grants.update,
                onClick: () => setDialog({ kind: 'image', banner: b }),
              },
              {
                label: 'Change schedule',
                allowed: grants.update,
                onClick: () => setDialog({ kind: 'schedule', banner: b }),
              },
              {
                label: 'Change status',
                allowed: grants.update,
                onClick: () => setDialog({ kind: 'status', banner: b }),
              },
              {
                label: 'Delete',
                danger: true,
                allowed: grants.delete,
                onClick: () =>
                  confirmDelete({
                    title: 'Delete this banner?',
                    message: `Banner #${b.id} of ${b.masterApp.name} and its image will be deleted.`,
                    onConfirm: () => remove.mutate({ id: b.id, ifMatch: b.version }),
                  }),
              },
            ]}
          />
        )}
      />

      <FormDialog
        opened={dialog?.kind === 'create'}
        onClose={close}
        title="New banner"
        schema={createForm}
        defaultValues={{
          masterAppId: filters.masterAppId,
          link: '',
          linkType: 'DEFAULT',
          liveFrom: '',
          liveUntil: '',
        }}
        submitLabel="Create"
        onSubmit={(v) =>
          create.mutateAsync({
            ...windowToSend(v, zoneOf(v.masterAppId)),
            masterAppId: Number(v.masterAppId),
            file: v.file,
            link: v.link,
            linkType: v.linkType,
            onProgress: setProgress,
          })
        }
      >
        {() => (
          <>
            <MasterAppFormField />
            <ImageFormField name="file" label="Image" required progress={progress} />
            <LinkFields />
            <BannerScheduleFields />
          </>
        )}
      </FormDialog>
      <RowScheduleDialog
        opened={dialog?.kind === 'schedule'}
        onClose={close}
        row={dialog?.kind === 'schedule' ? dialog.banner : undefined}
        subject={`banner #${selected?.id ?? ''}`}
        area="banner"
        change={(v) => changeSchedule.mutateAsync(v)}
      />

      <FormDialog
        opened={dialog?.kind === 'link'}
        onClose={close}
        presence={selected ? { area: 'banner', id: selected.id } : undefined}
        title="Edit link"
        schema={bannerLinkBody}
        defaultValues={{ link: selected?.link ?? '', linkType: selected?.linkType ?? 'DEFAULT' }}
        submitLabel="Save"
        version={selected?.version}
        onSubmit={(v, { ifMatch }) =>
          changeLink.mutateAsync({ id: defined(selected).id, ifMatch, ...v })
        }
      >
        {() => <LinkFields />}
      </FormDialog>

      <FormDialog
        opened={dialog?.kind === 'image'}
        onClose={close}
        presence={selected ? { area: 'banner', id: selected.id } : undefined}
        title="Change image"
        schema={imageForm}
        defaultValues={{}}
        submitLabel="Upload"
        version={selected?.version}
        onSubmit={(v, { ifMatch }) =>
          changeImage.mutateAsync({
            id: defined(selected).id,
            ifMatch,
            file: v.file,
            onProgress: setProgress,
          })
        }
      >
        {() => (
          <ImageFormField
            name="file"
            label="Image"
            required
            current={selected?.image}
            progress={progress}
          />
        )}
      </FormDialog>

      <StatusDialog
        opened={dialog?.kind === 'status'}
        onClose={close}
        subject={`banner #${selected?.id ?? ''}`}
        current={selected?.status}
        version={selected?.version}
        onSubmit={(status, ifMatch) =>
          changeStatus.mutateAsync({ id: defined(selected).id, status, ifMatch })
        }
      />
    </>
  );
}

/** Link type and link; the link is required to be a web address for EXTERNAL. */
function LinkFields() {
  const form = useFormContext<{ link?: string; linkType?: string }>();
  return (
    <>
      <FormController
        control={form.control}
        name="linkType"
        label="Link type"
        render={({ field, fieldState, label }) => (
          <Select
            label={label}
            data={[...LINK_TYPES]}
            allowDeselect={false}
            value={field.value ?? 'DEFAULT'}
            onChange={(v) => field.onChange(v)}
            error={fieldState.error?.message}
          />
        )}
      />
      <TextFormField
        name="link"
        label="Link"
        placeholder="https://… for EXTERNAL, a screen name for INTERNAL"
      />
    </>
  );
}
