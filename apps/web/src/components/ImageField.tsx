import '@mantine/dropzone/styles.css';
import { useEffect, useMemo, useState } from 'react';
import { CloseButton, Group, Image, Input, Paper, Progress, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { IconPhoto, IconUpload, IconX } from '@tabler/icons-react';

/** What the server accepts as an image (it checks the content again). */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

function rejectionText(rejections: FileRejection[]): string {
  const code = rejections[0]?.errors[0]?.code;
  if (code === 'file-too-large') return 'The file is too large (at most 10 MB)';
  if (code === 'file-invalid-type') return 'Only JPEG, PNG, WebP or GIF images are accepted';
  if (code === 'too-many-files') return 'Choose one image';
  return rejections[0]?.errors[0]?.message ?? 'This file cannot be used';
}

/**
 * The one image picker: drop or pick a file, see it before it is sent, and follow the upload's
 * progress. `current` is the image already stored, shown until another is chosen.
 */
export function ImageField(props: {
  label: string;
  value: File | null;
  onChange: (file: File | null) => void;
  current?: string | null;
  error?: string;
  /** 0..100 while uploading; undefined otherwise. */
  progress?: number;
  required?: boolean;
  disabled?: boolean;
}) {
  const { value, onChange } = props;
  const [rejected, setRejected] = useState<string>();
  const preview = useMemo(() => (value ? URL.createObjectURL(value) : null), [value]);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);
  const shown = preview ?? props.current ?? null;

  return (
    <Input.Wrapper label={props.label} required={props.required} error={rejected ?? props.error}>
      <Stack gap="xs" mt={4}>
        {shown && (
          <Paper withBorder p={4} radius="md" pos="relative">
            <Image
              src={shown}
              alt={value ? `Preview of ${value.name}` : `Current ${props.label.toLowerCase()}`}
              mah={180}
              fit="contain"
              radius="sm"
            />
            {value && !props.disabled && (
              <CloseButton
                pos="absolute"
                top={8}
                right={8}
                variant="filled"
                bg="white"
                c="dark"
                aria-label="Remove the chosen image"
                onClick={() => {
                  setRejected(undefined);
                  onChange(null);
                }}
              />
            )}
          </Paper>
        )}
        <Dropzone
          onDrop={(files) => {
            setRejected(undefined);
            onChange(files[0] ?? null);
          }}
          onReject={(rejections) => {
            setRejected(rejectionText(rejections));
            onChange(null);
          }}
          accept={IMAGE_TYPES}
          maxSize={MAX_IMAGE_BYTES}
          multiple={false}
          disabled={props.disabled}
          aria-label={`${props.label}: drop an image here or click to choose one`}
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
              <IconPhoto size={32} stroke={1.5} />
            </Dropzone.Idle>
            <div>
              <Text size="sm" inline>
                {value ? value.name : 'Drop an image here or click to choose'}
              </Text>
              <Text size="xs" c="dimmed" inline mt={6} display="block">
                JPEG, PNG, WebP or GIF, at most 10 MB
              </Text>
            </div>
          </Group>
        </Dropzone>
        {props.progress !== undefined && (
          <Progress
            value={props.progress}
            size="sm"
            animated={props.progress < 100}
            aria-label="Upload progress"
          />
        )}
      </Stack>
    </Input.Wrapper>
  );
}
