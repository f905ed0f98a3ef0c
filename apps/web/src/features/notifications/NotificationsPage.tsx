import { useState } from 'react';
import {
  Autocomplete,
  Badge,
  Button,
  NumberInput,
  Text,
  ThemeIcon,
  type ComboboxItem,
  type OptionsFilter,
} from '@mantine/core';
import { IconBell, IconPlus } from '@tabler/icons-react';
import { z } from 'zod';
import { notificationCreateBody, type Notification } from '@master-admin/contract';
import { DataTable, type Column } from '../../components/DataTable';
import {
  FormController,
  ImageFormField,
  MasterAppFormField,
  TextFormField,
  TextareaFormField,
} from '../../components/FormFields';
import { FormDialog } from '../../components/FormDialog';
import { MasterAppSelect } from '../../components/MasterAppSelect';
import { PageHeader } from '../../components/PageHeader';
import { RowActions } from '../../components/RowActions';
import { ListToolbar } from '../../components/ListToolbar';
import { Thumbnail, ThumbnailSkeleton } from '../../components/Thumbnail';
import { confirmDelete } from '../../components/confirm';
import { formatDateTime, formatNumber } from '../../lib/format';
import { useGrants } from '../../lib/permissions';
import { useCreateNotification, useDeleteNotification, useNotificationList } from './api';

/** Types offered while typing; any other text of at most 50 characters is accepted too. */
const NOTIFICATION_TYPES = ['GENERAL', 'OFFER', 'FESTIVAL', 'UPDATE'];

const createForm = notificationCreateBody.extend({
  masterAppId: z.string().min(1, { error: 'Choose a master app' }),
  logo: z.instanceof(File).optional(),
});

/**
 * While the field holds one of the suggestions (as it opens, with GENERAL), every suggestion is
 * offered; otherwise those containing what was typed.
 */
const typeFilter: OptionsFilter = ({ options, search }) => {
  const items = options as ComboboxItem[];
  const typed = search.trim().toLowerCase();
  if (!typed || items.some((o) => o.label.toLowerCase() === typed)) return items;
  return items.filter((o) => o.label.toLowerCase().includes(typed));
};

/** A badge that keeps whole words in a narrow column and wraps a long free-text type. */
const WRAPPING_BADGE = {
  label: {
    whiteSpace: 'normal',
    overflow: 'visible',
    textOverflow: 'clip',
    overflowWrap: 'break-word',
  },
} as const;

const recipient = (n: Notification) =>
  n.accountId === null ? 'All users' : `User #${n.accountId}`;

export default function NotificationsPage() {
  const list = useNotificationList();
  const create = useCreateNotification();
  const remove = useDeleteNotification();
  const grants = useGrants('notification');
  const [creating, setCreating] = useState(false);
  const [progress, setProgress] = useState<number>();
  const close = () => {
    setCreating(false);
    setProgress(undefined);
  };
  const { filters, setFilter } = list.params;

  const columns: Column<Notification>[] = [
    {
      key: 'logo',
      header: 'Logo',
      width: 88,
      render: (n) =>
        n.logo ? (
          <Thumbnail src={n.logo} alt={`Logo of notification #${n.id}`} />
        ) : (
          <ThemeIcon
            variant="light"
            color="gray"
            size={56}
            radius="sm"
            role="img"
            aria-label="No logo"
          >
            <IconBell size={24} stroke={1.5} />
          </ThemeIcon>
        ),
      skeleton: <ThumbnailSkeleton />,
    },
    {
      key: 'title',
      header: 'Title',
      sort: 'title',
      card: 'title',
      render: (n) => (
        <Text size="sm" fw={500} miw={120} style={{ overflowWrap: 'anywhere' }}>
          {n.title}
        </Text>
      ),
    },
    {
      key: 'desc',
      header: 'Description',
      render: (n) => (
        <Text size="sm" lineClamp={2} title={n.desc} miw={160} maw={360}>
          {n.desc}
        </Text>
      ),
    },
    {
      key: 'type',
      header: 'Type',
      render: (n) => (
        <Badge variant="light" h="auto" py={2} styles={WRAPPING_BADGE}>
          {n.type}
        </Badge>
      ),
    },
    {
      key: 'to',
      header: 'To',
      render: (n) => (
        <Text
          size="sm"
          c={n.accountId === null ? 'dimmed' : undefined}
          style={{ whiteSpace: 'nowrap' }}
        >
          {recipient(n)}
        </Text>
      ),
    },
    {
      key: 'read',
      header: 'Read',
      render: (n) =>
        n.accountId === null ? (
          // To every user: how many of them opened it in the app.
          <Text
            size="sm"
            c={n.readCount === 0 ? 'dimmed' : undefined}
            style={{ whiteSpace: 'nowrap' }}
          >
            Read by {formatNumber(n.readCount)}
          </Text>
        ) : (
          // A dot in the colour, the text in the page's own (teal text on white fell short of AA).
          <Badge variant="dot" tt="none" color={n.read ? 'teal' : 'gray'} styles={WRAPPING_BADGE}>
            {n.read ? 'Read' : 'Unread'}
          </Badge>
        ),
    },
    { key: 'app', header: 'Master app', render: (n) => n.masterApp.name },
    {
      key: 'createdAt',
      header: 'Created',
      sort: 'createdAt',
      render: (n) => formatDateTime(n.createdAt),
    },
  ];

  return (
    <>
      <PageHeader
        title="Notifications"
        description="Messages sent to every user of an app, or to one user."
        actions={
          grants.create ? (
            <Button leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)}>
              New notification
            </Button>
          ) : undefined
        }
      />
      <ListToolbar
        search={{
          label: 'Search notifications',
          placeholder: 'Search by title or description',
          params: list.params,
        }}
      >
        <MasterAppSelect
          w={200}
          value={filters.masterAppId}
          onChange={(v) => setFilter('masterAppId', v)}
        />
      </ListToolbar>
      <DataTable
        label="Notifications"
        columns={columns}
        rows={list.rows}
        total={list.total}
        rowKey={(n) => n.id}
        params={list.params}
        query={list.query}
        rowName={(n) => `Notification #${n.id}`}
        empty={{
          title: 'No notifications yet',
          description:
            'A notification is a message the app shows to every user of one app, or to a single user.',
          action: grants.create
            ? { label: 'Send the first notification', onClick: () => setCreating(true) }
            : undefined,
        }}
        actions={(n) => (
          <RowActions
            history={{ area: 'notifications', id: n.id }}
            label={`Notification #${n.id}`}
            actions={[
              {
                label: 'Delete',
                danger: true,
                allowed: grants.delete,
                onClick: () =>
                  confirmDelete({
                    title: 'Delete this notification?',
                    message: `“${n.title}” (${recipient(n).toLowerCase()} of ${n.masterApp.name}) will be deleted${n.logo ? ' with its logo' : ''}.`,
                    onConfirm: () => remove.mutate({ id: n.id, ifMatch: n.version }),
                  }),
              },
            ]}
          />
        )}
      />

      <FormDialog
        opened={creating}
        onClose={close}
        title="New notification"
        long
        draft={{ form: 'notification' }}
        schema={createForm}
        defaultValues={{
          masterAppId: filters.masterAppId,
          title: '',
          desc: '',
          type: 'GENERAL',
          accountId: '',
        }}
        submitLabel="Create"
        onSubmit={({ masterAppId, ...v }) =>
          create.mutateAsync({ ...v, masterAppId: Number(masterAppId), onProgress: setProgress })
        }
      >
        {(form) => (
          <>
            <MasterAppFormField />
            <TextFormField name="title" label="Title" required />
            <TextareaFormField
              name="desc"
              label="Description"
              required
              rows={4}
              resize="vertical"
            />
            <FormController
              control={form.control}
              name="type"
              label="Type"
              render={({ field, fieldState, label }) => (
                <Autocomplete
                  label={label}
                  required
                  description="Pick one or type your own"
                  data={NOTIFICATION_TYPES}
                  filter={typeFilter}
                  value={typeof field.value === 'string' ? field.value : ''}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  error={fieldState.error?.message}
                />
              )}
            />
            <FormController
              control={form.control}
              name="accountId"
              label="User id"
              render={({ field, fieldState, label }) => (
                <NumberInput
                  label={label}
                  description="A user of the chosen app; leave empty to send it to all its users"
                  placeholder="All users"
                  allowDecimal={false}
                  allowNegative={false}
                  hideControls
                  value={typeof field.value === 'number' ? field.value : ''}
                  onChange={field.onChange}
                  onBlur={field.onBlur}
                  error={fieldState.error?.message}
                />
              )}
            />
            <ImageFormField name="logo" label="Logo" progress={progress} />
          </>
        )}
      </FormDialog>
    </>
  );
}
