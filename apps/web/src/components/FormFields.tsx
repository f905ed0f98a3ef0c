/**
 * Fields bound to the surrounding dialog's form (FormDialog provides it), for the inputs several
 * areas' dialogs share.
 */
import { useEffect, useEffectEvent, type ReactNode } from 'react';
import { Text, TextInput, Textarea, type TextInputProps, type TextareaProps } from '@mantine/core';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import { useFormDialogField } from './form-context';
import { ImageField } from './ImageField';
import { MasterAppSelect } from './MasterAppSelect';

type TextFieldProps = {
  name: string;
  label: string;
  /** The most characters taken; the form schema's `.max()` when not given. */
  max?: number;
};
type Owned = 'name' | 'label' | 'error' | 'maxLength' | 'value' | 'defaultValue' | 'onChange';

/**
 * The binding of a text field with a limit: typing or pasting past it is never cut short; a
 * counter under the input says how many characters are used of how many, red past the limit, and
 * the schema's message shows at once.
 */
function useLimitedText(props: TextFieldProps) {
  const { register, control, trigger, getFieldState, formState } = useFormContext();
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
    ...register(props.name),
    label: props.label,
    error: getFieldState(props.name, formState).error?.message,
    inputContainer: counter,
  };
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

/** An image to upload; `progress` is shown while the form is being sent with a file chosen. */
export function ImageFormField(props: {
  name: string;
  label: string;
  required?: boolean;
  /** The image already stored. */
  current?: string | null;
  progress?: number;
}) {
  const { control, formState } = useFormContext();
  useFormDialogField(props.name, props.label);
  return (
    <Controller
      control={control}
      name={props.name}
      render={({ field, fieldState }) => (
        <ImageField
          label={props.label}
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
  const { control } = useFormContext();
  const name = props.name ?? 'masterAppId';
  useFormDialogField(name, 'Master app');
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <MasterAppSelect
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
