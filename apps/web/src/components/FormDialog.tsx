import {
  useCallback,
  useEffect,
  useEffectEvent,
  useMemo,
  useRef,
  useState,
  type FormEvent,
  type ReactNode,
} from 'react';
import { Box, Button, Drawer, Group, Modal, Stack, type ModalProps } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  FormProvider,
  useForm,
  type DefaultValues,
  type FieldValues,
  type UseFormReturn,
} from 'react-hook-form';
import type { Blocker } from 'react-router';
import type { z } from 'zod';
import { markFieldErrors } from '../lib/form-errors';
import { toastError } from '../lib/toast';
import { usePhone } from '../lib/phone';
import { FormDialogContext, type FormDialogContextValue } from './form-context';
import { DiscardDialog, LeaveGuard } from './LeaveGuard';
import { LiveFormNotice, type PresenceTarget } from './LiveFormNotice';

/**
 * The one dialog with a form. Its fields are validated with the contract's schema before sending.
 * It submits once: from the first submit until the dialog has closed (or the server refused) the
 * form is locked and a second Enter or click sends nothing. On success the dialog closes; a
 * server refusal naming fields (a 400, a 409 on a taken name) marks those fields, the toast names
 * them by their labels, and the dialog stays open. With unsaved changes, leaving asks first
 * ("Discard changes?"): Esc, a click outside, the close or Cancel button, a link, Back, closing
 * the tab. A short form is a modal; a long one (`long`) a side panel, full screen on a phone,
 * which an outside click never closes. Either way the buttons stay in view while the fields scroll.
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
  /**
   * The row being edited (not for a new one): others see that it is edited, and the dialog shows
   * who else edits it and when it changed meanwhile (LiveFormNotice).
   */
  presence?: PresenceTarget | undefined;
  children: (form: UseFormReturn<z.input<S>, unknown, z.output<S>>) => ReactNode;
}) {
  const form = useForm<z.input<S>, unknown, z.output<S>>({
    resolver: zodResolver(props.schema),
    defaultValues: props.defaultValues,
    mode: 'onTouched',
  });
  const { opened, defaultValues, schema } = props;
  // Set on the first submit, synchronously, so a second Enter in the same moment finds it.
  const lock = useRef(false);
  const [locked, setLocked] = useState(false);
  // Whether "Discard changes?" is asked, and for a move to another screen, the move held.
  const [asking, setAsking] = useState<false | 'close' | Blocker>(false);
  const labels = useRef(new Map<string, string>());
  const context = useMemo<FormDialogContextValue>(
    () => ({
      schema,
      registerLabel: (name, label) => {
        labels.current.set(name, label);
        return () => void labels.current.delete(name);
      },
    }),
    [schema],
  );

  // Each opening starts unlocked and not asking.
  const [wasOpened, setWasOpened] = useState(opened);
  if (opened !== wasOpened) {
    setWasOpened(opened);
    if (opened) {
      setLocked(false);
      setAsking(false);
    }
  }
  // Reset only when the dialog opens, with the values it opens with.
  const resetForm = useEffectEvent(() => {
    form.reset(defaultValues);
    lock.current = false;
  });
  useEffect(() => {
    if (opened) resetForm();
  }, [opened]);

  const unlock = () => {
    lock.current = false;
    setLocked(false);
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (lock.current) return;
    lock.current = true;
    setLocked(true);
    void form.handleSubmit(async (values) => {
      try {
        await props.onSubmit(values);
        // Stays locked until the dialog opens again.
        props.onClose();
      } catch (err) {
        markFieldErrors(err, form.setError);
        toastError(err, labels.current);
        unlock();
      }
    }, unlock)(event);
  };

  const dirty = form.formState.isDirty;
  const phone = usePhone();
  const close = () => {
    if (lock.current) return;
    if (dirty) setAsking('close');
    else props.onClose();
  };
  const keep = () => {
    if (typeof asking === 'object') asking.reset?.();
    setAsking(false);
  };
  const discard = () => {
    if (typeof asking === 'object') asking.proceed?.();
    setAsking(false);
    props.onClose();
  };
  const onBlocked = useCallback((blocker: Blocker) => setAsking(blocker), []);
  const content = (
    <form onSubmit={submit} noValidate>
      {opened && props.presence && <LiveFormNotice target={props.presence} />}
      <Stack>
        {/* Field components shared by several dialogs read the form with useFormContext. */}
        <FormDialogContext value={context}>
          <FormProvider {...form}>{props.children(form)}</FormProvider>
        </FormDialogContext>
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
          <Button variant="default" onClick={close} disabled={locked}>
            Cancel
          </Button>
          <Button type="submit" loading={locked}>
            {props.submitLabel}
          </Button>
        </Group>
      </Box>
    </form>
  );
  const shared = {
    opened,
    onClose: close,
    title: props.title,
    closeOnEscape: !locked && !asking,
    styles: { body: { paddingBottom: 0 } },
  };
  return (
    <>
      {props.long ? (
        <Drawer
          {...shared}
          position="right"
          size={phone ? '100%' : 'xl'}
          closeOnClickOutside={false}
        >
          {content}
        </Drawer>
      ) : (
        <Modal {...shared} size={props.size} centered closeOnClickOutside={!locked}>
          {content}
        </Modal>
      )}
      <DiscardDialog opened={asking !== false} onKeep={keep} onDiscard={discard} />
      {opened && dirty && !locked && <LeaveGuard onBlocked={onBlocked} />}
    </>
  );
}
