import { useState } from 'react';
import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Page } from '@master-admin/contract';
import { DataTable, type Column } from '../../components/DataTable';
import { MasterAppSelect } from '../../components/MasterAppSelect';
import { PageHeader } from '../../components/PageHeader';
import { RowActions } from '../../components/RowActions';
import { ListToolbar } from '../../components/ListToolbar';
import { formatDateTime } from '../../lib/format';
import { useGrants } from '../../lib/permissions';
import { usePageList } from './api';
import { PageEditDialog } from './PageEditDialog';

/**
 * Plain text of stored rich text, for a one-line preview in the list: blocks and line breaks become
 * spaces. (DOMParser's document is inert: nothing in it loads or runs.)
 */
function preview(html: string): string {
  const spaced = html.replace(/<\/(p|h[1-6]|li|blockquote|pre)>|<br\s*\/?>/gi, '$& ');
  const doc = new DOMParser().parseFromString(spaced, 'text/html');
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

export default function PagesPage() {
  const list = usePageList();
  const [editing, setEditing] = useState<Page>();
  const [opened, setOpened] = useState(false);
  const grants = useGrants('pages');
  const { filters, setFilter } = list.params;

  const columns: Column<Page>[] = [
    {
      key: 'title',
      header: 'Title',
      sort: 'title',
      card: 'title',
      render: (p) => {
        const text = preview(p.desc);
        return (
          <div>
            <Anchor component={Link} to={`/pages/detail/${p.id}`} fw={500} size="sm">
              {p.title}
            </Anchor>
            <Text size="xs" c="dimmed" lineClamp={1} maw={480}>
              {text || 'Empty page'}
            </Text>
          </div>
        );
      },
    },
    { key: 'app', header: 'Master app', render: (p) => p.masterApp.name },
    {
      key: 'updatedAt',
      header: 'Updated',
      sort: 'updatedAt',
      render: (p) => formatDateTime(p.updatedAt),
    },
  ];

  return (
    <>
      <PageHeader
        title="Pages"
        description="Each app's pages (About Us, Privacy Policy, Terms and Conditions), created with the app."
      />
      <ListToolbar
        search={{ label: 'Search pages', placeholder: 'Search by title', params: list.params }}
      >
        <MasterAppSelect
          w={220}
          value={filters.masterAppId}
          onChange={(v) => setFilter('masterAppId', v)}
        />
      </ListToolbar>
      <DataTable
        label="Pages"
        columns={columns}
        rows={list.rows}
        total={list.total}
        rowKey={(p) => p.id}
        params={list.params}
        query={list.query}
        rowName={(p) => `${p.title} of ${p.masterApp.name}`}
        empty={{
          title: 'No pages yet',
          description:
            'Every master app gets its About Us, Privacy Policy and Terms and Conditions pages when it is created; add an app to see its pages here.',
        }}
        actions={(p) => (
          <RowActions
            history={{ area: 'pages', id: p.id }}
            label={`${p.title} of ${p.masterApp.name}`}
            actions={[
              {
                label: 'Edit',
                allowed: grants.update,
                onClick: () => {
                  setEditing(p);
                  setOpened(true);
                },
              },
            ]}
          />
        )}
      />

      <PageEditDialog page={editing} opened={opened} onClose={() => setOpened(false)} />
    </>
  );
}
