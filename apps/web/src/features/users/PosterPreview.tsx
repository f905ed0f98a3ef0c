import { useEffect, useState } from 'react';
import { Alert, Center, Image, Loader, Modal, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { PATHS, posterList, userList, type ImageKind } from '@master-admin/contract';
import { RecordLoadError } from '../../components/DetailStates';
import { SearchSelect } from '../../components/SearchSelect';
import { api } from '../../lib/api';
import { usePosterPreview } from './api';

const PICK_LIMIT = 50;
const SLOT_NAMES: Record<ImageKind, string> = { top: 'top', self: 'self', bottom: 'bottom' };

/** Picks an ACTIVE poster of an app (its id as a string): a deactivated one reaches no user. */
export function PosterPicker(props: {
  masterAppId: number;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <SearchSelect
      label="Poster"
      placeholder="Search by category or special day"
      description="Active posters of the user’s app."
      queryKey={['posters', 'pick', 'ACTIVE', props.masterAppId]}
      load={async (keyword) => {
        const page = await api.get(PATHS.posterList, posterList, {
          limit: PICK_LIMIT,
          keyword,
          masterAppId: props.masterAppId,
          status: 'ACTIVE',
        });
        return {
          options: page.result.map((p) => ({
            value: String(p.id),
            label: `#${p.id} · ${p.category.name}${p.specialDay ? ` · ${p.specialDay.name}` : ''} (${p.topDefNum}/${p.selfDefNum}/${p.bottomDefNum})`,
          })),
          more: page.total > page.result.length,
        };
      }}
      value={props.value}
      onChange={props.onChange}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/** Picks a user of an app (not DELETED), by name, email or phone. */
export function UserPicker(props: {
  masterAppId: number;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <SearchSelect
      label="User"
      placeholder="Search by name, email or phone"
      description="Users of the poster’s app."
      queryKey={['users', 'pick', props.masterAppId]}
      load={async (keyword) => {
        const page = await api.get(PATHS.userList, userList, {
          limit: PICK_LIMIT,
          keyword,
          masterAppId: props.masterAppId,
        });
        return {
          options: page.result.map((u) => ({
            value: String(u.id),
            label: `${u.userDetail.name ?? u.phoneNumber} · ${u.phoneNumber}`,
          })),
          more: page.total > page.result.length,
        };
      }}
      value={props.value}
      onChange={props.onChange}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/** The composed picture, and which of the user's images were missing. */
function Composed(props: { posterId: number; accountId: number }) {
  const preview = usePosterPreview(props.posterId, props.accountId);
  const url = preview.data?.url;
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);
  if (preview.isError) {
    return (
      <RecordLoadError
        title="The preview could not be made"
        error={preview.error}
        onRetry={() => preview.refetch()}
      />
    );
  }
  if (!preview.data || preview.isFetching) {
    return (
      <Center mih={240}>
        <Loader aria-label="Composing the poster" />
      </Center>
    );
  }
  const { missing } = preview.data;
  return (
    <Stack gap="sm">
      {missing.length > 0 && (
        <Alert color="yellow" icon={<IconInfoCircle size={18} />} p="xs">
          The user has no {missing.map((m) => SLOT_NAMES[m]).join(', ')} image with the number this
          poster asks for: {missing.length === 1 ? 'that slot is' : 'those slots are'} left empty.
        </Alert>
      )}
      <Image
        src={preview.data.url}
        alt="The poster as the user gets it"
        fit="contain"
        mah="60vh"
        radius="sm"
      />
    </Stack>
  );
}

/**
 * "Preview a poster" (from a user: pick the poster), "Preview as user…" (from a poster: pick the
 * user), or both given (a poster in the user's activity): the server composes the poster with the
 * user's numbered images.
 */
export function PosterPreviewDialog(props: {
  opened: boolean;
  onClose: () => void;
  masterAppId: number;
  /** Fixed when opened from a poster; otherwise picked. */
  posterId?: number;
  /** Fixed when opened from a user; otherwise picked. */
  accountId?: number;
  title: string;
}) {
  const [picked, setPicked] = useState('');
  const close = () => {
    setPicked('');
    props.onClose();
  };
  const posterId = props.posterId ?? (picked ? Number(picked) : undefined);
  const accountId = props.accountId ?? (picked ? Number(picked) : undefined);
  return (
    <Modal opened={props.opened} onClose={close} title={props.title} size="lg" centered>
      <Stack>
        {props.posterId === undefined ? (
          <PosterPicker masterAppId={props.masterAppId} value={picked} onChange={setPicked} />
        ) : props.accountId === undefined ? (
          <UserPicker masterAppId={props.masterAppId} value={picked} onChange={setPicked} />
        ) : null}
        {posterId !== undefined && accountId !== undefined ? (
          <Composed posterId={posterId} accountId={accountId} />
        ) : (
          <Text size="sm" c="dimmed">
            The poster appears here with the user’s top image across the top, bottom image across
            the bottom and self photo in the lower corner on the poster’s side.
          </Text>
        )}
      </Stack>
    </Modal>
  );
}
