import { useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { Anchor, AspectRatio, Modal, Stack } from '@mantine/core';
import { z } from 'zod';
import {
  dateBody,
  defNumsBody,
  positionBody,
  videoCreateFields,
  type Video,
} from '@master-admin/contract';
import { DateFormField } from '../../components/DateFormField';
import { FormDialog } from '../../components/FormDialog';
import { MasterAppFormField } from '../../components/FormFields';
import type { RowAction } from '../../components/RowActions';
import { StatusDialog } from '../../components/StatusDialog';
import { confirmDelete } from '../../components/confirm';
import { useGrants } from '../../lib/permissions';
import { DefNumFields, PositionField } from '../posters/PosterDialogs';
import {
  useChangeVideoDate,
  useChangeVideoDefNums,
  useChangeVideoPosition,
  useChangeVideoStatus,
  useCreateVideo,
  useDeleteVideo,
} from './api';
import { VideoFormField, type UploadState } from './VideoFileField';
import { defined } from '../../lib/defined';
import {
  ScheduleFields,
  checkLocalWindow,
  scheduleFormShape,
  useAppTimeZone,
  useTimeZoneOf,
  windowToSend,
} from '../../components/Schedule';

/** A video as dialogs and messages name it. */
export const videoName = (v: Pick<Video, 'id'>) => `video #${v.id}`;

/** The create form: the contract's body, with the app chosen in a select and the file. */
const createForm = videoCreateFields
  .extend({
    masterAppId: z.string().min(1, { error: 'Choose a master app' }),
    file: z.instanceof(File, { error: 'Choose a video' }),
    // Wall-clock times in the app's zone, sent as instants.
    ...scheduleFormShape,
  })
  .superRefine(checkLocalWindow);

/** The schedule of a new video, in its app's zone. */
function VideoScheduleFields() {
  const { control } = useFormContext<{ masterAppId: string }>();
  const masterAppId = useWatch({ control, name: 'masterAppId' });
  return <ScheduleFields zone={useAppTimeZone(masterAppId)} subject="video" />;
}

/** "New video": its app, the file, date, side and default numbers; the upload shows its bytes. */
export function CreateVideoDialog(props: {
  opened: boolean;
  onClose: () => void;
  /** The app the list is filtered by, to start from. */
  initial: { masterAppId: string };
}) {
  const create = useCreateVideo();
  const zoneOf = useTimeZoneOf();
  const [progress, setProgress] = useState<UploadState>();
  const close = () => {
    setProgress(undefined);
    props.onClose();
  };
  return (
    <FormDialog
      opened={props.opened}
      onClose={close}
      title="New video"
      long
      draft={{ form: 'video' }}
      schema={createForm}
      defaultValues={{
        ...props.initial,
        date: '',
        position: 'LEFT',
        topDefNum: 1,
        selfDefNum: 1,
        bottomDefNum: 1,
        liveFrom: '',
        liveUntil: '',
      }}
      submitLabel="Upload"
      onSubmit={(v) =>
        create.mutateAsync({
          ...windowToSend(v, zoneOf(v.masterAppId)),
          masterAppId: Number(v.masterAppId),
          date: v.date,
          position: v.position,
          topDefNum: v.topDefNum,
          selfDefNum: v.selfDefNum,
          bottomDefNum: v.bottomDefNum,
          file: v.file,
          onProgress: (percent, bytes) => setProgress({ percent, ...bytes }),
        })
      }
    >
      {() => (
        <>
          <MasterAppFormField />
          <VideoFormField name="file" label="Video file" required progress={progress} />
          <DateFormField name="date" label="Date" />
          <VideoScheduleFields />
          <PositionField subject="video" />
          <DefNumFields subject="video" />
        </>
      )}
    </FormDialog>
  );
}

/** The video's own player page (`iframeLink`), framed in a modal. */
export function VideoPlayerModal(props: { video: Video | undefined; onClose: () => void }) {
  const { video } = props;
  const title = video ? `Video #${video.id} of ${video.masterApp.name}` : '';
  return (
    <Modal opened={video !== undefined} onClose={props.onClose} title={title} size="xl" centered>
      {video && (
        <Stack gap="xs">
          <AspectRatio ratio={16 / 9}>
            <iframe
              src={video.iframeLink}
              title={`Player of video #${video.id}`}
              // `allow` grants full screen; `allowFullScreen` beside it only drew a console warning.
              allow="fullscreen; picture-in-picture"
              style={{ border: 0 }}
            />
          </AspectRatio>
          <Anchor href={video.iframeLink} target="_blank" rel="noopener" size="sm">
            Open the player page in a new tab
          </Anchor>
        </Stack>
      )}
    </Modal>
  );
}

export type VideoDialog = {
  kind: 'defNums' | 'date' | 'position' | 'status' | 'player' | 'schedule';
  video: Video;
} | null;

/** The dialogs a video's row opens: default numbers, date, side, status and the player. */
export function VideoDialogs(props: { dialog: VideoDialog; onClose: () => void }) {
  const changeDefNums = useChangeVideoDefNums();
  const changeDate = useChangeVideoDate();
  const changePosition = useChangeVideoPosition();
  const changeStatus = useChangeVideoStatus();
  const { dialog } = props;
  const video = dialog?.video;
  const name = video ? videoName(video) : '';
  const close = props.onClose;

  return (
    <>
      <FormDialog
        opened={dialog?.kind === 'defNums'}
        onClose={close}
        presence={video ? { area: 'video', id: video.id, label: name } : undefined}
        title={`Default numbers of ${name}`}
        schema={defNumsBody}
        defaultValues={{
          topDefNum: video?.topDefNum ?? 1,
          selfDefNum: video?.selfDefNum ?? 1,
          bottomDefNum: video?.bottomDefNum ?? 1,
        }}
        submitLabel="Save"
        version={video?.version}
        onSubmit={(v, { ifMatch }) =>
          changeDefNums.mutateAsync({ id: defined(video).id, ifMatch, ...v })
        }
      >
        {() => <DefNumFields subject="video" />}
      </FormDialog>

      <FormDialog
        opened={dialog?.kind === 'date'}
        onClose={close}
        presence={video ? { area: 'video', id: video.id, label: name } : undefined}
        title={`Date of ${name}`}
        schema={dateBody}
        defaultValues={{ date: video?.date ?? '' }}
        submitLabel="Save"
        version={video?.version}
        onSubmit={(v, { ifMatch }) =>
          changeDate.mutateAsync({ id: defined(video).id, ifMatch, date: v.date })
        }
      >
        {() => <DateFormField name="date" label="Date" description="Clear it for no date." />}
      </FormDialog>

      <FormDialog
        opened={dialog?.kind === 'position'}
        onClose={close}
        presence={video ? { area: 'video', id: video.id, label: name } : undefined}
        title={`Position of ${name}`}
        schema={positionBody}
        defaultValues={{ position: video?.position ?? 'LEFT' }}
        submitLabel="Save"
        version={video?.version}
        onSubmit={(v, { ifMatch }) =>
          changePosition.mutateAsync({ id: defined(video).id, ifMatch, position: v.position })
        }
      >
        {() => <PositionField subject="video" />}
      </FormDialog>

      <StatusDialog
        opened={dialog?.kind === 'status'}
        onClose={close}
        subject={name}
        current={video?.status}
        version={video?.version}
        onSubmit={(status, ifMatch) =>
          changeStatus.mutateAsync({ id: defined(video).id, status, ifMatch })
        }
      />

      <VideoPlayerModal video={dialog?.kind === 'player' ? video : undefined} onClose={close} />
    </>
  );
}

/** A video's row actions, each shown only with the right to do it. */
export function useVideoActions(open: (dialog: VideoDialog) => void) {
  const remove = useDeleteVideo();
  const grants = useGrants('video');
  return (video: Video): RowAction[] => [
    { label: 'Open player', allowed: true, onClick: () => open({ kind: 'player', video }) },
    {
      label: 'Change default numbers',
      allowed: grants.update,
      onClick: () => open({ kind: 'defNums', video }),
    },
    { label: 'Change date', allowed: grants.update, onClick: () => open({ kind: 'date', video }) },
    {
      label: 'Change schedule',
      allowed: grants.update,
      onClick: () => open({ kind: 'schedule', video }),
    },
    {
      label: 'Change position',
      allowed: grants.update,
      onClick: () => open({ kind: 'position', video }),
    },
    {
      label: 'Change status',
      allowed: grants.update,
      onClick: () => open({ kind: 'status', video }),
    },
    {
      label: 'Delete',
      danger: true,
      allowed: grants.delete,
      onClick: () =>
        confirmDelete({
          title: 'Delete this video?',
          message: `Video #${video.id} of ${video.masterApp.name} will be deleted, with its file unless other videos share it.`,
          onConfirm: () => remove.mutate({ id: video.id, ifMatch: video.version }),
        }),
    },
  ];
}
