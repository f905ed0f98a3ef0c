import { useState } from 'react';
import { Button, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { faqCreateBody, type Faq } from '@master-admin/contract';
import { DataTable, type Column } from '../../components/DataTable';
import { FormDialog } from '../../components/FormDialog';
import { TextareaFormField } from '../../components/FormFields';
import { PageHeader } from '../../components/PageHeader';
import { RowActions } from '../../components/RowActions';
import { ListToolbar } from '../../components/ListToolbar';
import { confirmDelete } from '../../components/confirm';
import { formatDateTime } from '../../lib/format';
import { useGrants } from '../../lib/permissions';
import { useCreateFaq, useDeleteFaq, useFaqList, useUpdateFaq } from './api';

type Dialog = { kind: 'create' } | { kind: 'edit'; faq: Faq } | null;

/** A long question cut for labels (menus, dialogs' titles). */
function short(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export default function FaqsPage() {
  const list = useFaqList();
  const create = useCreateFaq();
  const update = useUpdateFaq();
  const remove = useDeleteFaq();
  const grants = useGrants('faqs');
  const [dialog, setDialog] = useState<Dialog>(null);
  const openCreate = () => setDialog({ kind: 'create' });
  const editing = dialog?.kind === 'edit' ? dialog.faq : undefined;

  const columns: Column<Faq>[] = [
    {
      key: 'question',
      header: 'Question',
      width: '35%',
      sort: 'question',
      card: 'title',
      render: (f) => (
        <Text fw={500} size="sm" lineClamp={2} title={f.question}>
          {f.question}
        </Text>
      ),
    },
    {
      key: 'answer',
      header: 'Answer',
      render: (f) => (
        <Text size="sm" c="dimmed" lineClamp={3} miw={200} style={{ whiteSpace: 'pre-line' }}>
          {f.answer}
        </Text>
      ),
    },
    {
      key: 'createdAt',
      header: 'Created',
      width: 170,
      sort: 'createdAt',
      render: (f) => <Text size="sm">{formatDateTime(f.createdAt)}</Text>,
    },
  ];

  return (
    <>
      <PageHeader
        title="FAQs"
        description="Questions and answers the app shows its users."
        actions={
          grants.create ? (
            <Button leftSection={<IconPlus size={18} />} onClick={openCreate}>
              New FAQ
            </Button>
          ) : undefined
        }
      />
      <ListToolbar
        search={{
          label: 'Search FAQs',
          placeholder: 'Search questions and answers',
          params: list.params,
        }}
      />
      <DataTable
        label="FAQs"
        columns={columns}
        rows={list.rows}
        total={list.total}
        rowKey={(f) => f.id}
        params={list.params}
        query={list.query}
        rowName={(f) => short(f.question)}
        empty={{
          title: 'No FAQs yet',
          description:
            'Frequently asked questions, with their answers, that the app shows its users.',
          action: grants.create ? { label: 'Add the first FAQ', onClick: openCreate } : undefined,
        }}
        actions={(f) => (
          <RowActions
            history={{ area: 'faqs', id: f.id }}
            label={short(f.question)}
            actions={[
              {
                label: 'Edit',
                allowed: grants.update,
                onClick: () => setDialog({ kind: 'edit', faq: f }),
              },
              {
                label: 'Delete',
                danger: true,
                allowed: grants.delete,
                onClick: () =>
                  confirmDelete({
                    title: 'Delete this FAQ?',
                    message: `“${short(f.question, 120)}” and its answer will be deleted.`,
                    onConfirm: () => remove.mutate({ id: f.id, ifMatch: f.version }),
                  }),
              },
            ]}
          />
        )}
      />

      <FormDialog
        opened={dialog !== null}
        onClose={() => setDialog(null)}
        presence={editing ? { area: 'faqs', id: editing.id } : undefined}
        title={editing ? 'Edit FAQ' : 'New FAQ'}
        schema={faqCreateBody}
        defaultValues={{ question: editing?.question ?? '', answer: editing?.answer ?? '' }}
        submitLabel={editing ? 'Save' : 'Create'}
        version={editing?.version}
        onSubmit={(values, { ifMatch }) =>
          editing
            ? update.mutateAsync({ id: editing.id, ifMatch, ...values })
            : create.mutateAsync(values)
        }
      >
        {() => (
          <>
            <TextareaFormField
              name="question"
              label="Question"
              required
              data-autofocus
              autosize
              minRows={2}
              maxRows={5}
            />
            <TextareaFormField
              name="answer"
              label="Answer"
              required
              autosize
              minRows={4}
              maxRows={14}
            />
          </>
        )}
      </FormDialog>
    </>
  );
}
