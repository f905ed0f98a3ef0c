import { useState } from 'react';
import { Button, Divider, Image, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useNavigate, useParams } from 'react-router';
import {
  BackLink,
  DetailFact,
  RecordLoadError,
  RecordNotFound,
} from '../../components/DetailStates';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { RichTextView } from '../../components/RichTextView';
import { RowActions } from '../../components/RowActions';
import { StatusBadge } from '../../components/StatusBadge';
import { ApiError } from '../../lib/api';
import { useGrants } from '../../lib/permissions';
import { formatDate, formatDateTime } from '../../lib/format';
import { useBlog } from './api';
import { BlogDialogs, PopularSwitch, useBlogActions, type BlogDialog } from './BlogDialogs';

/** The id in the address, or undefined when it cannot name a blog. */
function idFrom(param: string | undefined): number | undefined {
  return param && /^[1-9]\d{0,9}$/.test(param) ? Number(param) : undefined;
}

/** One blog, whole: image, facts, short description and the formatted text. */
export default function BlogDetailPage() {
  const id = idFrom(useParams().id);
  const query = useBlog(id);
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<BlogDialog>(null);
  const mayEdit = useGrants('blogs').update;
  const actions = useBlogActions({
    open: setDialog,
    onDeleted: () => void navigate('/blogs', { replace: true }),
  });
  const back = <BackLink to="/blogs" label="All blogs" />;

  if (id === undefined || (query.error instanceof ApiError && query.error.status === 404)) {
    return (
      <>
        {back}
        <RecordNotFound
          title="Blog not found"
          description="It may have been deleted, or the address is wrong."
          backTo="/blogs"
          backLabel="Back to blogs"
        />
      </>
    );
  }
  if (query.isError) {
    return (
      <>
        {back}
        <RecordLoadError
          title="Could not load the blog"
          error={query.error}
          onRetry={query.refetch}
        />
      </>
    );
  }
  if (!query.data) return <Loading />;

  const blog = query.data;
  return (
    <>
      {back}
      <PageHeader
        title={blog.title}
        description={`By ${blog.author}`}
        actions={
          <>
            {mayEdit && (
              <Button
                leftSection={<IconPencil size={18} />}
                onClick={() => setDialog({ kind: 'edit', blog })}
              >
                Edit
              </Button>
            )}
            <RowActions
              history={{ area: 'blogs', id: blog.id }}
              label={blog.title}
              actions={actions(blog).slice(1)}
            />
          </>
        }
      />
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="lg">
          {blog.image && (
            <Image
              src={blog.image}
              alt={`Image of ${blog.title}`}
              mah={360}
              fit="contain"
              radius="md"
              bg="gray.0"
            />
          )}
          <SimpleGrid cols={{ base: 2, sm: 3, md: 5 }} spacing="md">
            <DetailFact label="Author">
              <Text size="sm">{blog.author}</Text>
            </DetailFact>
            <DetailFact label="Date">
              <Text size="sm">{formatDate(blog.date)}</Text>
            </DetailFact>
            <DetailFact label="Status">
              <StatusBadge status={blog.status} />
            </DetailFact>
            <DetailFact label="Popular">
              <PopularSwitch blog={blog} />
            </DetailFact>
            <DetailFact label="Updated">
              <Text size="sm">{formatDateTime(blog.updatedAt)}</Text>
            </DetailFact>
          </SimpleGrid>
          <Divider />
          <Stack gap={4}>
            <Title order={3} size="h5">
              Short description
            </Title>
            <Text style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
              {blog.shortDesc}
            </Text>
          </Stack>
          <Divider />
          <Stack gap={4}>
            <Title order={3} size="h5">
              Text
            </Title>
            <RichTextView html={blog.desc} label="Blog text" />
          </Stack>
          <Text size="xs" c="dimmed">
            Created {formatDateTime(blog.createdAt)}
          </Text>
        </Stack>
      </Paper>

      <BlogDialogs dialog={dialog} onClose={() => setDialog(null)} />
    </>
  );
}
