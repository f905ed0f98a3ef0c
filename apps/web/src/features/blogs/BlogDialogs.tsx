import { useState } from 'react';
import { Loader, Switch } from '@mantine/core';
import { z } from 'zod';
import { blogCreateBody, blogEditForm, type Blog } from '@master-admin/contract';
import { DateFormField } from '../../components/DateFormField';
import {
  ImageFormField,
  RichTextFormField,
  TextFormField,
  TextareaFormField,
} from '../../components/FormFields';
import { FormDialog } from '../../components/FormDialog';
import { StatusDialog } from '../../components/StatusDialog';
import { confirmDelete } from '../../components/confirm';
import type { RowAction } from '../../components/RowActions';
import { useGrants } from '../../lib/permissions';
import {
  useChangeBlogImage,
  useChangeBlogPopular,
  useChangeBlogStatus,
  useCreateBlog,
  useDeleteBlog,
  useUpdateBlog,
} from './api';
import { defined } from '../../lib/defined';

const imageFile = z.instanceof(File, { error: 'Choose an image' });

/** The create form: the contract's body with the optional image file. */
const createForm = blogCreateBody.extend({ image: imageFile.optional() });
const imageForm = z.object({ file: imageFile });

export type BlogDialog = { kind: 'edit' | 'image' | 'status'; blog: Blog } | null;

/** A blog's title, author, short description, text and date (create and edit). */
function BlogFields() {
  return (
    <>
      <TextFormField name="title" label="Title" required />
      <TextFormField name="author" label="Author" required />
      <TextareaFormField
        name="shortDesc"
        label="Short description"
        description="Shown in lists."
        required
        rows={3}
        resize="vertical"
      />
      <RichTextFormField name="desc" label="Description" required />
      <DateFormField name="date" label="Date" />
    </>
  );
}

/** "New blog": every field, and an optional image uploaded with the blog. */
export function CreateBlogDialog(props: { opened: boolean; onClose: () => void }) {
  const create = useCreateBlog();
  const [progress, setProgress] = useState<number>();
  const close = () => {
    setProgress(undefined);
    props.onClose();
  };
  return (
    <FormDialog
      opened={props.opened}
      onClose={close}
      title="New blog"
      long
      draft={{ form: 'blog' }}
      schema={createForm}
      defaultValues={{ title: '', author: '', shortDesc: '', desc: '', date: '' }}
      submitLabel="Create"
      onSubmit={(v) =>
        create.mutateAsync({
          title: v.title,
          author: v.author,
          shortDesc: v.shortDesc,
          desc: v.desc,
          date: v.date,
          image: v.image,
          onProgress: setProgress,
        })
      }
    >
      {() => (
        <>
          <BlogFields />
          <ImageFormField name="image" label="Image" progress={progress} />
        </>
      )}
    </FormDialog>
  );
}

/** The dialogs a blog opens from its row or its detail screen: edit, image and status. */
export function BlogDialogs(props: { dialog: BlogDialog; onClose: () => void }) {
  const update = useUpdateBlog();
  const changeImage = useChangeBlogImage();
  const changeStatus = useChangeBlogStatus();
  const [progress, setProgress] = useState<number>();
  const { dialog } = props;
  const blog = dialog?.blog;
  const close = () => {
    setProgress(undefined);
    props.onClose();
  };

  return (
    <>
      <FormDialog
        opened={dialog?.kind === 'edit'}
        onClose={close}
        presence={blog ? { area: 'blogs', id: blog.id, label: blog.title } : undefined}
        title="Edit blog"
        long
        draft={blog && { form: 'blog', id: blog.id }}
        schema={blogEditForm}
        defaultValues={{
          title: blog?.title ?? '',
          author: blog?.author ?? '',
          shortDesc: blog?.shortDesc ?? '',
          desc: blog?.desc ?? '',
          date: blog?.date ?? '',
        }}
        submitLabel="Save"
        version={blog?.version}
        onSubmit={(v, { ifMatch }) =>
          update.mutateAsync({
            id: defined(blog).id,
            ifMatch,
            title: v.title,
            author: v.author,
            shortDesc: v.shortDesc,
            desc: v.desc,
            date: v.date ?? null,
          })
        }
      >
        {() => <BlogFields />}
      </FormDialog>

      <FormDialog
        opened={dialog?.kind === 'image'}
        onClose={close}
        presence={blog ? { area: 'blogs', id: blog.id, label: blog.title } : undefined}
        title={blog?.image ? 'Change image' : 'Add image'}
        schema={imageForm}
        defaultValues={{}}
        submitLabel="Upload"
        version={blog?.version}
        onSubmit={(v, { ifMatch }) =>
          changeImage.mutateAsync({
            id: defined(blog).id,
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
            current={blog?.image}
            progress={progress}
          />
        )}
      </FormDialog>

      <StatusDialog
        opened={dialog?.kind === 'status'}
        onClose={close}
        subject={`“${blog?.title ?? ''}”`}
        current={blog?.status}
        version={blog?.version}
        onSubmit={(status, ifMatch) =>
          changeStatus.mutateAsync({ id: defined(blog).id, status, ifMatch })
        }
      />
    </>
  );
}

/** Marks a blog popular or not at once (PUT blogs/popular/{id}); shows the change while it is sent. */
export function PopularSwitch(props: { blog: Blog; withLabel?: boolean }) {
  const popular = useChangeBlogPopular();
  const mayChange = useGrants('blogs').update;
  const { blog } = props;
  const pending = popular.isPending && popular.variables?.id === blog.id;
  const checked = pending ? popular.variables.popular : blog.popular;
  return (
    <Switch
      label={props.withLabel ? 'Popular' : undefined}
      aria-label={props.withLabel ? undefined : `Popular: ${blog.title}`}
      checked={checked}
      disabled={pending || !mayChange}
      thumbIcon={pending ? <Loader size={10} /> : undefined}
      onChange={(e) =>
        popular.mutate({
          id: blog.id,
          popular: e.currentTarget.checked,
          ifMatch: blog.version,
        })
      }
    />
  );
}

/** A blog's actions (row menu and detail screen), in the same order everywhere. */
export function useBlogActions(options: {
  open: (dialog: BlogDialog) => void;
  /** After a delete succeeds (the detail screen goes back to the list). */
  onDeleted?: () => void;
}) {
  const remove = useDeleteBlog({ onSuccess: options.onDeleted });
  const grants = useGrants('blogs');
  return (blog: Blog): RowAction[] => [
    { label: 'Edit', allowed: grants.update, onClick: () => options.open({ kind: 'edit', blog }) },
    {
      label: blog.image ? 'Change image' : 'Add image',
      allowed: grants.update,
      onClick: () => options.open({ kind: 'image', blog }),
    },
    {
      label: 'Change status',
      allowed: grants.update,
      onClick: () => options.open({ kind: 'status', blog }),
    },
    {
      label: 'Delete',
      danger: true,
      allowed: grants.delete,
      onClick: () =>
        confirmDelete({
          title: 'Delete this blog?',
          message: `“${blog.title}”${blog.image ? ' and its image' : ''} will be deleted.`,
          onConfirm: () => remove.mutate({ id: blog.id, ifMatch: blog.version }),
        }),
    },
  ];
}
