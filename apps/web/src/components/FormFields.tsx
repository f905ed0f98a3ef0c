/**
 * Fields bound to the surrounding dialog's form (FormDialog provides it): FormController for any
 * input, and the inputs several areas' dialogs share. Each notes its label for the dialog.
 */
import { useEffect, useEffectEvent, type ReactElement, type ReactNode } from 'react';
import {
  PasswordInput,
  Text,
  TextInput,
  Textarea,
  type PasswordInputProps,
  type TextInputProps,
  type TextareaProps,
} from '@mantine/core';
import {
  Controller,
  useController,
  useFormContext,
  useFormState,
  useWatch,
  type ControllerProps,
  type FieldPath,
  type FieldValues,
} from 'react-hook-form';
import { useFormDialogField, useFormDialogFile } from './form-context';
import { ImageField } from './ImageField';
import { LazyRichTextField } from './LazyRichTextField';
import { MasterAppSelect } from './MasterAppSelect';
import { usePasswordHint, type PasswordOwner } from './PasswordStrength';

type TextFieldProps = {
  name: string;
  label: string;
  /** The most characters taken; the form schema's `.max()` when not given. */
  max?: number;
};
type Owned = 'name' | 'label' | 'error' | 'maxLength' | 'value' | 'defaultValue' | 'onChange';

/** What a FormController's `render` is given: Controller's field and state, and the label. */
type BoundField<T extends FieldValues, N extends FieldPath<T>> = Parameters<
  ControllerProps<T, N>['render']
>[0] & { label: string };

/**
 * react-hook-form's Controller for a field of a FormDialog, with the label it shows: noted for
 * the dialog (a server message naming the field names it by this label, not "masterAppId") and
 * handed to `render` for the input, so it is written once. Every field of a FormDialog that is
 * not a text field (TextFormField) is bound through it.
 */
export function FormController<
  T extends FieldValues = FieldValues,
  N extends FieldPath<T> = FieldPath<T>,
  TTransformed = T,
>(
  props: Omit<ControllerProps<T, N, TTransformed>, 'render'> & {
    label: string;
    render: (bound: BoundField<T, N>) => ReactElement;
  },
) {
  const { label, render, ...controller } = props;
  useFormDialogField(props.name, label);
  return <Controller {...controller} render={(bound) => render({ ...bound, label })} />;
}

/**
 * A text field's limit: typing or pasting past it is never cut short; a counter under the input
 * says how many characters are used of how many (the value's length, which the schema's `.max()`
 * counts), red past the limit, and the schema's message shows at once. Also its label (noted for
 * the dialog) and its error, for the input.
 */
function useTextLimit(props: TextFieldProps) {
  const { control, trigger, getFieldState, formState } = useFormContext();
  const { maxLength } = useFormDialogField(props.name, props.label);
  const max = props.max ?? maxLength;
  const value: unknown = useWatch({ control, name: props.name });
  const length = typeof value === 'string' ? value.length : 0;
  const over = max !== undefined && length > max;
  // Past the limit the message shows without waiting for the field to lose focus, and goes when
  // the text is short enough again: checked when the limit is crossed.
  const check = useEffectEvent(() => {
    if (over || getFieldState(props.name).error) void trigger(props.name);
  });
  useEffect(() => check(), [over]);
  const counter = (input: ReactNode) => (
    <>
      {input}
      {max !== undefined && (
        <Text size="xs" ta="right" mt={2} c={over ? 'var(--mantine-color-error)' : 'dimmed'}>
          {`${length.toLocaleString('en')} / ${max.toLocaleString('en')}`}
        </Text>
      )}
    </>
  );
  return {
    label: props.label,
    error: getFieldState(props.name, formState).error?.message,
    inputContainer: counter,
  };
}

/** The binding of a text input with a limit: registered with the form, its limit shown. */
function useLimitedText(props: TextFieldProps) {
  const { register } = useFormContext();
  const limit = useTextLimit(props);
  return { ...register(props.name), ...limit };
}

/** A one-line text input bound to the surrounding dialog's form, with its limit shown. */
export function TextFormField(props: TextFieldProps & Omit<TextInputProps, Owned>) {
  const { name, label, max, ...rest } = props;
  return <TextInput {...rest} {...useLimitedText({ name, label, max })} />;
}

/** A text area bound to the surrounding dialog's form, with its limit shown. */
export function TextareaFormField(props: TextFieldProps & Omit<TextareaProps, Owned>) {
  const { name, label, max, ...rest } = props;
  return <Textarea {...rest} {...useLimitedText({ name, label, max })} />;
}

/**
 * Rich text (the editor's HTML) bound to the surrounding dialog's form, with its limit shown as a
 * text field's is: the server limits the HTML as sent, markup included, so that is what counts.
 */
export function RichTextFormField(props: {
  name: string;
  label: string;
  description?: string;
  required?: boolean;
}) {
  const { name, label, ...rest } = props;
  const { field } = useController({ name });
  const limit = useTextLimit({ name, label });
  return (
    <LazyRichTextField
      {...rest}
      {...limit}
      value={typeof field.value === 'string' ? field.value : ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
    />
  );
}

/** A password, bound to the surrounding dialog's form. */
export function PasswordFormField(
  props: { name: string; label: string } & Omit<PasswordInputProps, Owned>,
) {
  const { name, label, ...rest } = props;
  return (
    <FormController
      name={name}
      label={label}
      render={({ field, fieldState }) => (
        <PasswordInput
          {...rest}
          {...field}
          label={label}
          value={typeof field.value === 'string' ? field.value : ''}
          error={fieldState.error?.message}
          // Mantine's PasswordInput marks only data-invalid; screen readers need aria-invalid.
          aria-invalid={fieldState.invalid || undefined}
        />
      )}
    />
  );
}

/**
 * A new password, bound to the surrounding dialog's form, with its strength shown as it is typed
 * for `owner` (whose email, name and phone it must not be built from). `description` states the
 * rule; the server's refusal of a weak one shows on the field.
 */
export function NewPasswordFormField(
  props: { name: string; label: string; owner: PasswordOwner; description: string } & Omit<
    PasswordInputProps,
    Owned | 'description' | 'inputContainer' | 'inputWrapperOrder'
  >,
) {
  const { owner, description, ...rest } = props;
  const value: unknown = useWatch({ name: props.name });
  const { errors } = useFormState({ name: props.name });
  const error = errors[props.name]?.message;
  const hint = usePasswordHint(
    typeof value === 'string' ? value : '',
    owner,
    description,
    typeof error === 'string' ? error : undefined,
  );
  return <PasswordFormField {...rest} {...hint} />;
}

/** An image to upload; `progress` is shown while the form is being sent with a file chosen. */
export function ImageFormField(props: {
  name: string;
  label: string;
  required?: boolean;
  /** The image already stored. */
  current?: string | null;
  progress?: number;
}) {
  const { formState } = useFormContext();
  useFormDialogFile();
  return (
    <FormController
      name={props.name}
      label={props.label}
      render={({ field, fieldState, label }) => (
        <ImageField
          label={label}
          required={props.required}
          current={props.current}
          value={(field.value as File | undefined) ?? null}
          onChange={(file) => field.onChange(file ?? undefined)}
          error={fieldState.error?.message}
          progress={formState.isSubmitting && field.value ? props.progress : undefined}
          disabled={formState.isSubmitting}
        />
      )}
    />
  );
}

/** The master app a new row belongs to (its id as a string). */
export function MasterAppFormField(props: { name?: string; description?: string }) {
  return (
    <FormController
      name={props.name ?? 'masterAppId'}
      label="Master app"
      render={({ field, fieldState, label }) => (
        <MasterAppSelect
          label={label}
          value={(field.value as string | undefined) ?? ''}
          onChange={field.onChange}
          required
          clearable={false}
          placeholder="Choose the app"
          description={props.description}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}
