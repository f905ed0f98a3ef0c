import { useState } from 'react';
import { Anchor, Button, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { type Blog } from '@master-admin/contract';
import { DataTable, type Column } from '../../components/DataTable';
import { FilterSelect } from '../../components/FilterSelect';
import { PageHeader } from '../../components/PageHeader';
import { RowActions } from '../../components/RowActions';
import { ListToolbar } from '../../components/ListToolbar';
import { STATUS_OPTIONS, statusColumn } from '../../components/StatusBadge';
import { Thumbnail, ThumbnailSkeleton } from '../../components/Thumbnail';
import { formatDate, formatDateTime } from '../../lib/format';
import { useGrants } from '../../lib/permissions';
import { useBlogList, useChangeBlogStatus } from './api';
import {
  BlogDialogs,
  CreateBlogDialog,
  PopularSwitch,
  useBlogActions,
  type BlogDialog,
} from './BlogDialogs';

export default function BlogsPage() {
  const list = useBlogList();
  const [creating, setCreating] = useState(false);
  const [dialog, setDialog] = useState<BlogDialog>(null);
  const actions = useBlogActions({ open: setDialog });
  const changeStatus = useChangeBlogStatus();
  const grants = useGrants('blogs');
  const { filters, setFilter } = list.params;

  const columns: Column<Blog>[] = [
    {
      key: 'image',
      header: 'Image',
      width: 88,
      render: (b) =>
        b.image ? (
          <Thumbnail src={b.image} alt={`Image of ${b.title}`} ratio={1.5} />
        ) : (
          <Text size="xs" c="dimmed">
            No image
          </Text>
        ),
      skeleton: <ThumbnailSkeleton ratio={1.5} />,
    },
    {
      key: 'title',
      header: 'Title',
      sort: 'title',
      card: 'title',
      render: (b) => (
        <Stack gap={2} miw={200} maw={360}>
          <Anchor component={Link} to={`/blogs/detail/${b.id}`} fw={500} size="sm">
            {b.title}
          </Anchor>
          <Text size="xs" c="dimmed" lineClamp={2}>
            {b.shortDesc}
          </Text>
        </Stack>
      ),
    },
    { key: 'author', header: 'Author', render: (b) => b.author },
    {
      key: 'date',
      header: 'Date',
      sort: 'date',
      render: (b) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDate(b.date)}
        </Text>
      ),
    },
    { key: 'popular', header: 'Popular', render: (b) => <PopularSwitch blog={b} /> },
    statusColumn({
      subject: (b) => b.title,
      sortable: true,
      onChange: grants.update
        ? (b, status) => changeStatus.mutate({ id: b.id, status, ifMatch: b.version })
        : undefined,
    }),
    {
      key: 'createdAt',
      header: 'Created',
      sort: 'createdAt',
      render: (b) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(b.createdAt)}
        </Text>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Blogs"
        description="Articles the apps show, with their image and formatted text."
        actions={
          grants.create ? (
            <Button leftSection={<IconPlus size={18} />} onClick={() => setCreating(true)}>
              New blog
            </Button>
          ) : undefined
        }
      />
      <ListToolbar
        search={{
          label: 'Search blogs',
          placeholder: 'Title, author or short description',
          params: list.params,
        }}
      >
        <FilterSelect
          label="Status"
          data={STATUS_OPTIONS}
          value={filters.status}
          onChange={(v) => setFilter('status', v)}
        />
      </ListToolbar>
      <DataTable
        label="Blogs"
        columns={columns}
        rows={list.rows}
        total={list.total}
        rowKey={(b) => b.id}
        params={list.params}
        query={list.query}
        rowName={(b) => b.title}
        empty={{
          title: 'No blogs yet',
          description:
            'Blogs are the articles the apps show: a title, an image, a short description and formatted text.',
          action: grants.create
            ? { label: 'Write the first blog', onClick: () => setCreating(true) }
            : undefined,
        }}
        actions={(b) => (
          <RowActions history={{ area: 'blogs', id: b.id }} label={b.title} actions={actions(b)} />
        )}
      />

      <CreateBlogDialog opened={creating} onClose={() => setCreating(false)} />
      <BlogDialogs dialog={dialog} onClose={() => setDialog(null)} />
    </>
  );
}
