import { useEffect, type ReactNode } from 'react';
import { Box, Button, Drawer, Group, Modal, Stack, type ModalProps } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  FormProvider,
  useForm,
  type DefaultValues,
  type FieldValues,
  type UseFormReturn,
} from 'react-hook-form';
import type { z } from 'zod';
import { markFieldErrors } from '../lib/form-errors';
import { PHONE_QUERY } from './DataTable';

/**
 * The one dialog with a form. Its fields are validated with the contract's schema before sending;
 * while the request is pending the submit button shows a loader and cannot be pressed again; on
 * success the dialog closes; a server refusal naming fields (a 400, a 409 on a taken name) marks
 * those fields (the toast shows the message) and the dialog stays open. A short form is a modal; a
 * long one (`long`) a side panel, full screen on a phone. Either way the buttons stay in view
 * while the fields scroll.
 */
export function FormDialog<S extends z.ZodType<FieldValues, FieldValues>>(props: {
  opened: boolean;
  onClose: () => void;
  title: string;
  schema: S;
  defaultValues: DefaultValues<z.input<S>>;
  onSubmit: (values: z.output<S>) => Promise<unknown>;
  submitLabel: string;
  /** The dialog's width (Mantine Modal size); "md" when not given. Not used with `long`. */
  size?: ModalProps['size'];
  /** A form taller than a screen: opens as a side panel. */
  long?: boolean;
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
      markFieldErrors(err, form.setError);
    }
  });

  const pending = form.formState.isSubmitting;
  const phone = useMediaQuery(PHONE_QUERY) ?? false;
  const close = () => !pending && props.onClose();
  const content = (
    <form onSubmit={submit} noValidate>
      <Stack>
        {/* Field components shared by several dialogs read the form with useFormContext. */}
        <FormProvider {...form}>{props.children(form)}</FormProvider>
      </Stack>
      <Box
        pos="sticky"
        bottom={0}
        py="sm"
        mt="xs"
        bg="var(--mantine-color-body)"
        style={{ zIndex: 3, borderTop: '1px solid var(--mantine-color-default-border)' }}
      >
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" loading={pending}>
            {props.submitLabel}
          </Button>
        </Group>
      </Box>
    </form>
  );
  if (props.long) {
    return (
      <Drawer
        opened={opened}
        onClose={close}
        title={props.title}
        position="right"
        size={phone ? '100%' : 'xl'}
        closeOnClickOutside={!pending}
        closeOnEscape={!pending}
        styles={{ body: { paddingBottom: 0 } }}
      >
        {content}
      </Drawer>
    );
  }
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={props.title}
      size={props.size}
      centered
      closeOnClickOutside={!pending}
      closeOnEscape={!pending}
      styles={{ body: { paddingBottom: 0 } }}
    >
      {content}
    </Modal>
  );
}
