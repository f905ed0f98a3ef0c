import { useState, type ReactNode } from 'react';
import { Anchor, Button, Group, Modal, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import type { ContactUs } from '@master-admin/contract';
import { DataTable, type Column } from '../../components/DataTable';
import { PageHeader } from '../../components/PageHeader';
import { ListToolbar } from '../../components/ListToolbar';
import { formatDateTime, mailtoHref } from '../../lib/format';
import { useContactUsList } from './api';

const fullName = (c: ContactUs) => `${c.fName} ${c.lName}`;

export default function ContactUsPage() {
  const list = useContactUsList();
  const [reading, setReading] = useState<ContactUs | null>(null);

  const columns: Column<ContactUs>[] = [
    {
      key: 'name',
      header: 'Name',
      sort: 'fName',
      card: 'title',
      render: (c) => (
        <Text fw={500} size="sm" miw={120}>
          {fullName(c)}
        </Text>
      ),
    },
    {
      key: 'email',
      header: 'Email',
      sort: 'email',
      render: (c) => (
        <Anchor
          href={mailtoHref(c.email)}
          size="sm"
          display="block"
          maw={220}
          truncate
          title={c.email}
        >
          {c.email}
        </Anchor>
      ),
    },
    {
      key: 'phone',
      header: 'Phone',
      render: (c) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {c.phoneNumber}
        </Text>
      ),
    },
    {
      key: 'query',
      header: 'Query',
      render: (c) => (
        <Text size="sm" c="dimmed" lineClamp={2} miw={160}>
          {c.query}
        </Text>
      ),
    },
    {
      key: 'createdAt',
      header: 'Received',
      sort: 'createdAt',
      render: (c) => (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(c.createdAt)}
        </Text>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Contact Us"
        description="Enquiries sent from the app’s contact form, newest first."
      />
      <ListToolbar
        search={{
          label: 'Search enquiries',
          placeholder: 'Search names, email, phone, query',
          params: list.params,
        }}
      />
      <DataTable
        label="Enquiries"
        columns={columns}
        rows={list.rows}
        total={list.total}
        rowKey={(c) => c.id}
        params={list.params}
        query={list.query}
        rowName={fullName}
        empty={{
          title: 'No enquiries yet',
          description:
            'Messages people send from the app’s contact form arrive here, to be read and answered by email.',
        }}
        actions={(c) => (
          <Button
            size="compact-sm"
            variant="subtle"
            aria-label={`Read the query from ${fullName(c)}`}
            onClick={() => setReading(c)}
          >
            Read
          </Button>
        )}
      />

      <Modal
        opened={reading !== null}
        onClose={() => setReading(null)}
        title={reading ? `Query from ${fullName(reading)}` : ''}
        centered
        size="lg"
      >
        {reading && (
          <Stack>
            <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
              <Field label="Email">
                <Anchor
                  href={mailtoHref(reading.email)}
                  size="sm"
                  style={{ wordBreak: 'break-all' }}
                >
                  {reading.email}
                </Anchor>
              </Field>
              <Field label="Phone">
                <Text size="sm">{reading.phoneNumber}</Text>
              </Field>
              <Field label="Received">
                <Text size="sm">{formatDateTime(reading.createdAt)}</Text>
              </Field>
            </SimpleGrid>
            <Paper withBorder p="sm" radius="sm" bg="var(--mantine-color-gray-light)">
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {reading.query}
              </Text>
            </Paper>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setReading(null)}>
                Close
              </Button>
              <Button
                component="a"
                href={mailtoHref(reading.email)}
                leftSection={<IconMail size={18} />}
              >
                Reply by email
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}

function Field(props: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={500}>
        {props.label}
      </Text>
      {props.children}
    </div>
  );
}
