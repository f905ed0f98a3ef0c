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
  type Path,
  type PathValue,
  type UseFormReturn,
} from 'react-hook-form';
import type { Blocker } from 'react-router';
import type { z } from 'zod';
import { conflictOf, type Conflict } from '../lib/api';
import { draftStorageKey, drafts, type Draft, type DraftKey } from '../lib/drafts';
import { markFieldErrors } from '../lib/form-errors';
import { conflictText } from '../lib/mutation';
import { markShown, toastError } from '../lib/toast';
import { usePhone } from '../lib/phone';
import { ConflictPanel, DraftNotice, type ConflictField } from './ConflictPanel';
import { FormDialogContext, type FormDialogContextValue } from './form-context';
import { DiscardDialog, LeaveGuard } from './LeaveGuard';
import { useTopLayer } from '../lib/layers';
import { LiveFormNotice, type PresenceTarget } from './LiveFormNotice';

type Values = Record<string, unknown>;

/** What a save is based on: the row's version (sent as If-Match) and the values it held then. */
type Base = { version: number | undefined; values: Values };

/** A save refused for a stale version, and the fields that differ. */
type Shown = { conflict: Conflict; fields: ConflictField[] };

/** How long typing pauses before a draft is kept. */
export const DRAFT_DELAY_MS = 500;

/** Two form values alike as a person reads them: null, undefined and '' are all "empty". */
function same(a: unknown, b: unknown): boolean {
  const norm = (v: unknown) =>
    v === null || v === undefined
      ? ''
      : typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
        ? String(v)
        : JSON.stringify(v);
  return norm(a) === norm(b);
}

/** The default `toValues`: the row's keys that the form has, a null text as ''. */
function pickValues(row: Values, defaults: Values): Values {
  const out: Values = {};
  for (const [name, opened] of Object.entries(defaults)) {
    if (!(name in row)) continue;
    const v = row[name];
    out[name] = v === null && typeof opened === 'string' ? '' : v;
  }
  return out;
}

/**
 * The one dialog with a form. Its fields are validated with the contract's schema before sending.
 * It submits once: from the first submit until the dialog has closed (or the server refused) the
 * form is locked and a second Enter or click sends nothing. On success the dialog closes; a
 * server refusal naming fields (a 400, a 409 on a taken name) marks those fields, the toast names
 * them by their labels, and the dialog stays open. With unsaved changes, leaving asks first
 * ("Discard changes?"): Esc, a click outside, the close or Cancel button, a link, Back, closing
 * the tab. A short form is a modal; a long one (`long`) a side panel, full screen on a phone,
 * which an outside click never closes. Either way the buttons stay in view while the fields scroll.
 *
 * Editing a row (`version` given, API.md "Versions"): the save sends `If-Match` with the version
 * the form was opened at (onSubmit's `ifMatch`). Should someone have changed the row since, the
 * server changes nothing and the form keeps everything typed and shows who changed it, when, and
 * each field where what was typed differs from what they stored, with "Keep mine" / "Take
 * theirs"; "Save merged" then sets the chosen values and saves again on the row's new version. A
 * row deleted meanwhile is said so; nothing can be saved.
 *
 * With `draft` (long forms), what is typed is kept in this browser per account, form and row
 * (lib/drafts.ts) and offered back when the form opens again; saving or discarding forgets it.
 */
export function FormDialog<S extends z.ZodType<FieldValues, FieldValues>>(props: {
  opened: boolean;
  onClose: () => void;
  title: string;
  schema: S;
  defaultValues: DefaultValues<z.input<S>>;
  /** Sends the values; `ifMatch` is the row version to send as If-Match (editing a row). */
  onSubmit: (values: z.output<S>, change: { ifMatch: number | undefined }) => Promise<unknown>;
  /** Editing a row: its version when the form was opened (the form's defaultValues come from it). */
  version?: number | undefined;
  /**
   * The form's values for a row as the server answers it (a conflict's row as stored now), for
   * the fields whose form value is not the row's same-named key as it is; merged over that default.
   */
  toValues?: (row: Values) => Partial<z.input<S>>;
  /** Keep a draft of what is typed (long forms): the form's name and the row's id (none: new). */
  draft?: DraftKey | undefined;
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
  const [files, setFiles] = useState(0);
  const context = useMemo<FormDialogContextValue>(
    () => ({
      schema,
      registerLabel: (name, label) => {
        labels.current.set(name, label);
        return () => void labels.current.delete(name);
      },
      registerFile: () => {
        setFiles((n) => n + 1);
        return () => setFiles((n) => n - 1);
      },
    }),
    [schema],
  );

  // What each opening starts from: the row's version and values, and the draft kept, if any.
  const draftKey = props.draft ? draftStorageKey(props.draft) : null;
  const opening = () => ({
    base: { version: props.version, values: defaultValues as Values },
    offer: draftKey ? drafts.read(draftKey) : undefined,
  });
  const [base, setBase] = useState<Base>(() => opening().base);
  const [shown, setShown] = useState<Shown | null>(null);
  const [offer, setOffer] = useState<{ draft: Draft; restored: boolean } | null>(() => {
    const draft = opened ? opening().offer : undefined;
    return draft ? { draft, restored: false } : null;
  });
  // Set once the form's work is saved or thrown away: nothing more is kept as a draft.
  const finished = useRef(false);

  // Each opening starts unlocked, not asking, on the row as opened.
  const [wasOpened, setWasOpened] = useState(opened);
  if (opened !== wasOpened) {
    setWasOpened(opened);
    if (opened) {
      const start = opening();
      setLocked(false);
      setAsking(false);
      setShown(null);
      setBase(start.base);
      setOffer(start.offer ? { draft: start.offer, restored: false } : null);
    }
  }
  // Reset only when the dialog opens, with the values it opens with.
  const resetForm = useEffectEvent(() => {
    form.reset(defaultValues);
    lock.current = false;
    finished.current = false;
  });
  useEffect(() => {
    if (opened) resetForm();
  }, [opened]);

  // The draft: kept DRAFT_DELAY_MS after typing pauses while the form holds changes (forgotten
  // when it holds none again), and at once when the page goes (a reload, a closed tab) or the form
  // is unmounted open (a sign-out). Not while a kept draft is offered: that one stays until the
  // person restores or discards it.
  const baseNow = useEffectEvent(() => base);
  const offering = offer !== null && !offer.restored;
  useEffect(() => {
    if (!opened || !draftKey || offering) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const keep = () => {
      clearTimeout(timer);
      timer = undefined;
      if (finished.current) return;
      if (!form.formState.isDirty) return drafts.clear(draftKey);
      drafts.write(draftKey, {
        values: form.getValues(),
        base: baseNow().values,
        version: baseNow().version,
      });
    };
    const unsubscribe = form.subscribe({
      formState: { values: true },
      callback: () => {
        clearTimeout(timer);
        timer = setTimeout(keep, DRAFT_DELAY_MS);
      },
    });
    const flush = () => timer !== undefined && keep();
    window.addEventListener('pagehide', flush);
    return () => {
      unsubscribe();
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [opened, draftKey, offering, form]);

  const finish = () => {
    finished.current = true;
    drafts.clear(draftKey);
  };

  const restore = () => {
    if (!offer) return;
    const { draft } = offer;
    for (const [name, value] of Object.entries(draft.values)) {
      form.setValue(name as Path<z.input<S>>, value as PathValue<z.input<S>, Path<z.input<S>>>, {
        shouldDirty: true,
      });
    }
    // Saved on the draft's own version: a row changed since shows its differences as a conflict.
    setBase({ version: draft.version ?? props.version, values: draft.base });
    setOffer({ draft, restored: true });
  };
  const dropDraft = () => {
    drafts.clear(draftKey);
    setOffer(null);
  };

  const toValues = (row: Values): Values => ({
    ...pickValues(row, defaultValues),
    ...(props.toValues?.(row) as Values | undefined),
  });
  /** The fields that differ between what was typed and what someone else stored since. */
  const differing = (conflict: Conflict, openedWith: Values): ConflictField[] => {
    if (!conflict.current) return [];
    const mine = form.getValues() as Values;
    const theirs = toValues(conflict.current);
    return Object.keys(theirs)
      .filter((name) => labels.current.has(name) || name in mine)
      .filter((name) => !same(theirs[name], openedWith[name]) && !same(mine[name], theirs[name]))
      .map((name) => ({
        name,
        label: labels.current.get(name) ?? name,
        mine: mine[name],
        theirs: theirs[name],
        // A field left as it was opened takes their change; one typed into keeps what was typed.
        choice: same(mine[name], openedWith[name]) ? 'theirs' : 'mine',
      }));
  };

  const unlock = () => {
    lock.current = false;
    setLocked(false);
  };
  const send = (ifMatch: number | undefined, openedWith: Values) => {
    lock.current = true;
    setLocked(true);
    void form.handleSubmit(async (values) => {
      try {
        await props.onSubmit(values, { ifMatch });
        finish();
        // Stays locked until the dialog opens again.
        props.onClose();
      } catch (err) {
        const conflict = conflictOf(err);
        if (conflict && !conflict.stale && ifMatch !== undefined) {
          // Shown by the form itself, not as a toast.
          markShown(err);
          setShown({ conflict, fields: differing(conflict, openedWith) });
        } else {
          // Said on the fields the form shows, and then not again in a toast.
          markFieldErrors(err, form.setError, (field) => labels.current.has(field));
          // A bulk call's conflict: its toast says which rows and that the list is refreshed.
          toastError(err, labels.current, conflict ? conflictText(err) : undefined);
        }
        unlock();
      }
    }, unlock)();
  };
  /** Sets the values chosen in the conflict, then saves them on the row's version now. */
  const saveMerged = (conflict: Shown) => {
    const current = conflict.conflict.current;
    if (!current) return;
    for (const f of conflict.fields) {
      if (f.choice !== 'theirs') continue;
      form.setValue(
        f.name as Path<z.input<S>>,
        f.theirs as PathValue<z.input<S>, Path<z.input<S>>>,
        { shouldDirty: true },
      );
    }
    const next: Base = {
      version: typeof current.version === 'number' ? current.version : base.version,
      values: toValues(current),
    };
    setBase(next);
    setShown(null);
    send(next.version, next.values);
  };
  const choose = (name: string, choice: 'mine' | 'theirs') =>
    setShown(
      (s) => s && { ...s, fields: s.fields.map((f) => (f.name === name ? { ...f, choice } : f)) },
    );
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (lock.current) return;
    if (shown) return saveMerged(shown);
    send(base.version, base.values);
  };
  const deleted = shown !== null && shown.conflict.current === null;

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
    finish();
    props.onClose();
  };
  const closeDeleted = () => {
    finish();
    props.onClose();
  };
  const onBlocked = useCallback((blocker: Blocker) => setAsking(blocker), []);
  const onTop = useTopLayer(opened);
  const content = (
    <form onSubmit={submit} noValidate>
      {opened && props.presence && <LiveFormNotice target={props.presence} />}
      <Stack>
        {offer && (
          <DraftNotice
            savedAt={offer.draft.savedAt}
            moved={
              props.version !== undefined &&
              offer.draft.version !== undefined &&
              offer.draft.version !== props.version
            }
            files={files > 0}
            restored={offer.restored}
            onRestore={restore}
            onDiscard={dropDraft}
          />
        )}
        {shown && (
          <ConflictPanel
            conflict={shown.conflict}
            fields={shown.fields}
            onChoose={choose}
            onClose={closeDeleted}
          />
        )}
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
          <Button type="submit" loading={locked} disabled={deleted}>
            {shown && !deleted ? 'Save merged' : props.submitLabel}
          </Button>
        </Group>
      </Box>
    </form>
  );
  const shared = {
    opened,
    onClose: close,
    title: props.title,
    // Only on top: not while a panel opened from it (History) or its question is over it.
    closeOnEscape: !locked && !asking && onTop,
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
