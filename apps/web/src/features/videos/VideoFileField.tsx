import '@mantine/dropzone/styles.css';
import { useState } from 'react';
import { CloseButton, Group, Input, Paper, Progress, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { IconMovie, IconUpload, IconX } from '@tabler/icons-react';
import { useFormContext } from 'react-hook-form';
import { FormController } from '../../components/FormFields';
import { formatBytes } from '../../lib/format';

/** What the server accepts as a video (it checks the content again). */
export const VIDEO_TYPES = ['video/mp4', 'video/webm', 'video/quicktime'];

/** An upload's progress: 0..100 and the bytes sent of their total. */
export type UploadState = { percent: number; loaded: number; total: number };

function rejectionText(rejections: FileRejection[]): string {
  const code = rejections[0]?.errors[0]?.code;
  if (code === 'file-invalid-type') return 'Only MP4, WebM or QuickTime (MOV) videos are accepted';
  if (code === 'too-many-files') return 'Choose one video';
  return rejections[0]?.errors[0]?.message ?? 'This file cannot be used';
}

/**
 * The video picker of a dialog's form: drop or pick a file, see its name and size, and follow the
 * upload as bytes sent of the total. The file is never read here: it is sent as it is.
 */
export function VideoFormField(props: {
  name: string;
  label: string;
  required?: boolean;
  /** The upload under way, if any. */
  progress?: UploadState | undefined;
}) {
  const { formState } = useFormContext();
  const [rejected, setRejected] = useState<string>();
  const sending = formState.isSubmitting;
  return (
    <FormController
      name={props.name}
      label={props.label}
      render={({ field, fieldState, label }) => {
        const file = (field.value as File | undefined) ?? null;
        const progress = sending && file ? props.progress : undefined;
        return (
          <Input.Wrapper
            label={label}
            required={props.required}
            error={rejected ?? fieldState.error?.message}
          >
            <Stack gap="xs" mt={4}>
              {file && (
                <Paper withBorder p="xs" radius="md">
                  <Group justify="space-between" wrap="nowrap" gap="sm">
                    <Group gap="sm" wrap="nowrap" miw={0}>
                      <IconMovie size={28} stroke={1.5} aria-hidden />
                      <div style={{ minWidth: 0 }}>
                        <Text size="sm" fw={500} truncate="end" title={file.name}>
                          {file.name}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {formatBytes(file.size)}
                        </Text>
                      </div>
                    </Group>
                    {!sending && (
                      <CloseButton
                        aria-label="Remove the chosen video"
                        onClick={() => {
                          setRejected(undefined);
                          field.onChange(undefined);
                        }}
                      />
                    )}
                  </Group>
                </Paper>
              )}
              <Dropzone
                onDrop={(files) => {
                  setRejected(undefined);
                  field.onChange(files[0] ?? undefined);
                }}
                onReject={(rejections) => {
                  setRejected(rejectionText(rejections));
                  field.onChange(undefined);
                }}
                accept={VIDEO_TYPES}
                multiple={false}
                disabled={sending}
                aria-label={`${label}: drop a video here or click to choose one`}
                p="md"
              >
                <Group justify="center" gap="sm" mih={60} style={{ pointerEvents: 'none' }}>
                  <Dropzone.Accept>
                    <IconUpload size={32} stroke={1.5} />
                  </Dropzone.Accept>
                  <Dropzone.Reject>
                    <IconX size={32} stroke={1.5} />
                  </Dropzone.Reject>
                  <Dropzone.Idle>
                    <IconMovie size={32} stroke={1.5} />
                  </Dropzone.Idle>
                  <div>
                    <Text size="sm" inline>
                      {file
                        ? 'Drop or click to choose another video'
                        : 'Drop a video here or click to choose'}
                    </Text>
                    <Text size="xs" c="dimmed" inline mt={6} display="block">
                      MP4, WebM or QuickTime (MOV)
                    </Text>
                  </div>
                </Group>
              </Dropzone>
              {progress && (
                <Stack gap={4}>
                  <Progress
                    value={progress.percent}
                    size="sm"
                    animated={progress.percent < 100}
                    aria-label="Upload progress"
                  />
                  <Text size="xs" c="dimmed">
                    {progress.percent < 100
                      ? `${formatBytes(progress.loaded)} of ${formatBytes(progress.total)}`
                      : `${formatBytes(progress.total)} sent, the server is storing it…`}
                  </Text>
                </Stack>
              )}
            </Stack>
          </Input.Wrapper>
        );
      }}
    />
  );
}
