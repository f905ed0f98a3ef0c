import { useEffect, type ReactNode } from 'react';
import { Button, Group, Modal, Stack, type ModalProps } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  FormProvider,
  useForm,
  type DefaultValues,
  type FieldValues,
  type Path,
  type UseFormReturn,
} from 'react-hook-form';
import type { z } from 'zod';
import { ApiError } from '../lib/api';

/**
 * The one dialog with a form. Its fields are validated with the contract's schema before sending;
 * while the request is pending the submit button shows a loader and cannot be pressed again; on
 * success the dialog closes; a server refusal naming fields marks those fields (the toast shows
 * the message) and the dialog stays open.
 */
export function FormDialog<S extends z.ZodType<FieldValues, FieldValues>>(props: {
  opened: boolean;
  onClose: () => void;
  title: string;
  schema: S;
  defaultValues: DefaultValues<z.input<S>>;
  onSubmit: (values: z.output<S>) => Promise<unknown>;
  submitLabel: string;
  /** The dialog's width (Mantine Modal size); "md" when not given. */
  size?: ModalProps['size'];
  children: (form: UseFormReturn<z.input<S>, unknown, z.output<S>>) => ReactNode;
}) {
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    resolver: zodResolver(props.schema),
    defaultValues: props.defaultValues,
    mode: 'onTouched',
  });
  const { opened, defaultValues } = props;

  useEffect(() => {
    if (opened) form.reset(defaultValues);
    // Reset only when the dialog opens, with the values it opens with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened]);

  const submit = form.handleSubmit(async (values) => {
    try {
      await props.onSubmit(values);
      props.onClose();
    } catch (err) {
      if (err instanceof ApiError) {
        for (const d of err.details) {
          form.setError(d.path as Path<z.input<S>>, { message: d.message });
        }
      }
    }
  });

  const pending = form.formState.isSubmitting;
  return (
    <Modal
      opened={opened}
      onClose={() => !pending && props.onClose()}
      title={props.title}
      size={props.size}
      centered
      closeOnClickOutside={!pending}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          {/* Field components shared by several dialogs read the form with useFormContext. */}
          <FormProvider {...form}>{props.children(form)}</FormProvider>
          <Group justify="flex-end" mt="xs">
            <Button variant="default" onClick={props.onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" loading={pending}>
              {props.submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
