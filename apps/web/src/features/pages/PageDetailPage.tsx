import { useState } from 'react';
import { Button, Divider, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useParams } from 'react-router';
import {
  BackLink,
  DetailFact,
  RecordLoadError,
  RecordNotFound,
} from '../../components/DetailStates';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { RichTextView } from '../../components/RichTextView';
import { ApiError } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { usePage } from './api';
import { useGrants } from '../../lib/permissions';
import { PageEditDialog } from './PageEditDialog';

/** The id in the address, or undefined when it cannot name a page. */
function idFrom(param: string | undefined): number | undefined {
  return param && /^[1-9]\d{0,9}$/.test(param) ? Number(param) : undefined;
}

/** One page as the app shows it: title, master app and the formatted text. */
export default function PageDetailPage() {
  const id = idFrom(useParams().id);
  const query = usePage(id);
  const [editing, setEditing] = useState(false);
  const mayEdit = useGrants('pages').update;
  const back = <BackLink to="/pages" label="All pages" />;

  if (id === undefined || (query.error instanceof ApiError && query.error.status === 404)) {
    return (
      <>
        {back}
        <RecordNotFound
          title="Page not found"
          description="The address names no page of any app."
          backTo="/pages"
          backLabel="Back to pages"
        />
      </>
    );
  }
  if (query.isError) {
    return (
      <>
        {back}
        <RecordLoadError
          title="Could not load the page"
          error={query.error}
          onRetry={query.refetch}
        />
      </>
    );
  }
  if (!query.data) return <Loading />;

  const page = query.data;
  return (
    <>
      {back}
      <PageHeader
        title={page.title}
        description={`Page of ${page.masterApp.name}`}
        actions={
          mayEdit ? (
            <Button leftSection={<IconPencil size={18} />} onClick={() => setEditing(true)}>
              Edit
            </Button>
          ) : undefined
        }
      />
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="md">
            <DetailFact label="Master app">
              <Text size="sm">{page.masterApp.name}</Text>
            </DetailFact>
            <DetailFact label="Updated">
              <Text size="sm">{formatDateTime(page.updatedAt)}</Text>
            </DetailFact>
          </SimpleGrid>
          <Divider />
          <RichTextView
            html={page.desc}
            label="Page text"
            emptyText={
              mayEdit
                ? 'This page has no text yet. Use Edit to write it.'
                : 'This page has no text yet.'
            }
          />
        </Stack>
      </Paper>

      <PageEditDialog page={page} opened={editing} onClose={() => setEditing(false)} />
    </>
  );
}
