import { pageEditForm, type Page } from '@master-admin/contract';
import { FormDialog } from '../../components/FormDialog';
import { RichTextFormField, TextFormField } from '../../components/FormFields';
import { useUpdatePage } from './api';
import { defined } from '../../lib/defined';

/** Edits a page's title and formatted text (from the list or the detail screen). */
export function PageEditDialog(props: {
  page: Page | undefined;
  opened: boolean;
  onClose: () => void;
}) {
  const update = useUpdatePage();
  const { page } = props;
  return (
    <FormDialog
      opened={props.opened}
      onClose={props.onClose}
      presence={page ? { area: 'pages', id: page.id, label: page.title } : undefined}
      title={page ? `Edit ${page.title}` : 'Edit page'}
      long
      draft={page && { form: 'page', id: page.id }}
      schema={pageEditForm}
      defaultValues={{ title: page?.title ?? '', desc: page?.desc ?? '' }}
      submitLabel="Save"
      version={page?.version}
      onSubmit={(v, { ifMatch }) =>
        update.mutateAsync({ id: defined(page).id, ifMatch, title: v.title, desc: v.desc })
      }
    >
      {() => (
        <>
          <TextFormField name="title" label="Title" required />
          <RichTextFormField
            name="desc"
            label="Text"
            description={`What the app shows on this page${page ? ` of ${page.masterApp.name}` : ''}.`}
          />
        </>
      )}
    </FormDialog>
  );
}
