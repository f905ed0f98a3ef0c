import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Group,
  Image,
  Loader,
  NumberInput,
  Pagination,
  Radio,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { IconAlertTriangle, IconPhotoPlus } from '@tabler/icons-react';
import { useFormContext } from 'react-hook-form';
import { useLocation, useParams } from 'react-router';
import { z } from 'zod';
import {
  DEF_NUM_MAX,
  DEF_NUM_MIN,
  IMAGE_KINDS,
  SIDES,
  defNum,
  positionBody,
  selfImageCreateBody,
  type ImageKind,
  type Side,
  type UserImage,
} from '@master-admin/contract';
import { BackLink, RecordNotFound } from '../../components/DetailStates';
import { FormDialog } from '../../components/FormDialog';
import { FormController, ImageFormField } from '../../components/FormFields';
import { PageHeader } from '../../components/PageHeader';
import { RowActions } from '../../components/RowActions';
import { thumbUrl } from '../../components/Thumbnail';
import { confirmDelete } from '../../components/confirm';
import { ApiError, errorText } from '../../lib/api';
import { formatDate, formatNumber } from '../../lib/format';
import { useGrants } from '../../lib/permissions';
import {
  useChangeImageNumber,
  useChangeSelfPosition,
  useDeleteImage,
  useImageList,
  useReplaceImage,
  useUploadImage,
  useUser,
} from './api';
import { idFrom } from './UserPage';
import { userName } from './UserDialogs';
import { defined } from '../../lib/defined';

const TITLES: Record<ImageKind, string> = { top: 'Top', self: 'Self', bottom: 'Bottom' };
const DESCRIPTIONS: Record<ImageKind, string> = {
  top: 'Strips placed across the top of the user’s posters. A poster names the number it uses.',
  self: 'The user’s own photos, placed in a lower corner of a poster, on the side the poster names.',
  bottom:
    'Strips placed across the bottom of the user’s posters. A poster names the number it uses.',
};
const SIDE_LABELS: Record<Side, string> = { LEFT: 'Left', RIGHT: 'Right' };

const imageFile = z.instanceof(File, { error: 'Choose an image' });
const uploadForm = z.object({ defNum, file: imageFile });
const selfUploadForm = selfImageCreateBody.extend({ file: imageFile });
const numberForm = z.object({ defNum });
const replaceForm = z.object({ file: imageFile });

function NumberField() {
  const { control } = useFormContext<{ defNum?: unknown }>();
  return (
    <FormController
      control={control}
      name="defNum"
      label="Default number"
      render={({ field, fieldState, label }) => (
        <NumberInput
          label={label}
          description={`The number posters name to use this image (${DEF_NUM_MIN}–${DEF_NUM_MAX}); each number once per kind.`}
          required
          min={DEF_NUM_MIN}
          max={DEF_NUM_MAX}
          allowDecimal={false}
          allowNegative={false}
          value={typeof field.value === 'number' ? field.value : ''}
          onChange={field.onChange}
          onBlur={field.onBlur}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}

function SideField() {
  const { control } = useFormContext<{ position?: Side }>();
  return (
    <FormController
      control={control}
      name="position"
      label="Side"
      render={({ field, fieldState, label }) => (
        <Radio.Group
          label={label}
          description="The side of a poster this photo suits."
          required
          value={field.value ?? null}
          onChange={(v) => field.onChange(v)}
          error={fieldState.error?.message}
        >
          <Group mt={6}>
            {SIDES.map((s) => (
              <Radio key={s} value={s} label={SIDE_LABELS[s]} onBlur={field.onBlur} />
            ))}
          </Group>
        </Radio.Group>
      )}
    />
  );
}

type Dialog = { kind: 'number' | 'replace' | 'side'; image: UserImage } | null;

function ImageCard(props: {
  kind: ImageKind;
  image: UserImage;
  title: string;
  open: (d: Dialog) => void;
  onDelete: () => void;
}) {
  const { image, kind } = props;
  const grants = useGrants('users');
  const label = `${props.title} image No. ${image.defNum}`;
  return (
    <Card withBorder radius="md" padding="sm" component="article" aria-label={label}>
      <Card.Section>
        <a href={image.image} target="_blank" rel="noreferrer" aria-label={`Open ${label}`}>
          <Image src={thumbUrl(image.image)} alt={label} h={150} fit="contain" bg="gray.1" />
        </a>
      </Card.Section>
      <Group justify="space-between" mt="sm" wrap="nowrap">
        <Group gap={6}>
          <Badge size="lg" variant="filled">
            No. {image.defNum}
          </Badge>
          {image.position && (
            <Badge variant="light" color="grape">
              {SIDE_LABELS[image.position]}
            </Badge>
          )}
        </Group>
        <RowActions
          history={{ area: 'userImages', id: image.id }}
          label={label}
          actions={[
            {
              label: 'Change number',
              allowed: grants.update,
              onClick: () => props.open({ kind: 'number', image }),
            },
            {
              label: 'Replace image',
              allowed: grants.update,
              onClick: () => props.open({ kind: 'replace', image }),
            },
            ...(kind === 'self'
              ? [
                  {
                    label: 'Change side',
                    allowed: grants.update,
                    onClick: () => props.open({ kind: 'side', image }),
                  },
                ]
              : []),
            { label: 'Delete', danger: true, allowed: grants.delete, onClick: props.onDelete },
          ]}
        />
      </Group>
      <Text size="xs" c="dimmed" mt={4}>
        Added {formatDate(image.createdAt.slice(0, 10))}
      </Text>
    </Card>
  );
}

/** /top/{id}, /self/{id}, /bottom/{id}: one kind of a user's numbered images. */
export default function ImagesPage() {
  const segment = useLocation().pathname.split('/')[1] ?? '';
  const kind: ImageKind = (IMAGE_KINDS as readonly string[]).includes(segment)
    ? (segment as ImageKind)
    : 'top';
  const id = idFrom(useParams().id);
  const accountId = id ?? 0;
  const user = useUser(id);
  const list = useImageList(kind, accountId);
  const upload = useUploadImage(kind, accountId);
  const replace = useReplaceImage(kind, accountId);
  const renumber = useChangeImageNumber(kind, accountId);
  const changeSide = useChangeSelfPosition(accountId);
  const remove = useDeleteImage(kind, accountId);
  const grants = useGrants('users');
  const [uploading, setUploading] = useState(false);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [progress, setProgress] = useState<number>();
  const title = TITLES[kind];
  const close = () => {
    setProgress(undefined);
    setDialog(null);
    setUploading(false);
  };

  if (id === undefined || (user.error instanceof ApiError && user.error.status === 404)) {
    return (
      <>
        <BackLink to="/users" label="All users" />
        <RecordNotFound
          title="User not found"
          description="There is no user at this address."
          backTo="/users"
          backLabel="Back to users"
        />
      </>
    );
  }
  const name = user.data ? userName(user.data) : 'the user';
  const { params } = list;
  const pages = Math.max(1, Math.ceil(list.total / params.limit));
  const image = dialog?.image;
  // With every image on this page, the number after the highest is free: offered to start from.
  const highest = Math.max(0, ...list.rows.map((r) => r.defNum));
  const nextNumber =
    list.rows.length === list.total && highest < DEF_NUM_MAX ? highest + 1 : undefined;

  return (
    <>
      <BackLink to={`/users/${id}`} label={user.data ? `Back to ${name}` : 'Back to the user'} />
      <PageHeader
        title={`${title} images of ${name}`}
        description={DESCRIPTIONS[kind]}
        actions={
          grants.create ? (
            <Button leftSection={<IconPhotoPlus size={18} />} onClick={() => setUploading(true)}>
              Upload {kind} image
            </Button>
          ) : undefined
        }
      />
      {kind === 'self' && (
        <SegmentedControl
          mb="md"
          aria-label="Side"
          value={params.filters.position || 'ALL'}
          onChange={(v) => params.setFilter('position', v === 'ALL' ? undefined : v)}
          data={[
            { value: 'ALL', label: 'Both sides' },
            { value: 'LEFT', label: 'Left' },
            { value: 'RIGHT', label: 'Right' },
          ]}
        />
      )}
      <Text size="sm" c="dimmed" mb="sm" aria-live="polite">
        {formatNumber(list.total)} {kind} image{list.total === 1 ? '' : 's'}, by number
      </Text>
      {list.query.isError ? (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} title="Could not load the images">
          {errorText(list.query.error)}
        </Alert>
      ) : list.query.isPending ? (
        <Center mih={200}>
          <Loader role="status" aria-label="Loading the images" />
        </Center>
      ) : list.rows.length === 0 ? (
        <Card withBorder radius="md" p="xl">
          <Stack align="center" gap="xs">
            <Text fw={500}>No {kind} images yet</Text>
            <Text size="sm" c="dimmed" ta="center">
              Upload one with a number; a poster that names that number shows it.
            </Text>
            {grants.create && (
              <Button variant="light" onClick={() => setUploading(true)}>
                Upload the first {kind} image
              </Button>
            )}
          </Stack>
        </Card>
      ) : (
        <SimpleGrid cols={{ base: 2, sm: 3, md: 4, lg: 5 }} spacing="md">
          {list.rows.map((row) => (
            <ImageCard
              key={row.id}
              kind={kind}
              image={row}
              title={title}
              open={setDialog}
              onDelete={() =>
                confirmDelete({
                  title: `Delete ${kind} image No. ${row.defNum}?`,
                  message: `The image numbered ${row.defNum} of ${name} will be deleted; posters that name this number will show nothing in its place.`,
                  onConfirm: () => remove.mutate({ id: row.id, ifMatch: row.version }),
                })
              }
            />
          ))}
        </SimpleGrid>
      )}
      {pages > 1 && (
        <Group justify="center" mt="md">
          <Pagination total={pages} value={params.page} onChange={params.setPage} />
        </Group>
      )}

      <FormDialog
        opened={uploading}
        onClose={close}
        title={`Upload a ${kind} image`}
        schema={kind === 'self' ? selfUploadForm : uploadForm}
        defaultValues={{ position: 'LEFT', defNum: nextNumber } as never}
        submitLabel="Upload"
        onSubmit={(v) =>
          upload.mutateAsync({
            file: v.file,
            defNum: v.defNum,
            position: 'position' in v ? (v.position as Side) : undefined,
            onProgress: setProgress,
          })
        }
      >
        {() => (
          <>
            <NumberField />
            {kind === 'self' && <SideField />}
            <ImageFormField name="file" label={`${title} image`} required progress={progress} />
          </>
        )}
      </FormDialog>

      <FormDialog
        opened={dialog?.kind === 'number'}
        onClose={close}
        title={`Number of ${kind} image No. ${image?.defNum ?? ''}`}
        schema={numberForm}
        defaultValues={{ defNum: image?.defNum ?? 1 }}
        submitLabel="Save"
        version={image?.version}
        onSubmit={(v, { ifMatch }) =>
          renumber.mutateAsync({ id: defined(image).id, ifMatch, defNum: v.defNum })
        }
      >
        {() => <NumberField />}
      </FormDialog>

      <FormDialog
        opened={dialog?.kind === 'replace'}
        onClose={close}
        title={`Replace ${kind} image No. ${image?.defNum ?? ''}`}
        schema={replaceForm}
        defaultValues={{}}
        submitLabel="Upload"
        version={image?.version}
        onSubmit={(v, { ifMatch }) =>
          replace.mutateAsync({
            id: defined(image).id,
            ifMatch,
            file: v.file,
            onProgress: setProgress,
          })
        }
      >
        {() => (
          <ImageFormField
            name="file"
            label={`${title} image`}
            required
            current={image?.image}
            progress={progress}
          />
        )}
      </FormDialog>

      <FormDialog
        opened={dialog?.kind === 'side'}
        onClose={close}
        title={`Side of self image No. ${image?.defNum ?? ''}`}
        schema={positionBody}
        defaultValues={{ position: image?.position ?? 'LEFT' }}
        submitLabel="Save"
        version={image?.version}
        onSubmit={(v, { ifMatch }) =>
          changeSide.mutateAsync({ id: defined(image).id, ifMatch, position: v.position })
        }
      >
        {() => <SideField />}
      </FormDialog>
    </>
  );
}
